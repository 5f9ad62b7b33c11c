'''The Prometheus test bed (ci/prometheus_testbed.sh) as the end-to-end
tests use it: started for a module, stopped after it, checked gone.'''

import os
import re
import subprocess
import time

import pytest

import project

TESTBED = os.path.join(project.ROOT, 'ci', 'prometheus_testbed.sh')


def bed(*args, env=None):
    return subprocess.run([TESTBED, *args], capture_output=True, text=True,
                          timeout=120, env=env)


def running(daemons, **variables):
    '''Start the test bed (its ``daemons``, whose pid files it writes;
    ``variables`` added to the environment), yield its variables, then
    stop it and check that its state and processes are gone; skipped, with
    the bed's reason, where it cannot start here (exit 77).'''
    began = time.monotonic()
    start = bed('start', env={**os.environ, **variables})
    if start.returncode == 77:
        pytest.skip(start.stderr.strip().splitlines()[-1])
    assert start.returncode == 0, start.stderr
    print(f'\ntest bed up in {time.monotonic() - began:.1f} s')
    env = dict(re.findall(r'^export (\w+)=(\S+)$', start.stdout, re.M))
    state = env['MICROBENCH_PROMETHEUS_TESTBED']
    pids = [int(open(os.path.join(state, f'{name}.pid')).read())
            for name in daemons]
    try:
        yield env
    finally:
        stop = bed('stop', state)
        assert stop.returncode == 0, stop.stderr
        assert not os.path.exists(state)
        assert not [pid for pid in pids if os.path.exists(f'/proc/{pid}')]
