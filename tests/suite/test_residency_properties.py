'''The residency witness's readers (microbench.suite.residency) against
every input: fincore outputs and node-tagged witness outputs made by
Hypothesis, the real ones (tests/data/fincore, tests/data/residency)
broken by every mutation of tests/helpers/mutations.py, and the cases the
issue found: one host under two node indices (a real two-process run of
residency.sh under MPICH's mpiexec on one machine), an empty file in the
scratch (fincore's ``0 0 0 <path>``), two files of one base name.

Each case is read right (what a plain reading of the text says, no node
lost, no share overwritten) or rejected in one line; never another
exception.'''

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.suite import fincore, output, residency, samples
from microbench.suite.output import OutputError

from fixtures import text
from mutations import MUTATIONS_OF_ANY
from plain import fincore_files, residency_nodes
from witness_tally import PROPERTIES, dump, holds, rejects

#: The readers, as the docs' table names them
FINCORE = 'residency: fincore rows (parse_files, parse_fincore)'
NODES = 'residency: node-tagged witness (parse_nodes, seen, per_sample)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


def no_node_lost(found):
    '''Every node that answered with fincore keeps a share of its own.'''
    if residency.missing_hosts(found):
        assert residency.seen(found, lambda index: None) is None
        return
    seen = residency.seen(found, lambda index: None)
    assert len(seen.shares) == len(found)
    for (resident, size), node in zip(seen.shares.values(),
                                      (found[i] for i in sorted(found))):
        assert size == sum(s for _, s in node.files.values())
        assert 0 <= resident <= size


# --- Real outputs, mutated --------------------------------------------------

#: Real outputs -> the nodes that answered (None: fincore alone)
REAL = {
    'fincore/buffered.txt': None,
    'fincore/direct.txt': None,
    'fincore/dontcache.txt': None,
    'residency/ior-slurm-2nodes-easy.reorder_fsync.txt': 2,
    'residency/ior-slurm-2nodes-easy.odirect.txt': 2,
    'residency/ior-slurm-2nodes-hard.none.txt': 2,
    'residency/hydra-one-host-two-indices.txt': 2,
    'residency/local-empty-and-nested.txt': 1,
}


def reader(name):
    '''(the reader's name, how it reads bytes, what is right of an
    answer given the text read).'''
    nodes = REAL[name]
    if nodes is None:
        def read(data):
            return fincore.parse_files(output.decode(data))

        def right(data):
            return lambda found: found == fincore_files(data.decode())

        return FINCORE, read, right

    def read(data):
        return fincore.parse_nodes(output.decode(data), nodes)

    def right(data):
        def check(found):
            assert found == residency_nodes(data.decode())
            no_node_lost(found)
        return check

    return NODES, read, right


def test_the_real_outputs_are_read():
    for name in REAL:
        data = text(name).encode()
        what, read, right = reader(name)
        assert holds(what, read, data, right(data)) is not None, name


@pytest.mark.parametrize('name', REAL)
@pytest.mark.parametrize('mutation', MUTATIONS_OF_ANY)
@PROPERTIES
@given(st.data())
def test_a_mutated_real_output_is_read_right_or_rejected(name, mutation,
                                                         data):
    original = text(name).encode()
    how, mutated = MUTATIONS_OF_ANY[mutation](data.draw, original)
    note(how)
    what, read, right = reader(name)
    holds(what, read, mutated, right(mutated))


# --- Made outputs -----------------------------------------------------------

NAMES = st.sampled_from(['testfile.00000000', 'testfile.00000001', 'file',
                         'sub/file', 'with\\x20space', 'empty'])


