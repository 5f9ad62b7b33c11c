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
- ``microbench stored`` on stored, unstored, missing and broken reports.

A real night whose store fails is test_store_fails_e2e.py's.
'''

import glob
import json
import multiprocessing
import os
import re
import subprocess
import sys
import threading
import time


from microbench.verdicts import figures, storage, stored
from nights import not_stored, sessions as nights

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
WRITERS = 16
#: Sessions stored before the writers start (compare --last needs two)
BEFORE = 2


def microbench(db, *args):
    return subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=600)


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
