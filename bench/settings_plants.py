#!/usr/bin/env python3
'''Machine settings planted for real on this machine, and the key the
suite names (a benchmark script, not a timed test; root and fio).

**Nights.**  A night is one short real session of ``fio_cache_flags``'s
buffered and direct variants (2 samples of 1 s: what is read here is what
the run records, not its speed), tagged ``kind=nightly`` and its own
``tag``, into one results storage.  After every night from the second,
``microbench compare --last --json`` (what the nightly job runs) says
what differs between that night's records and the night before's: its
``differences``, where a changed machine setting is ``setting <key>``
(microbench/settings.py).

**The plan.**  ``--unchanged`` nights with nothing changed (wanted: no
setting key named on any of them), then each plant for one night, one
at a time, restored before the next night (wanted: the plant's key, and
only it, named on its night with the planted value; named again, back,
on the night after; a key the kernel changed with it, read from the
machine before and during the plant, is wanted too: bfq turns the
disk's write-back throttling off, ``wbt_lat_usec`` 0).  The plants:
the scratch disk's ``read_ahead_kb`` (to 4096), its I/O scheduler (to
bfq), ``vm.dirty_ratio`` (to 5), the disk's ``nr_requests`` (to 64, a
device setting).  Every setting changed
is restored on the way out (``finally``; SIGTERM, SIGINT and SIGHUP exit
through it; what a SIGKILL left is restored at the next start from
``restore.json``: :mod:`plants`).

**The counted plan** (``--plan counted``): after the unchanged nights,
ten plants of the scratch disk's largest request (``max_sectors_kb``,
:data:`SECTORS`), each for one night on a copy of the unchanged nights'
storage (a plant never enters another's history).  Wanted: the counted
rule (microbench/verdicts/behaviour.py) says ``behaviour change`` on every
plant's night and on none of the unchanged nights it can judge; and how
often the timed figures' verdict said anything that night, for contrast.

Results: ``<dir>/settings.jsonl``, one line per night (its tag, the
plant, the keys named, the seconds it took), and the counts on standard
output; exit 1 where a count is not what is wanted.

    bench/settings_plants.py --dir DIR [--unchanged 30]
                             [--plan settings|counted]
'''

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import plants
from microbench import paths, settings
from microbench.verdicts import events, figures, vocabulary

BIN = os.path.join(paths.ROOT, '.venv', 'bin')

#: The variants of a night, and its shortest real run
NAMES = '^fio_cache_flags%mode=(buffered|direct)$'
SHORT = ('-S', 'samples=2', '-S', 'fio_cache_flags_rounds.runtime_s=1')


def plan(disk):
    '''``[(name, path, value, the key the suite should name)]``.'''
    queue = f'/sys/block/{disk}/queue'
    return [
        ('read_ahead_kb', f'{queue}/read_ahead_kb', '4096',
         f'block.{disk}.read_ahead_kb'),
        ('scheduler', f'{queue}/scheduler', 'bfq',
         f'block.{disk}.scheduler'),
        ('dirty_ratio', '/proc/sys/vm/dirty_ratio', '5', 'vm.dirty_ratio'),
        ('nr_requests', f'{queue}/nr_requests', '64',
         f'block.{disk}.nr_requests'),
    ]


def environment(work, db=None):
    return {**os.environ, 'RFM_CONFIG_FILES': paths.CONFIG,
            'RFM_SQLITE_DB_FILE': db or os.path.join(work, 'results.db'),
            'MICROBENCH_REFERENCES': f'{work}/no-user-references.yaml'}


def night(work, tag, db=None):
    '''One short real session, tagged a night (into ``db``, default the
    work folder's storage).'''
    prefix = os.path.join(work, 'rfm')
    cmd = [os.path.join(BIN, 'reframe'), '-c', paths.CHECKS, '-r',
           '--mode', 'quick', '-n', NAMES, *SHORT, '--prefix', prefix,
           '--perflogdir', os.path.join(work, 'perflogs'), '-S',
           f'scratch_dir={work}/scratch', '--session-extras',
           f'tag={tag},{figures.KIND}={figures.NIGHTLY}']
    proc = subprocess.run(cmd, env=environment(work, db),
                          capture_output=True, text=True, cwd=work)
    if not re.search(r'Ran (\d+)/\1 test case\(s\) .*\(0 failure',
                     proc.stdout):
        sys.exit(f'{tag}: the session did not run and pass:\n'
                 f'{proc.stdout[-2000:]}\n{proc.stderr[-1000:]}')


