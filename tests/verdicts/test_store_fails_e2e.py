'''A store that fails fails the night, end to end: a quick fio check on
the local default, ci/nightly.sh whose store fails (an immutable storage,
a full disk, a lock held past ReFrame's timeout) exits 4 naming the
error; so does ci/post_upgrade.sh.  When a store fails, ReFrame warns and
exits 0; so the recipes of ci/ ask ``microbench stored``.  ReFrame's own
storage, nothing mocked (the many writers of one storage are
test_storage_writers.py's).'''

import gc
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import threading
import time

import pytest

import project
from microbench.verdicts import figures, storage
from nights import not_stored, sessions as nights

NIGHTLY = os.path.join(project.ROOT, 'ci', 'nightly.sh')
POST_UPGRADE = os.path.join(project.ROOT, 'ci', 'post_upgrade.sh')


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


#: The cheapest real run: fio_fallocate (two variants), quick, 2 samples
#: of 1 s
QUICK = ['--mode', 'quick', '-n', '^fio_fallocate',
         *project.short('fio_fallocate')]
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
