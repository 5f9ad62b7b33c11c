'''IO500's read after read (``ior_page_cache``'s ``reread``): the one
command builder's three IOR runs, their reader on real outputs (and what
it rejects), and the Darshan witness of the second read on real logs.

Real outputs (tests/data/ior/README.md): the builder's three runs on one
node, 2 ranks, easy and hard; a second read with ``-C -C -Q 1``; Darshan
logs of the sequence on three emulated nodes (the hydra fork launcher,
one UTS namespace per node: real IOR and Darshan, three host names, one
kernel) and on one node.
'''

import os
import shutil

import pytest

import fixtures
from microbench.suite import darshan, dxt, samples
from microbench.suite.output import OutputError
from microbench.tools import ior
from microbench.tools.ior import command, output, reread

IOR = '/opt/rt/ior/bin/ior'
RUNS = ('write', 'read', 'reread')


def sequence(shape):
    '''The builder's sample of the read after read in ``shape``, as the
    real outputs ran it (1 node, 2 ranks, 1 s stonewall).'''
    segments = 200000 if shape == 'hard' else 1
    return command.build_reread(
        IOR, command.shape_options(shape, '16g', segments), 1, 1, 2)


def kept(directory, shape, replace=None):
    '''Keep the real outputs of ``shape``'s sequence in ``directory`` as
    a rounds job keeps sample 1 of variant ``v``; ``replace``: {kept
    name: text} instead of the real file.'''
    files = {}
    for run in sequence(shape):
        stdout = run.stdout or command.STDOUT_FILE
        files[run.summary] = fixtures.text(
            f'ior/reread-{shape}.{run.figure}.summary.json')
        files[stdout] = fixtures.text(
            f'ior/reread-{shape}.{run.figure}.stdout.txt')

    files[samples.STDERR] = ''
    files.update(replace or {})
    for name, text in files.items():
        if text is None:
            continue

        path = os.path.join(directory, samples.kept_name(name, 'v', 1))
        with open(path, 'wb') as fp:
            fp.write(text if isinstance(text, bytes) else text.encode())

    return samples.Sample(directory, 'v', 1)


def read(directory, shape, replace=None, runs=None):
    return output.read_sequence(kept(directory, shape, replace),
                                runs or sequence(shape))


def bandwidth(name):
    import json
    return json.loads(fixtures.text(name))['summary'][0]['bwMeanMIB']


# --- The builder -------------------------------------------------------------

def test_the_builder_spells_io500_s_sequence():
    write, first, second = sequence('easy')
    common = '-o $scratch/testfile -F -t 1m -b 16g -s 1'
    kept_files = '-e -k -O stoneWallingStatusFile=ior-stonewall.txt'
    assert ' '.join(write.argv) == (
        f'{IOR} -w {common} -D 1 -O stoneWallingWearOut=1 {kept_files} -O '
        f'summaryFormat=JSON -O summaryFile=ior.json')
    assert ' '.join(first.argv) == (
        f'{IOR} -r {common} -C -Q 1 {kept_files} -O summaryFormat=JSON -O '
        f'summaryFile=ior-read.json')
    assert ' '.join(second.argv) == (
        f'{IOR} -r {common} -C -Q 2 {kept_files} -O summaryFormat=JSON -O '
        f'summaryFile=ior-reread.json')
    assert [run.figure for run in (write, first, second)] == list(RUNS)
    assert (write.stdout, first.stdout, second.stdout) == (
        None, 'ior-read.out', 'ior-reread.out')
    assert (first.asked.task_offset, second.asked.task_offset) == (1, 2)
    assert second.asked.phases == ('read',) and second.asked.keep


def test_io500_s_spelling_is_q_2_not_a_repeated_c():
    assert command.REREAD == ('-C', '-Q', '2')
    # IOR 4.0.0 counts a repeated -C (reorderTasks 2) but reads -Q away
    told = ior.asked_of(['ior', '-r', '-C', '-C', '-Q', '1'], 3, 2)
    assert (told.reorder, told.task_offset) == (2, 1)


def test_a_witness_sequence_has_no_summary_files():
    runs = command.build_reread('ior', command.shape_options('easy', '1g', 1),
                                1, 3, 2, summary=False)
    assert all(run.summary is None and run.stdout is None for run in runs)
    assert not any('summaryFile' in word for run in runs
                   for word in run.argv)


@pytest.mark.parametrize('nodes, says', [
    (1, 'on 1 node every task reads what its own node wrote'),
    (2, 'on 2 nodes two nodes away is the writing node itself'),
])
def test_fewer_than_three_nodes_are_skipped_saying_why(nodes, says):
    why = command.reread_skipped(nodes)
    assert why.startswith('a read two nodes away (-C -Q 2) needs 3 nodes '
                          'or more: ')
    assert says in why


@pytest.mark.parametrize('nodes', [3, 4, 64])
def test_three_nodes_or_more_measure_it(nodes):
    assert command.reread_skipped(nodes) is None


# --- The reader, on real outputs ---------------------------------------------

