#!/usr/bin/env python3
'''What the verdicts can tell, measured (not timed tests).

``throttle``: real nightly runs on the local default.  ``--window``
unchanged quick sessions, then ``--reruns`` unchanged ones, each compared
(``microbench compare --last``) with the window before it: none may be a
regression.  Then one session under a real slowdown of the scratch
device's writes: a block-layer throttle of the cgroup the run is in
(cgroup v2 ``io.max wbps``, else v1 ``blkio.throttle.write_bps_device``)
at ``1 - slowdown`` times the window's median O_DIRECT write bandwidth;
it must be called a regression.  Needs root and fio.

``scale``: a year of nightly records made from real sessions (ReFrame JSON
reports; by default the test data's: every check on the local default,
and two of the fio checks alone, as a system of three partitions, 101,470
figure rows), every figure and sample times log-normal noise, stored
through ReFrame's own results storage; then the wall time of ``microbench
compare --last`` and ``microbench report``, each a whole process (start-up
included): first cold, on a storage never read before (every session
decoded), then as on a night: the night's session is new, the year before
it was decoded on earlier nights (``figures.select``).

    bench/verdicts.py throttle [--window 5] [--reruns 5] [--slowdown 0.25]
                               [--samples 3] [--checks '^fio_']
    bench/verdicts.py scale [--nights 365] [REPORT.json ...]
'''

import argparse
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid

import numpy as np

from microbench import paths
from microbench.verdicts import figures, storage
from microbench.cli import ALL

ROOT = paths.ROOT
BIN = os.path.join(ROOT, '.venv', 'bin')


def microbench(db, *args):
    start = time.monotonic()
    proc = subprocess.run([os.path.join(BIN, 'microbench'), '--db', db,
                           *args], capture_output=True, text=True)
    return proc, time.monotonic() - start


# -- throttle ---------------------------------------------------------------

def device_of(path):
    '''MAJ:MIN of the whole disk under ``path``.'''
    source = subprocess.run(['findmnt', '-no', 'SOURCE', '--target', path],
                            capture_output=True, text=True,
                            check=True).stdout.strip()
    disk = subprocess.run(['lsblk', '-ndo', 'PKNAME', source],
                          capture_output=True, text=True).stdout.strip()
    name = f'/dev/{disk}' if disk else source
    return subprocess.run(['lsblk', '-ndo', 'MAJ:MIN', name],
                          capture_output=True, text=True,
                          check=True).stdout.strip()


def throttle_group(device, bps):
    '''A cgroup whose writes to ``device`` go at most ``bps`` bytes/s;
    (its cgroup.procs, what was set).'''
    v2 = '/sys/fs/cgroup/cgroup.controllers'
    if os.path.exists(v2) and 'io' in open(v2).read().split():
        group = '/sys/fs/cgroup/microbench-throttle'
        os.makedirs(group, exist_ok=True)
        with open(os.path.join(group, 'io.max'), 'w') as fp:
            fp.write(f'{device} wbps={bps}')
        return os.path.join(group, 'cgroup.procs'), f'io.max {device} ' \
            f'wbps={bps}'

    group = '/sys/fs/cgroup/blkio/microbench-throttle'
    os.makedirs(group, exist_ok=True)
    with open(os.path.join(group, 'blkio.throttle.write_bps_device'),
              'w') as fp:
        fp.write(f'{device} {bps}')
    return os.path.join(group, 'cgroup.procs'), \
        f'blkio.throttle.write_bps_device {device} {bps}'


