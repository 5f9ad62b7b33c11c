'''Many writers of one results storage, and a store that fails.

Several partitions' nights store their sessions in one storage at once:
ReFrame 4.10 writes under a file lock (``.db.lock``), microbench reads
under its read lock.  When a store fails, ReFrame warns and exits 0; so
the recipes of ci/ ask ``microbench stored``.  ReFrame's own storage,
nothing mocked:

- 16 processes store a real recorded session each (a new UUID and night)
  at once (a barrier) while ``microbench compare --last``, ``report`` and
  ``stored`` run in loops and a process reads every session again and
  again: all 16 stored whole, every reader call answered;
- ``microbench stored`` on stored, unstored, missing and broken reports;
- e2e, a quick fio check on the local default: ci/nightly.sh whose store
  fails (an immutable storage, a full disk, a lock held past ReFrame's
  timeout) exits 4 naming the error; so does ci/post_upgrade.sh.
'''

import gc
import glob
import json
import multiprocessing
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import project
from fixtures import path
from microbench.verdicts import figures, storage, stored
from nights import night

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
NIGHTLY = os.path.join(project.ROOT, 'ci', 'nightly.sh')
POST_UPGRADE = os.path.join(project.ROOT, 'ci', 'post_upgrade.sh')
WRITERS = 16
#: Sessions stored before the writers start (compare --last needs two)
BEFORE = 2
RECORDED = sorted(glob.glob(path('results/*.json')))


def microbench(db, *args):
    return subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=600)


def not_stored(session, report, db):
    '''The error line of ``microbench stored`` and the recipes.'''
    return (f'session {session} of {report} is not in the results storage '
            f'{db}: ReFrame could not store it (see its output: lock '
            f'timeout, full disk, read-only directory?)')


def nights(count, first=0):
    '''``count`` real recorded sessions (every recorded report in turn),
    each a night of its own: a new UUID and time.'''
    sources = []
    for name in RECORDED:
        with open(name) as fp:
            sources.append(json.load(fp))
    rng = np.random.default_rng(first)
    return [night(sources[index % len(sources)], index, rng)
            for index in range(first, first + count)]


def write(db, report, barrier, done):
    '''One writer: waits for the others, then stores its session through
    ReFrame's storage backend; says when and how it went.'''
    barrier.wait(timeout=120)
    start = time.time()
    try:
        storage.store(db, report)
        error = None
    except Exception as err:
        error = f'{type(err).__name__}: {err}'
    done.put((report['session_info']['uuid'], start, time.time(), error))


class Reader(threading.Thread):
    '''One ``microbench`` command again and again until stopped, every
    call kept: (its name, start, end, process).'''

    def __init__(self, db, *command):
        super().__init__(daemon=True)
        self.db, self.command = db, command
        self.calls, self.stop = [], threading.Event()
        self.first = threading.Event()

    def run(self):
        while not self.stop.is_set():
            start = time.time()
            proc = microbench(self.db, *self.command)
            self.calls.append((self.command[0], start, time.time(), proc))
            self.first.set()


def read(db, stop, seen):
    '''Read the storage as microbench does, again and again until
    ``stop``: every session it selects, each decoded whole; says when and
    how many.'''
    try:
        while not stop.is_set():
            start = time.time()
            uuids = figures.sessions(storage.ALL, db)
            for uuid in uuids:
                blob, _ = storage.session(db, uuid)
                assert json.loads(blob)['session_info']['uuid'] == uuid
            seen.put((start, time.time(), len(uuids)))
    finally:
        seen.put(None)             # a failure: this process exits 1


