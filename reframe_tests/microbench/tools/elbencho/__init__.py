'''elbencho: its results file (:mod:`.output`), its console table
(:mod:`.console`) and the base classes of elbencho checks (:mod:`.checks`).'''

from microbench.tools.elbencho.output import (  # noqa: F401
    ERRORS, MOMENTS, PHASES, ElbenchoRun, Moment, command_argv,
    data_bytes, direct_witness, parse)
from microbench.tools.elbencho.console import (  # noqa: F401
    check_console, read_sample)
from microbench.tools.elbencho.checks import (  # noqa: F401
    ElbenchoRounds, ElbenchoVariantCheck)
