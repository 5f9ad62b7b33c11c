'''Component limits (microbench/components.py, microbench/suite/node.py,
microbench/suite/limits.py): the limits files, the node's facts as the
jobs recorded them, and every figure's share of its limit.'''

import json
from types import SimpleNamespace

import pytest
import yaml

from microbench import components
from microbench.suite import limits, node, records
from microbench.suite.output import OutputError
from microbench.suite.stats import Samples
from microbench.verdicts import figures

from fixtures import path


def facts(name):
    '''The node facts a real job recorded (tests/data/node/).'''
    with open(path(f'node/{name}')) as fp:
        recs = records.parse(fp.read())
    return {key: values[0] for key, values in recs.items()}


# -- the node's facts, as real jobs recorded them ---------------------------

def test_the_facts_of_this_vm():
    found = facts('vm-facts.out')
    assert node.count(found['node_cpus'], 'cores') == 2
    assert node.numa_domains(found['node_numa']) == 1
    assert 23 < node.memory_gib(found['node_memory']) < 24
    nics = node.nics(found['node_nic_speeds'], found['node_virtual_nics'])
    # virtio says -1: unknown; lo and the ifb devices cannot say
    assert {n['name']: (n['speed'], n['virtual']) for n in nics} == {
        'eth0': (None, False), 'ifb0': (None, True), 'ifb1': (None, True),
        'lo': (None, True)}
    rate, said = node.line_rate(nics, node.ib_ports(found['node_ib_rates']))
    assert rate is None
    assert 'no physical link reports its rate' in said
    assert 'eth0' in said


def test_a_veth_speed_is_not_a_line_rate():
    found = facts('mbnode1-facts.out')
    nics = node.nics(found['node_nic_speeds'], found['node_virtual_nics'])
    veth = [n for n in nics if n['virtual'] and n['speed']]
    assert veth and all(n['speed'] == 10000 for n in veth)
    rate, said = node.line_rate(nics, {})
    assert rate is None
    assert 'memory copies' in said and '10000 Mb/s' in said


@pytest.mark.parametrize('fact, text', [
    ('node_cpus', ''), ('node_cpus', '0'), ('node_cpus', '2 cores'),
    ('node_numa', 'ls: cannot access'),
    ('node_numa', ''), ('node_numa', '/sys/devices/system/node/node0,'),
    ('node_memory', 'MemTotal:       24684084'),
    ('node_memory', 'MemFree:        1 kB'),
])
def test_a_fact_that_is_not_one_is_rejected(fact, text):
    read = {'node_cpus': lambda t: node.count(t, 'cores'),
            'node_numa': node.numa_domains,
            'node_memory': node.memory_gib}[fact]
    with pytest.raises(OutputError):
        read(text)


def test_the_facts_commands_fit_the_perflog():
    # they are the node check's command_line, a field of the perflog
    # ('|'-separated), and are expanded when the job declares them
    for name, command in node.FACTS.items():
        assert '|' not in command and '${' not in command, name


def test_a_cut_nic_line_is_rejected():
    found = facts('vm-facts.out')['node_nic_speeds']
    with pytest.raises(OutputError, match='NIC speeds'):
        node.nics(found[:found.index(':')], '')
    with pytest.raises(OutputError, match='InfiniBand'):
        node.ib_ports(found)


# -- the limits files ------------------------------------------------------

def committed():
    with open(components.path_of('local')) as fp:
        return fp.read()


def test_the_committed_limits_load():
    found = components.parse(committed())
    limits_ = found['default']['limits']
    assert set(limits_) >= {'storage_write_mib_s', 'storage_read_mib_s',
                            'storage_randwrite_iops',
                            'storage_randread_iops', 'memory_read_mib_s',
                            'tmpfs_iops'}
    assert found['default']['node']['cores'] >= 1


@pytest.mark.parametrize('change, said', [
    (lambda e: e['limits']['storage_write_mib_s'].update(min=1e9),
     'min <= median <= max'),
    (lambda e: e['limits']['storage_write_mib_s'].update(unit='MB/s'),
     'unit'),
    (lambda e: e['limits'].update(storage_fast=e['limits'].pop(
        'storage_write_mib_s')), 'unknown limit'),
    (lambda e: e['limits']['tmpfs_iops'].pop('max'), 'exactly'),
    (lambda e: e['limits']['tmpfs_iops'].update(median=float('nan')),
     'positive numbers'),
    (lambda e: e['node'].update(cores=True), 'node fact'),
    (lambda e: e.update(extra=1), 'unknown keys'),
])
def test_a_limits_file_that_is_not_one_is_rejected(change, said):
    data = yaml.safe_load(committed())
    change(data['default'])
    with pytest.raises(components.LimitsError, match=said):
        components.parse(yaml.safe_dump(data))