def test_sixteen_writers_at_once_and_readers(tmp_path):
    db = tmp_path / 'results.db'
    early = nights(BEFORE)
    for report in early:
        storage.store(str(db), report)
    first = tmp_path / 'first.json'
    first.write_text(json.dumps(early[0]))
    sessions = nights(WRITERS, first=BEFORE)

    fork = multiprocessing.get_context('fork')
    barrier, done = fork.Barrier(WRITERS + 1), fork.Queue()
    writers = [fork.Process(target=write, args=(str(db), report, barrier,
                                                done))
               for report in sessions]
    stop, seen = fork.Event(), fork.Queue()
    writers.append(fork.Process(target=read, args=(str(db), stop, seen)))
    for writer in writers:
        writer.start()
    readers = [Reader(db, 'compare', '--last', '--json',
                      str(tmp_path / 'last.json')),
               Reader(db, 'report', '-o', str(tmp_path / 'report')),
               Reader(db, 'stored', str(first))]
    for reader in readers:
        reader.start()
    for reader in readers:
        assert reader.first.wait(300), 'a reader never answered'
    barrier.wait(timeout=120)              # the writers go, all at once
    results = [done.get(timeout=300) for _ in sessions]
    begin = min(start for _, start, _, _ in results)
    end = max(stop for _, _, stop, _ in results)
    while any(reader.is_alive() and not any(
            start > end for _, start, _, _ in reader.calls)
            for reader in readers):
        time.sleep(0.2)                    # a call after the writes
    stop.set()
    for reader in readers:
        reader.stop.set()
        reader.join(timeout=600)
    reads = list(iter(lambda: seen.get(timeout=300), None))
    for writer in writers:
        writer.join(timeout=60)

    errors = [(uuid, error) for uuid, _, _, error in results if error]
    assert not errors, errors
    assert [writer.exitcode for writer in writers] == [0] * (WRITERS + 1)
    wanted = [s['session_info']['uuid'] for s in sessions]
    assert sorted(uuid for uuid, *_ in results) == sorted(wanted)

    # every session stored, and whole
    every = figures.sessions(storage.ALL, str(db))
    assert sorted(every) == sorted(
        [s['session_info']['uuid'] for s in early] + wanted)
    for report in sessions:
        blob, _ = storage.session(str(db), report['session_info']['uuid'])
        assert json.loads(blob) == json.loads(json.dumps(report))
    for index, report in enumerate(sessions):
        (tmp_path / f'run-{index}.json').write_text(json.dumps(report))
    proc = microbench(db, 'stored', *glob.glob(str(tmp_path / 'run-*')))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count('is in the results storage') == WRITERS

    # every reader call answered, before, during and after the writes
    calls = [call for reader in readers for call in reader.calls]
    failed = [(name, proc.returncode, proc.stderr[-2000:])
              for name, _, _, proc in calls
              if proc.returncode not in ((0, 1) if name == 'compare' else
                                         (0,))
              or 'Traceback' in proc.stderr or ': error: ' in proc.stderr]
    assert not failed, failed
    # the figures cache, appended by readers at once, may be read torn:
    # said, ignored, made again, the answer the same (verdicts/cache.py)
    remade = sum('ignored the cache' in proc.stderr for *_, proc in calls)
    during = [name for name, start, stop, _ in calls
              if start < end and stop > begin]
    assert during, 'no microbench call while the writers wrote'
    counts = [count for _, _, count in reads]
    assert counts == sorted(counts), counts      # never a session lost
    assert counts[0] >= BEFORE and counts[-1] == BEFORE + WRITERS
    inside = [count for start, stop, count in reads
              if start < end and stop > begin]
    assert inside, 'no read while the writers wrote'
    seen = [int(re.search(r'nights, (\d+) stored\)', proc.stdout)[1]) + 1
            for name, _, _, proc in calls if name == 'compare']
    assert seen == sorted(seen) and seen[-1] == BEFORE + WRITERS, seen
    print(f'\n{WRITERS} writers stored {len(results)} sessions in '
          f'{end - begin:.2f} s, {len(errors)} errors; {len(calls)} '
          f'microbench calls ({len(during)} during the writes: {during}), '
          f'none failed ({remade} remade the cache); compare saw {seen} '
          f'sessions; {len(reads)} reads '
          f'({len(inside)} during the writes) saw {sorted(set(counts))}')


