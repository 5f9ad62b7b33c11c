'''Where does bandwidth stop growing?  An IOR scaling sweep.

Nolte et al., "Understanding Storage Performance using Benchmarking"
(GWDG): explore the slope and the scaling limit of IO500's IOR easy shape,
from one node and one process up, instead of guessing how many clients
saturate the storage.

One job holds ``max_nodes`` nodes and runs IOR's easy shape under IO500's
rules (a file per process, 1 MiB transfers, stonewalled writes with ``-e``,
reads of another node's data with ``-C``) at every point of the sweep, nodes
in 1, 2, 4, ... ``max_nodes`` times tasks per node in 1, 2, 4, ...
``max_tasks_per_node``, round-robin.  It reports every point and, for write
and read, the peak and the number of tasks after which the median never grew
by more than ``growth_percent``.  A read on one node comes from its page
cache (``-C`` cannot help there): only multi-node points count for read.

Samples and the Darshan witness of every point run one command, IOR's easy
shape with ``-C -Q 1 -e`` (:func:`microbench.tools.ior.command.build`, as
``ior_page_cache``'s ``easy.reorder_fsync``): ``-Q`` counts nodes in IOR 4,
so every task reads what a task of the next node wrote.  The witness (DXT)
says whose data every read got: a multi-node point whose reads Darshan saw
come from the reading node, or whose nodes share one kernel (one page
cache), reports its read as a cache figure, ``read_cache_n<N>_t<T>_*``,
left out of the read peak and saturation, the note saying why.  So does
one whose residency witness (:mod:`microbench.tools.ior.residency`) found
what it reads in the reading node's page cache before it, and the two
witnesses must agree where both ran (``resident_share`` records every
point's share).

Each peak is then held against the storage under it
(:mod:`microbench.tools.ior.assess`): its share of the partition's
declared aggregate bandwidth, else of its measured one-node limit times
the nodes; and where the partition declares its drives, how far each
saturation point is from ``n x t = k x d`` (drives times a factor per
drive type).
'''

import reframe as rfm

from microbench.tools.ior.sweep import IorSweep


@rfm.simple_test
class ior_scaling(IorSweep):
    '''IOR easy bandwidth over nodes x tasks per node, its peak and where it
    saturates (the sweep: microbench/tools/ior/sweep.py).'''

    reference = {'$ref': 'references/ior.yaml'}
    witnesses = ('darshan', 'residency', 'one_kernel')
