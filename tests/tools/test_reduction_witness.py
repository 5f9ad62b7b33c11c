'''S6's witness (microbench.suite.reduction): what a file system stored of
what a sample wrote, on the real outputs of the fio_data_reduction and
elbencho_data_reduction witnesses (a compressing btrfs and ext4), and run
on known inputs: a zero-filled and a random file on a compressing btrfs
made by the test (root), and on the test's own file system.'''

import os
import subprocess

import pytest

from microbench.suite import reduction
from microbench.suite.output import OutputError

from fixtures import text

#: real output -> (files, share stored): fio's 32 KiB O_DIRECT writes on a
#: btrfs mounted compress-force=zstd, elbencho's 1 MiB ones, and ext4
REAL = {
    'reduction/btrfs-fio-zeros.txt': (2, 0.125),
    'reduction/btrfs-fio-default.txt': (2, 0.9395),
    'reduction/btrfs-fio-incompressible.txt': (2, 1.0),
    'reduction/ext4-fio-zeros.txt': (2, 1.0),
    'reduction/ext4-fio-incompressible.txt': (2, 1.0),
    'reduction/btrfs-elbencho-same.txt': (1, 1.0),
    'reduction/btrfs-elbencho-half.txt': (1, 0.5156),
    'reduction/btrfs-elbencho-random.txt': (1, 1.0),
}


@pytest.mark.parametrize('name', REAL)
def test_real_witnesses(name):
    files, share = REAL[name]
    stored = reduction.parse(text(name))
    assert stored.files == files
    assert stored.stored / stored.written == pytest.approx(share, abs=1e-4)
    btrfs = name.startswith('reduction/btrfs')
    # btrfs' st_blocks counts compressed extents whole: compsize is read
    assert stored.tool == ('compsize' if btrfs else 'st_blocks')
    assert stored.fstype == ('btrfs' if btrfs else 'ext2/ext3')


def test_what_the_record_says():
    stored = reduction.parse(text('reduction/btrfs-fio-zeros.txt'))
    assert reduction.witness_text(stored, 'btrfs') == (
        'btrfs stored 12.5 % of the 448 MiB in 2 files the witness wrote '
        '(compsize: st_blocks does not show btrfs compression)')
    stored = reduction.parse(text('reduction/ext4-fio-zeros.txt'))
    # findmnt's name (the job's record) over statfs' ext2/ext3
    assert reduction.witness_text(stored, 'ext4').startswith(
        'ext4 stored 100.0 % of the 684 MiB in 2 files')


def _compsize_section(output):
    rows = output.splitlines(keepends=True)
    start = next(i for i, row in enumerate(rows)
                 if row.startswith('Processed '))
    return ''.join(rows[:start]), ''.join(rows[start:])


def test_btrfs_without_compsize_is_not_counted():
    head, _ = _compsize_section(text('reduction/btrfs-fio-zeros.txt'))
    stored = reduction.parse(head + 'compsize: not found\n')
    assert stored.stored is None and stored.tool is None
    assert reduction.witness_text(stored) == (
        'not run: compsize is missing on btrfs, whose st_blocks does not '
        'show compression')


def test_an_output_that_does_not_add_up_is_rejected():
    zeros = text('reduction/btrfs-fio-zeros.txt')
    head, compsize = _compsize_section(zeros)
    with pytest.raises(OutputError, match='btrfs.*compsize did not run'):
        reduction.parse(head)

    # compsize's count of another directory
    with pytest.raises(OutputError, match='compsize processed 1 files, the '
                                          'witness listed 2'):
        reduction.parse(head + compsize.replace('Processed 2 files',
                                                'Processed 1 files'))

    # compsize never runs on ext4
    ext4 = text('reduction/ext4-fio-zeros.txt')
    with pytest.raises(OutputError, match="'ext2/ext3', and compsize ran"):
        reduction.parse(ext4 + compsize)

    # a file line lost
    rows = ext4.splitlines(keepends=True)
    with pytest.raises(OutputError, match='2 files counted, 1 listed'):
        reduction.parse(''.join(rows[:1] + rows[2:]))

    # another output appended
    with pytest.raises(OutputError, match='is no line of the witness'):
        reduction.parse(ext4 + '{"fio version": "fio-3.40"}\n')


def _witness(directory):
    '''Run the witness's command on ``directory``, as the job does.'''
    done = subprocess.run(['bash', '-c', reduction.command(directory)],
                          capture_output=True, text=True, check=True)
    return reduction.parse(done.stdout)


def _write(path, data, count):
    with open(path, 'wb') as fp:
        for _ in range(count):
            fp.write(data())


def test_a_zero_filled_file_on_a_compressing_btrfs(btrfs):
    zeros, noise = os.path.join(btrfs, 'zeros'), os.path.join(btrfs, 'noise')
    os.mkdir(zeros)
    os.mkdir(noise)
    _write(os.path.join(zeros, 'file'), lambda: bytes(2**20), 64)
    _write(os.path.join(noise, 'file'), lambda: os.urandom(2**20), 64)
    zero, random = _witness(zeros), _witness(noise)
    assert (zero.tool, zero.fstype, zero.written) == ('compsize', 'btrfs',
                                                      64 * 2**20)
    # zstd stores a 128 KiB extent of zeros in one 4 KiB block: 1/32
    assert zero.stored / zero.written < 0.05
    assert random.stored / random.written > reduction.WHOLE


def test_a_zero_filled_file_on_a_file_system_that_does_not_reduce(tmp_path):
    _write(tmp_path / 'file', lambda: bytes(2**20), 16)
    stored = _witness(str(tmp_path))
    assert stored.tool == 'st_blocks'
    assert stored.written == 16 * 2**20
    if stored.fstype in ('ext2/ext3', 'xfs', 'tmpfs'):
        assert stored.stored >= stored.written