@pytest.mark.parametrize('shape', ['easy', 'hard'])
def test_the_real_sequence_is_read(tmp_path, shape):
    run = read(str(tmp_path), shape)
    assert run.figures == {
        figure: bandwidth(f'ior/reread-{shape}.{figure}.summary.json')
        for figure in RUNS}
    assert run.nodes == 1 and run.tasks == 2
    # Every read read back what the write wrote
    assert run.xsize_mib['read'] == run.xsize_mib['reread'] == \
        run.xsize_mib['write']
    assert ior.unsustained(run) is None


def test_the_saved_commands_are_the_builder_s():
    for run in sequence('easy'):
        saved = fixtures.command(f'ior/reread-easy.{run.figure}.summary.json')
        words = saved.split()[3:]
        assert [w for w in words if '/scratch/' not in w] == \
            [w for w in run.argv if '$scratch' not in w]


def _rejected(tmp_path, says, shape='easy', replace=None, runs=None):
    with pytest.raises(OutputError) as err:
        read(str(tmp_path), shape, replace, runs)
    assert says in str(err.value), str(err.value)
    return err.value


def test_a_second_read_one_node_away_is_rejected(tmp_path):
    # The -Q 1 read's real output kept as the -Q 2 read's
    _rejected(tmp_path, 'the summary says taskPerNodeOffset 1, not the '
              'asked task offset (-Q) 2', replace={
                  'ior-reread.json': fixtures.text(
                      'ior/reread-easy.read.summary.json')})


def test_a_repeated_c_is_not_a_q_2(tmp_path):
    # -C -C -Q 1's real output: IOR counts the -C twice, the shift once
    err = _rejected(tmp_path, 'the summary says reorderTasks 2, not the '
                    'asked task reordering 1', replace={
                        'ior-reread.json': fixtures.text(
                            'ior/reread-easy.repeated-C.summary.json'),
                        'ior-reread.out': fixtures.text(
                            'ior/reread-easy.repeated-C.stdout.txt')})
    assert err.file.endswith('ior-reread-v-1.json')


def test_a_repeated_c_is_read_against_its_own_command(tmp_path):
    runs = list(sequence('easy'))
    argv = list(runs[-1].argv)
    at = argv.index('-Q')
    argv[at - 1:at + 2] = ['-C', '-C', '-Q', '1']
    argv = [w.replace('ior-reread', 'ior-repeated') for w in argv]
    runs[-1] = command.IorCommand(
        tuple(argv), 1, 2, ior.asked_of(argv, 1, 2), 'reread',
        'ior-repeated.json', 'ior-repeated.out')
    run = read(str(tmp_path), 'easy', {
        'ior-repeated.json': fixtures.text(
            'ior/reread-easy.repeated-C.summary.json'),
        'ior-repeated.out': fixtures.text(
            'ior/reread-easy.repeated-C.stdout.txt')}, runs)
    assert run.figures['reread'] == bandwidth(
        'ior/reread-easy.repeated-C.summary.json')


def test_a_read_of_another_write_is_rejected(tmp_path):
    # The hard shape's real reads after the easy write
    _rejected(tmp_path, 'not the asked transfer size 1048576', replace={
        'ior-reread.json': fixtures.text(
            'ior/reread-hard.reread.summary.json'),
        'ior-reread.out': fixtures.text('ior/reread-hard.reread.stdout.txt')})


def test_reads_of_another_sample_s_write_are_rejected(tmp_path):
    # Another real write of the same command: 3046 MiB, where the reads
    # read back the 2772 MiB of theirs
    _rejected(tmp_path, 'ior-read.json says its read moved 2772.0000 MiB, '
              'but the write of the same sample wrote 3046.0000 MiB '
              '(ior.json): it did not read back the files the write left',
              replace={'ior.json': fixtures.text(
                           'ior/reread-easy-2.write.summary.json'),
                       'ior.out': fixtures.text(
                           'ior/reread-easy-2.write.stdout.txt')})


def test_a_write_that_printed_its_count_is_another_run(tmp_path):
    # IOR writes the stonewall's count to the status file the command
    # names, never to standard output
    real = fixtures.text('ior/reread-easy.write.stdout.txt')
    line = 'Pairs deadlineForStonewallingaccessed: 1386\n'
    _rejected(tmp_path, 'which IOR writes to the status file '
              'ior-stonewall.txt', replace={'ior.out': real + line})


