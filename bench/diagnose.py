#!/usr/bin/env python3
'''Events classed by experiment (``microbench diagnose``) on causes planted
for real on this machine (a benchmark script, not a timed test; root, fio
and the Spack stacks of the planted builds).

**Nights.**  A night is one quick session of one cheap check
(``--check``, default ``fio_cache_flags``) tagged ``kind=nightly`` as
ci/nightly.sh tags its runs, its stack's programs first on PATH as a
partition's Spack environment puts them (the records name the stack:
``tool_path``, ``spack_lock``).  The nightly verdict needs 14 nights of
history before a night: ``--base-nights`` nights on the old state (stack
A, no plant) are run once into ``base.db``; each plant then runs
``--fresh`` more nights on the old state into it (the history a plant
is judged against ends just before it), copies it, and runs its night
with the plant into the copy.

**A plant**, one of:

- ``software:<stack>``: tonight's stack is another build (the planted
  slow fio ``planted-c``, whose every sync-engine write is written twice,
  in a lock diff of 6 packages from planted-a; ``planted-b``, every third
  write, too small a drop for one night of the nightly rule on this
  machine; or another fio version); the night before planted-a;
- ``throttle:<share>``: the night (and the diagnosis) run in a cgroup
  whose writes to the scratch disk go at ``share`` times the old nights'
  median O_DIRECT write figure (:class:`plants.Throttle`);
- ``writer:<count>``: competing O_DIRECT writers on the same disk while
  this bench's jobs hold the benchmark lock (:class:`plants.Writer`);
- ``readahead:<kb>``: the disk's ``read_ahead_kb`` (only a read figure
  sees it; none of the default plan's);
- ``none``: an A/A (no plant: wanted no event, or ``not reproduced``).

Then ``microbench compare --last`` (the event: the one of the check whose
first night is the plant's night) and ``microbench diagnose EVENT`` with
the plant still in place (a machine plant during tonight and the A/B; a
software plant is its stack), in quick mode.  Wanted: ``software (by
experiment)`` for a software plant, ``machine (by experiment)`` for a
machine plant, ``not reproduced`` or no event for ``none``; the counts,
and the wall time of each diagnosis.

Every machine setting is restored on the way out (``finally``; SIGTERM,
SIGINT and SIGHUP exit through it; what a SIGKILL left is restored at the
next start from ``restore.json``).  The suite's benchmark lock keeps one
benchmark at a time: a plant's night and A/B wait for other users'
benchmarks, and the competing writer writes only while this bench's job
holds the lock.

What it ran is held to what it claims (:mod:`claims`, exit 2): the base
nights by tag and in order; each plant's storage holds the base and fresh
nights and exactly one plant night; the event's first night is the plant
night; the diagnosis names that event, and its A/B ran the stacks the plant
claims (the lock hashes of planted-a and the plant's stack, or the same
stack on both sides for a machine plant); a throttle's cgroup wrote to the
disk, a competing writer wrote, a read-ahead was in force.

Results go to ``<dir>/plants.jsonl`` (a plant done is not run again: a
second run goes on where the first stopped).

    bench/diagnose.py --dir DIR [--base-nights 15] [--fresh 1]
                      [--plan default|quick] [--only NAME...]
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

import numpy as np

import claims
import plants
from microbench import paths, spack
from microbench.verdicts import compare_json, figures

BIN = os.path.join(paths.ROOT, '.venv', 'bin')
STACKS = '/opt/spack-stacks/envs'

#: The figure whose old level sets a throttle's rate
WATCHED = ('direct', 'write_median_mib_s')

#: The default plan: 10 software plants, 10 machine plants and 2 A/A,
#: interleaved so that a run cut short has some of each kind
SOFTWARE = ['software:planted-c'] * 10
MACHINE = ['throttle:0.5', 'writer:1', 'throttle:0.4', 'writer:2',
           'throttle:0.6', 'writer:1', 'throttle:0.3', 'writer:2',
           'throttle:0.5', 'writer:1']


def default_plan():
    out = []
    for index, (soft, machine) in enumerate(zip(SOFTWARE, MACHINE)):
        out += [(f's{index + 1:02d}', soft), (f'm{index + 1:02d}', machine)]
        if index in (2, 9):
            out.append((f'aa{1 if index == 2 else 2}', 'none'))
    return out


#: What a plant's kind must be classed as
WANTED = {'software': 'software (by experiment)',
          'machine': 'machine (by experiment)', 'none': 'not reproduced'}


def kind_of(plant):
    head = plant.split(':')[0]
    return head if head in ('software', 'none') else 'machine'


def stack_env(name):
    '''The environment folder of the stack ``name`` under :data:`STACKS`
    (``planted-b``: ``planted-b-<hash>``).'''
    found = sorted(entry for entry in os.listdir(STACKS)
                   if re.fullmatch(f'{re.escape(name)}-[0-9a-f]{{12}}',
                                   entry) and os.path.isfile(
                       os.path.join(STACKS, entry, 'spack.lock')))
    if not found:
        sys.exit(f'no stack {name}-<hash> under {STACKS}')
    return os.path.join(STACKS, found[-1])


def bin_of(env):
    return os.path.join(env, '.spack-env', 'view', 'bin')


def night(work, db, env, tag, args, wrap=None):
    '''One quick session of ``args.check`` on the stack ``env``, tagged a
    night; its session.'''
    prefix = os.path.join(work, 'rfm', tag)
    report = os.path.join(work, 'reports', f'{tag}.json')
    os.makedirs(os.path.dirname(report), exist_ok=True)
    cmd = [os.path.join(BIN, 'reframe'), '-c', paths.CHECKS, '-r',
           '--mode', 'quick', '-n', f'^{args.check}', '-S',
           f'samples={args.samples}', '--prefix', prefix, '--perflogdir',
           os.path.join(work, 'perflogs'), '-S',
           f'scratch_dir={work}/scratch', '--report-file', report,
           '--session-extras', f'tag={tag},{figures.KIND}={figures.NIGHTLY}']
    if wrap:
        cmd = wrap(cmd)
    env_vars = environment(db, env, work)
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env_vars, capture_output=True, text=True,
                          cwd=work)
    if 'Ran ' not in proc.stdout:
        sys.exit(f'{tag}: the session did not run:\n{proc.stdout[-2000:]}'
                 f'\n{proc.stderr[-1000:]}')
    shutil.rmtree(os.path.join(prefix, 'stage'), ignore_errors=True)
    with open(report) as fp:
        session = json.load(fp)['session_info']['uuid']
    print(f'{tag}: {time.monotonic() - start:.0f} s (session {session})',
          flush=True)
    return session


def environment(db, env, work):
    return {**os.environ, 'RFM_CONFIG_FILES': paths.CONFIG,
            'RFM_SQLITE_DB_FILE': db, 'MICROBENCH_STACKS': STACKS,
            'MICROBENCH_REFERENCES': f'{work}/no-user-references.yaml',
            'PATH': f'{bin_of(env)}:{os.environ["PATH"]}'}


def tags_of(db):
    '''The tags of the storage's sessions, oldest first.'''
    if not os.path.exists(db):
        return []
    frame = figures.load(figures.ALL, db)
    return list(frame.drop_duplicates('session')['tag'])