def night(tmp, db, args, tag, procs=None):
    '''One quick session, in the throttled cgroup if ``procs``.'''
    env = {**os.environ, 'RFM_CONFIG_FILES': paths.CONFIG,
           'RFM_SQLITE_DB_FILE': db,
           'MICROBENCH_REFERENCES': f'{tmp}/no-user-references.yaml'}
    cmd = [os.path.join(BIN, 'reframe'), '-c', paths.CHECKS,
           '-r', '--mode', 'quick', '-n', args.checks, '-S',
           f'samples={args.samples}', '--prefix', f'{tmp}/rfm',
           '--perflogdir', f'{tmp}/perflogs', '-S',
           f'scratch_dir={tmp}/scratch', '--session-extras', f'tag={tag}']
    if procs:
        cmd = ['sh', '-c', f'echo $$ > {procs} && exec "$@"', 'sh', *cmd]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                          cwd=tmp)
    if 'Ran ' not in proc.stdout:
        sys.exit(f'{tag}: the session did not run:\n{proc.stdout[-2000:]}')


def judged(db, window, figure):
    proc, _ = microbench(db, 'compare', '--last', '--window', str(window),
                         '--json', db + '.json')
    if proc.returncode == 2:
        sys.exit(proc.stderr)
    with open(db + '.json') as fp:
        rows = json.load(fp)['figures']
    mine = [r for r in rows if (r['check'], r['variant'], r['figure'])
            == figure][0]
    counts = {}
    for r in rows:
        counts[r['verdict']] = counts.get(r['verdict'], 0) + 1
    return proc.returncode, mine, counts


def throttle(args):
    tmp = tempfile.mkdtemp(prefix='microbench-throttle-')
    os.makedirs(f'{tmp}/scratch')
    db = f'{tmp}/results.db'
    figure = ('fio_cache_flags', 'direct', 'write_median_mib_s')
    print(f'results in {tmp}; the figure watched: {" ".join(figure)}')
    for i in range(args.window):
        night(tmp, db, args, f'window{i}')
        print(f'window night {i + 1}/{args.window} done', flush=True)

    alarms = 0
    for i in range(args.reruns):
        night(tmp, db, args, f'rerun{i}')
        rc, mine, counts = judged(db, args.window, figure)
        alarms += rc == 1
        print(f'unchanged rerun {i + 1}: exit {rc}, {counts}; direct: '
              f'{mine["verdict"]} (ratio {mine["ratio"]:.3f}, p '
              f'{mine["p"]:.2g}, band {mine["band_low"]:.3f}..'
              f'{mine["band_high"]:.3f})', flush=True)

    # The throttle: the before side's median (every sample of the window,
    # as compare pools them) times 1 - slowdown, corrected once by a probe
    # night (in a storage of its own) for what the throttle really gives
    frame = figures.load(ALL, db)
    rows = frame[(frame['check'] == figure[0]) & (frame['variant']
                                                  == figure[1])
                 & (frame['figure'] == figure[2])]
    before = float(np.median(figures.pooled(rows.iloc[-args.window:])))
    target = before * (1 - args.slowdown)
    device = device_of(f'{tmp}/scratch')
    bps = int(target * 2**20)
    procs, what = throttle_group(device, bps)
    try:
        night(tmp, f'{tmp}/probe.db', args, 'probe', procs)
        probe = figures.load(ALL, f'{tmp}/probe.db')
        got = float(np.median(figures.pooled(probe[
            (probe['check'] == figure[0]) & (probe['variant'] == figure[1])
            & (probe['figure'] == figure[2])])))
        bps = int(bps * target / got)
        procs, what = throttle_group(device, bps)
        print(f'throttle: {what}: {target:.1f} MiB/s, {1 - args.slowdown:.0%}'
              f' of the window\'s median {before:.1f} MiB/s (a probe night '
              f'at {target:.1f} gave {got:.1f})', flush=True)
        night(tmp, db, args, 'throttled', procs)
    finally:
        os.rmdir(os.path.dirname(procs))     # its processes have ended
    rc, mine, counts = judged(db, args.window, figure)
    print(f'throttled night: exit {rc}, {counts}; direct: {mine["verdict"]} '
          f'(median {mine["median_after"]:.1f} vs {mine["median_before"]:.1f}'
          f' MiB/s, ratio {mine["ratio"]:.3f}, interval '
          f'{mine["ci_low"]:.3f}..{mine["ci_high"]:.3f}, p {mine["p"]:.2g}, '
          f'band {mine["band_low"]:.3f}..{mine["band_high"]:.3f})')
    print(f'summary: {alarms} of {args.reruns} unchanged reruns called a '
          f'regression; the throttled night '
          f'{"was" if mine["verdict"] == "regression" else "was NOT"} '
          f'called one')
    return 0 if (alarms == 0 and mine['verdict'] == 'regression') else 1


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
                samples = figures.parse_samples(tc.get('figure_samples'))
                tc['figure_samples'] = ';'.join(
                    f'{name}=' + ','.join(
                        f'{x * factor * np.exp(rng.normal(0, 0.02)):.6g}'
                        for x in values)
                    for name, values in samples.items())
                tc['job_completion_time_unix'] = info['time_start_unix']
                tc['uuid'] = f'{info["uuid"]}:0:{len(cases)}'
                cases.append(tc)
        report['runs'] = [{**report['runs'][-1], 'testcases': cases,
                           'run_index': 0}]
        yield report


