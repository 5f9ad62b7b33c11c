'''The Slurm test cluster after its daemons died without a stop (the
machine restarted, or they were killed): its directory is still there, none
of its daemons runs, and start replaces it instead of refusing ("already
set up"), the way it removes any other leftover.  A clean-clone CI once
failed every test-cluster test on such a directory.

Runs with the real daemons, as root where the test cluster can start
(ci/slurm_testbed.sh preflight); elsewhere it is skipped, saying why.
About 20 s.'''

import glob
import os
import signal
import subprocess
import time

import pytest

from slurm_bed import CANNOT_START, DIR, cluster

pytestmark = pytest.mark.slurm



def daemons():
    '''The process ids of the test cluster's daemons: those it spawned and
    every process in its nodes' namespaces.'''
    pids = set()
    for path in glob.glob(f'{DIR}/run/*.spawned'):
        with open(path) as fp:
            pids.add(int(fp.read()))
    names = subprocess.run(['ip', 'netns', 'list'], capture_output=True,
                           text=True, check=True).stdout.split()
    for name in names:
        if name.startswith('mbslurm-'):
            inside = subprocess.run(['ip', 'netns', 'pids', name],
                                    capture_output=True, text=True).stdout
            pids.update(int(pid) for pid in inside.split())
    return {pid for pid in pids if os.path.exists(f'/proc/{pid}')}


def kill_all():
    '''SIGKILL every daemon of the test cluster, as a restart would end
    them: no stop runs.'''
    for pid in daemons():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 30
    while daemons() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not daemons()


@pytest.fixture
def host():
    '''A machine that can start the test cluster and runs none now.'''
    if os.geteuid() != 0:
        pytest.skip(f'needs root (namespaces, a bridge, slurmd), '
                    f'uid {os.geteuid()}')
    if cluster('status').returncode == 0:
        pytest.skip('a test cluster is already running here: '
                    'ci/slurm_testbed.sh stop')
    preflight = cluster('preflight')
    if preflight.returncode == CANNOT_START:
        pytest.skip(preflight.stderr.strip())
    assert preflight.returncode == 0, preflight.stderr
    yield
    cluster('stop')


def test_start_replaces_a_cluster_whose_daemons_died(host):
    first = cluster('start')
    assert first.returncode == 0, first.stderr
    kill_all()
    assert os.path.exists(f'{DIR}/slurm.conf')
    assert cluster('status').returncode != 0

    again = cluster('start')
    assert again.returncode == 0, again.stderr
    assert (f'a test cluster is set up in {DIR} but none of its daemons '
            'runs') in again.stderr
    assert 'removing what an earlier test cluster left' in again.stderr
    assert cluster('status').returncode == 0

    stop = cluster('stop')
    assert stop.returncode == 0, stop.stderr
    assert 'stopped; nothing left' in stop.stderr


def test_start_still_refuses_a_running_cluster(host):
    first = cluster('start')
    assert first.returncode == 0, first.stderr
    again = cluster('start')
    assert again.returncode != 0
    assert 'already set up in' in again.stderr
    assert cluster('status').returncode == 0