def test_stored_says_which_session_is_not_there(tmp_path):
    db = tmp_path / 'results.db'
    kept, lost = nights(2)
    storage.store(str(db), kept)
    reports = {'kept': tmp_path / 'kept.json', 'lost': tmp_path / 'l.json'}
    reports['kept'].write_text(json.dumps(kept))
    reports['lost'].write_text(json.dumps(lost))
    uuid = lost['session_info']['uuid']

    proc = microbench(db, 'stored', reports['kept'])
    assert proc.returncode == 0 and proc.stderr == ''
    assert proc.stdout == (f'session {kept["session_info"]["uuid"]} of '
                           f'{reports["kept"]} is in the results storage '
                           f'{db}\n')
    proc = microbench(db, 'stored', reports['lost'])
    assert proc.returncode == stored.NOT_STORED == 4
    assert proc.stderr == ('microbench stored: error: ' + not_stored(
        uuid, reports['lost'], db) + '\n')
    assert microbench(db, 'stored', kept['session_info']['uuid']) \
        .returncode == 0
    proc = microbench(db, 'stored', uuid)
    assert proc.returncode == 4 and f'session {uuid} is not in' in \
        proc.stderr

    # a run report ReFrame never wrote, cut short, or not its own
    missing = tmp_path / 'missing.json'
    cut = tmp_path / 'cut.json'
    cut.write_text(reports['kept'].read_text()[:1000])
    foreign = tmp_path / 'foreign.json'
    foreign.write_text(json.dumps({'session_info': {'uuid': 'night-1'}}))
    for report, said in ((missing, 'is missing: ReFrame died before '
                          'writing it, or ran no test'),
                         (cut, 'cannot be read (JSONDecodeError: '),
                         (foreign, "is not a ReFrame run report "
                          "(session_info.uuid 'night-1', not a UUID")):
        proc = microbench(db, 'stored', report)
        assert proc.returncode == 4, proc.stderr
        assert proc.stderr.startswith(f'microbench stored: error: run '
                                      f'report {report} {said}')
        assert proc.stderr.count('\n') == 1 and 'Traceback' not in \
            proc.stderr

    # a storage ReFrame could not make: a directory where its file goes
    folder = tmp_path / 'folder.db'
    folder.mkdir()
    proc = microbench(folder, 'stored', reports['kept'])
    assert proc.returncode == 4
    assert proc.stderr == ('microbench stored: error: ' + not_stored(
        kept['session_info']['uuid'], reports['kept'], folder) +
        '; it is a directory, not a results storage\n')


def fill(folder):
    '''Fill the file system of ``folder``.'''
    with pytest.raises(OSError, match='No space left'), \
            open(folder / 'filler', 'wb') as fp:
        while True:
            fp.write(b'\0' * 65536)
            fp.flush()


def hold(db, results, released):
    '''Hold an exclusive SQLite lock on ``db`` (a tool outside ReFrame's
    file lock) until the run report is written (ReFrame stores right after
    it), then :data:`HOLD` seconds more.'''
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute('BEGIN EXCLUSIVE')
    try:
        while not released.is_set() and not glob.glob(
                str(results / 'reports' / '*.json')):
            time.sleep(0.1)
        released.wait(HOLD)
    finally:
        conn.execute('ROLLBACK')
        conn.close()


#: Seconds the lock is held after the run report is written: ReFrame's
#: store gives up after RFM_SQLITE_CONN_TIMEOUT (1 s) of them
HOLD = 10


@pytest.fixture(params=['read-only', 'full disk', 'lock timeout'])
def failing(request, tmp_path):
    '''A results folder for ci/nightly.sh whose results.db holds one
    night and cannot take another, and the variables of the night: made
    immutable (chattr +i: root cannot write it either), on a full file
    system, or locked by another program for longer than ReFrame waits;
    what ReFrame says of it.'''
    results = tmp_path / 'results'
    results.mkdir()
    db = results / 'results.db'
    if request.param == 'read-only':
        storage.store(str(db), nights(1)[0])
        made = subprocess.run(['chattr', '+i', str(db)],
                              capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f'chattr +i: {made.stderr.strip()}')
        yield results, {}, 'attempt to write a readonly database'
        subprocess.run(['chattr', '-i', str(db)], check=True)
    elif request.param == 'full disk':
        tiny = request.getfixturevalue('tiny_fs')
        storage.store(str(tiny / 'results.db'), nights(1)[0])
        db.symlink_to(tiny / 'results.db')
        fill(tiny)
        yield results, {}, 'database or disk is full'
        gc.collect()              # ReFrame's connections, left open
    else:
        storage.store(str(db), nights(1)[0])
        released = threading.Event()
        holder = threading.Thread(target=hold, args=(str(db), results,
                                                     released))
        holder.start()
        yield results, {'RFM_SQLITE_CONN_TIMEOUT': '1'}, \
            'database is locked'
        released.set()
        holder.join()


