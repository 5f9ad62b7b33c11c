'''The data-reduction witness's reader (microbench.suite.reduction.parse)
against every input: witness outputs made by Hypothesis (files and their
blocks; compsize tables whose TOTAL adds up), the real ones
(tests/data/reduction: fio and elbencho on a compressing btrfs and on
ext4, and mixed, preallocated and KEEP_SIZE-preallocated files on both)
broken by every mutation of tests/helpers/mutations.py, and the cases the
issue found: compsize's TOTAL row never held to its rows or to the files,
a stored share of 51200 % on ext4 accepted.

Each case is read right (what a plain reading of the text says, within
what a file system can store) or rejected in one line; never another
exception.'''

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.suite import output, reduction

from fixtures import text
from mutations import MUTATIONS_OF_ANY
from plain import stored as plain_stored
from witness_tally import PROPERTIES, dump, holds, rejects

READER = 'data reduction: witness and compsize (reduction.parse)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


def read_right(found_text):
    def check(stored):
        assert stored == plain_stored(found_text)
        if stored.stored is not None:
            assert stored.stored <= (reduction.MOST_STORED * stored.written
                                     + reduction.SLACK * stored.files)
    return check


def read(data):
    return reduction.parse(output.decode(data))


# --- Real outputs ------------------------------------------------------------

#: real output -> the share stored, or what its rejection says
REAL = {
    'reduction/btrfs-fio-zeros.txt': 0.125,
    'reduction/btrfs-fio-default.txt': 0.9395,
    'reduction/btrfs-fio-incompressible.txt': 1.0,
    'reduction/btrfs-elbencho-same.txt': 1.0,
    'reduction/btrfs-elbencho-half.txt': 0.5156,
    'reduction/btrfs-elbencho-random.txt': 1.0,
    'reduction/ext4-fio-zeros.txt': 1.0,
    'reduction/ext4-fio-incompressible.txt': 1.0,
    # an empty file, 4 bytes inline, a nested directory; zstd on the zeros
    'reduction/btrfs-mixed.txt': 0.2263,
    'reduction/ext4-mixed.txt': 1.0039,
    # 8 MiB fallocated, 1 MiB written over it: the preallocated part is
    # referenced under a type compsize does not print
    'reduction/btrfs-prealloc.txt': 1.0,
    # 8 KiB written, 64 MiB preallocated beyond the file's size
    'reduction/btrfs-keepsize.txt': 'preallocated beyond their size',
    'reduction/ext4-keepsize.txt': 'stored 819200 % of the 8192 bytes',
}


@pytest.mark.parametrize('name', REAL)
def test_a_real_output(name):
    data = text(name).encode()
    if isinstance(REAL[name], str):
        rejects(READER, read, data, REAL[name])
        return

    stored = holds(READER, read, data, read_right(data.decode()))
    assert stored.stored / stored.written == pytest.approx(REAL[name],
                                                           abs=1e-4)


@pytest.mark.parametrize('name', [n for n in REAL
                                  if not isinstance(REAL[n], str)])
@pytest.mark.parametrize('mutation', MUTATIONS_OF_ANY)
@PROPERTIES
@given(st.data())
def test_a_mutated_real_output_is_read_right_or_rejected(name, mutation,
                                                         data):
    how, mutated = MUTATIONS_OF_ANY[mutation](data.draw, text(name).encode())
    note(how)
    holds(READER, read, mutated, lambda stored: read_right(
        mutated.decode())(stored))


# --- The cases the issue found ----------------------------------------------

def _edited(name, old, new):
    found = text(name)
    assert old in found
    return found.replace(old, new, 1)


def test_a_stored_share_of_51200_percent_on_ext4_is_rejected():
    # each file's blocks 512 times what they are
    found = text('reduction/ext4-fio-zeros.txt')
    for blocks in ('699976', '700608'):
        found = found.replace(f' {blocks} ', f' {int(blocks) * 512} ')
    said = rejects(READER, reduction.parse, found,
                   'ext2/ext3 stored 51200 % of the 717094912 bytes')
    assert 'no file system stores more than 110 % and 1 MiB a file' in said


@pytest.mark.parametrize('old, new, said', [
    # TOTAL against its rows
    ('TOTAL       93%     181272576', 'TOTAL       93%     181272577',
     "TOTAL disk usage is 181272577 bytes, its rows' (none, zstd) "
     '181272576'),
    ('192937984    192937984   \n', '192937984    192937983   \n',
     "TOTAL referenced size is 192937983 bytes, its rows' (none, zstd) "
     '192937984'),
    # a row against its own bytes
    ('zstd        87%', 'zstd        86%', "zstd row says 86 % but"),
    ('none       100%     99614720     99614720',
     'none       100%     99614720     99614719', 'none row says 100 % but'),
    # the table against the files' bytes and blocks
    ('file 98959360 193280', 'file 98959360 183280',
     'the files\' st_blocks 187817984'),
    ('file 98959360 ', 'file 8959360 ', 'more than the 102937984 bytes'),
])
def test_a_compsize_table_that_does_not_add_up_is_rejected(old, new, said):
    rejects(READER, reduction.parse,
            _edited('reduction/btrfs-fio-default.txt', old, new), said)


def test_a_row_twice_or_no_row_of_a_type_is_rejected():
    found = text('reduction/btrfs-elbencho-random.txt')
    rows = found.splitlines(keepends=True)
    rejects(READER, reduction.parse, found + rows[-1], 'none row twice')
    rejects(READER, reduction.parse, ''.join(rows[:-1]),
            "has no row of a type")


def test_only_empty_files_wrote_nothing():
    rejects(READER, reduction.parse,
            'fstype ext2/ext3\nfile 0 0 /s/a\nfiles 1\n',
            'are empty: the sample wrote nothing')


