#!/usr/bin/env python3
'''What the verdicts can tell, measured (not timed tests).

``scale``: a year of nightly records made from real sessions (ReFrame JSON
reports; by default the test data's: every check on the local default,
and two of the fio checks alone, as a system of three partitions, 101,470
figure rows), every figure and sample times log-normal noise, stored
through ReFrame's own results storage; then the wall time of ``microbench
compare --last`` and ``microbench report``, each a whole process (start-up
included): first cold, on a storage never read before (every session
decoded), then as on a night: the night's session is new, the year before
it was decoded on earlier nights (``figures.select``).

    bench/verdicts.py scale [--nights 365] [--dir DIR] [REPORT.json ...]

``night``: the same times again on a year ``scale --dir DIR`` kept, with
the code as it is now: before each ``compare --last`` the cache holds
every session but the last (made once from the year's own cache), so each
one is a night; ``report`` follows it, as ``ci/nightly.sh`` runs them.

    bench/verdicts.py night DIR [--repeat 5]

Real nights and a real slowdown: ``bench/nights.py``; the verdict's
statistics on histories with known answers: ``bench/known_answers.py``.

Each holds what it timed to what it says (:mod:`claims`: one line and exit
2): after the commands, the cache beside the storage holds every session
of the year and its every figure row (the commands read the whole year,
not part of it); ``night`` restores a cache of every session but the last
(each compare decodes exactly one new session).
'''

import argparse
import copy
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import numpy as np

import claims
from microbench import fields, paths
from microbench.verdicts import cache, figures, storage

ROOT = paths.ROOT
BIN = os.path.join(ROOT, '.venv', 'bin')
#: The longest a night's compare --last or report may take (2 cores)
TARGET = 3.0


def microbench(db, *args):
    start = time.monotonic()
    proc = subprocess.run([os.path.join(BIN, 'microbench'), '--db', db,
                           *args], capture_output=True, text=True)
    return proc, time.monotonic() - start


# -- scale ------------------------------------------------------------------

def noisy(value, factor):
    return value * factor if isinstance(value, (int, float)) else value


def year(sources, nights, rng):
    '''``nights`` sessions, each holding the test cases of every source
    session (the first source's partitions as they are, the others'
    renamed ``<partition><n>``: a system of several partitions), every
    figure and sample times log-normal noise.'''
    start = time.time() - nights * 86400
    for n in range(nights):
        report = copy.deepcopy(sources[0])
        info = report['session_info']
        info['uuid'] = str(uuid.uuid4())
        info['time_start_unix'] = start + n * 86400
        info['time_end_unix'] = info['time_start_unix'] + 600
        cases = []
        for k, src in enumerate(sources):
            for tc in src['runs'][-1]['testcases']:
                tc = copy.deepcopy(tc)
                part = f'{tc["partition"]}{k or ""}'
                factor = float(np.exp(rng.normal(0, 0.05)))
                tc['partition'] = part
                tc['perfvalues'] = {
                    f'{key.split(":")[0]}:{part}:{key.split(":")[2]}':
                    [noisy(v[0], factor), *v[1:]]
                    for key, v in (tc.get('perfvalues') or {}).items()}
                samples = fields.FIGURE_SAMPLES.read(
                    tc.get('figure_samples'))
                tc['figure_samples'] = fields.FIGURE_SAMPLES.encode(
                    (name, [x * factor * np.exp(rng.normal(0, 0.02))
                            for x in values])
                    for name, values in samples.items())
                tc['job_completion_time_unix'] = info['time_start_unix']
                tc['uuid'] = f'{info["uuid"]}:0:{len(cases)}'
                cases.append(tc)
        report['runs'] = [{**report['runs'][-1], 'testcases': cases,
                           'run_index': 0}]
        yield report


def decoded(db):
    '''(sessions, figure rows) the cache beside storage ``db`` holds.'''
    known = cache.read(db, figures.CACHED)
    return len(known.infos), len(known.figures)