def base(work, args, env):
    '''The nights on the old state the plants are judged against.'''
    db = os.path.join(work, 'base.db')
    have = [tag for tag in tags_of(db) if tag.startswith('base-')]
    wanted = [f'base-{i + 1:02d}' for i in range(args.base_nights)]
    claims.check('base nights in the storage, by tag, in order', have,
                 wanted[:len(have)])
    for tag in wanted[len(have):]:
        night(work, db, env, tag, args)
    return db


def old_level(db, check):
    '''The old nights' median of the watched O_DIRECT figure, MiB/s.'''
    frame = figures.load(figures.ALL, db)
    rows = frame[(frame['check'] == check)
                 & (frame['variant'] == WATCHED[0])
                 & (frame['figure'] == WATCHED[1])]
    return float(np.median(rows['value']))


def planted(work, plant, scratch, level):
    '''The context manager of a machine plant (or a null one).'''
    kind, _, value = plant.partition(':')
    if kind == 'throttle':
        return plants.Throttle(work, scratch, float(value) * level * 2**20)
    if kind == 'writer':
        return plants.Writer(work, scratch, int(value))
    if kind == 'readahead':
        return plants.ReadAhead(work, scratch, int(value))
    return None


def event_of(verdicts, session, check):
    '''The fingerprint of the event of ``check`` whose first night is
    ``session``, or None.'''
    for event in verdicts.events:
        if event['night'] == session and any(
                member['check'].startswith(check)
                for member in event['members']):
            return event['fingerprint']
    return None


