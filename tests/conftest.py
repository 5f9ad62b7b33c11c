'''File systems the end-to-end tests mount (as root) to provoke faults.'''

import subprocess

import pytest


def _mounted(path, *options):
    path.mkdir()
    mount = subprocess.run(['mount', *options, str(path)],
                           capture_output=True, text=True)
    if mount.returncode != 0:
        pytest.skip(f'cannot mount {options} here: {mount.stderr.strip()}')

    yield path
    subprocess.run(['umount', str(path)], check=True)


@pytest.fixture
def ramfs(tmp_path):
    '''A ramfs: it rejects O_DIRECT (tmpfs accepts it since Linux 6.6).'''
    yield from _mounted(tmp_path / 'ramfs', '-t', 'ramfs', 'ramfs')


@pytest.fixture
def tiny_fs(tmp_path):
    '''A 1 MiB tmpfs: a file system that fills up.'''
    yield from _mounted(tmp_path / 'tiny', '-t', 'tmpfs', '-o', 'size=1m',
                        'tmpfs')
