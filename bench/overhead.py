#!/usr/bin/env python3
'''How much does running the fio checks through ReFrame cost?

Runs the three fio checks (and their gaps) in the quick mode through ReFrame
on the local default, then runs the very same commands directly, in the same
order and with the same cleanup between samples (the witness runs, then the
rounds: one sample of every variant per round, emptying the scratch directory
after each): the fio command lines are read back from what each job
recorded.  Prints both wall times and their ratio; the
target is a ratio of at most 1.10.

The jobs replayed are exactly those that ran: every rounds job the
session's report lists as run (not skipped), its records read where
ReFrame left them (the output folder, or the stage directory it keeps
for a fixture one of whose checks was skipped, as fio_cache_flags'
``dontcache`` is with a fio older than 3.40), and of each job exactly
the witnesses, warm-up rounds and samples it recorded, in its order.  A
job missing, a sample the records do not account for, or a job that
waited for the benchmark lock (another run's benchmark is then in the
time through ReFrame) ends the bench with one line and exit 2
(:mod:`claims`): a ratio over part of the jobs is not the overhead.  The
direct replay takes the same lock.

    .venv/bin/python bench/overhead.py [--repeat N]
'''

import argparse
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import claims
from microbench import paths
from microbench.suite import records

ROOT = paths.ROOT

TARGET = 1.10

#: The paper's three fio checks (not the field's later ones)
CHECKS = ('fio_cache_flags', 'fio_fallocate', 'fio_time_based_overwrite')


def through_reframe(tmp):
    env = dict(os.environ, RFM_CONFIG_FILES=paths.CONFIG,
               RFM_SQLITE_DB_FILE=os.path.join(tmp, 'results.db'))
    argv = [os.path.join(os.path.dirname(sys.executable), 'reframe'),
            '-c', paths.CHECKS,
            '-n', f'^({"|".join(CHECKS)})',
            '--mode', 'quick', '-r', '--prefix', tmp,
            '--perflogdir', os.path.join(tmp, 'perflogs'),
            '--report-file', os.path.join(tmp, 'report.json')]
    start = time.monotonic()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        print(proc.stdout[-3000:], file=sys.stderr)
        why = re.findall(r'^\s*\* Reason: (.*)$', proc.stdout, re.M)
        raise claims.Mismatch(f'the ReFrame run exited with code '
                              f'{proc.returncode}: '
                              f'{"; ".join(why) or "(see above)"}')

    return elapsed


def ran_jobs(report_file):
    '''{name: (path of its job's standard output or None, its test case)}
    of every rounds job the session ran: its report's fixtures that were
    not skipped (their output in the output folder, or in the stage
    directory ReFrame kept).'''
    with open(report_file) as fp:
        report = json.load(fp)
    jobs = {}
    for run in report['runs']:
        for case in run['testcases']:
            if not case.get('fixture') or case['result'] == 'skip':
                continue
            if case['result'] != 'pass':
                raise claims.Mismatch(f'rounds job {case["name"]}: '
                                      f'{case["result"]}, '
                                      f'{case.get("fail_reason")}')
            found = [os.path.join(folder, case['job_stdout'])
                     for folder in (case['outputdir'], case['stagedir'])
                     if folder]
            jobs[case['name']] = (next(
                (path for path in found if os.path.exists(path)), None), case)
    return jobs


def recorded_jobs(report_file):
    '''The records of every rounds job that ran, in the order the jobs
    ran: exactly those the report lists (:func:`ran_jobs`), each with
    every sample its variants ran.'''
    ran = ran_jobs(report_file)
    jobs = {}
    for name, (path, case) in ran.items():
        if path is not None:
            with open(path) as fp:
                jobs[name] = records.parse(fp.read())
    claims.check('rounds jobs whose records were found', set(jobs),
                 set(ran))
    claims.check('rounds jobs of the checks measured',
                 {name.split(' ')[0] for name in jobs},
                 {f'{check}_rounds' for check in CHECKS})
    for name, recs in jobs.items():
        case = ran[name][1]
        for key in ('start', 'end', 'scratch'):
            claims.check(f'{key} records of {name}', len(recs.get(key, [])),
                         1)
        variants = {c.split(': ', 1)[0] for c in recs.get('command', [])}
        dropped = {value.split(': ', 1)[0] for key in ('unsupported', 'failed')
                   for value in recs.get(key, [])}
        # a wait for the lock is another run's benchmark in the time
        # through ReFrame
        claims.check(f'seconds {name} waited for the benchmark lock (held '
                     f'by another run)', sum(
                         float(waited)
                         for waited in recs.get('lock_waited', [])), 0)
        for key, rounds in (('sample', case['samples']),
                            ('warmup', case.get('warmup_rounds') or 0)):
            claims.check(f'{key} records of {name}',
                         len(recs.get(key, [])),
                         len(variants - dropped) * rounds)
    return sorted(jobs.values(), key=lambda recs: float(recs['start'][0]))


def replayed(recs):
    '''[command] of one job, in the order it ran them: its witnesses,
    then its warm-up rounds and samples, each as its records name it.'''
    commands = dict(c.split(': ', 1) for c in recs['command'])
    out = [witness.split(': ', 1)[1] for witness in recs.get('witness', [])]
    for key in ('warmup', 'sample'):
        for value in recs.get(key, []):
            out.append(commands[value.split(': ', 1)[0]])
    claims.check('Darshan witnesses, which a replay does not run',
                 len(recs.get('darshan', [])), 0)
    return out


def directly(jobs, workdir):
    '''Run the recorded commands as the jobs did: the witnesses, then the
    rounds, one sample of every variant per round; (seconds, commands
    run).'''
    def sh(command):
        done = subprocess.run(command, shell=True, cwd=workdir,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        if done.returncode != 0:
            raise claims.Mismatch(f'a replayed command exited with code '
                                  f'{done.returncode}: {command[:200]}')

    # one benchmark at a time on this node, as the jobs took it
    lock = open(f'/tmp/microbench-{os.getuid()}.lock', 'a')
    fcntl.flock(lock, fcntl.LOCK_EX)
    start = time.monotonic()
    ran = 0
    for recs in jobs:
        scratch = recs['scratch'][0]
        os.makedirs(scratch)
        empty = f'find {scratch} -mindepth 1 -delete; sync -f {scratch}'
        for command in replayed(recs):
            sh(command)
            sh(empty)
            ran += 1

        shutil.rmtree(scratch)

    took = time.monotonic() - start
    lock.close()
    return took, ran


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=1,
                        help='measure this many times (default 1)')
    args = parser.parse_args()
    ratios = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(dir=ROOT, prefix='.overhead-') as tmp:
            t_reframe = through_reframe(tmp)
            jobs = recorded_jobs(os.path.join(tmp, 'report.json'))
            t_direct, ran = directly(jobs, tmp)

        claims.check('commands replayed directly', ran, sum(
            len(recs.get(key, [])) for recs in jobs
            for key in ('witness', 'warmup', 'sample')))
        ratio = t_reframe / t_direct
        ratios.append(ratio)
        in_jobs = (float(jobs[-1]['end'][0]) - float(jobs[0]['start'][0]))
        print(f'{len(jobs)} benchmark jobs ({ran} commands): through '
              f'ReFrame {t_reframe:.1f} s '
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
    claims.main(main)