def timed(db, out, repeat, before_compare=lambda: None):
    '''Print the wall times of ``repeat`` runs of ``compare --last`` and
    ``report`` each (``before_compare`` called before each compare) and
    how many plots the report has; 0 when the slowest took under
    :data:`TARGET`.'''
    compare = ['compare', '--last', '--json', f'{out}/compare.json']
    report = ['report', '-o', f'{out}/report', '--verdicts',
              f'{out}/compare.json']
    times = {'compare --last': [], 'report': []}
    for _ in range(repeat):
        before_compare()
        for name, cmd in (('compare --last', compare), ('report', report)):
            proc, took = microbench(db, *cmd)
            if proc.returncode not in (0, 1):
                sys.exit(f'{name} failed: {proc.stderr}')
            times[name].append(took)
    for name, took in times.items():
        print(f'{name}: ' + ', '.join(f'{t:.2f}' for t in took) + ' s')
    worst = max(max(took) for took in times.values())
    pngs = len(glob.glob(f'{out}/report/*.png'))
    print(f'summary: a night (its session new, the year before it decoded '
          f'on earlier nights): the slowest of compare and report took '
          f'{worst:.2f} s (target < {TARGET:g} s); the report has {pngs} '
          f'plots')
    return 0 if worst < TARGET else 1


def scale(args):
    sources = []
    for path in args.reports or [
            os.path.join(ROOT, 'tests', 'data', 'results', name)
            for name in ('all-quick.json', 'fio-quick-1.json',
                         'fio-quick-2.json')]:
        with open(path) as fp:
            sources.append(json.load(fp))

    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
        if os.path.exists(f'{args.dir}/results.db'):
            sys.exit(f'{args.dir} already holds a year: time it with '
                     f'bench/verdicts.py night {args.dir}')
    tmp = args.dir or tempfile.mkdtemp(prefix='microbench-scale-')
    db = f'{tmp}/results.db'
    backend = storage.backend(db, create=True)
    nights = list(year(sources, args.nights, np.random.default_rng(0)))
    for report in nights[:-1]:
        backend.store(report)
    made = sum(len(tc['perfvalues']) for r in nights
               for tc in r['runs'][0]['testcases'])
    proc, cold = microbench(db, 'compare', '--last')
    claims.check('(sessions, figure rows) the cold compare decoded',
                 decoded(db), (args.nights - 1, made - sum(
                     len(tc['perfvalues'])
                     for tc in nights[-1]['runs'][0]['testcases'])))
    backend.store(nights[-1])
    size = os.path.getsize(db) / 2**20
    print(f'{args.nights} sessions, {made} figure rows, {size:.0f} MiB of '
          f'results storage in {tmp}')
    print(f'cold: compare --last over the first {args.nights - 1} '
          f'sessions, every one decoded: {cold:.2f} s')
    code = timed(db, tmp, args.repeat)
    claims.check('(sessions, figure rows) the timed commands read',
                 decoded(db), (args.nights, made))
    return code


def night(args):
    '''Nights on the year kept in ``args.dir``: the cache as it was
    before the last session, restored before each compare.'''
    db = f'{args.dir}/results.db'
    kept = cache.path_of(db)
    # of this cache version: a new version makes its own
    before = f'{kept}.night-{cache.VERSION}'
    if not os.path.exists(before):
        microbench(db, 'compare', '--last')
        known = cache.read(db, figures.CACHED)
        if not known.infos:
            sys.exit(f'no cache of {db} was made')
        last = max(known.infos,
                   key=lambda uuid: known.infos[uuid]['time_start_unix'])
        cache.write(db, cache.Known(
            known.figures[known.figures['session'] != last],
            {uuid: info for uuid, info in known.infos.items()
             if uuid != last}), figures.CACHED)
        shutil.copy(kept, before)
    print(f'nights on {db}: the cache of every session but the last '
          f'restored before each compare')
    shutil.copy(before, kept)
    sessions, rows = decoded(db)
    code = timed(db, args.dir, args.repeat,
                 lambda: shutil.copy(before, kept))
    after = decoded(db)
    claims.check('sessions a night decoded (the cache before it: every '
                 'session but the last)', after[0] - sessions, 1)
    claims.check('figure rows the night read', after[1] > rows, True)
    return code


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('scale')
    p.add_argument('reports', nargs='*')
    p.add_argument('--nights', type=int, default=365)
    p.add_argument('--repeat', type=int, default=3)
    p.add_argument('--dir', help='keep the year here (for night)')
    p.set_defaults(func=scale)
    p = sub.add_parser('night')
    p.add_argument('dir', help='a year kept by scale --dir')
    p.add_argument('--repeat', type=int, default=5)
    p.set_defaults(func=night)
    args = parser.parse_args()
    return args.func(args)


if __name__ == '__main__':
    claims.main(main)
