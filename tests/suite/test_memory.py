'''The data a storage figure touched over its node's memory
(microbench/suite/memory.py): the ``memory`` record a real job made, each
tool's data from its real outputs (tests/data), the notes at their
edges, a declared client cache, and a check's ``data_to_memory`` field.'''

import shlex
import subprocess
from types import SimpleNamespace

import pytest

from microbench.suite import memory, records
from microbench.suite.output import OutputError
from microbench.suite.stats import Samples
from microbench.tools import elbencho, fio, ior
from microbench.units import GIB, MIB

from fixtures import command, path, text


def recorded(name):
    '''The ``memory`` record of a real job's output (tests/data/node/).'''
    with open(path(f'node/{name}')) as fp:
        return records.parse(fp.read())[memory.RECORD][0]


#: This VM's memory, as a real job recorded it
VM = memory.memories(recorded('vm-memory.out'))


def options(name):
    '''fio's options of a real output's ``# cmd:`` line.'''
    words = shlex.split(command(name))
    return dict((word[2:].split('=', 1) + [None])[:2]
                for word in words if word.startswith('--'))


def check(figures, memory_record, extras=None, cached=(), floor=5.0):
    '''What :func:`memory.judge` reads of a variant check.'''
    return SimpleNamespace(
        figures={name: Samples([1.0], unit) for name, unit in figures},
        cached=set(cached), note='', memory_floor=floor, perf_variables={},
        data_to_memory='',
        rounds=SimpleNamespace(records={memory.RECORD: [memory_record]}),
        current_partition=SimpleNamespace(extras=extras or {}))


# -- the nodes' memory --------------------------------------------------------

def test_the_memory_this_vm_recorded():
    assert list(VM) == ['vm']
    assert VM['vm'] == 24684084 * 1024


def test_the_command_runs_here_and_prints_what_is_read():
    said = subprocess.run(['bash', '-c', memory.MEMINFO], check=True,
                          capture_output=True, text=True).stdout
    found = memory.memories(said.strip())
    assert len(found) == 1
    assert list(found.values())[0] > GIB


def test_several_nodes_run_it_once_each_through_the_launcher():
    said = memory.command(lambda: 'srun', 4)
    assert said.startswith('srun --nodes=4 --ntasks=4 --ntasks-per-node=1 ')
    assert said.endswith(' | paste -sd, -')
    # one node: on the node running the job, whatever the launcher
    assert memory.command(lambda: pytest.fail('asked'), 1) == memory.MEMINFO
    # a fact is expanded when the job declares it: no $ in it
    assert '$' not in said


def test_every_node_of_several_is_read():
    # MPICH's mpiexec ran the command of two nodes, one process each, on
    # this one machine
    said = text('node/vm-memory-hydra.txt').strip()
    assert command('node/vm-memory-hydra.txt') == memory.command(
        lambda: 'hydra', 2)
    assert said.count('MemTotal:') == 2
    assert memory.memories(said) == VM
    line = recorded('vm-memory.out')
    found = memory.memories(f'{line},{line.replace("vm ", "vm2 ", 1)}')
    assert found == {'vm': VM['vm'], 'vm2': VM['vm']}


@pytest.mark.parametrize('said', [
    '', 'vm', 'vm MemFree:  1 kB', 'vm MemTotal: 24684084',
    'srun: error: Unable to create step for job 7: Invalid node name'])
def test_a_record_that_is_not_the_memory_of_nodes_is_rejected(said):
    with pytest.raises(OutputError):
        memory.memories(said)


# -- what each tool's real outputs touched -----------------------------------

def test_ior_touched_the_blocks_of_its_first_repetition():
    run = ior.parse_summary(text('ior/slurm-n2-t2.summary.json'))
    assert run.nodes == 2
    seen = memory.touched([ior.data_bytes(run, 'read')], run.nodes, True)
    assert seen.per_node == 6668 * MIB / 2
    # the same IOR, 3 repetitions: each writes and reads the same files
    again = ior.parse_summary(text('ior/easy-i3.summary.json'))
    assert ior.data_bytes(again, 'write') == 1774 * MIB


def test_elbencho_touched_its_file_once_whatever_the_hosts():
    one = elbencho.parse(text('elbencho/suite-direct-grow.json'))
    two = elbencho.parse(text('elbencho/suite-service-2hosts.json'))
    assert elbencho.data_bytes(one) == 256 * MIB
    # two hosts share the one file: each reads half
    assert elbencho.data_bytes(two) == 256 * MIB
    assert memory.touched([elbencho.data_bytes(two)], two.hosts,
                          True).per_node == 128 * MIB


def test_fio_touched_its_files_not_the_bytes_a_time_based_run_moved():
    name = 'fio/seqwrite-16j-32k-odirect.json'
    run = fio.parse(text(name))
    # 16 jobs of 256 MiB, written again and again for 10 s
    assert run.io_bytes['write'] > 16 * 256 * MIB
    assert fio.data_bytes(run, options(name)) == 16 * 256 * MIB


