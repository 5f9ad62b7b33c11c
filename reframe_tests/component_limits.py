'''A0. Component limits: what the hardware under every figure can do.

Kuhn, "Performance Analysis" (the limits of tmpfs, network and device,
measured, then the benchmark as a share of them); GWDG ("peak 37.14 GiB/s,
so 91 % of peak achieved").  A figure alone does not say whether a machine
is healthy: 1.2 GiB/s of O_DIRECT writes is fine on one device and a fault
on another.  These checks measure a partition's limits from one node, in
the shape that reaches each component rather than a pitfall's:

- storage: sequential O_DIRECT write and read peaks and 4 KiB random
  O_DIRECT IOPS through the partition's scratch;
- memory, the ceiling of anything cached: a buffered read of files in the
  page cache, 4 KiB random writes to tmpfs;
- network, between two nodes: osu_bw at large messages and osu_latency at
  small ones, from many buffers (their realistic form);
- the node: cores, NUMA domains, memory, its fastest link's line rate and
  the fabric providers.

``microbench limits --partition SYS:PART --write`` keeps the medians as
the partition's measured limits (systems/limits/), and every other figure
then carries its share of its limit (microbench/components.py).
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, run_after, variable

from microbench.suite import launchers, node
from microbench.tools.fio.limits import LimitsRounds, LimitsVariantCheck
from microbench.tools.osu import OsuRounds, OsuVariantCheck


class component_limits_rounds(LimitsRounds):
    '''fio's best shapes on the scratch, the page cache and tmpfs; the
    node's facts.'''

    def facts(self):
        return dict(node.FACTS)


@rfm.simple_test
class component_limits(LimitsVariantCheck):
    '''One storage or memory limit of the partition.'''

    #: ``write``, ``read`` (sequential O_DIRECT, MiB/s), ``randwrite``,
    #: ``randread`` (4 KiB random O_DIRECT, IOPS), ``cached_read`` (the
    #: page cache, MiB/s), ``tmpfs`` (4 KiB random writes to /dev/shm,
    #: IOPS).
    component = parameter(component_limits_rounds.variants)
    knob = 'component'
    rounds = fixture(component_limits_rounds, scope='environment')
    witnesses = ('residency', 'data_to_memory', 'cold_start')


@rfm.simple_test
class component_limits_node(node.NodeCheck):
    '''What the node of the storage limits is.'''

    rounds = fixture(component_limits_rounds, scope='environment')
    witnesses = ()


class component_limits_network_rounds(OsuRounds):
    '''osu_bw at ``bandwidth_size`` and osu_latency at ``latency_size``,
    one rank on each of two nodes, from many buffers.'''

    variants = ('osu_bw.multiple', 'osu_latency.multiple')

    #: Message size of the bandwidth limit, bytes.
    #:
    #: :type: :class:`int`
    #: :default: ``4194304``
    bandwidth_size = variable(int, value=4 * 2**20)

    #: Message size of the latency limit, bytes.
    #:
    #: :type: :class:`int`
    #: :default: ``8``
    latency_size = variable(int, value=8)

    def size_of(self, benchmark):
        return (self.bandwidth_size if benchmark == 'osu_bw'
                else self.latency_size)

    def facts(self):
        # Two "nodes" that share one kernel (namespaces, containers) are
        # one host to MPI and UCX: their messages go through shared memory
        return {'kernels': self.two_ranks(
            'cat', '/proc/sys/kernel/random/boot_id') + ' | sort -u | wc -l'}

    @run_after('setup')
    def two_nodes(self):
        self.skip_if(
            launchers.flavour(self.current_partition) == 'local',
            'one node: two ranks would meet in shared memory, not on the '
            'network, so no network limit is measured')


@rfm.simple_test
class component_limits_network(OsuVariantCheck):
    '''The network's bandwidth or latency limit between two nodes.'''

    #: ``osu_bw`` (MiB/s at large messages) or ``osu_latency`` (us at
    #: small ones).
    benchmark = parameter(['osu_bw', 'osu_latency'])
    #: Many buffers: the realistic form (osu_buffer_reuse)
    buffer = parameter(['multiple'])
    knob = ('benchmark', 'buffer')
    rounds = fixture(component_limits_network_rounds, scope='environment')
    witnesses = ('one_kernel', 'cold_start')

    def judge(self, runs, recs):
        super().judge(runs, recs)
        if self.rounds.records.get('kernels', [''])[0].strip() == '1':
            self.note = '; '.join(filter(None, [self.note, (
                'both nodes share one kernel (one boot id): MPI and UCX '
                'see one host and move the messages through shared '
                'memory, so this is the memory\'s limit, not the '
                'network\'s')]))

