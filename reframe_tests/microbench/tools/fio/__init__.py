'''fio: its JSON output (:mod:`.output`) and the base classes of fio checks
(:mod:`.checks`).'''

from microbench.tools.fio.output import (  # noqa: F401
    ERRORS, UNPRINTED, FioRun, command, data_bytes, parse, read_sample,
    rejects_odirect)
from microbench.tools.fio.checks import (  # noqa: F401
    FioLogRounds, FioRounds, FioVariantCheck)
