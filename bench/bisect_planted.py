#!/usr/bin/env python3
'''The planted bisection of issue 43, run for real (a benchmark script,
not a timed test; root, the pinned Spack and the installed planted stacks).

``microbench bisect`` of the committed locks ``tests/data/spack/planted-a``
and ``--b`` (default ``planted-b``: they differ in six packages, five
groups; only fio ``+slowwrite``, the planted slow build of the test Spack
repository, makes O_DIRECT writes slower; ``planted-c``: the same diff with
the stronger fio ``+doublewrite``; ``planted-d``: planted-c's diff and three
bystanders, nine packages in eight groups: the bisection of k = 8), in
quick mode on one cheap fio check (``--check``,
default ``fio_data_reduction``: two O_DIRECT writers, three fills),
``--repeats`` times, each from nothing (its own A/B storage, a full A/B of
A against B, the steps concretized and installed anew; the install tree is
shared: no step compiles).

Before and after each run the machine is recorded: every block-device
throttle of any cgroup (v1 ``blkio.throttle.*_bps_device``, v2 ``io.max``),
the scratch disk's ``read_ahead_kb``, the load average; a throttle found
is said (another session's plant: its own cgroup's processes only, but
say it) and the run's figures are flagged.  The time the A/Bs waited for
the suite's benchmark lock (other sessions' benchmarks) is summed from
the runs' progress lines and reported beside the wall time.

What it ran is held to what it claims (:mod:`claims`, exit 2): the
bisection's locks are the committed planted locks, its k the groups the
library finds in them, the full A/B ran planted-a against B on the
check, every measured step's A/B ran planted-a against that step's
installed lock, whose fio is the ``+slowwrite`` build exactly where the
step moved fio (and its other nodes are A's or B's: nothing new was
built).  Reported per run: the package named, the A/B steps against the
budget ceil(log2 k) + 1, the wall time; exit 1 where a run did not name
fio within the budget.  Results go to ``<dir>/bisect.jsonl``.

    bench/bisect_planted.py --dir DIR [--repeats 2] [--b planted-d]
                            [--check fio_data_reduction] [-S VAR=VAL]...
                            [-- extra microbench bisect options]
'''

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

import claims
from microbench import paths, spack
from microbench.cause import ab_json, bisect_json, bisection, diff, locks

DATA = os.path.join(paths.ROOT, 'tests', 'data', 'spack')
#: The side B a bisection may take (its A is planted-a)
SIDES_B = ('planted-b', 'planted-c', 'planted-d')
LOCKS = {'A': os.path.join(DATA, 'planted-a', 'spack.lock'),
         'B': os.path.join(DATA, 'planted-b', 'spack.lock')}
STACKS = '/opt/spack-stacks/envs'
SCOPE = '/opt/spack-stacks/scope'
SPACK = {'SPACK_PYTHON': '/opt/spack-venv/bin/python',
         'SPACK_DISABLE_LOCAL_CONFIG': '1'}
MICROBENCH = os.path.join(paths.ROOT, '.venv', 'bin', 'microbench')

#: A lock wait as the rounds jobs say it (microbench.suite.progress)
TOOK = re.compile(r'took the benchmark lock \S+ after ((\d+) h )?((\d+) '
                  r'min )?([\d.]+) s')


def machine():
    '''What of the machine could disturb a write figure, now.'''
    throttles = []
    for pattern in ('/sys/fs/cgroup/**/io.max',
                    '/sys/fs/cgroup/blkio/**/blkio.throttle.*_device'):
        for path in glob.glob(pattern, recursive=True):
            try:
                with open(path) as fp:
                    text = fp.read().strip()
            except OSError:
                continue
            if text:
                throttles.append(f'{path}: {" ".join(text.split())}')
    ahead = {}
    for path in glob.glob('/sys/block/vd*/queue/read_ahead_kb'):
        with open(path) as fp:
            ahead[path.split('/')[3]] = int(fp.read())
    return {'throttles': throttles, 'read_ahead_kb': ahead,
            'load': os.getloadavg()}


def waited(log):
    '''Seconds the runs' jobs waited for the benchmark lock.'''
    total = 0.0
    for match in TOOK.finditer(log):
        hours, minutes, seconds = match.group(2, 4, 5)
        total += int(hours or 0) * 3600 + int(minutes or 0) * 60 + \
            float(seconds)
    return total


def _lock_of(env):
    return locks.read(os.path.join(env, 'spack.lock'))