#: The cheapest real run: the fio cache flags, quick, 2 samples of 1 s
QUICK = ['--mode', 'quick', '-n', '^fio_cache_flags', '-S', 'samples=2',
         '-S', 'fio_cache_flags_rounds.runtime_s=1']
needs_fio = pytest.mark.skipif(shutil.which('fio') is None, reason='fio '
                               'is not installed (apt-get install fio)')


def recipe(tmp_path, command, variables):
    '''Run a recipe of ci/ on the local default, its scratch and stage
    below ``tmp_path`` (gone after it); the process.'''
    (tmp_path / 'scratch').mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith('RFM_')}
    env.update(MICROBENCH_REFERENCES=project.NO_USER_REFERENCES, **variables)
    try:
        return subprocess.run(
            [*command, *QUICK, '-S', f'scratch_dir={tmp_path}/scratch',
             '--prefix', str(tmp_path / 'prefix')], cwd=project.ROOT, env=env,
            capture_output=True, text=True, timeout=900)
    finally:
        shutil.rmtree(tmp_path / 'scratch')
        shutil.rmtree(tmp_path / 'prefix', ignore_errors=True)


def refused(proc, reason):
    '''What ReFrame said when it could not store (asserted: ``reason``),
    and that the run itself passed.'''
    said, = re.findall(r'WARNING: failed to store results in the '
                       r'database: [^\n\x1b]*', proc.stdout + proc.stderr)
    print(f'\nReFrame: {said}\nthen: {proc.stderr.splitlines()[-1]}')
    assert said.endswith(reason)
    assert '0 failure(s)' in proc.stdout


@pytest.mark.e2e
@needs_fio
def test_a_store_that_fails_fails_the_night(failing, tmp_path):
    results, variables, reason = failing
    proc = recipe(tmp_path, [NIGHTLY, 'local'],
                  {'MICROBENCH_RESULTS': str(results), **variables})
    refused(proc, reason)                  # the run passed, exit 0 ...
    assert proc.returncode == 4, proc.stderr[-3000:]   # ... the night not

    report, = glob.glob(str(results / 'reports' / 'run-*.json'))
    with open(report) as fp:
        uuid = json.load(fp)['session_info']['uuid']
    line = not_stored(uuid, report, results / 'results.db')
    assert proc.stderr.splitlines()[-1] == \
        f'nightly: FAILED (exit 4): microbench stored: error: {line}'
    assert 'no comparison, no report, no bundle' in proc.stderr
    assert not glob.glob(str(results / 'reports' / 'compare-*')) + \
        glob.glob(str(results / 'reports' / '*.tar.gz'))
    assert glob.glob(str(results / 'perflogs' / '*' / '*' / '*.log'))
    assert len(figures.sessions(storage.ALL, str(results / 'results.db'))) \
        == 1


@pytest.mark.e2e
@needs_fio
@pytest.mark.parametrize('failing', ['read-only'], indirect=True)
def test_a_store_that_fails_fails_the_upgrade_sessions(failing, tmp_path):
    results, variables, reason = failing
    db = results / 'results.db'
    proc = recipe(tmp_path, [POST_UPGRADE, 'post-upgrade', '1', '--system',
                             'local', '--perflogdir', str(results / 'p')],
                  {'RFM_SQLITE_DB_FILE': str(db), **variables})
    refused(proc, reason)
    assert proc.returncode == 4, proc.stderr[-3000:]
    report, = glob.glob(str(results / 'reports' / 'post-upgrade-*-1.json'))
    with open(report) as fp:
        uuid = json.load(fp)['session_info']['uuid']
    assert proc.stderr.splitlines()[-1] == ('post_upgrade: FAILED (exit 4): '
                                            'microbench stored: error: ' +
                                            not_stored(uuid, report, db))
    assert f'0 of 1 sessions tagged post-upgrade stored in {db}' in \
        proc.stdout
