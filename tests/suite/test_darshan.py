'''Darshan logs read by pydarshan: real logs, their exact counters, and the
logs that must be rejected (cut, empty, garbage, corrupted).

The real logs are Darshan 3.4.7's (tests/data/darshan, see its README);
``darshan-parser``'s text of the same logs is the oracle of the counters.
Every log is read in a child process, as the checks read it.
'''

import os
import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reframe.core.exceptions import SanityError

import fixtures
from microbench.suite import darshan, dxt
from microbench.suite.output import OutputError
from microbench.tools import ior
from microbench.tools.ior import command as ior_command

FIO_JOB = 'darshan/fio-nonmpi-jobproc1.darshan'
FIO_PARENT = 'darshan/fio-nonmpi-parent.darshan'
IOR = 'darshan/ior-np2-posix-mpi.darshan'
IOR_DXT = 'darshan/ior-hard-reorder-dxt.darshan'
#: IOR's easy shape with -C -e on 2 nodes x 2 tasks of the Slurm test
#: cluster (tests/data/ior/README.md): -Q 1, and the sweep's old -Q 2
IOR_Q1 = 'ior/darshan-n2-t2-Q1.darshan'
IOR_Q2 = 'ior/darshan-n2-t2-Q2.darshan'

_ROW = re.compile(r'^POSIX\t(-?\d+)\t(\d+)\t(POSIX_\w+)\t(\S+)\t')


def logs_of(tmp_path, *names):
    for name in names:
        shutil.copy(fixtures.path(name), tmp_path / os.path.basename(name))

    return darshan.read_logs(str(tmp_path))


def parser_counters(name):
    '''{(rank, counter): value} of darshan-parser's text of a log.'''
    found = {}
    for line in fixtures.text(name).splitlines():
        match = _ROW.match(line)
        if match and not match[3].startswith('POSIX_F_'):
            found[(int(match[1]), match[3])] = int(match[4])

    return found


@pytest.mark.parametrize('log, text', [
    (FIO_JOB, 'darshan/fio-nonmpi-jobproc1-darshan-parser.txt'),
    (IOR, 'darshan/ior-np2-posix-mpi-darshan-parser.txt'),
])
def test_counters_are_darshan_parsers(tmp_path, log, text):
    expected = parser_counters(text)
    rows = logs_of(tmp_path, log)[0]['posix']
    assert expected
    got = {(row['rank'], name): row[name] for row in rows
           for (_, name) in expected if name in row}
    assert got == expected


def test_fio_parent_is_not_a_job_process(tmp_path):
    logs = logs_of(tmp_path, FIO_JOB, FIO_PARENT)
    assert len(logs) == 2
    jobs = darshan.job_logs(logs)
    assert [log['fork_parent'] for log in jobs] == ['28254']
    frame = darshan.files(logs, '/tmp/rtscratch/fio')
    assert len(frame) == 1
    assert frame['POSIX_WRITES'].sum() == 2048
    assert darshan.access_sizes(frame) == {32768: 2048}
    assert darshan.overwrite_factors(frame) == {
        '/tmp/rtscratch/fio/darshan_fio_buffered.0.0': 1.0}
    line = darshan.summary(frame)
    assert '2048 writes (67108864 B' in line
    assert '1 fsync' in line
    # Nothing of another directory
    assert darshan.files(logs, '/tmp/rtscratch/ior').empty


def test_ior_ranks_and_fsyncs(tmp_path):
    frame = darshan.files(logs_of(tmp_path, IOR), '/tmp/rtscratch/ior')
    assert sorted(frame['rank']) == [0, 1]
    assert list(frame['POSIX_FSYNCS']) == [1, 1]
    assert darshan.access_sizes(frame) == {1048576: 256}


def test_ior_without_dxt_cannot_tell_whose_data(tmp_path):
    with pytest.raises(OutputError, match='no DXT trace'):
        dxt.read_origins(logs_of(tmp_path, IOR), '/tmp/rtscratch/ior')


def test_reads_of_a_reordered_ior_on_one_node(tmp_path):
    # IOR -C -Q 1 with both ranks on one node: every rank reads back what it
    # wrote itself
    logs = logs_of(tmp_path, IOR_DXT)
    scratch = os.path.dirname(darshan.job_logs(logs)[0]['dxt'][0]['file'])
    origins = dxt.read_origins(logs, scratch)
    assert origins['same rank'] > 0
    assert origins['other node'] == origins['same node'] == 0
    assert origins['unwritten'] == 0


def _scratch(logs):
    return os.path.dirname(darshan.job_logs(logs)[0]['dxt'][0]['file'])


class _SweepPoint:
    '''What the witness judgement asks of a rounds fixture: the point's
    command (n2.t2 of ior_scaling) and the scratch.'''

    def __init__(self, scratch):
        self.scratch = scratch

    def ior_command(self, variant):
        return ior_command.build(
            'ior', ior_command.shape_options('easy', '16g', 1),
            ior_command.DEFENCES['reorder_fsync'], 1, 2, 2)


def _ior_logs(tmp_path, name):
    shutil.copy(fixtures.path(name), tmp_path / os.path.basename(name))
    return darshan.read_logs(str(tmp_path))


def test_reads_of_a_reordered_ior_on_two_nodes(tmp_path):
    # -C -Q 1 on 2 nodes x 2 tasks: every read gets another node's data
    logs = _ior_logs(tmp_path, IOR_Q1)
    scratch = _scratch(logs)
    assert {rec['hostname'] for rec in logs[0]['dxt']} == {'mbnode1',
                                                           'mbnode2'}
    origins = dxt.read_origins(logs, scratch)
    assert origins['other node'] > 0
    assert origins['same rank'] == origins['same node'] == 0
    assert origins['unwritten'] == 0
    # Each rank's record of a file it only read has no write segment
    assert any(not rec['write'] for rec in logs[0]['dxt'])
    frame = darshan.files(logs, scratch)
    said, origins = ior.judge_witness(_SweepPoint(scratch), 'n2.t2', frame,
                                      logs)
    assert said == 'reads got data written by other node 100.0 %'
    assert ior.local_share(origins) == 0


