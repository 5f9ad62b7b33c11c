'''``microbench vet`` end to end on the Slurm test cluster grown to five
nodes (``MICROBENCH_SLURM_NODES=5 ci/slurm_testbed.sh start``): one node
made slow for real, one whose jobs fail, and the vetting night naming
each as what it is.

- mbnode2 slow: a block-device write throttle of the scratch disk (an
  ext4 on a loop device of its own, so that nothing else is slowed; cgroup
  v2 ``io.max``, else cgroup v1 ``blkio.throttle.write_bps_device``) on
  its slurmd's cgroup; its jobs are slurmd's children (proctrack/
  linuxproc), so its O_DIRECT writes, and only its, go at most 32 MiB/s
  (far below what its peers write, even on a busy machine where theirs
  spread: the rule weighs a ratio against the samples' own spread; at
  8 MiB/s the throttled node's buffered samples took minutes to flush,
  the test 543 s, 173 s at 64 MiB/s with a CPU and a disk load beside;
  at 64 MiB/s a clean-clone CI once saw mbnode2's direct write within its
  peers', whose writes the busy machine had slowed too: 32 MiB/s since);
- mbnode5 failing: the scratch directory mounted read-only in its mount
  namespace (the node's own: ci/slurm_testbed.sh starts each slurmd in
  one), so its rounds job cannot write there and fails.

Wanted: exit 1, mbnode2 slow on fio_cache_flags's direct write with a
drain suggested, mbnode5 failed (never slow), no other node's direct write
slow; a node not in the partition refused in one line (exit 2); two nodes, too
few to judge one against its peers: skipped, saying why (exit 0).
Skipped, saying why, without root, the test cluster or a throttle.
'''

import json
import os
import subprocess
import sys

import pytest

import disks
import project
import processes
import slurm_bed

pytestmark = [pytest.mark.e2e, pytest.mark.slurm]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
RUN = os.path.join(os.environ.get('MICROBENCH_SLURM_TESTBED',
                                  '/tmp/microbench-slurm'), 'run')
#: The node-local scratch of systems/slurm_testbed.py
SCRATCH = '/var/tmp/microbench-testbed'
SYSTEM = 'slurm_testbed:node_local'
SLOW, FAILING = 'mbnode2', 'mbnode5'
#: The throttle of the slow node's writes, bytes/s
BPS = 32 * 2**20


@pytest.fixture(scope='module')
def scratch_disk():
    '''The nodes' scratch on a loop device of its own, mounted before the
    test cluster starts (each node's mount namespace is a copy of this
    one): the throttle slows that device only.  On the machine's own disk,
    the throttled node's writes, flushed at the throttle, held up every other
    test's ``sync -f`` of its scratch on that disk (a clean-clone CI: three
    skeleton tests timed out, a local test took 551 s); its MAJ:MIN.'''
    with disks.throttled_scratch(SCRATCH) as device:
        yield device


@pytest.fixture(scope='module')
def five(scratch_disk):
    '''The test cluster with five nodes, started for this module and
    stopped after it; its environment.'''
    bed = slurm_bed.started(nodes=5)
    found = next(bed)
    yield {**os.environ, **found}
    next(bed, None)
    assert not processes.running(r'slurmctld|slurmd|munged|slurmstepd')


def slurmd(node):
    '''The process id of ``node``'s slurmd.'''
    with open(os.path.join(RUN, f'slurmd-{node}.spawned')) as fp:
        return int(fp.read().split()[0])


@pytest.fixture
def throttled(five, scratch_disk):
    '''mbnode2's slurmd (and so its jobs) in a cgroup whose writes to the
    scratch disk go at most :data:`BPS`; moved back and removed after.'''
    with disks.write_throttle('microbench-vet-e2e', scratch_disk,
                              BPS) as procs:
        with open(procs, 'w') as fp:
            fp.write(str(slurmd(SLOW)))
        yield


