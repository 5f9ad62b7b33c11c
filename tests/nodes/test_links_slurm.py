'''``microbench links`` end to end on the Slurm test cluster with six
nodes (15 links), real fi_pingpong between the nodes' network namespaces:

- one link made slow for real (slurm_bed.slow_link: an htb class at
  1 Mbit/s on both nodes' interfaces for what each sends the other, a
  link trained down; this machine's kernel has no netem): found, and
  found in fewer runs than the 15 pairs one by one;
- no link slowed: no bad link named (the search may take more runs where
  a busy machine's noise makes a clean run look slow: each is then cleared
  by its pair alone);
- a run that fails (a provider that does not exist): the search stops,
  naming the link, the side and fi_pingpong's exit status.

The margin is 0.8 (a run is slow where its slowest link is below 0.2 of
its median link): 6 nodes on this machine's 2 cores ping-pong 15 links at
once, and a clean run's slowest link was seen at 0.45 of its median; the
slowed link at 0.02 to 0.06 (beside a CPU and disk load).  Skipped,
saying why, without root, the test cluster, fi_pingpong (apt
libfabric-bin) or tc's htb.
'''

import os
import shutil
import subprocess
import sys

import pytest

from microbench.nodes import links_json

import slurm_bed

pytestmark = [pytest.mark.e2e, pytest.mark.slurm]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
SLOW = ('mbnode2', 'mbnode5')
#: 5 ping-pongs of 64 KiB: a run through the slowed link takes about 5 s
SHORT = ('--size', '65536', '--iterations', '5', '--margin', '0.8')
#: The slowed link's rate: 0.12 MiB/s, 0.02 to 0.06 of a run's median
#: link beside a CPU and disk load, where clean runs gave 0.54 or more
RATE = '1mbit'


@pytest.fixture(scope='module')
def six():
    '''The test cluster with six nodes, its environment.'''
    if shutil.which('fi_pingpong') is None:
        pytest.skip('fi_pingpong is not installed (apt-get install '
                    'libfabric-bin)')
    if os.geteuid() != 0:
        pytest.skip('the test cluster needs root')
    bed = slurm_bed.started(nodes=6)
    found = next(bed)
    yield {**os.environ, **found}
    next(bed, None)


def search(env, tmp_path, *args):
    out = tmp_path / 'links.json'
    proc = subprocess.run(
        [MICROBENCH, 'links', '--system', 'slurm_testbed:shared', *SHORT,
         '--json', str(out), *args], capture_output=True, text=True,
        timeout=1200, env=env)
    return proc, out


def test_a_slow_link_is_found_in_fewer_runs_than_pairs(six, tmp_path):
    with slurm_bed.slow_link(*SLOW, rate=RATE):
        proc, out = search(six, tmp_path)
    print(proc.stdout)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = links_json.read(str(out))
    assert (doc['status'], tuple(doc['link'])) == ('found', SLOW)
    assert len(doc['runs']) < 15
    assert proc.stdout.splitlines()[-1].startswith(
        f'link {"-".join(SLOW)} found in {len(doc["runs"])} runs')
    confirmation = doc['runs'][-1]
    assert confirmation['links'] == ['-'.join(SLOW)]
    assert confirmation['outcome'] == 'slow'
    # the evidence: the slowed link's own figure, far below a healthy one
    assert confirmation['link_mib_s']['-'.join(SLOW)] < 1


def test_no_link_slowed_names_none(six, tmp_path):
    proc, out = search(six, tmp_path)
    print(proc.stdout)
    doc = links_json.read(str(out))
    assert doc['link'] is None, proc.stdout
    assert (proc.returncode, doc['status']) == (0, 'no bad link seen'), \
        proc.stdout
    assert not subprocess.run(['pgrep', '-x', 'fi_pingpong'],
                              capture_output=True).stdout


def test_a_failed_run_names_the_link_and_the_exit(six, tmp_path):
    proc, out = search(six, tmp_path, '--provider', 'nosuchprov',
                       '--timeout', '10')
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = links_json.read(str(out))
    assert doc['status'] == 'run failed' and len(doc['runs']) == 1
    assert 'link mbnode1-mbnode2' in doc['runs'][0]['why']
    assert 'fi_pingpong exited' in doc['runs'][0]['why']
    assert 'run 1 failed (ring' in proc.stdout
