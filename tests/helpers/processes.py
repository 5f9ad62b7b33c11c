'''The processes a run left behind, told apart by who started them.

The project's tests run the local default's benchmarks and the Slurm test
cluster's side by side, on one machine (tests/helpers/workers.py): a test
that looks for a benchmark still running looks at its own side's only.  A
process of a Slurm job has ``SLURM_JOB_ID`` in its environment (slurmstepd
sets it for the batch script, and every step and program inherit it); a
run on the local default has not.'''

import subprocess

#: Whose processes: a Slurm job's, or not
SLURM_JOB, LOCAL = 'a Slurm job', 'not a Slurm job'


def _started_by(pid):
    '''Whether the process ``pid`` is a Slurm job's (:data:`SLURM_JOB`) or
    not (:data:`LOCAL`); None once it has ended or is not ours to read.'''
    try:
        with open(f'/proc/{pid}/environ', 'rb') as fp:
            names = {var.partition(b'=')[0] for var in fp.read().split(b'\0')}
    except OSError:
        return None
    return SLURM_JOB if b'SLURM_JOB_ID' in names else LOCAL


def running(pattern, started_by=None):
    '''The ``pgrep -a -f`` lines of the processes whose command line
    matches ``pattern`` (pgrep's own left out): all of them, or only those
    ``started_by`` :data:`SLURM_JOB` or :data:`LOCAL`.'''
    found = subprocess.run(['pgrep', '-a', '-f', pattern],
                           capture_output=True, text=True).stdout
    lines = [line for line in found.splitlines() if 'pgrep' not in line]
    if started_by is None:
        return lines
    return [line for line in lines
            if _started_by(line.split(None, 1)[0]) == started_by]
