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

``--confirm``: then two nights as the nightly recipe runs them
(ci/nightly.sh): the run, ``microbench compare --last``, and on a new
regression ``microbench confirm`` (the affected checks again, as a second
session of the night): ``lone``, the throttle on the first run only (the
rerun runs free), wanted ``not confirmed`` and exit 0; ``stays``, the
throttle on both, wanted ``regression (confirmed)`` and exit 1.  The
minutes each confirmation took are printed.

The sessions are kept in ``--dir`` (``results.db``); a second run with the
same ``--dir`` goes on where the first stopped, and ``--judge-only``
judges what is there.  Each session is tagged as ci/nightly.sh tags its
runs (``kind=nightly``), and its own ``tag`` names the night.

What it judged is held to what it ran (:mod:`claims`: one line and exit
2): the nights of the storage, by tag and in order, are the nights the
run made (``nights.done``), each judged once.

    bench/nights.py --dir DIR [--unchanged 20] [--throttled 3]
                    [--slowdown 0.25] [--samples 3] [--checks '^fio_']
                    [--confirm]
'''

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

import claims
from microbench import paths
from microbench.verdicts import compare_json, figures

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


def reframe(work, db, args, tag):
    '''``(command, environment)`` of one quick session of
    ``args.checks``: the night's ReFrame command line.'''
    env = {**os.environ, 'RFM_CONFIG_FILES': paths.CONFIG,
           'RFM_SQLITE_DB_FILE': db,
           'MICROBENCH_REFERENCES': f'{work}/no-user-references.yaml'}
    cmd = [os.path.join(BIN, 'reframe'), '-c', paths.CHECKS,
           '-r', '--mode', 'quick', '-n', args.checks, '-S',
           f'samples={args.samples}', '--prefix', f'{work}/rfm',
           '--perflogdir', f'{work}/perflogs', '-S',
           f'scratch_dir={work}/scratch', '--session-extras',
           f'tag={tag},{figures.KIND}={figures.NIGHTLY}']
    return cmd, env


def in_cgroup(cmd, procs):
    '''``cmd`` run in the throttled cgroup (its children too).'''
    return ['sh', '-c', f'echo $$ > {procs} && exec "$@"', 'sh', *cmd]


def night(work, db, args, tag, procs=None):
    '''One quick session of ``args.checks``, in the throttled cgroup if
    ``procs``.'''
    cmd, env = reframe(work, db, args, tag)
    if procs:
        cmd = in_cgroup(cmd, procs)
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
    procs = set_throttle(work, db, args)
    try:
        for tag in throttled:
            if tag not in done:
                night(work, db, args, tag, procs)
                mark_done(work, tag)
    finally:
        os.rmdir(os.path.dirname(procs))     # its processes have ended


def set_throttle(work, db, args):
    '''The throttled cgroup's ``cgroup.procs``: its writes to the scratch
    disk at ``1 - slowdown`` times the unchanged nights' median O_DIRECT
    write figure, corrected once by a probe night in a storage of its own
    (the caller removes the cgroup's directory).'''
    frame = figures.load(figures.ALL, db)
    before = float(np.median(watched(
        frame[frame['tag'].str.startswith('unchanged')]).to_numpy()))
    target = before * (1 - args.slowdown)
    device = device_of(f'{work}/scratch')
    bps = int(target * 2**20)
    procs, what = throttle_group(device, bps)
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
    return procs


def confirmed_night(work, db, args, tag, procs, rerun_throttled):
    '''One night as ci/nightly.sh runs it: the run (throttled), ``compare
    --last``, and on a new regression ``confirm`` (throttled too if
    ``rerun_throttled``); (the exit code, the watched figure's verdict as
    people read it, the confirmation's minutes or None).'''
    cmd, env = reframe(work, db, args, tag)
    night(work, db, args, tag, procs)
    verdicts = os.path.join(work, f'{tag}.json')
    proc = subprocess.run([os.path.join(BIN, 'microbench'), '--db', db,
                           'compare', '--last', '--json', verdicts],
                          env=env, capture_output=True, text=True)
    first, code, minutes = proc.returncode, proc.returncode, None
    if first == 1:
        confirm = [os.path.join(BIN, 'microbench'), '--db', db, 'confirm',
                   '--verdicts', verdicts, '--report-file',
                   os.path.join(work, f'{tag}-confirm.json'), '--', *cmd]
        if rerun_throttled:
            confirm = in_cgroup(confirm, procs)
        start = time.monotonic()
        proc = subprocess.run(confirm, env=env, capture_output=True,
                              text=True)
        minutes = (time.monotonic() - start) / 60
        code = proc.returncode
        print(proc.stdout[-1500:], proc.stderr[-1500:], flush=True)
    found = compare_json.read(verdicts)
    mine = next((row for row in found.figures
                 if (row['check'], row['variant'], row['figure'])
                 == WATCHED), {})
    said = mine.get('label', '-')
    took = '' if minutes is None else f'; the confirmation took ' \
        f'{minutes:.1f} min'
    print(f'{tag}: the first run exits {first}; after the confirmation: '
          f'exit {code}, the watched figure: {said}{took}', flush=True)
    with open(os.path.join(work, 'confirmed.txt'), 'a') as fp:
        fp.write(f'{tag} first={first} exit={code} watched={said!r} '
                 f'minutes={minutes}\n')
    return code, said, minutes