def test_fio_jobs_that_share_one_file_touched_it_once():
    name = 'fio/suite-polling-interrupt.json'
    run = fio.parse(text(name), 'read')
    assert fio.data_bytes(run, options(name), 'read') == 256 * MIB


def test_fio_that_moved_less_than_its_files_touched_what_it_moved():
    name = 'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_none.json'
    run = fio.parse(text(name))
    asked = {**options(name), 'size': '64g'}
    assert fio.data_bytes(run, asked) == run.io_bytes['write']
    assert fio.data_bytes(run, {}) == run.io_bytes['write']


# -- the notes at their edges -------------------------------------------------

GIVEN = VM['vm']


@pytest.mark.parametrize('ratio, said', [
    (0.05, 'the page cache can hold all of it, and MLPerf Storage'),
    (0.999, 'the page cache can hold all of it, and MLPerf Storage'),
    (1.0, 'below the floor of 5x: MLPerf Storage (the data at least 5x '
          'memory) would not call it a storage read'),
    (4.99, 'below the floor of 5x'),
    (5.0, None), (12.0, None)])
def test_a_read_says_what_its_data_is_against_the_memory(ratio, said):
    note = memory.read_note('read', ratio * GIVEN, GIVEN, 5.0)
    if said is None:
        assert note == ''
    else:
        assert note.startswith(f'read: the data ({ratio * GIVEN / GIB:.3g} '
                               f'GiB a node) is {ratio:.2g}x the node\'s '
                               f'memory (23.5 GiB)')
        assert said in note


def test_a_floor_of_one_leaves_only_what_the_page_cache_holds():
    assert 'MLPerf' not in memory.read_note('read', GIVEN / 2, GIVEN, 1.0)
    assert memory.read_note('read', 2 * GIVEN, GIVEN, 1.0) == ''


# -- a check's field ----------------------------------------------------------

def test_ior_reads_on_this_vm_are_noted_not_demoted():
    run = ior.parse_summary(text('ior/easy-reorder-fsync.summary.json'))
    found = check([('write', 'MiB/s'), ('read', 'MiB/s')],
                  recorded('vm-memory.out'))
    memory.judge(found, {op: memory.touched([ior.data_bytes(run, op)], 1,
                                            op == 'read')
                         for op in ('write', 'read')})
    # 1876 MiB of this VM's 23.5 GiB
    assert found.data_to_memory == ('write_median_mib_s=0.0778x memory;'
                                    'read_median_mib_s=0.0778x memory')
    assert found.note == (
        "read: the data (1.83 GiB a node) is 0.078x the node's memory "
        '(23.5 GiB): the page cache can hold all of it, and MLPerf Storage '
        '(the data at least 5x memory) would not call it a storage read')
    assert not found.cached


def test_a_declared_client_cache_is_a_second_ratio():
    run = elbencho.parse(text('elbencho/suite-service-2hosts.json'))
    line = recorded('vm-memory.out')
    found = check([('read', 'MiB/s')], f'{line},{line.replace("vm ", "b ")}',
                  extras={'client_cache': '512MiB'})
    memory.judge(found, {'read': memory.touched([elbencho.data_bytes(run)],
                                                run.hosts, True)})
    assert found.data_to_memory == ('read_median_mib_s=0.00531x memory, '
                                    '0.25x client cache')
    assert ('read: the data is 0.25x the client cache the partition '
            'declares (0.5 GiB): it can hold all of it') in found.note


@pytest.mark.parametrize('declared, size', [
    ('32GiB', 32 * GIB), ('32g', 32 * GIB), (1 << 30, GIB),
    (None, None)])
def test_a_client_cache_is_a_size(declared, size):
    extras = {} if declared is None else {'client_cache': declared}
    assert memory.client_cache(extras) == size


@pytest.mark.parametrize('declared', ['lots', '32 GB', 0, '1.5g'])
def test_a_client_cache_that_is_no_size_is_rejected(declared):
    with pytest.raises(ValueError):
        memory.client_cache({'client_cache': declared})


def test_a_cache_figure_keeps_its_ratio_without_a_note():
    found = check([('read', 'MiB/s')], recorded('vm-memory.out'),
                  cached=['read'])
    found.perf_variables['read_cache_median_mib_s'] = None
    memory.judge(found, {'read': memory.touched([GIB], 1, True)})
    assert found.data_to_memory.startswith('read_cache_median_mib_s=')
    assert found.note == ''


def test_no_memory_recorded_says_so_and_sets_no_ratio():
    found = check([('read', 'MiB/s')], '')
    memory.judge(found, {'read': memory.touched([GIB], 1, True)})
    assert found.data_to_memory == ''
    assert found.note == ('no data-to-memory ratio: the job recorded no '
                          'node\'s memory')


def test_a_figure_the_check_does_not_report_is_left_out():
    found = check([('write', 'MiB/s')], recorded('vm-memory.out'))
    memory.judge(found, {'read': memory.touched([GIB], 1, True)})
    assert found.data_to_memory == '' and found.note == ''
