'''Every example facility partition: ReFrame --dry-run generates job scripts
with the partition's scheduler directives and launcher lines.'''

import glob
import os

import pytest

import suite

DIRECTIVE = {'slurm': '#SBATCH', 'pbs': '#PBS'}
LAUNCH = {'srun': 'srun', 'mpirun': 'mpirun -np 1'}


@pytest.mark.parametrize('name', sorted(suite.facility_partitions()))
def test_dry_run(name, tmp_path):
    part = suite.facility_partitions()[name]
    proc = suite.reframe('--dry-run', '--system', name,
                         '--prefix', str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'Ran 14/14 test case(s)' in proc.stdout

    # The benchmark jobs: one rounds job per pitfall
    stage = os.path.join(tmp_path, 'stage', *name.split(':'))
    scripts = sorted(glob.glob(os.path.join(stage, '*', 'fio_*_rounds_*',
                                            'rfm_job.sh')))
    assert len(scripts) == 3

    launch = LAUNCH[part['launcher']]
    directive = DIRECTIVE[part['scheduler']]
    for script in scripts:
        with open(script) as fp:
            text = fp.read()

        lines = text.splitlines()
        for option in part['access']:
            assert f'{directive} {option}' in lines, script

        # Every sample of every variant runs fio through the launcher
        assert f'{launch} fio $args' in lines, script
        assert 'for sample in $(seq 1 3); do' in lines
        assert part['extras']['scratch'] in text
        commands = [ln for ln in lines
                    if ln.startswith('echo "microbench: command: ')]
        assert commands and all(f': {launch} fio --name=' in ln
                                for ln in commands), script
        if 'fio_fallocate' in script:
            witnesses = [ln.strip() for ln in lines
                         if ln.strip().startswith(f'{launch} strace -f -c')]
            assert len(witnesses) == 2, script