def scale(args):
    sources = []
    for path in args.reports or [
            os.path.join(ROOT, 'tests', 'data', 'results', name)
            for name in ('all-quick.json', 'fio-quick-1.json',
                         'fio-quick-2.json')]:
        with open(path) as fp:
            sources.append(json.load(fp))

    tmp = tempfile.mkdtemp(prefix='microbench-scale-')
    db = f'{tmp}/results.db'
    backend = storage.backend(db, create=True)
    nights = list(year(sources, args.nights, np.random.default_rng(0)))
    for report in nights[:-1]:
        backend.store(report)
    made = sum(len(tc['perfvalues']) for r in nights
               for tc in r['runs'][0]['testcases'])
    compare = ['compare', '--last', '--json', f'{tmp}/compare.json']
    proc, cold = microbench(db, *compare)
    backend.store(nights[-1])
    size = os.path.getsize(db) / 2**20
    print(f'{args.nights} sessions, {made} figure rows, {size:.0f} MiB of '
          f'results storage in {tmp}')
    print(f'cold: compare --last over the first {args.nights - 1} '
          f'sessions, every one decoded: {cold:.2f} s')
    worst = 0
    for name, cmd in [('compare --last', compare),
                      ('report', ['report', '-o', f'{tmp}/report',
                                  '--verdicts', f'{tmp}/compare.json'])]:
        times = []
        for _ in range(args.repeat):
            proc, took = microbench(db, *cmd)
            if proc.returncode not in (0, 1):
                sys.exit(f'{name} failed: {proc.stderr}')
            times.append(took)
        worst = max(worst, max(times))
        print(f'{name}: ' + ', '.join(f'{t:.2f}' for t in times) + ' s')

    pngs = len(glob.glob(f'{tmp}/report/*.png'))
    print(f'summary: a night (its session new, the year before it decoded '
          f'on earlier nights): the slowest of compare and report took '
          f'{worst:.2f} s (target < 5 s); the report has {pngs} plots')
    return 0 if worst < 5 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('throttle')
    p.add_argument('--window', type=int, default=5)
    p.add_argument('--reruns', type=int, default=5)
    p.add_argument('--slowdown', type=float, default=0.25)
    p.add_argument('--checks', default='^fio_')
    p.add_argument('--samples', type=int, default=3)
    p.set_defaults(func=throttle)
    p = sub.add_parser('scale')
    p.add_argument('reports', nargs='*')
    p.add_argument('--nights', type=int, default=365)
    p.add_argument('--repeat', type=int, default=3)
    p.set_defaults(func=scale)
    args = parser.parse_args()
    return args.func(args)


if __name__ == '__main__':
    sys.exit(main())