def held(doc, check, digests, k):
    '''Hold the bisection ``doc`` to what it claims to have run.'''
    for side in ('A', 'B'):
        claims.check(f'lock {side}', doc['locks'][side]['sha256'],
                     digests[side])
    claims.check('groups (k)', doc['k'], k)
    claims.check('checks', doc['checks'], [check])
    full = ab_json.read(doc['full']['path']).doc
    claims.check('the full A/B\'s stacks',
                 [full['stacks'][s]['lock_hash'] for s in ('A', 'B')],
                 [digests['A'], digests['B']])
    a_lock, b_lock = (locks.read(LOCKS[s]) for s in ('A', 'B'))
    known = set(a_lock.nodes) | set(b_lock.nodes)
    fio_group = doc['groups'].index(['fio'])
    for step in doc['steps']:
        if step['status'] != bisection.MEASURED:
            continue
        found = ab_json.read(step['ab']).doc
        claims.check(f'step {step["step"]}\'s A/B stacks',
                     [found['stacks'][s]['lock_hash'] for s in ('A', 'B')],
                     [digests['A'], step['lock_hash']])
        claims.check(f'step {step["step"]}\'s lock',
                     spack.lock_digest(step['env']), step['lock_hash'])
        lock = _lock_of(step['env'])
        claims.check(f'step {step["step"]}: nodes neither A\'s nor B\'s '
                     f'(built anew)', sorted(set(lock.nodes) - known), [])
        (fio,) = lock.by_name()['fio']
        claims.check(f'step {step["step"]}: its fio +slowwrite',
                     fio.variants().get('slowwrite'),
                     fio_group in step['moves'])


def one_run(args, number, digests, k):
    '''Run bisection ``number``; its summary (a dict).'''
    where = os.path.join(args.dir, f'run-{number}')
    os.makedirs(where, exist_ok=True)
    doc_path = os.path.join(where, 'bisect.json')
    cmd = [MICROBENCH, '--db', os.path.join(where, 'ab.db'), 'bisect',
           LOCKS['A'], LOCKS['B'], '--checks', args.check, '--mode',
           'quick', '--stacks-dir', STACKS, '--spack-scope', SCOPE,
           '--json', doc_path, *(f'-S{v}' for v in args.setvars),
           *args.extra]
    before = machine()
    for line in before['throttles']:
        print(f'run {number}: a throttle before it: {line}', flush=True)
    env = {**os.environ, **SPACK, 'RFM_CONFIG_FILES': paths.CONFIG,
           'PATH': f'/opt/spack/bin:{os.environ["PATH"]}'}
    start = time.monotonic()
    with open(os.path.join(where, 'bisect.log'), 'w') as log:
        proc = subprocess.run(cmd, env=env, stdout=log,
                              stderr=subprocess.STDOUT, text=True)
    minutes = (time.monotonic() - start) / 60
    after = machine()
    with open(os.path.join(where, 'bisect.log')) as fp:
        text = fp.read()
    if proc.returncode not in (0, 1) or not os.path.exists(doc_path):
        sys.exit(f'run {number}: microbench bisect exited '
                 f'{proc.returncode}:\n{text[-3000:]}')
    doc = bisect_json.read(doc_path)
    held(doc, args.check, digests, k)
    named = sorted({'+'.join(doc['groups'][row['group']])
                    if row['group'] is not None else 'not decided'
                    for row in doc['results']})
    return {'run': number, 'exit': proc.returncode, 'named': named,
            'moved': len(doc['moved']), 'k': doc['k'],
            'budget': doc['budget'], 'ab_steps': doc['ab_steps'],
            'steps': [(step['moves'], step['status'],
                       sorted({row['outcome'] for row in step['figures']}))
                      for step in doc['steps']],
            'evidence': sorted({row['evidence'] for row in doc['results']}),
            'minutes': round(minutes, 2),
            'lock_wait_minutes': round(waited(text) / 60, 2),
            'machine_before': before, 'machine_after': after,
            'disturbed': bool(before['throttles'] or after['throttles']),
            'json': doc_path}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dir', required=True)
    parser.add_argument('--repeats', type=int, default=2)
    parser.add_argument('--check', default='fio_data_reduction')
    parser.add_argument('--b', default='planted-b', choices=SIDES_B,
                        help='the planted lock B (A is planted-a)')
    parser.add_argument('-S', dest='setvars', action='append', default=[])
    parser.add_argument('extra', nargs='*', help='after --: options of '
                        'microbench bisect')
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    LOCKS['B'] = os.path.join(DATA, args.b, 'spack.lock')
    digests = {side: spack.lock_digest(os.path.dirname(path))
               for side, path in LOCKS.items()}
    found = diff.diff(*(locks.read(LOCKS[s]) for s in ('A', 'B')))
    k = len(diff.groups(found, diff.edge_couples(found)))
    print(f'planted-a/{args.b}: {len(found.units())} units, k = {k}, '
          f'budget {bisection.budget(k)} A/B steps', flush=True)
    done = 0
    for number in range(1, args.repeats + 1):
        summary = one_run(args, number, digests, k)
        with open(os.path.join(args.dir, 'bisect.jsonl'), 'a') as fp:
            fp.write(json.dumps(summary) + '\n')
        ok = summary['named'] == ['fio'] and \
            summary['ab_steps'] <= summary['budget']
        done += ok
        print(f'run {number}: named {", ".join(summary["named"])} '
              f'({", ".join(summary["evidence"])}), {summary["moved"]} '
              f'figures moved, {summary["ab_steps"]} A/B steps of the '
              f'budget {summary["budget"]}, {summary["minutes"]:.1f} min '
              f'({summary["lock_wait_minutes"]:.1f} waiting for the '
              f'benchmark lock)'
              + ('; a throttle was in force (see bisect.jsonl)'
                 if summary['disturbed'] else ''), flush=True)
    print(f'{done} of {args.repeats} runs named fio within the budget')
    return 0 if done == args.repeats else 1


if __name__ == '__main__':
    claims.main(main)