def last(work, tag, db=None):
    '''What ``microbench compare --last`` says of tonight: its JSON.'''
    out = os.path.join(work, f'compare-{tag}.json')
    proc = subprocess.run([os.path.join(BIN, 'microbench'), 'compare',
                           '--last', '--json', out],
                          env=environment(work, db), capture_output=True,
                          text=True)
    if not os.path.exists(out):
        sys.exit(f'{tag}: microbench compare --last wrote nothing (exit '
                 f'{proc.returncode}):\n{proc.stdout[-1500:]}'
                 f'{proc.stderr[-1500:]}')
    with open(out) as fp:
        return json.load(fp)


def named(doc):
    '''The setting keys a compare document names: ``{key: (before,
    after)}``.'''
    found = doc['differences'] or {}
    return {name.removeprefix('setting '): (diff['before'], diff['after'])
            for name, diff in found.items() if name.startswith('setting ')}


def verdicts_of(doc):
    '''What a compare document says of the counted and the timed figures:
    ``{'behaviour': {variant figure: verdict}, 'timed': {...}}``.'''
    return {'behaviour': {f'{r["variant"]} {r["figure"]}': r['verdict']
                          for r in doc['behaviour']},
            'timed': {f'{r["variant"]} {r["figure"]}': r['verdict']
                      for r in doc['figures']},
            'events': [events.line(event) for event in doc['events']]}


def done(path):
    if not os.path.exists(path):
        return []
    with open(path) as fp:
        return [json.loads(line) for line in fp]


def snapshot(scratch):
    '''``{key: value}`` of this machine's settings now, as a job reads them
    (the node script).'''
    out = subprocess.run(['bash', paths.SETTINGS, scratch],
                         capture_output=True, text=True).stdout
    (found,) = settings.parse(out).values()
    return found


def one(work, tag, plant, log, changed=(), db=None):
    start = time.monotonic()
    night(work, tag, db)
    doc = last(work, tag, db) if done(log) else None
    keys = named(doc) if doc else {}
    row = {'tag': tag, 'plant': plant, 'named': keys,
           'changed': sorted(changed), **(verdicts_of(doc) if doc else {}),
           'seconds': round(time.monotonic() - start, 1)}
    with open(log, 'a') as fp:
        fp.write(json.dumps(row) + '\n')
    said = '; '.join(f'{key} {before} -> {after}'
                     for key, (before, after) in keys.items())
    print(f'{tag}: {row["seconds"]:.0f} s; named: {said or "none"}',
          flush=True)
    return row


def count(rows, steps):
    '''The counts, and whether each is what is wanted.'''
    unchanged = [r for r in rows if r['plant'] is None
                 and not r['tag'].startswith('after-')]
    spurious = sum(len(r['named']) for r in unchanged[1:])
    hits = 0
    for name, _, value, key in steps:
        mine = [r for r in rows if r['plant'] == name]
        after = [r for r in rows if r['tag'] == f'after-{name}']
        wanted = set(mine[0]['changed']) if mine else set()
        if mine and key in wanted and set(mine[0]['named']) == wanted and \
                mine[0]['named'][key][1] == [value] and after and \
                set(after[0]['named']) == wanted:
            hits += 1
    print(f'unchanged nights judged: {len(unchanged) - 1}; setting keys '
          f'named on them: {spurious} (wanted 0)')
    for row in rows:
        for line in row.get('events') or ():
            print(f'  {row["tag"]}: {line}')
    print(f'plants named on their night (their key, and only the keys '
          f'that changed with it), and back the night after: {hits} of '
          f'{len(steps)} (wanted all)')
    return spurious == 0 and hits == len(steps)