def confirm_nights(work, args):
    '''The two nights of ``--confirm``: ``lone`` (the first run only
    throttled) and ``stays`` (both).'''
    db = os.path.join(work, 'results.db')
    done = done_tags(work)
    procs = set_throttle(work, db, args)
    try:
        for tag, both in (('confirm-lone', False), ('confirm-stays', True)):
            if tag not in done:
                confirmed_night(work, db, args, tag, procs, both)
                mark_done(work, tag)
    finally:
        os.rmdir(os.path.dirname(procs))


def judge(work, args):
    '''Every night judged on the nights up to it (a night's confirmation
    rerun with it), as compare --last judges it.'''
    from microbench.verdicts import history, triage

    db = os.path.join(work, 'results.db')
    frame = figures.load(figures.ALL, db)
    tags = dict(zip(frame['session'], frame['tag']))
    order = list(history.sessions_of_nights(frame).items())
    claims.check('nights in the storage, by tag, in order',
                 [tags[session] for session, _ in order], done_tags(work))
    alarms, called = [], None
    for i, (session, sessions) in enumerate(order):
        tag = tags[session]
        upto = frame[frame['session'].isin(
            {s for _, mine in order[:i + 1] for s in mine})]
        out = triage.judge(upto, found=[])
        mine = [row for row in out.figures
                if (row['check'], row['variant'], row['figure']) == WATCHED]
        verdict = mine[0]['label'] if mine else '-'
        why = mine[0]['why'] if mine else ''
        print(f'night {i + 1} {tag}: exit {out.exit_code}, '
              f'{out.counts()}; watched: {verdict} ({why})', flush=True)
        if tag.startswith('unchanged') and out.exit_code:
            alarms.append(tag)
        if tag.startswith('throttled') and verdict.startswith('regression') \
                and called is None:
            called = tag

    proc = subprocess.run([os.path.join(BIN, 'microbench'), '--db', db,
                           'compare', '--last', '--json',
                           os.path.join(work, 'last.json')],
                          capture_output=True, text=True)
    print(proc.stdout[-3000:], proc.stderr[-2000:])
    with open(os.path.join(work, 'last.json')) as fp:
        json.load(fp)
    unchanged = sum(tags[s].startswith('unchanged') for s, _ in order)
    print(f'summary: {len(alarms)} of {unchanged} unchanged nights exited 1 '
          f'({", ".join(alarms) or "none"}); the throttled O_DIRECT write '
          f'figure was called a regression on '
          f'{called or "NO throttled night"}')
    confirmed = os.path.join(work, 'confirmed.txt')
    if os.path.exists(confirmed):
        with open(confirmed) as fp:
            said = fp.read()
        print(f'confirmation nights (wanted: lone exit 0, stays exit 1):\n'
              f'{said}')
        wanted = ('confirm-lone first=1 exit=0' in said
                  and 'confirm-stays first=1 exit=1' in said)
    else:
        wanted = True
    return 0 if not alarms and (called or not args.throttled) and wanted \
        else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dir', required=True, help='where the sessions '
                        'are kept (made if missing)')
    parser.add_argument('--unchanged', type=int, default=20)
    parser.add_argument('--throttled', type=int, default=3)
    parser.add_argument('--slowdown', type=float, default=0.25)
    parser.add_argument('--checks', default='^fio_')
    parser.add_argument('--samples', type=int, default=3)
    parser.add_argument('--confirm', action='store_true', help='then the '
                        'two nights of the confirmation rerun')
    parser.add_argument('--judge-only', action='store_true')
    args = parser.parse_args()
    work = os.path.abspath(args.dir)
    os.makedirs(os.path.join(work, 'scratch'), exist_ok=True)
    if not args.judge_only:
        collect(work, args)
        if args.confirm:
            confirm_nights(work, args)
    return judge(work, args)


if __name__ == '__main__':
    claims.main(main)
