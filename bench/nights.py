#!/usr/bin/env python3
'''Real nights on the local default, and what the nightly verdict says of
each (a benchmark script, not a timed test; root and fio).

``--unchanged`` quick sessions of the fio checks back to back (each one a
"night": a session of its own, as the nightly job makes), then
``--throttled`` sessions under a real slowdown of the scratch disk's
writes: a block-layer throttle of the cgroup the run is in (cgroup v2
``io.max wbps``, else v1 ``blkio.throttle.write_bps_device``) at
``1 - slowdown`` times the unchanged nights' median O_DIRECT write figure,
corrected once by a probe night in a storage of its own.

Then every night from the first with enough history is judged as the
nightly job judges it (:func:`microbench.verdicts.nightly.judge_last` on
the sessions up to that night: what ``microbench compare --last`` runs),
and the last night once more by the command itself.  Wanted: no unchanged
night exits 1; the O_DIRECT write figure is called a regression within
the throttled nights.

The sessions are kept in ``--dir`` (``results.db``); a second run with the
same ``--dir`` goes on where the first stopped, and ``--judge-only``
judges what is there.

    bench/nights.py --dir DIR [--unchanged 20] [--throttled 3]
                    [--slowdown 0.25] [--samples 3] [--checks '^fio_']
'''

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

from microbench import paths
from microbench.verdicts import figures

BIN = os.path.join(paths.ROOT, '.venv', 'bin')

#: The figure the throttle slows down
WATCHED = ('fio_cache_flags', 'direct', 'write_median_mib_s')


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
        return os.path.join(group, 'cgroup.procs'), \
            f'io.max {device} wbps={bps}'

    group = '/sys/fs/cgroup/blkio/microbench-throttle'
    os.makedirs(group, exist_ok=True)
    with open(os.path.join(group, 'blkio.throttle.write_bps_device'),
              'w') as fp:
        fp.write(f'{device} {bps}')
    return os.path.join(group, 'cgroup.procs'), \
        f'blkio.throttle.write_bps_device {device} {bps}'


def night(work, db, args, tag, procs=None):
    '''One quick session of ``args.checks``, in the throttled cgroup if
    ``procs``.'''
    env = {**os.environ, 'RFM_CONFIG_FILES': paths.CONFIG,
           'RFM_SQLITE_DB_FILE': db,
           'MICROBENCH_REFERENCES': f'{work}/no-user-references.yaml'}
    cmd = [os.path.join(BIN, 'reframe'), '-c', paths.CHECKS,
           '-r', '--mode', 'quick', '-n', args.checks, '-S',
           f'samples={args.samples}', '--prefix', f'{work}/rfm',
           '--perflogdir', f'{work}/perflogs', '-S',
           f'scratch_dir={work}/scratch', '--session-extras', f'tag={tag}']
    if procs:
        cmd = ['sh', '-c', f'echo $$ > {procs} && exec "$@"', 'sh', *cmd]
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                          cwd=work)
    if 'Ran ' not in proc.stdout:
        sys.exit(f'{tag}: the session did not run:\n{proc.stdout[-2000:]}')
    print(f'{tag}: {time.monotonic() - start:.0f} s', flush=True)


def watched(frame):
    '''The watched figure's night summaries, one per session.'''
    rows = frame[(frame['check'] == WATCHED[0])
                 & (frame['variant'] == WATCHED[1])
                 & (frame['figure'] == WATCHED[2])]
    return rows.groupby('session', sort=False)['samples'].agg(
        lambda s: float(np.median(s.iloc[-1])))


def done_tags(work):
    path = os.path.join(work, 'nights.done')
    if not os.path.exists(path):
        return []
    with open(path) as fp:
        return fp.read().split()


def mark_done(work, tag):
    with open(os.path.join(work, 'nights.done'), 'a') as fp:
        fp.write(tag + '\n')


