'''The processes a run left behind, told apart by who started them
(tests/helpers/processes.py): real processes, one with a Slurm job's
environment, one without.'''

import os
import subprocess

import processes

#: A command line no other process has
MARK = 'sleep 31.4159'


def test_a_slurm_jobs_process_and_a_local_one_are_told_apart():
    local = subprocess.Popen(MARK.split())
    env = {**os.environ, 'SLURM_JOB_ID': '7'}
    in_job = subprocess.Popen(['sh', '-c', f'exec {MARK}'], env=env)
    try:
        def pids(started_by=None):
            return {int(line.split()[0])
                    for line in processes.running(MARK, started_by)}

        assert pids() == {local.pid, in_job.pid}
        assert pids(processes.LOCAL) == {local.pid}
        assert pids(processes.SLURM_JOB) == {in_job.pid}
    finally:
        for proc in (local, in_job):
            proc.kill()
            proc.wait()
    assert processes.running(MARK) == []
