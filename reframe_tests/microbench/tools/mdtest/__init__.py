'''mdtest: its output (:mod:`.output`) and the base classes of mdtest
checks (:mod:`.checks`).'''

from microbench.tools.mdtest.output import (  # noqa: F401
    ERRORS, OPERATIONS, TREE, WARNINGS, MdtestRun, command_argv, parse,
    read_sample)
from microbench.tools.mdtest.checks import (  # noqa: F401
    OPENS_PER_ITEM, MdtestRounds, MdtestVariantCheck)
