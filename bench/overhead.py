#!/usr/bin/env python3
'''How much does running the fio checks through ReFrame cost?

Runs the three fio checks (and their gaps) in the quick mode through ReFrame
on the local default, then runs the very same commands directly, in the same
order and with the same cleanup between samples (the witness runs, then the
rounds: one sample of every variant per round, emptying the scratch directory
after each): the fio command lines are read back from what each job
recorded.  Prints both wall times and their ratio; the
target is a ratio of at most 1.10.

    .venv/bin/python bench/overhead.py [--repeat N]
'''

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from microbench import paths
from microbench.suite import records

ROOT = paths.ROOT

TARGET = 1.10


def through_reframe(tmp):
    env = dict(os.environ, RFM_CONFIG_FILES=paths.CONFIG,
               RFM_SQLITE_DB_FILE=os.path.join(tmp, 'results.db'))
    argv = [os.path.join(os.path.dirname(sys.executable), 'reframe'),
            '-c', paths.CHECKS,
            # the paper's three fio checks (not the field's later ones)
            '-n', '^fio_(cache_flags|fallocate|time_based_overwrite)',
            '--mode', 'quick', '-r', '--prefix', tmp,
            '--perflogdir', os.path.join(tmp, 'perflogs'),
            '--report-file', os.path.join(tmp, 'report.json')]
    start = time.monotonic()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f'the ReFrame run failed:\n{proc.stdout[-3000:]}')

    return elapsed


def recorded_jobs(tmp):
    '''What each benchmark (rounds) job ran, in the order the jobs ran.'''
    jobs = []
    for path in glob.glob(os.path.join(tmp, 'output', '*', '*', '*', '*',
                                       'rfm_job.out')):
        with open(path) as fp:
            recs = records.parse(fp.read())

        if 'command' in recs:
            jobs.append(recs)

    return sorted(jobs, key=lambda recs: float(recs['start'][0]))


def directly(jobs, workdir):
    '''Run the recorded commands as the jobs did: the witnesses, then the
    rounds, one sample of every variant per round.'''
    def sh(command):
        subprocess.run(command, shell=True, cwd=workdir, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    start = time.monotonic()
    for recs in jobs:
        scratch = recs['scratch'][0]
        os.makedirs(scratch)
        empty = f'find {scratch} -mindepth 1 -delete; sync -f {scratch}'
        for witness in recs.get('witness', []):
            sh(witness.split(': ', 1)[1])
            sh(empty)

        commands = [c.split(': ', 1) for c in recs['command']]
        rounds = len(recs['sample']) // len(commands)
        for _ in range(rounds):
            for _, command in commands:
                sh(command)
                sh(empty)

        shutil.rmtree(scratch)

    return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=1,
                        help='measure this many times (default 1)')
    args = parser.parse_args()
    ratios = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(dir=ROOT, prefix='.overhead-') as tmp:
            t_reframe = through_reframe(tmp)
            jobs = recorded_jobs(tmp)
            t_direct = directly(jobs, tmp)

        ratio = t_reframe / t_direct
        ratios.append(ratio)
        in_jobs = (float(jobs[-1]['end'][0]) - float(jobs[0]['start'][0]))
        print(f'{len(jobs)} benchmark jobs: through ReFrame {t_reframe:.1f} s '
              f'({in_jobs:.1f} s from the first job\'s start to the last '
              f'one\'s end, {t_reframe - in_jobs:.1f} s of ReFrame before '
              f'and after), directly {t_direct:.1f} s, overhead ratio '
              f'{ratio:.3f} (target <= {TARGET:.2f})')

    worst = max(ratios)
    print(f'overhead ratio: median {statistics.median(ratios):.3f}, '
          f'max {worst:.3f} over {len(ratios)} measurement(s): '
          f'{"within" if worst <= TARGET else "ABOVE"} the target')
    return 0 if worst <= TARGET else 1


if __name__ == '__main__':
    sys.exit(main())