@pytest.fixture
def read_only(five):
    '''The scratch directory read-only in mbnode5's mount namespace; put
    back after.'''
    os.makedirs(SCRATCH, exist_ok=True)
    enter = ['nsenter', '-t', str(slurmd(FAILING)), '-m']
    for cmd in (['mount', '--bind', SCRATCH, SCRATCH],
                ['mount', '-o', 'remount,bind,ro', SCRATCH]):
        made = subprocess.run([*enter, *cmd], capture_output=True,
                              text=True, timeout=60)
        assert made.returncode == 0, made.stderr
    yield
    subprocess.run([*enter, 'umount', SCRATCH], capture_output=True,
                   timeout=60)


def vet(env, tmp_path, *args):
    return subprocess.run(
        [MICROBENCH, '--db', str(tmp_path / 'results.db'), 'vet',
         '--system', SYSTEM, '--work', str(tmp_path / 'runs'), *args],
        capture_output=True, text=True, timeout=3600, env=env)


def test_a_slow_node_and_a_failed_one_are_named(five, throttled, read_only,
                                                tmp_path):
    out = tmp_path / 'night.json'
    proc = vet(five, tmp_path, *project.SHORT_FIO, '--json', str(out))
    assert proc.returncode == 1, proc.stdout[-4000:] + proc.stderr
    doc = json.loads(out.read_text())
    states = {item['node']: item['state'] for item in doc['nodes']}
    # the throttled figure names the throttled node and no other (on a
    # busy machine a short buffered or sync sample of another node may
    # stray: that is the machine's, not the throttle's)
    direct = {item['node']: row for item in doc['nodes']
              for row in item['figures']
              if row['figure'] == 'fio_cache_flags direct write'}
    said = '\ndirect write, each node\'s value and ratio to the peers: ' + \
        ', '.join(f'{node} {row.get("value")} {row.get("ratio")}'
                  for node, row in sorted(direct.items()))
    print(said)
    assert FAILING in doc['failed'], proc.stdout[-3000:]
    assert states.get(FAILING) in (None, 'failed'), states
    assert states[SLOW] == 'slow', said + proc.stdout[-3000:]
    assert direct[SLOW]['state'] == 'slow' and direct[SLOW]['ratio'] < 0.5
    assert {node for node, row in direct.items()
            if row['state'] == 'slow'} == {SLOW}, direct
    assert set(direct) - {FAILING} == {'mbnode1', 'mbnode2', 'mbnode3',
                                       'mbnode4'}
    assert direct.get(FAILING, {'state': 'failed'})['state'] == 'failed'
    slow = next(item for item in doc['nodes'] if item['node'] == SLOW)
    assert slow['drain'].startswith(f'scontrol update nodename={SLOW} '
                                    f'state=drain reason="')
    # the vetting sessions went to their own storage, beside the nights'
    assert (tmp_path / 'vetting.db').exists()
    assert not (tmp_path / 'results.db').exists()
    again = subprocess.run(
        [MICROBENCH, '--db', str(tmp_path / 'results.db'), 'nodes',
         '--partition', SYSTEM], capture_output=True, text=True,
        timeout=600, env=five)
    assert again.returncode == 1, again.stdout + again.stderr
    assert f'{SLOW}: fio_cache_flags direct write 0.' in again.stdout
    assert f'{FAILING}: failed' in again.stdout or \
        f'{FAILING}: fio_cache_flags' in again.stdout, again.stdout


def test_a_node_not_in_the_partition_is_refused(five, tmp_path):
    proc = vet(five, tmp_path, '--nodes', 'mbnode1,mbnode9')
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        'microbench vet: error: mbnode9: not a node of partition compute '
        '(its nodes: mbnode1, mbnode2, mbnode3, mbnode4, mbnode5)')
    assert not (tmp_path / 'runs').exists()


def test_too_few_nodes_are_not_vetted(five, tmp_path):
    proc = vet(five, tmp_path, '--nodes', 'mbnode1,mbnode3')
    assert proc.returncode == 0, proc.stderr
    assert 'vetting skipped: 2 node(s) to vet (mbnode1, mbnode3) of ' \
        'partition compute; each node is judged against at least 3 peers' \
        in proc.stdout
    assert not (tmp_path / 'runs').exists()