def microbench(args, env_vars, wrap=None):
    cmd = [os.path.join(BIN, 'microbench'), *args]
    if wrap:
        cmd = wrap(cmd)
    return subprocess.run(cmd, env=env_vars, capture_output=True, text=True)


def one_plant(work, args, name, plant, old_env):
    '''Run one plant; its result (a dict).'''
    kind = kind_of(plant)
    here = os.path.join(work, name)
    os.makedirs(here, exist_ok=True)
    base_db = os.path.join(work, 'base.db')
    for index in range(args.fresh):
        tag = f'fresh-{name}-{index + 1}'
        if tag not in tags_of(base_db):
            night(work, base_db, old_env, tag, args)
    db = os.path.join(here, 'results.db')
    for leftover in (db, db + '.microbench-cache'):
        if os.path.exists(leftover):
            os.unlink(leftover)
    shutil.copy2(base_db, db)
    before = tags_of(db)
    new_env = (stack_env(plant.split(':')[1]) if kind == 'software'
               else old_env)
    scratch = os.path.join(work, 'scratch')
    setting = planted(work, plant, scratch, old_level(base_db, args.check))
    out = {'name': name, 'plant': plant, 'kind': kind,
           'wanted': WANTED[kind], 'stack_a': old_env, 'stack_b': new_env}
    with setting or _Nothing() as active:
        wrap = getattr(active, 'wrap', None)
        out['setting'] = getattr(active, 'said', 'none')
        print(f'{name}: {plant}: {out["setting"]}', flush=True)
        session = night(work, db, new_env, f'plant-{name}', args, wrap)
        claims.check(f'{name}: nights of its storage',
                     tags_of(db), [*before, f'plant-{name}'])
        verdicts_path = os.path.join(here, 'compare.json')
        env_vars = environment(db, new_env, work)
        proc = microbench(['--db', db, 'compare', '--last', '--json',
                           verdicts_path], env_vars)
        if proc.returncode not in (0, 1):
            sys.exit(f'{name}: compare --last: {proc.stderr[-500:]}')
        verdicts = compare_json.read(verdicts_path)
        event = event_of(verdicts, session, args.check)
        out.update(session=session, event=event,
                   compare_exit=proc.returncode)
        if event:
            start = time.monotonic()
            proc = microbench([
                '--db', db, 'diagnose', event, '--verdicts', verdicts_path,
                '--mode', 'quick', '--diagnoses',
                os.path.join(here, 'diagnoses'), '--ab-db',
                os.path.join(here, 'ab.db'), '--stacks', STACKS, '-S',
                f'scratch_dir={scratch}'], env_vars, wrap)
            out['minutes'] = round((time.monotonic() - start) / 60, 2)
            out['diagnose_exit'] = proc.returncode
            print(proc.stdout[-3000:], proc.stderr[-1500:], flush=True)
            found = os.path.join(here, 'diagnoses', f'{event}.json')
            if proc.returncode == 2 or not os.path.exists(found):
                out.update(cause='(no diagnosis)',
                           why=proc.stderr.strip()[-300:])
            else:
                held(out, found, event, old_env, new_env)
        else:
            out.update(cause='(no event)', why='compare --last found no '
                       'event of the plant night')
        if active is not None:
            proof = active.written()
            out['proof'] = proof
            claims.check(f'{name}: {plant} was in force (bytes written '
                         f'through it, or the setting read back)',
                         bool(proof), True)
    out['right'] = (out['cause'] == out['wanted']
                    or (kind == 'none' and out['cause'] == '(no event)'))
    return out


