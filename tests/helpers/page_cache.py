'''Files in known states of the page cache, for the tests of the witnesses
that ask fincore: written around it (O_DIRECT), written through it and
kept, written through it and then dropped, whole or in part.'''

import os
import subprocess

import pytest

from microbench.units import MIB


def write_direct(path, mib=8):
    '''``mib`` MiB of zeros written to ``path`` with O_DIRECT (dd); the
    test is skipped where the file system refuses O_DIRECT.'''
    done = subprocess.run(['dd', 'if=/dev/zero', f'of={path}', 'bs=1M',
                           f'count={mib}', 'oflag=direct'],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f'O_DIRECT is refused here: {done.stderr.strip()}')


def write_dropped(path, mib=8, dropped=0):
    '''``mib`` MiB of random bytes written to ``path``, synced, then the
    first ``dropped`` bytes' pages dropped (``posix_fadvise(DONTNEED)``;
    0: all of them).  The test is skipped on tmpfs, which keeps every
    page (it has no storage to drop them to).'''
    fstype = subprocess.run(['findmnt', '-n', '-o', 'FSTYPE', '-T',
                             os.path.dirname(path)], capture_output=True,
                            text=True).stdout.strip()
    if fstype == 'tmpfs':
        pytest.skip('tmpfs keeps every page: no storage under it to drop '
                    'them to')

    with open(path, 'wb') as fp:
        fp.write(os.urandom(mib * MIB))
        fp.flush()
        os.fsync(fp.fileno())
        os.posix_fadvise(fp.fileno(), 0, dropped, os.POSIX_FADV_DONTNEED)
