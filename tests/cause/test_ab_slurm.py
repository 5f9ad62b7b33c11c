'''``microbench ab`` through the real Slurm test cluster
(ci/slurm_testbed.sh: two nodes on this machine, Debian's Slurm): both
stacks in one allocation on the same nodes, each further batch another job
pinned to the first one's nodes (``-J nodelist=...``), the nodes and job ids
of every batch recorded.  Skipped with the test cluster's own reason where
it cannot start (not root, no Slurm).'''

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import project
import slurm_bed
from microbench.cause import ab_json
from microbench.verdicts import figures, storage

pytestmark = [pytest.mark.e2e, pytest.mark.slurm]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
NODES = {'mbnode1', 'mbnode2'}


@pytest.fixture(scope='module')
def slurm():
    '''The test cluster, started for this module and stopped after it.'''
    if not shutil.which('fio'):
        pytest.skip('fio is not installed (apt-get install fio)')
    yield from slurm_bed.started()


@pytest.fixture(scope='module')
def ran(slurm, tmp_path_factory):
    '''An A/A of apt's fio on the node-local partition: a first batch of
    three pairs of rounds, then one more, pinned.'''
    tmp = tmp_path_factory.mktemp('ab-slurm')
    fio = os.path.dirname(os.path.realpath(shutil.which('fio')))
    proc = subprocess.run(
        [MICROBENCH, 'ab', 'fio_fallocate', '--a', fio, '--aa',
         '--system', 'slurm_testbed:node_local', '--mode', 'quick',
         '--first', '3', '--batch', '1', '--cap', '4', '--db',
         str(tmp / 'ab.db'), '--json', str(tmp / 'ab.json')],
        capture_output=True, text=True, timeout=3600, cwd=project.ROOT,
        env={**os.environ, **slurm, 'RFM_CONFIG_FILES': project.CONFIG})
    # an A/A may call a difference where the load changes within its
    # rounds (tests/cause/test_ab_e2e.py says why): exit 1 then, and only
    assert proc.returncode in (0, 1), proc.stdout[-4000:] + proc.stderr
    assert 'Traceback' not in proc.stdout + proc.stderr
    assert proc.returncode == int('B slower' in ab_json.read(
        str(tmp / 'ab.json')).counts)
    with open(os.path.join(os.path.dirname(slurm['SLURM_CONF']), 'log',
                           'jobcomp.txt')) as fp:
        ended = {m['id']: m for m in re.finditer(
            r'JobId=(?P<id>\d+) .*?JobState=(?P<state>\S+) .*?'
            r'NodeList=(?P<nodes>\S+)', fp.read())}
    return tmp, ab_json.read(str(tmp / 'ab.json')), ended


def test_both_stacks_ran_in_one_allocation_per_batch(ran):
    tmp, found, ended = ran
    batches = found.doc['batches']
    assert [b['pairs'] for b in batches] == [3, 1]
    for batch in batches:
        assert len(batch['jobs']) == 1 and re.fullmatch(r'\d+',
                                                        batch['jobs'][0])
        assert ended[batch['jobs'][0]]['state'] == 'COMPLETED'
        blob, _ = storage.session(str(tmp / 'ab.db'), batch['session'])
        cases = [case for case in json.loads(blob)['runs'][-1]['testcases']
                 if case.get('perfvalues')]
        # every figure of both sides measured by that one job
        assert {case['stack'][:2] for case in cases} == {'A:', 'B:'}
        assert {case['job_id'] for case in cases} == set(batch['jobs'])


def test_the_second_batch_ran_on_the_first_ones_nodes(ran):
    tmp, found, ended = ran
    first, second = found.doc['batches']
    assert set(first['nodes']) <= NODES and first['nodes']
    assert second['nodes'] == first['nodes']
    assert ended[second['jobs'][0]]['nodes'] == \
        ended[first['jobs'][0]]['nodes']
    assert found.nodes == first['nodes']
    assert found.jobs == first['jobs'] + second['jobs']
    info = storage.session(str(tmp / 'ab.db'), second['session'])[0]
    cmdline = json.loads(info)['session_info']['cmdline']
    assert f'-J nodelist={",".join(first["nodes"])}' in cmdline
    assert figures.sessions('?kind=="ab"', str(tmp / 'ab.db')) == [
        first['session'], second['session']]