@st.composite
def witnesses(draw):
    '''(text, nodes, {index: Node}) of a witness residency.sh could print
    on ``nodes`` nodes: hosts may repeat (two indices on one host), files
    may be empty, each node's lines in order, the nodes' interleaved.'''
    count = draw(st.integers(1, 4))
    page = draw(st.sampled_from([4096, 16384, 65536]))
    expected, blocks = {}, []
    for index in range(count):
        host = draw(st.sampled_from(['mbnode1', 'mbnode2', 'vm']))
        if draw(st.integers(0, 9)) == 0:
            expected[index] = fincore.Node(host, {}, True)
            blocks.append([f'resident {index} {host} missing fincore'])
            continue

        files, rows = {}, []
        for name in draw(st.lists(NAMES, unique=True, max_size=4)):
            size = draw(st.one_of(st.just(0), st.integers(1, 2 ** 40)))
            pages = draw(st.integers(0, -(-size // page)))
            path = f'/scratch/{name}'
            files[path] = (pages * page, size)
            rows.append(f'resident {index} {host} {pages * page} {pages} '
                        f'{size} {path}')
        rows.append(f'resident {index} {host} files {len(files)}')
        expected[index] = fincore.Node(host, files, False)
        blocks.append(rows)

    lines = []
    while any(blocks):
        block = draw(st.sampled_from([b for b in blocks if b]))
        lines.append(block.pop(0))
    return '\n'.join(lines) + '\n', count, expected


@PROPERTIES
@given(witnesses())
def test_a_made_witness_is_read_as_made(made):
    found_text, count, expected = made
    note(found_text)

    def right(found):
        assert found == expected
        no_node_lost(found)

    holds(NODES,
          lambda data: fincore.parse_nodes(data, count), found_text,
          right)


def _breaks(draw, found_text, count):
    '''One edit that makes a made witness wrong, and what it did.'''
    rows = found_text.split('\n')[:-1]
    counted = [i for i, row in enumerate(rows) if ' files ' in row]
    edits = ['another index', 'a node missing']
    if counted:
        edits += ['a count dropped', 'a count off by one']
    # a node of several lines: one of them under another host
    several = [i for i in counted if sum(
        row.split(' ')[1] == rows[i].split(' ')[1] for row in rows) > 1]
    if several:
        edits.append('a line under another host')
    pages = [i for i, row in enumerate(rows)
             if row.split(' ')[3] not in ('files', 'missing')
             and row.split(' ')[4] != '0']
    if pages:
        edits += ['a byte more resident', 'a page more than the file']
    edit = draw(st.sampled_from(edits))
    if edit == 'another index':
        rows.append(f'resident {count} elsewhere files 0')
    elif edit == 'a node missing':
        rows = [row for row in rows if not row.startswith('resident 0 ')]
    elif edit == 'a count dropped':
        rows.pop(draw(st.sampled_from(counted)))
    elif edit == 'a count off by one':
        at = draw(st.sampled_from(counted))
        head, number = rows[at].rsplit(' ', 1)
        rows[at] = f'{head} {int(number) + 1}'
    elif edit == 'a line under another host':
        at = draw(st.sampled_from(several))
        tag, index, host, rest = rows[at].split(' ', 3)
        rows[at] = f'{tag} {index} {host}-other {rest}'
    else:
        at = draw(st.sampled_from(pages))
        tag, index, host, resident, many, size, path = rows[at].split(' ', 6)
        page = int(resident) // int(many)
        if edit == 'a byte more resident':
            resident = int(resident) + 1
        else:
            many = -(-int(size) // page) + 1
            resident = many * page
        rows[at] = f'{tag} {index} {host} {resident} {many} {size} {path}'
    return edit, '\n'.join(rows) + '\n'


@PROPERTIES
@given(witnesses(), st.data())
def test_a_made_witness_edited_is_rejected(made, data):
    found_text, count, _ = made
    edit, broken = _breaks(data.draw, found_text, count)
    note(f'{edit}:\n{broken}')
    rejects(NODES,
            lambda text: fincore.parse_nodes(text, count), broken)


# --- The cases the issue found ----------------------------------------------

def test_one_host_under_two_indices_keeps_both_shares():
    # mpiexec started both processes on this machine: node 0's ranks read
    # testfile.0 and .1 (written buffered: all resident), node 1's .2 and
    # .3 (written with O_DIRECT: none)
    found = fincore.parse_nodes(
        text('residency/hydra-one-host-two-indices.txt'), 2)
    assert [node.host for node in found.values()] == ['vm', 'vm']

    def reads(index):
        return [f'testfile.{n:08d}' for n in (2 * index, 2 * index + 1)]

    seen = residency.seen(found, reads, one_kernel=True)
    assert seen.shares == {'vm (node 0)': (8 << 20, 8 << 20),
                           'vm (node 1)': (0, 8 << 20)}
    assert seen.largest == 1.0 and seen.resident
    assert seen.said() == ('resident in the page cache before the read: '
                           'vm (node 0) 100.0 % of 8 MiB, vm (node 1) 0.0 % '
                           'of 8 MiB')


def test_an_empty_file_in_the_scratch_is_zero_bytes():
    found = fincore.parse_nodes(
        text('residency/local-empty-and-nested.txt'), 1)
    files = found[0].files
    assert files['/tmp/rz/s/empty'] == (0, 0)
    # one real fincore row: a 100-byte file in one resident page
    assert files['/tmp/rz/s/with\\x20space'] == (4096, 100)
    seen = residency.seen(found, lambda index: None)
    assert seen.judged and seen.shares['vm'][1] == 1048576 + 5000 + 100
    # a read of the empty file alone: nothing to read, not judged
    empty = residency.seen(found, lambda index: ['empty'])
    assert empty.shares == {'vm': (0, 0)} and not empty.judged
    assert empty.largest == 0.0
    assert 'nothing (its files are empty)' in empty.said()


def test_two_files_of_one_base_name_are_not_guessed_between():
    found = fincore.parse_nodes(
        text('residency/local-empty-and-nested.txt'), 1)
    said = rejects(NODES, lambda names: residency.seen(
        found, lambda index: names), ['data'])
    assert 'lists data in two directories' in said


def test_fincore_of_only_empty_files_wrote_nothing():
    said = rejects(FINCORE, fincore.parse_fincore,
                   '0 0 0 /s/a\n0 0 0 /s/b\nfiles 2\n')
    assert 'all empty: the sample wrote nothing' in said


@pytest.mark.parametrize('row, said', [
    ('3000 1 4096 /s/f', 'pages of 3000 bytes'),
    ('12288 1 4096 /s/f', 'which no page cache has'),
    ('8192 2 4096 /s/f', 'of the 4096-byte /s/f are resident'),
    ('4096 1 0 /s/f', 'of the 0-byte /s/f are resident'),
    ('0 1 4096 /s/f', 'not whole pages'),
])
def test_rows_no_fincore_prints(row, said):
    found = rejects(FINCORE, fincore.parse_files,
                    f'{row}\nfiles 1\n')
    assert said in found


def test_an_index_beyond_the_cap_or_a_long_name_is_one_short_line():
    rejects(NODES,
            lambda data: fincore.parse_nodes(data, 1),
            f'resident {10 ** 6} vm files 0\n', 'more than the')
    name = '/s/' + 'x' * 100_000
    said = rejects(FINCORE, fincore.parse_files,
                   f'8192 2 1 {name}\nfiles 1\n', 'are resident')
    assert len(said) < 300


def test_a_sample_without_its_witness_or_with_garbage_names_it(tmp_path):
    good = text('residency/local-empty-and-nested.txt')
    (tmp_path / samples.kept_name('residency.txt', 'read', 1)).write_text(
        good)
    (tmp_path / samples.kept_name('residency.txt', 'read', 2)).write_text(
        good.replace('files 4', 'files 5'))
    said = rejects(NODES, lambda count:
                   residency.per_sample(str(tmp_path), 'read', count,
                                        samples.kept_name), 2)
    assert said.startswith('sample 2: the residency witness, ')
    assert 'residency-read-2.txt' in said and '5 files counted, 4 listed' \
        in said
    (tmp_path / samples.kept_name('residency.txt', 'read', 2)).write_text(
        good)
    said = rejects(NODES, lambda count:
                   residency.per_sample(str(tmp_path), 'read', count,
                                        samples.kept_name), 3)
    assert said.startswith('sample 3: no residency witness')
    found = residency.per_sample(str(tmp_path), 'read', 2, samples.kept_name)
    assert [one.judged for one in found] == [True, True]


def test_a_node_with_nothing_to_read_is_recorded_not_judged():
    check = _Check()
    empty = residency.Seen({'vm': (0, 0)})
    residency.judge(check, 'read', [residency.Seen({'vm': (0, 4096)}),
                                    empty])
    assert 'not judged: the files it reads are empty' in check.witness
    assert check.resident_share == 'read=0.0,0.0'
    assert not check.cached


class _Check:
    def __init__(self):
        self.witness, self.note, self.resident_share = '', '', ''
        self.cached = set()

    def demote_seen(self, name, seen, consequence):
        raise AssertionError('demoted')


def test_garbage_never_raises_but_a_one_line_rejection():
    for data in (b'', b'\n', b'resident\n', b'resident 0\n',
                 b'resident 0 vm\n', b'resident 0 vm files\n',
                 b'resident 0 vm files x\n', b'resident 00 vm files 0\n',
                 'résident 0 vm files 0\n'.encode(), b'\xff\n'):
        holds(NODES,
              lambda raw: fincore.parse_nodes(output.decode(raw), 1),
              data, lambda found: no_node_lost(found))
    with pytest.raises(OutputError, match='lists no file x'):
        residency.share(fincore.parse_nodes('resident 0 vm files 0\n',
                                              1)[0], ['x'])
