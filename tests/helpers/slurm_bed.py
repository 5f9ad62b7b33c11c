'''The Slurm test cluster (ci/slurm_testbed.sh) started for a test module
and stopped after it: one fixture body for every module that runs it.'''

import contextlib
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


def namespace(node):
    '''The network namespace of ``node`` (ci/slurm_testbed.sh's
    netns_of).'''
    return f'mbslurm-{node}'


def address(node):
    '''``node``'s IPv4 address on the test cluster's bridge.'''
    shown = subprocess.run(['ip', '-n', namespace(node), '-4', '-o', 'addr',
                            'show', 'dev', 'eth0'], capture_output=True,
                           text=True, timeout=60)
    found = re.search(r'inet (\d+\.\d+\.\d+\.\d+)/', shown.stdout)
    assert found, f'no address of {node}: {shown.stdout} {shown.stderr}'
    return found.group(1)


@contextlib.contextmanager
def slow_link(first, second, rate='2mbit'):
    '''The link between two nodes of the test cluster made slow for real:
    on each node's interface, what it sends to the other goes through an
    htb class capped at ``rate`` (a link trained down, as a bad cable or
    port is), everything else through one at 10 Gbit/s; removed on the
    way out.  Skips, saying why, where tc cannot make an htb (this
    machine's kernel has htb and u32, not netem).'''
    made = []
    try:
        for here, there in ((first, second), (second, first)):
            ns = namespace(here)
            steps = [
                ['qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:',
                 'htb', 'default', '10'],
                ['class', 'add', 'dev', 'eth0', 'parent', '1:', 'classid',
                 '1:10', 'htb', 'rate', '10gbit'],
                ['class', 'add', 'dev', 'eth0', 'parent', '1:', 'classid',
                 '1:20', 'htb', 'rate', rate, 'ceil', rate],
                ['filter', 'add', 'dev', 'eth0', 'parent', '1:', 'protocol',
                 'ip', 'prio', '1', 'u32', 'match', 'ip', 'dst',
                 f'{address(there)}/32', 'flowid', '1:20']]
            for step in steps:
                done = subprocess.run(['tc', '-n', ns, *step],
                                      capture_output=True, text=True,
                                      timeout=60)
                if done.returncode != 0:
                    pytest.skip(f'tc {" ".join(step[:2])} in {ns}: '
                                f'{done.stderr.strip()}')
                if step[0] == 'qdisc':
                    made.append(ns)
        yield
    finally:
        for ns in made:
            subprocess.run(['tc', '-n', ns, 'qdisc', 'del', 'dev', 'eth0',
                            'root'], capture_output=True, timeout=60)