def test_the_sweep_s_old_q_read_every_task_s_own_data(tmp_path):
    # -Q <tasks per node> (2): IOR 4 multiplies it by the tasks of node 0,
    # 4 tasks away of 4 is every task's own data
    logs = _ior_logs(tmp_path, IOR_Q2)
    scratch = _scratch(logs)
    origins = dxt.read_origins(logs, scratch)
    assert origins['same rank'] == sum(origins.values()) > 0
    frame = darshan.files(logs, scratch)
    said, origins = ior.judge_witness(_SweepPoint(scratch), 'n2.t2', frame,
                                      logs)
    assert said == 'reads got data written by same rank 100.0 %'
    assert ior.local_share(origins) == 1


def test_the_witness_judgement_holds_the_command(tmp_path):
    '''The witness's accesses are the transfer size the command asked.'''
    logs = _ior_logs(tmp_path, IOR_Q1)
    scratch = _scratch(logs)

    class Hard(_SweepPoint):
        def ior_command(self, variant):
            return ior_command.build(
                'ior', ior_command.shape_options('hard', '16g', 10),
                (), 1, 2, 2)

    with pytest.raises(SanityError, match='not every access of the '
                                         '47008-byte transfer size'):
        ior.judge_witness(Hard(scratch), 'x', darshan.files(logs, scratch),
                          logs)


def test_the_suite_reads_one_sided_dxt_records(tmp_path):
    shutil.copy(fixtures.path(IOR_Q1), tmp_path)
    assert darshan.read_logs(str(tmp_path))


def test_no_log_and_partial_log(tmp_path):
    with pytest.raises(OutputError, match='wrote no log'):
        darshan.read_logs(str(tmp_path))

    (tmp_path / 'x.darshan_partial').write_bytes(b'')
    with pytest.raises(OutputError, match='partial Darshan log'):
        darshan.read_logs(str(tmp_path))


def cut_or_mutated(tmp_path, data):
    (tmp_path / 'bad.darshan').write_bytes(data)
    return darshan.read_logs(str(tmp_path))


@pytest.mark.parametrize('size', [0, 100, 900, 1328, 1500, 1700, 1801])
def test_cut_logs_are_rejected(tmp_path, size):
    with open(fixtures.path(FIO_JOB), 'rb') as fp:
        data = fp.read()[:size]

    with pytest.raises(OutputError, match='bad.darshan'):
        cut_or_mutated(tmp_path, data)


def test_garbage_is_rejected(tmp_path):
    with pytest.raises(OutputError, match='could not read'):
        cut_or_mutated(tmp_path, bytes(range(256)) * 8)


@settings(max_examples=int(os.environ.get('DARSHAN_MUTATIONS', '12')),
          deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 1801), st.integers(1, 255)),
                min_size=1, max_size=4))
def test_mutated_logs_never_escape(tmp_path, flips):
    '''A corrupted log is read (a flipped byte in a counter may still make a
    valid log) or rejected as an OutputError; never another exception, and
    never a crash of the caller (pydarshan aborts on some of them).'''
    with open(fixtures.path(FIO_JOB), 'rb') as fp:
        data = bytearray(fp.read())

    for offset, mask in flips:
        data[offset] ^= mask

    try:
        logs = cut_or_mutated(tmp_path, bytes(data))
    except OutputError:
        return

    try:
        darshan.files(logs, '/tmp/rtscratch/fio')
    except OutputError:
        pass


def test_negative_counters_are_rejected(tmp_path):
    logs = logs_of(tmp_path, FIO_JOB)
    logs[0]['posix'][0]['POSIX_BYTES_WRITTEN'] = -1
    with pytest.raises(OutputError, match='POSIX_BYTES_WRITTEN .* is -1'):
        darshan.files(logs, '/tmp/rtscratch/fio')


def test_preload_only_the_program():
    env = darshan.preload('/stage/darshan-x')
    assert env[0] == 'env' and 'LD_PRELOAD=$darshan_lib' in env
    assert 'DARSHAN_ENABLE_NONMPI=1' in env
    assert 'DARSHAN_LOG_DIR_PATH=/stage/darshan-x' in env
    mpi = darshan.preload('/d', mpi=True, traced=True)
    assert 'DARSHAN_ENABLE_NONMPI=1' not in mpi
    assert 'DXT_ENABLE_IO_TRACE=1' in mpi


def test_a_scratch_darshan_leaves_out_is_let_in():
    '''Darshan records nothing under /var/ by default: a scratch in
    /var/tmp (the Slurm test cluster's) would leave its witness blind.'''
    env = darshan.preload('/d', scratch='/var/tmp/microbench-testbed')
    excluded = [e for e in env if e.startswith('DARSHAN_EXCLUDE_DIRS=')]
    assert len(excluded) == 1
    dirs = excluded[0].split('=', 1)[1].split(',')
    assert '/var/' not in dirs
    assert set(dirs) == set(darshan.DARSHAN_EXCLUDED) - {'/var/'}
    # the variable's special value is not spelled by accident
    assert not excluded[0].split('=', 1)[1].startswith('none')
    for scratch in ('/scratch/alice', '/tmp/x', '/variable/y'):
        assert not any(e.startswith('DARSHAN_EXCLUDE_DIRS=') for e in
                       darshan.preload('/d', scratch=scratch)), scratch