#: The counted plan's plants: the scratch disk's largest request
#: (``max_sectors_kb``), each on a copy of the unchanged nights' storage
SECTORS = (128, 256, 512, 64, 1024, 128, 256, 512, 64, 1024)


def counted_plan(work, disk, log):
    '''Each plant of :data:`SECTORS` for one night, on a copy of the
    unchanged nights (a plant never enters another's history).'''
    tags = {row['tag'] for row in done(log)}
    path = f'/sys/block/{disk}/queue/max_sectors_kb'
    os.makedirs(os.path.join(work, 'plants'), exist_ok=True)
    for i, value in enumerate(SECTORS):
        tag = f'counted-{i + 1:02d}'
        if tag in tags:
            continue
        copy = os.path.join(work, 'plants', f'{tag}.db')
        shutil.copy(os.path.join(work, 'results.db'), copy)
        with plants.Setting(work, path, value) as setting:
            print(f'plant: {setting.said}', flush=True)
            one(work, tag, f'max_sectors_kb={value}', log, db=copy)


def count_counted(rows):
    '''The counted plan's counts, and whether each is what is wanted.'''
    unchanged = [r for r in rows if r['plant'] is None
                 and r['tag'].startswith('unchanged-') and 'behaviour' in r]
    judged = [r for r in unchanged
              if any(v != 'inconclusive' for v in r['behaviour'].values())]
    false = sum(v == 'behaviour change' for r in judged
                for v in r['behaviour'].values())
    mine = [r for r in rows if str(r['plant']).startswith('max_sectors')]
    hits = sum(any(v == 'behaviour change' for v in r['behaviour'].values())
               for r in mine)
    # a timed verdict that says a change began tonight
    new = {v.word for v in vocabulary.FIGURE_VERDICTS if v.new}
    timed = sum(any(v in new for v in r['timed'].values()) for r in mine)
    print(f'unchanged nights judged by the counted rule: {len(judged)}; '
          f'behaviour changes on them: {false} (wanted 0)')
    print(f'max_sectors_kb plants seen by a counted figure on their night: '
          f'{hits} of {len(mine)} (wanted all); by a timed figure\'s new '
          f'verdict (a change that began tonight): {timed} of {len(mine)}')
    for r in mine:
        moved = [k for k, v in r['behaviour'].items()
                 if v == 'behaviour change']
        print(f'  {r["tag"]} {r["plant"]}: {", ".join(moved) or "none"}')
    return false == 0 and hits == len(mine) == len(SECTORS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--dir', required=True)
    parser.add_argument('--unchanged', type=int, default=30)
    parser.add_argument('--plan', choices=('settings', 'counted'),
                        default='settings')
    args = parser.parse_args()
    work = os.path.abspath(args.dir)
    os.makedirs(os.path.join(work, 'scratch'), exist_ok=True)
    for line in plants.restore_left(work):
        print(line)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(3))
    _, disk = plants.device_of(os.path.join(work, 'scratch'))
    steps = plan(disk)
    log = os.path.join(work, 'settings.jsonl')
    tags = {row['tag'] for row in done(log)}
    # one night more than judged: the first has no night before it
    for i in range(args.unchanged + 1):
        if f'unchanged-{i:02d}' not in tags:
            one(work, f'unchanged-{i:02d}', None, log)
    if args.plan == 'counted':
        counted_plan(work, disk, log)
        return 0 if count_counted(done(log)) else 1
    for name, path, value, _ in steps:
        if f'plant-{name}' in tags:
            continue
        scratch = os.path.join(work, 'scratch')
        before = snapshot(scratch)
        with plants.Setting(work, path, value) as setting:
            during = snapshot(scratch)
            changed = {k for k in set(before) | set(during)
                       if before.get(k) != during.get(k)}
            print(f'plant: {setting.said}; changed: {sorted(changed)}',
                  flush=True)
            one(work, f'plant-{name}', name, log, changed)
        one(work, f'after-{name}', None, log)
    return 0 if count(done(log), steps) else 1


if __name__ == '__main__':
    sys.exit(main())
