'''Physical limits of a partition: ceilings and floors
(microbench.suite.limits).'''

from types import SimpleNamespace

from microbench.suite import limits
from microbench.suite.stats import Samples


def partition(**extras):
    '''What the limits read of a ReFrame partition: its extras and name.'''
    return SimpleNamespace(extras=extras, fullname='site:part')


def test_a_figure_above_a_ceiling():
    part = partition(ceilings={'network_bandwidth_mib_s': 11921})
    message = limits.violation(Samples([9000, 12500], 'MiB/s'), part,
                               'network_bandwidth_mib_s')
    assert message == ('12500 MiB/s exceeds the network bandwidth ceiling of '
                       'site:part (11921 MiB/s): a shared-memory path or a '
                       'broken measurement, not the network')
    assert limits.violation(Samples([9000, 11000], 'MiB/s'), part,
                            'network_bandwidth_mib_s') is None


def test_a_latency_below_a_floor():
    part = partition(floors={'network_latency_us': 0.5})
    message = limits.violation(Samples([0.21, 1.3], 'us'), part,
                               'network_latency_us')
    assert message.startswith('0.21 us is below the network latency floor of '
                              'site:part (0.5 us): a shared-memory path')
    assert limits.violation(Samples([0.6], 'us'), part,
                            'network_latency_us') is None


def test_storage_per_node_and_no_limit():
    part = partition(ceilings={'storage_write_mib_s': 1000})
    message = limits.violation(Samples([1500], 'MiB/s'), part,
                               'storage_write_mib_s', per_node=True)
    assert 'storage write (per node) ceiling' in message
    assert limits.violation(Samples([1e9], 'MiB/s'), partition(),
                            'storage_write_mib_s') is None