def test_a_limits_file_runs_no_code():
    text = '!!python/object/apply:os.system ["true"]\n'
    with pytest.raises(components.LimitsError, match='not YAML'):
        components.parse(text)
    with pytest.raises(components.LimitsError, match='not YAML'):
        components.parse(committed()[:-40] + '\n  {[')


def test_local_limits_apply_only_where_measured():
    entry = components.parse(committed())['default']
    host = entry['measured']['nodes']
    assert components.applies(entry, host)
    assert not components.applies(entry, host + '-other')


# -- a figure's share of its limit -----------------------------------------

def real_figure(check, variant):
    '''The samples of the median figure of ``check`` ``variant`` in the
    real quick session of every check (tests/data/results).'''
    with open(path('results/all-quick.json')) as fp:
        frame = figures.frame([json.load(fp)])
    row = frame[(frame['check'] == check) & (frame['variant'] == variant)
                & frame['figure'].str.contains('_median_')].iloc[0]
    return Samples(row['samples'], row['unit'])


def variant_check(name, samples, limit, cached=False, demoted=True):
    '''A variant check's figure ``name``: ``cached`` and ``demoted``
    (reported as ``<name>_cache_*``, as IOR and elbencho report a cache
    figure) or kept under its name (fio's page-cache variants).'''
    entry = components.parse(committed())['default']
    partition = SimpleNamespace(extras={'measured': entry},
                                fullname='local:default')
    reported = f'{name}_cache' if cached and demoted else name
    return SimpleNamespace(limits={name: limit}, figures={name: samples},
                           cached={name} if cached else set(),
                           perf_variables={
                               f'{reported}_{stat}_mib_s': None
                               for stat in ('median', 'min', 'max')},
                           current_partition=partition, nodes=1)


def test_a_storage_figure_beyond_its_limit_is_flagged():
    # IOR's read of its own data, from the page cache: as a storage read
    # it is far beyond what the device reads
    read = real_figure('ior_page_cache', 'easy.none')
    check = variant_check('read', read, 'storage_read_mib_s')
    (figure, name, value, share, beyond, _), = limits.shares(
        check, lambda _: False)
    assert figure == 'read_median_mib_s'
    assert name == 'storage_read_mib_s (measured)'
    assert share == pytest.approx(100 * read.median / value)
    assert share > 100 and beyond
    note = limits.beyond_note(figure, name, share, False)
    assert 'too good to be true' in note


def test_a_cache_figure_is_held_against_the_memory_ceiling():
    read = real_figure('ior_page_cache', 'easy.none')
    check = variant_check('read', read, 'storage_read_mib_s', cached=True)
    (figure, name, value, share, beyond, _), = limits.shares(
        check, lambda _: False)
    assert figure == 'read_cache_median_mib_s'
    assert name == 'memory_read_mib_s (measured)'
    assert share < 100 and not beyond


def test_a_cache_variant_keeps_its_figure_name():
    # fio_cache_flags' buffered writes: a page-cache figure by design,
    # reported as write_median_mib_s, held against the write limit
    write = real_figure('fio_cache_flags', 'buffered')
    check = variant_check('write', write, 'storage_write_mib_s',
                          cached=True, demoted=False)
    (figure, name, value, share, _, cached), = limits.shares(
        check, lambda _: False)
    assert figure == 'write_median_mib_s'
    assert name == 'storage_write_mib_s (measured)'
    assert share == pytest.approx(100 * write.median / value)
    # beyond its limit, its note would call it a cache figure
    assert cached


def test_a_latency_is_a_share_of_its_floor():
    assert components.share(2.0, 1.0, 'floor') == 50
    assert components.share(1.0, 2.0, 'ceiling') == 50
    stats = {'median': 10.0, 'min': 9.0, 'max': 11.0}
    assert not components.beyond(110, stats, 'ceiling')
    assert components.beyond(111, stats, 'ceiling')
    assert components.beyond(112, stats, 'floor')
