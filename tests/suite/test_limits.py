'''Physical limits of a partition: ceilings and floors, and a measured
limit withheld where it was not measured (microbench.suite.limits).'''

from types import SimpleNamespace

import pytest

from microbench import components
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


# -- a measured limit withheld: no share, and why ---------------------------

def fio_check(extras, write=(1030.0, 1100.0, 980.0)):
    '''A variant check's write figure, as fio_cache_flags' direct variant
    records it, on a partition with ``extras``.'''
    return SimpleNamespace(
        limits={'write': 'storage_write_mib_s'},
        figures={'write': Samples(list(write), 'MiB/s')}, cached=set(),
        perf_variables={f'write_{s}_mib_s': None
                        for s in ('median', 'min', 'max')},
        current_partition=SimpleNamespace(extras=extras,
                                          fullname='local:default'),
        nodes=1)


def test_a_withheld_limit_is_recorded_without_a_share():
    check = fio_check({'measured': {'withheld': components.ELSEWHERE}})
    found = limits.shares(check, lambda _: False)
    assert found == [limits.Share(
        'write_median_mib_s', 'storage_write_mib_s (withheld: its limits '
        'were measured on another machine)', None, None, False, False)]
    limits.record(check, found)
    assert check.limit_name == ('write_median_mib_s=storage_write_mib_s '
                                '(withheld: its limits were measured on '
                                'another machine)')
    assert check.limit_value == check.share_of_limit == ''


def test_a_declared_ceiling_still_holds_where_the_measured_is_withheld():
    check = fio_check({'measured': {'withheld': components.REJECTED},
                       'ceilings': {'storage_write_mib_s': 2060}})
    (share,) = limits.shares(check, lambda _: False)
    assert share.limit == 'storage_write_mib_s (declared)'
    assert share.share == pytest.approx(50)
    limits.record(check, [share])
    assert check.share_of_limit == 'write_median_mib_s=50'


def test_no_entry_no_word():
    # a facility partition without measured limits: nothing said
    assert limits.shares(fio_check({}), lambda _: False) == []