def held(out, path, event, old_env, new_env):
    '''Read the diagnosis at ``path`` into ``out``, held to the claims.'''
    from microbench.cause import diagnosis_json

    found = diagnosis_json.read(path)
    claims.check(f'{out["name"]}: the diagnosis\'s event', found.event,
                 event)
    locks = {side: found.stacks[side].get('lock_hash')
             for side in ('A', 'B')}
    claims.check(f'{out["name"]}: the A/B\'s stacks (lock hashes)',
                 [locks['A'], locks['B']],
                 [spack.lock_digest(old_env), spack.lock_digest(new_env)])
    out.update(cause=found.cause, why=found.why, ab=found.ab.get('path'),
               figures=[(row['check'], row['variant'], row['figure'],
                         row['verdict'], row['ratio'], row['cause'])
                        for row in found.figures])


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _exit_on(signum, frame):
    raise SystemExit(f'bench/diagnose.py: signal {signum}: the machine '
                     f'settings are restored on the way out')


def summary(results):
    print('\nplant  kind      cause (wanted)                       event')
    counts = {}
    for out in results:
        right, total = counts.get(out['kind'], (0, 0))
        counts[out['kind']] = (right + out['right'], total + 1)
        said = 'right' if out['right'] else f'WRONG: wanted {out["wanted"]}'
        print(f'{out["name"]:6} {out["plant"]:20} {out["cause"]} ({said})'
              f' {out.get("event")}; {out.get("minutes", "-")} min')
    for kind, (right, total) in counts.items():
        print(f'{kind}: {right} of {total} classed right')
    minutes = [out['minutes'] for out in results if 'minutes' in out]
    if minutes:
        print(f'wall time of a diagnosis: median {np.median(minutes):.1f} '
              f'min, {min(minutes):.1f} to {max(minutes):.1f}')
    planted_right = sum(counts.get(k, (0, 0))[0] for k in
                        ('software', 'machine'))
    planted_all = sum(counts.get(k, (0, 0))[1] for k in
                      ('software', 'machine'))
    return 0 if planted_all and planted_right >= planted_all - \
        planted_all // 20 and counts.get('none', (1, 1))[0] == \
        counts.get('none', (1, 1))[1] else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dir', required=True)
    parser.add_argument('--base-nights', type=int, default=15)
    parser.add_argument('--fresh', type=int, default=1)
    parser.add_argument('--check', default='fio_cache_flags')
    parser.add_argument('--samples', type=int, default=3)
    parser.add_argument('--only', nargs='*', metavar='NAME',
                        help='these plants of the plan (s01, m03, aa1)')
    parser.add_argument('--base-only', action='store_true')
    parser.add_argument('--summary', action='store_true', help='print '
                        'what is done; run nothing')
    args = parser.parse_args()
    work = os.path.abspath(args.dir)
    os.makedirs(os.path.join(work, 'scratch'), exist_ok=True)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _exit_on)
    for line in plants.restore_left(work):
        print(f'bench/diagnose.py: {line} (left by a run killed before)')
    results_path = os.path.join(work, 'plants.jsonl')
    results = []
    if os.path.exists(results_path):
        with open(results_path) as fp:
            results = [json.loads(line) for line in fp if line.strip()]
    if args.summary:
        return summary(results)
    old_env = stack_env('planted-a')
    base(work, args, old_env)
    if args.base_only:
        return 0
    done = {out['name'] for out in results}
    for name, plant in default_plan():
        if name in done or (args.only and name not in args.only):
            continue
        out = one_plant(work, args, name, plant, old_env)
        results.append(out)
        with open(results_path, 'a') as fp:
            fp.write(json.dumps(out) + '\n')
        print(f'{name}: {out["cause"]} (wanted {out["wanted"]})',
              flush=True)
    return summary(results)


if __name__ == '__main__':
    claims.main(main)
