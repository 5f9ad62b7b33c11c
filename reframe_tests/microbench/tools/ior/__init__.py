'''IOR: its outputs held to what was asked and to themselves
(:mod:`.output`), the one command builder of every IOR check
(:mod:`.command`), and the base classes of IOR checks (:mod:`.checks`).'''

from microbench.tools.ior.output import (  # noqa: F401
    ERRORS, PHASES, WARNINGS, IorAsked, IorRun, IorStdout, check_stdout,
    data_bytes, parse_stdout, parse_summary, read_sample, unsustained)
from microbench.tools.ior.command import (  # noqa: F401
    DEFENCES, FSYNC, REORDER, IorCommand, asked_of, build, shape_options)
from microbench.tools.ior.checks import (  # noqa: F401
    IorRounds, IorVariantCheck, judge_witness, local_share, sustained,
    witness_logs)
