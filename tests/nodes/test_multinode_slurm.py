'''End to end: a multi-node run read per node names the slow node (issue
45, item 4).  The Slurm test cluster with four nodes, mbnode2 slow for
real (its slurmd, and so its job steps, in a cgroup whose writes to the
scratch disk, an ext4 on a loop device of its own, go at most 32 MiB/s),
runs ``elbencho_storage`` with a service on every node in one session;
every service's completion time (``--svcelapsed``) is recorded per node,
and the same-night rule names mbnode2 in the O_DIRECT write of a
preallocated file, and no other node.

Needs root, the test cluster and elbencho (``MICROBENCH_ELBENCHO_BINDIR``,
or on PATH; not packaged: Spack or a build); skipped, saying why, where
one is missing.  About 95 s.'''

import json
import os
import subprocess
import sys

import pytest

import disks
import project
import slurm_bed
from microbench.nodes import multinode, outliers
from microbench.verdicts import figures

pytestmark = pytest.mark.slurm

SYSTEM = 'slurm_testbed:shared'
SLOW = 'mbnode2'
BINDIR = os.environ.get('MICROBENCH_ELBENCHO_BINDIR', '')
SCRATCH = '/var/tmp/microbench-multinode'
REFRAME = os.path.join(os.path.dirname(sys.executable), 'reframe')


@pytest.fixture(scope='module')
def scratch_disk():
    if not project.installed('elbencho', BINDIR):
        pytest.skip('elbencho is not installed (not packaged: Spack, or '
                    'MICROBENCH_ELBENCHO_BINDIR=DIR)')
    with disks.throttled_scratch(SCRATCH) as device:
        yield device


@pytest.fixture(scope='module')
def four(scratch_disk):
    bed = slurm_bed.started(nodes=4)
    found = next(bed)
    yield {**os.environ, **found}
    next(bed, None)


def slurmd(node):
    with open(os.path.join(slurm_bed.DIR, 'run',
                           f'slurmd-{node}.spawned')) as fp:
        return int(fp.read().split()[0])


def test_the_throttled_node_is_named_by_its_services(four, scratch_disk,
                                                     tmp_path):
    report = tmp_path / 'report.json'
    env = {key: value for key, value in four.items()
           if not key.startswith('RFM_')}
    env['RFM_SQLITE_DB_FILE'] = str(tmp_path / 'results.db')
    with disks.write_throttle('microbench-multinode-e2e', scratch_disk,
                              32 * 2**20) as procs:
        with open(procs, 'w') as fp:
            fp.write(str(slurmd(SLOW)))
        proc = subprocess.run(
            [REFRAME, '-C', os.path.join(project.ROOT, 'systems',
                                         'config.py'),
             '-c', os.path.join(project.ROOT, 'reframe_tests'),
             '--system', SYSTEM, '-r', '--mode', 'quick',
             '-n', 'elbencho_storage%io=direct%allocation=prealloc',
             '-S', f'elbencho_bindir={BINDIR}', '-S', 'num_nodes=4',
             '-S', f'scratch_dir={SCRATCH}',
             '--prefix', str(tmp_path / 'prefix'),
             '--report-file', str(report)],
            capture_output=True, text=True, timeout=1800, env=env,
            cwd=project.ROOT)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    with open(report) as fp:
        found = multinode.newest(figures.frame([json.load(fp)]))[SYSTEM]
    print('\n' + multinode.vetting.text(found))
    assert found.slow() == [SLOW]
    result = next(result for result in found.judged.nodes[SLOW].results
                  if result.figure ==
                  'elbencho_storage direct.prealloc write_completion')
    assert result.state == outliers.SLOW and result.ratio > 2
