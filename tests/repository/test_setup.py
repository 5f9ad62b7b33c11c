'''ci/apt_install.sh on a machine where another apt holds the locks, as a
fresh cloud VM's unattended upgrades do at boot: it waits, with a bound.'''

import fcntl
import os
import shutil
import subprocess
import threading
import time

import pytest

import project

SCRIPT = os.path.join(project.ROOT, 'ci', 'apt_install.sh')
LOCKS = ['/var/lib/apt/lists/lock', '/var/lib/dpkg/lock-frontend']

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which('apt-get')
    or not all(os.path.exists(os.path.dirname(p)) for p in LOCKS),
    reason='needs root and apt-get (Debian or Ubuntu)'
)


def hold_locks(seconds):
    '''Hold apt's and dpkg's locks for ``seconds``, as apt itself does
    (fcntl locks), in a thread; returns once they are held.'''
    held = threading.Event()

    def hold():
        files = [open(path, 'a') for path in LOCKS]
        for fp in files:
            fcntl.lockf(fp, fcntl.LOCK_EX)

        held.set()
        time.sleep(seconds)
        for fp in files:
            fp.close()

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(10)
    return thread


def install(timeout):
    return subprocess.run([SCRIPT, 'util-linux'], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ,
                               'MICROBENCH_APT_LOCK_TIMEOUT': str(timeout)})


def test_waits_for_another_apt():
    start = time.monotonic()
    thread = hold_locks(8)
    proc = install(120)
    thread.join()
    assert proc.returncode == 0, proc.stderr
    assert 'another apt holds its lock' in proc.stderr
    assert time.monotonic() - start >= 8


def test_gives_up_after_its_bound():
    thread = hold_locks(8)
    proc = install(0)
    thread.join()
    assert proc.returncode != 0
    assert 'Could not get lock' in proc.stderr
