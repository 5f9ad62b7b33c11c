'''S4 for metadata: mdtest rates from the client's cache (mdtest).

Pitfall catalogue S4; IO500's mdtest rules; Kuhn, "Performance Analysis"
(2023).

mdtest creates files, then stats, reads and removes them.  By default a task
stats the files it just created: the client's metadata cache answers, not the
servers.  ``-N 1``, which mdtest multiplies by the tasks per node when they
are placed node by node, hands every task the files of a task on the next
node to stat (mdtest reads at twice the stride: on two nodes a task reads
its own node's files again, and that read rate is reported as a cache
figure).  IO500's easy shape gives every task a directory of its own;
its hard shape puts every file in one shared directory, where the servers
serialise creates.  With every task on one node the stride cannot help: the
stat and read rates are then reported as cache figures, saying why.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.mdtest import MdtestRounds, MdtestVariantCheck

SHAPES = ('easy', 'hard')
STRIDES = ('none', 'node')


class mdtest_metadata_rounds(MdtestRounds):
    '''Create, stat, read and remove ``items`` files per task, in both
    shapes, with and without the stride.'''

    variants = tuple(f'{shape}.{stride}' for shape in SHAPES
                     for stride in STRIDES)


@rfm.simple_test
class mdtest_metadata(MdtestVariantCheck):
    '''File create, stat, read and remove rates of one shape and stride.'''

    #: ``easy`` (a directory per task, empty files) or ``hard`` (one shared
    #: directory, 3901-byte files).
    shape = parameter(SHAPES)

    #: ``none`` (mdtest's default) or ``node`` (``-N 1``, which mdtest
    #: multiplies by the tasks per node).
    stride = parameter(STRIDES)

    knob = ('shape', 'stride')
    rounds = fixture(mdtest_metadata_rounds, scope='environment')
    reference = {'$ref': 'references/mdtest.yaml'}
    witnesses = ('darshan', 'one_kernel', 'cold_start')


@rfm.simple_test
class mdtest_metadata_gap(GapCheck):
    '''How much the client cache flatters metadata rates, and what a shared
    directory costs.'''

    pitfall = mdtest_metadata
    rounds = rounds_of(mdtest_metadata)
    gaps = {
        # Stat of one's own files over another node's
        'easy_stat_none_over_node': ('easy.none', 'easy.node', 'stat'),
        'hard_stat_none_over_node': ('hard.none', 'hard.node', 'stat'),
        # Creates in a directory of one's own over one shared directory
        'create_easy_over_hard': ('easy.node', 'hard.node', 'create'),
    }
    reference = {'$ref': 'references/mdtest.yaml'}
    witnesses = ('cold_start',)