def collect(work, args):
    db = os.path.join(work, 'results.db')
    done = done_tags(work)
    for i in range(args.unchanged):
        tag = f'unchanged-{i + 1:02d}'
        if tag not in done:
            night(work, db, args, tag)
            mark_done(work, tag)

    throttled = [f'throttled-{i + 1:02d}' for i in range(args.throttled)]
    if all(tag in done for tag in throttled):
        return
    frame = figures.load(figures.ALL, db)
    before = float(np.median(watched(
        frame[frame['tag'].str.startswith('unchanged')]).to_numpy()))
    target = before * (1 - args.slowdown)
    device = device_of(f'{work}/scratch')
    bps = int(target * 2**20)
    procs, what = throttle_group(device, bps)
    try:
        probe_db = os.path.join(work, 'probe.db')
        if not os.path.exists(probe_db):
            night(work, probe_db, args, 'probe', procs)
        got = float(watched(figures.load(figures.ALL, probe_db)).iloc[-1])
        bps = int(bps * target / got)
        procs, what = throttle_group(device, bps)
        print(f'throttle: {what}: {target:.1f} MiB/s, '
              f'{1 - args.slowdown:.0%} of the unchanged nights\' median '
              f'{before:.1f} MiB/s (a probe night at {target:.1f} gave '
              f'{got:.1f})', flush=True)
        for tag in throttled:
            if tag not in done:
                night(work, db, args, tag, procs)
                mark_done(work, tag)
    finally:
        os.rmdir(os.path.dirname(procs))     # its processes have ended


def judge(work, args):
    '''Every night judged on the sessions up to it.'''
    from microbench.verdicts import nightly

    db = os.path.join(work, 'results.db')
    frame = figures.load(figures.ALL, db)
    order = (frame.drop_duplicates('session').sort_values('start')
             [['session', 'tag']].itertuples(index=False))
    order = list(order)
    alarms, called = [], None
    for i, (session, tag) in enumerate(order):
        upto = frame[frame['session'].isin({s for s, _ in order[:i + 1]})]
        out = nightly.judge_last(upto)
        mine = out.figures[(out.figures['check'] == WATCHED[0])
                           & (out.figures['variant'] == WATCHED[1])
                           & (out.figures['figure'] == WATCHED[2])]
        verdict = mine['verdict'].iloc[0] if len(mine) else '-'
        why = mine['why'].iloc[0] if len(mine) else ''
        print(f'night {i + 1} {tag}: exit {out.exit_code}, '
              f'{out.counts()}; watched: {verdict} ({why})', flush=True)
        if tag.startswith('unchanged') and out.exit_code:
            alarms.append(tag)
        if tag.startswith('throttled') and verdict == 'regression' \
                and called is None:
            called = tag

    proc = subprocess.run([os.path.join(BIN, 'microbench'), '--db', db,
                           'compare', '--last', '--json',
                           os.path.join(work, 'last.json')],
                          capture_output=True, text=True)
    print(proc.stdout[-3000:], proc.stderr[-2000:])
    with open(os.path.join(work, 'last.json')) as fp:
        json.load(fp)
    unchanged = sum(tag.startswith('unchanged') for _, tag in order)
    print(f'summary: {len(alarms)} of {unchanged} unchanged nights exited 1 '
          f'({", ".join(alarms) or "none"}); the throttled O_DIRECT write '
          f'figure was called a regression on '
          f'{called or "NO throttled night"}')
    return 0 if not alarms and called else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dir', required=True, help='where the sessions '
                        'are kept (made if missing)')
    parser.add_argument('--unchanged', type=int, default=20)
    parser.add_argument('--throttled', type=int, default=3)
    parser.add_argument('--slowdown', type=float, default=0.25)
    parser.add_argument('--checks', default='^fio_')
    parser.add_argument('--samples', type=int, default=3)
    parser.add_argument('--judge-only', action='store_true')
    args = parser.parse_args()
    work = os.path.abspath(args.dir)
    os.makedirs(os.path.join(work, 'scratch'), exist_ok=True)
    if not args.judge_only:
        collect(work, args)
    return judge(work, args)


if __name__ == '__main__':
    sys.exit(main())
