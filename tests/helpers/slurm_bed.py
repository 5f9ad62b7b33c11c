'''The Slurm test cluster (ci/slurm_testbed.sh) started for a test module
and stopped after it: one fixture body for every module that runs it.'''

import os
import re
import subprocess

import pytest

import project

TESTBED = os.path.join(project.ROOT, 'ci', 'slurm_testbed.sh')
#: Its directory (MICROBENCH_SLURM_TESTBED unset, as in the e2e tests)
DIR = '/tmp/microbench-slurm'
#: start's and preflight's exit status when this machine cannot run it
CANNOT_START = 77


def cluster(*args, nodes=None):
    '''ci/slurm_testbed.sh ``args``, with ``nodes`` nodes where given
    (``MICROBENCH_SLURM_NODES``); the completed process.'''
    env = dict(os.environ)
    if nodes is not None:
        env['MICROBENCH_SLURM_NODES'] = str(nodes)
    return subprocess.run([TESTBED, *args], capture_output=True, text=True,
                          timeout=300, env=env)


def started(nodes=None):
    '''A module fixture's body: the test cluster started (skipped, saying
    why, where one runs already or it cannot start here), ``{'SLURM_CONF':
    its file}`` yielded, then stopped (an assertion that it stopped).'''
    if cluster('status').returncode == 0:
        pytest.skip('a test cluster is already running here: '
                    'ci/slurm_testbed.sh stop')
    start = cluster('start', nodes=nodes)
    if start.returncode != 0:
        reason = start.stderr.strip().splitlines()[-1:] or ['no reason']
        if 'cannot start:' in reason[0]:
            pytest.skip(reason[0])
        pytest.fail(f'ci/slurm_testbed.sh start failed: {start.stderr}')
    conf = re.search(r'export SLURM_CONF=(\S+)', start.stdout).group(1)
    yield {'SLURM_CONF': conf}
    stop = cluster('stop')
    assert stop.returncode == 0, stop.stderr