def test_counts_beyond_18_digits_are_one_short_line():
    said = rejects(READER, reduction.parse,
                   f'fstype ext2/ext3\nfile {"9" * 400} 8 /s/a\nfiles 1\n',
                   'not a count (at most 18 digits)')
    assert len(said) < 200


# --- Made outputs ------------------------------------------------------------

SIZES = st.one_of(st.just(0), st.integers(1, 2 ** 40))


@st.composite
def ext4_witnesses(draw):
    '''(text, Stored) of a witness on a file system without compsize:
    files whose blocks hold their bytes, a block more at most.'''
    fstype = draw(st.sampled_from(['ext2/ext3', 'xfs', 'tmpfs', 'nfs',
                                   'UNKNOWN (0x2fc12fc1)']))
    files = draw(st.lists(SIZES, min_size=1, max_size=5).filter(any))
    rows, blocks = [f'fstype {fstype}'], []
    for number, size in enumerate(files):
        held = -(-size // 512) + draw(st.sampled_from([0, 0, 8]))
        blocks.append(held)
        rows.append(f'file {size} {held} /scratch/dir/file.{number}')
    rows.append(f'files {len(files)}')
    stored = reduction.Stored(fstype, len(files), sum(files),
                              512 * sum(blocks), 'st_blocks')
    return '\n'.join(rows) + '\n', stored


TYPES = ['none', 'zlib', 'lzo', 'zstd', 'prealloc', '?7']


@st.composite
def btrfs_witnesses(draw):
    '''(text, Stored) of a witness on btrfs with compsize: files, their
    blocks as btrfs counts the bytes it references, and a table whose rows
    hold their bytes and whose TOTAL adds up.'''
    sizes = draw(st.lists(st.integers(4096, 2 ** 36).map(
        lambda n: n // 4096 * 4096), min_size=1, max_size=4))
    written = sum(sizes)
    kinds = draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=3,
                          unique=True))
    # split the referenced bytes among the types, each with its disk
    cuts = sorted(draw(st.lists(st.integers(1, written - 1), unique=True,
                                max_size=len(kinds) - 1)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, written])]
    table = []
    for kind, part in zip(kinds, parts):
        disk = part if kind in ('none', 'prealloc') else \
            draw(st.integers(min(4096, part), part))
        table.append((kind, disk * 100 // part, disk, part, part))
    disk = sum(row[2] for row in table)
    rows = ['fstype btrfs']
    rows += [f'file {size} {size // 512} /mnt/file.{n}'
             for n, size in enumerate(sizes)]
    rows += [f'files {len(sizes)}',
             f'Processed {len(sizes)} file{"s" if len(sizes) > 1 else ""}, '
             f'9 regular extents (9 refs), 0 inline.',
             'Type       Perc     Disk Usage   Uncompressed Referenced  ',
             f'TOTAL     {disk * 100 // written:3d}%     {disk:<12} '
             f'{written:<12} {written:<12}']
    rows += [f'{kind:<10} {perc:3d}%     {d:<12} {u:<12} {r:<12}'
             for kind, perc, d, u, r in table]
    stored = reduction.Stored('btrfs', len(sizes), written, disk,
                              'compsize')
    return '\n'.join(rows) + '\n', stored


@PROPERTIES
@given(st.one_of(ext4_witnesses(), btrfs_witnesses()))
def test_a_made_witness_is_read_as_made(made):
    found_text, stored = made
    note(found_text)

    def right(found):
        assert found == stored

    holds(READER, reduction.parse, found_text, right)


def _nudge(draw, found_text):
    '''One edit that makes a made witness wrong, and what it did.'''
    rows = found_text.split('\n')[:-1]
    files = [i for i, row in enumerate(rows) if row.startswith('file ')]
    table = [i for i, row in enumerate(rows)
             if len(row.split()) == 5 and row.split()[1].endswith('%')]
    edits = ['blocks beyond any file system', 'a file line dropped',
             'the count off by one']
    if table:
        edits += ['a disk usage off by a byte', 'a percentage off by one',
                  'the files processed off by one']
    edit = draw(st.sampled_from(edits))
    if edit == 'blocks beyond any file system':
        at = draw(st.sampled_from(files))
        written = sum(int(rows[i].split(' ')[1]) for i in files)
        _, size, blocks, path = rows[at].split(' ', 3)
        more = (2 * written + reduction.SLACK * len(files)) // 512 + 1
        rows[at] = f'file {size} {int(blocks) + more} {path}'
    elif edit == 'a file line dropped':
        rows.pop(draw(st.sampled_from(files)))
    elif edit == 'the count off by one':
        at = next(i for i, row in enumerate(rows) if row.startswith('files'))
        rows[at] = f'files {int(rows[at][6:]) + 1}'
    elif edit == 'the files processed off by one':
        at = next(i for i, row in enumerate(rows)
                  if row.startswith('Processed'))
        count, rest = rows[at][10:].split(' ', 1)
        rows[at] = f'Processed {int(count) + 1} {rest}'
    else:
        at = draw(st.sampled_from(table))
        kind, perc, disk, *rest = rows[at].split()
        if edit == 'a disk usage off by a byte':
            disk = str(int(disk) + draw(st.sampled_from([-1, 1])))
        else:
            perc = f'{(int(perc[:-1]) + 1) % 101}%'
        rows[at] = ' '.join([kind, perc, disk, *rest])
    return edit, '\n'.join(rows) + '\n'


@PROPERTIES
@given(st.one_of(ext4_witnesses(), btrfs_witnesses()), st.data())
def test_a_made_witness_edited_is_rejected(made, data):
    edit, broken = _nudge(data.draw, made[0])
    note(f'{edit}:\n{broken}')
    rejects(READER, reduction.parse, broken)
