'''Component limits (microbench/components.py, microbench/suite/node.py,
microbench/suite/limits.py): the limits files, the node's facts as the
jobs recorded them, and every figure's share of its limit.'''

import copy
import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench import components, limitsfile
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


# -- where measured limits apply -------------------------------------------

def committed():
    with open(limitsfile.path_of('local')) as fp:
        return fp.read()


def local_entry(machine='0123456789abcdef', cores=2, memory_gib=23.54):
    '''The committed local default's entry, measured on ``machine``.'''
    entry = copy.deepcopy(limitsfile.parse(committed())['default'])
    entry['measured']['machine'] = machine
    entry['node'].update(cores=cores, memory_gib=memory_gib)
    return entry


def limits_of(**entries):
    return limitsfile.Limits('local.yaml', entries=entries)


HERE = components.Machine('0123456789abcdef', 2, 23.5)


def test_a_local_entry_applies_on_its_machine_only():
    found = limits_of(default=local_entry())
    assert components.in_force_here(found, 'default', True, HERE) == \
        found.entries['default']
    for here, reason in (
            (HERE._replace(identity='fedcba9876543210'),
             components.ELSEWHERE),
            (HERE._replace(identity=None), components.ANONYMOUS),
            (HERE._replace(cores=4), components.RESIZED),
            (HERE._replace(memory_gib=16.0), components.RESIZED)):
        assert components.in_force_here(found, 'default', True, here) == \
            {'withheld': reason}, here
    # MemTotal moves by megabytes with a kernel: the same machine
    assert 'limits' in components.in_force_here(
        found, 'default', True, HERE._replace(memory_gib=23.3))


def test_the_local_default_says_it_has_none():
    entry = local_entry()
    del entry['measured']['machine']      # a file of version 1
    assert components.in_force_here(limits_of(default=entry), 'default',
                                    True, HERE) == {
        'withheld': components.UNRECORDED}
    assert components.in_force_here(limits_of(), 'default', True, HERE) == \
        {'withheld': components.NONE}


def test_a_facility_partition_is_not_bound():
    # its entry names its nodes; the jobs run there, not on this machine
    found = limits_of(nvme=local_entry(machine='fedcba9876543210'))
    assert 'limits' in components.in_force_here(found, 'nvme', False, HERE)
    assert components.in_force_here(found, 'gpfs', False, HERE) is None
    assert components.bound({'scheduler': 'local'})
    assert not components.bound({'scheduler': 'slurm'})


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.sampled_from([None, '0123456789abcdef', 'fedcba9876543210']),
       st.sampled_from([None, '0123456789abcdef', 'fedcba9876543210']),
       st.sampled_from([None, 1, 2]), st.sampled_from([None, 2]),
       st.sampled_from([None, 16.0, 23.54]),
       st.sampled_from([None, 23.5]), st.booleans(),
       st.sampled_from(['entry', 'none', 'rejected', 'whole']))
def test_measured_limits_never_apply_elsewhere(
        measured_on, here_id, cores, here_cores, memory, here_memory,
        is_bound, state):
    entry = local_entry()
    entry['measured'].pop('machine')
    if measured_on:
        entry['measured']['machine'] = measured_on
    entry['node'] = {k: v for k, v in (('cores', cores),
                                       ('memory_gib', memory)) if v}
    found = limitsfile.Limits('local.yaml')
    if state == 'entry':
        found.entries['default'] = entry
    elif state == 'rejected':
        found.rejected['default'] = 'local.yaml: default: not a mapping'
    elif state == 'whole':
        found.whole = 'local.yaml: not YAML'
    here = components.Machine(here_id, here_cores, here_memory)
    got = components.in_force_here(found, 'default', is_bound, here)
    if got is None:
        assert state == 'none' and not is_bound
    elif 'withheld' in got:
        assert got['withheld'] in components.WITHHELD
    else:
        assert got is entry and state == 'entry'
        if is_bound:
            # the one property: where it applies, it was measured here
            assert measured_on is not None and measured_on == here_id
            assert not (cores and here_cores) or cores == here_cores
            assert not (memory and here_memory) or \
                abs(memory / here_memory - 1) <= 0.02


def test_a_machine_identity(tmp_path):
    first, second = tmp_path / 'a', tmp_path / 'b'
    first.write_text('3d1219c7c4c5404aaa1f6d2a48adfda4\n')
    second.write_text('0d1219c7c4c5404aaa1f6d2a48adfda4\n')
    found = components.identity([str(first)])
    assert components.IDENTITY.fullmatch(found)
    # the ID itself is not in it (machine-id(5): keep it on the machine)
    assert found not in '3d1219c7c4c5404aaa1f6d2a48adfda4'
    assert found == components.identity([str(tmp_path / 'none'),
                                         str(first)])
    assert found != components.identity([str(second)])
    (tmp_path / 'c').write_text('uninitialized\n')
    assert components.identity([str(tmp_path / 'c')]) is None
    assert components.identity([str(tmp_path / 'none')]) is None


def test_this_machine():
    here = components.this_machine()
    assert here.cores == len([line for line in open('/proc/cpuinfo')
                              if line.startswith('processor')])
    assert 0 < here.memory_gib < 2**20


@pytest.mark.parametrize('reason', sorted(components.WITHHELD))
def test_a_withheld_label_survives_the_records(reason):
    # a record field is <figure>=<limit> joined by ';' in a '|' perflog
    assert not set(reason) & set(';=|()\n')
    label = components.withheld_label('storage_write_mib_s', reason)
    record = f'write_median_mib_s={label};read_median_mib_s=x (measured)'
    name, = [item.partition('=')[2] for item in record.split(';')
             if item.startswith('write_')]
    assert components.withheld_reason(name) == reason
    assert components.withheld_reason('storage_write_mib_s (measured)') \
        is None
    said = components.withheld_text('local', 'default', reason, 3)
    assert said.startswith(f'No share of a measured limit on local:default '
                           f'(3 figures): {reason}; ')
    assert '\n' not in said


def test_the_fix_says_how_to_measure_here():
    said = components.fix(components.ELSEWHERE, 'local:default')
    assert said == ("measure them here: reframe -c reframe_tests -n "
                    "'^component_limits' -r --system local:default, then "
                    "microbench limits --partition local:default --write")
    assert components.fix('a reason of a later version', 'x:y') is None


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
    entry = limitsfile.parse(committed())['default']
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
