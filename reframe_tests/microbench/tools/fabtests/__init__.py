'''libfabric fabtests: their output (:mod:`.output`, its result table
:mod:`.table`) and the base classes of fabtests checks (:mod:`.checks`).'''

from microbench.tools.fabtests.output import (  # noqa: F401
    ERRORS, FabtestsRun, cpu_count, parse, parse_cpusets, read_sample)
from microbench.tools.fabtests.checks import (  # noqa: F401
    FabtestsRounds, FabtestsVariantCheck)