@pytest.mark.parametrize('name, cut, says', [
    ('ior-reread.out', None, 'no such file'),
    ('ior-reread.json', None, 'no such file'),
    ('ior-read.out', 'half', 'does not end: the output was cut'),
    ('ior-reread.json', 'half', 'not valid JSON (cut short?)'),
    ('ior-reread.out', 'empty', 'the output is empty'),
])
def test_cut_or_missing_outputs_are_rejected(tmp_path, name, cut, says):
    figure = 'read' if name.startswith('ior-read.') else 'reread'
    suffix = 'summary.json' if name.endswith('.json') else 'stdout.txt'
    real = fixtures.text(f'ior/reread-easy.{figure}.{suffix}')
    text = {None: None, 'half': real[:len(real) // 2], 'empty': ''}[cut]
    err = _rejected(tmp_path, says, replace={name: text})
    assert err.file.endswith(samples.kept_name(name, 'v', 1))


def test_garbage_is_rejected(tmp_path):
    _rejected(tmp_path, 'is not UTF-8',
              replace={'ior-reread.json': b'\x00\xff' * 64})
    _rejected(tmp_path, 'ERROR: cannot read from file', replace={
        'ior-read.out': fixtures.text('ior/reread-easy.read.stdout.txt')
        + 'ERROR: cannot read from file, (ior.c:1666)\n'})


def test_a_sample_whose_read_is_of_the_write_s_files_only():
    # The builder names one status file: a read of a sample whose write
    # failed never starts (the runs are joined by &&)
    runs = sequence('easy')
    assert {run.asked.status_file for run in runs} == {command.STATUS_FILE}


# --- The Darshan witness of the second read, on real logs --------------------

LOGS = 'ior/reread-darshan'


def logs_of(tmp_path, name):
    '''The three logs (one per IOR run) of set ``name``, and the scratch
    directory they name.'''
    shutil.copytree(fixtures.path(f'{LOGS}/{name}'), tmp_path / name)
    logs = darshan.read_logs(str(tmp_path / name))
    first = darshan.job_logs(logs)[0]['dxt'][0]['file']
    return logs, os.path.dirname(first)


class Rounds:
    '''What the witness asks of a rounds fixture: the commands of the
    variant and the scratch.'''

    def __init__(self, scratch, nodes):
        self.scratch = scratch
        self.nodes = nodes

    def ior_commands(self, variant):
        return command.build_reread('ior', command.shape_options(
            'easy', '16g', 1), 1, self.nodes, 2, summary=False)


class Check:
    '''What :func:`reread.judge_darshan` records on a variant check.'''

    def __init__(self, scratch, nodes):
        self.rounds = Rounds(scratch, nodes)
        self.variant = 'easy.reread'
        self.darshan_witness = ''
        self.demoted = []
        self.measures = 'storage'

    def demote_seen(self, name, seen, consequence):
        self.demoted.append((name, seen, consequence))


@pytest.mark.parametrize('name, nodes, again, said', [
    # IO500's -C -Q 2 on three nodes: every byte new to the reading node
    ('n3-Q2', 3, 'new to the node', '100.0 % new to the node'),
    # The pitfall: a second read one node away reads what the node read
    ('n3-Q1', 3, 'read by the node', '100.0 % read by the node'),
    # -C -C -Q 1: IOR 4.0.0 shifts no further than -Q 1
    ('n3-CC', 3, 'read by the node', '100.0 % read by the node'),
    # One node: every task reads back what it wrote
    ('n1-Q2', 1, 'written by the node', '100.0 % written by the node'),
])
def test_what_the_second_read_had_seen(tmp_path, name, nodes, again, said):
    logs, scratch = logs_of(tmp_path, name)
    found = reread.sequence_logs(logs, 3)
    hosts = {rec['hostname'] for rec in found[-1]['dxt']}
    assert len(hosts) == nodes
    seen = dxt.read_again(found[:-1], found[-1:], scratch)
    assert seen[again] == sum(seen.values()) > 0
    check = Check(scratch, nodes)
    reread.judge_darshan(check, logs)
    assert check.darshan_witness == f'; the read after read got {said}'
    if again == 'new to the node':
        assert check.demoted == [] and check.measures == 'storage'
    else:
        (figure, seen_said, _), = check.demoted
        assert figure == 'reread' and seen_said.startswith(
            'Darshan saw 100.0 % of the bytes the read after read got '
            'already written or read by the reading node')
        assert check.measures == 'page cache'


def test_the_first_read_is_one_node_away_in_every_set(tmp_path):
    for name in ('n3-Q2', 'n3-Q1', 'n3-CC'):
        logs, scratch = logs_of(tmp_path, name)
        found = reread.sequence_logs(logs, 3)
        first = dxt.read_again(found[:1], found[1:2], scratch)
        assert first['new to the node'] == sum(first.values()) > 0, name


def test_a_witness_without_every_run_is_rejected(tmp_path):
    logs, scratch = logs_of(tmp_path, 'n3-Q2')
    found = reread.sequence_logs(logs, 3)
    with pytest.raises(OutputError, match='2 Darshan logs of IOR\'s '
                       'processes where the 3 IOR runs'):
        reread.sequence_logs(found[:2], 3)

    # The write's log last: the last run wrote
    with pytest.raises(OutputError, match='wrote .* bytes: it is not the '
                       'read after read'):
        reread.sequence_logs([{**found[0], 'start': [2 ** 40, 0]},
                              *found[1:]], 3)


def test_logs_without_dxt_cannot_tell(tmp_path):
    logs, scratch = logs_of(tmp_path, 'n3-Q2')
    bare = [{**log, 'dxt': []} for log in logs]
    with pytest.raises(OutputError, match='no DXT trace'):
        dxt.read_again(bare[:2], bare[2:], scratch)
