'''IO500's read after read in a dry run: a partition's job of 4 nodes
runs ``ior_page_cache``'s ``reread`` (the read two nodes away, ``-C -Q
2``, after the read one node away, ``-C -Q 1``); on 2 nodes and on 1 the
variant is left out of the job and its check skipped, saying why.'''

import os
import subprocess

import pytest

import project
from job_scripts import scripts, settings

PARTITION = 'slurm_cluster:lustre'
RANKS = 'srun --nodes={n} --ntasks={t} --ntasks-per-node=2'
SHAPE = '-o $scratch/testfile -F -t 1m -b 64g -s 1'
KEPT = '-e -k -O stoneWallingStatusFile=ior-stonewall.txt'


@pytest.fixture(scope='module', params=[4, 2, 1])
def dry_run(request, tmp_path_factory):
    nodes = request.param
    tmp = tmp_path_factory.mktemp(f'reread{nodes}')
    proc = project.reframe('--dry-run', '--system', PARTITION, '-n',
                           '^ior_page_cache', '-S', f'num_nodes={nodes}',
                           '--prefix', str(tmp))
    stage = os.path.join(tmp, 'stage', *PARTITION.split(':'))
    found = scripts(stage, 'ior_page_cache_rounds_*')
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(found) == 1, found
    # The job script, its three runs and their redirections, is
    # shellcheck-clean (SC2016: settings in single quotes are literal on
    # purpose, as tests/suite/test_dry_run.py says)
    check = subprocess.run(['shellcheck', '-x', '-e', 'SC2016',
                            os.path.basename(found[0])],
                           cwd=os.path.dirname(found[0]),
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
    return nodes, proc.stdout, settings(found[0])


def test_the_read_after_read_in_the_job(dry_run):
    nodes, out, job = dry_run
    if nodes >= 3:
        four_nodes_read_two_nodes_away_after_one(out, job)
    else:
        fewer_nodes_leave_it_out_saying_why(nodes, out, job)


def four_nodes_read_two_nodes_away_after_one(out, job):
    assert {'easy.reread', 'hard.reread'} <= set(job['variants'])
    ranks = RANKS.format(n=4, t=8)
    write, first, second = job['commands']['easy.reread'].split(' && ')
    assert write == (f'{ranks} ior -w {SHAPE} -D 30 -O stoneWallingWearOut=1 '
                     f'{KEPT} -O summaryFormat=JSON -O summaryFile=ior.json')
    assert first == (f'{ranks} ior -r {SHAPE} -C -Q 1 {KEPT} -O '
                     f'summaryFormat=JSON -O summaryFile=ior-read.json > '
                     f'ior-read.out')
    assert second == (f'{ranks} ior -r {SHAPE} -C -Q 2 {KEPT} -O '
                      f'summaryFormat=JSON -O summaryFile=ior-reread.json > '
                      f'ior-reread.out')
    # Every run's outputs kept per sample
    assert {'ior-read.json', 'ior-read.out', 'ior-reread.json',
            'ior-reread.out'} <= set(job['outputs'])
    # The Darshan witness: the same three runs, short, under Darshan
    darshan = job['darshans']['easy.reread'].split(' && ')
    assert len(darshan) == 3 and ' -C -Q 2 ' in darshan[2]
    assert all('DXT_ENABLE_IO_TRACE=1' in run for run in darshan)
    assert ' -D 1 ' in darshan[0]
    # The residency witness: fincore on every node right before the read
    # two nodes away
    witness = job['witnesses']['easy.reread'].split(' && ')
    assert len(witness) == 4 and 'residency.sh' in witness[2]
    assert ' -C -Q 1 ' in witness[1] and ' -C -Q 2 ' in witness[3]
    assert '] ior_page_cache %shape=easy %defence=reread' in out
    assert 'SKIP' not in out


def fewer_nodes_leave_it_out_saying_why(nodes, out, job):
    assert not any(v.endswith('.reread') for v in job['variants'])
    assert not any('-Q 2' in c for c in job['commands'].values())
    why = {1: 'on 1 node every task reads what its own node wrote',
           2: 'on 2 nodes two nodes away is the writing node itself'}[nodes]
    for shape in ('easy', 'hard'):
        skipped = [ln for ln in out.splitlines()
                   if f'%shape={shape} %defence=reread' in ln
                   and 'SKIP' in ln]
        assert len(skipped) == 1 and why in skipped[0], out
