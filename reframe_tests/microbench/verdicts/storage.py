'''ReFrame's results storage: the one module that knows its schema.

ReFrame keeps every session (a run of ``reframe -r``) in an SQLite file
(``perflogs/results.db``, or ``RFM_SQLITE_DB_FILE``).  Its documented ways to
read it are its command line (``--list-stored-sessions``,
``--describe-stored-sessions``: every session's whole JSON decoded on every
call, seconds for a year of nights) and no Python API.  The verdicts need the
sessions a query selects, each decoded once (:mod:`.cache`), and a bundle needs
one session copied with ReFrame's own schema; so this module, and no other,
uses the parts of ReFrame 4.10 listed in :data:`INTERNAL` (its private
names through :mod:`microbench.private`, the one module that uses any).
``tests/verdicts/test_reframe_private.py`` checks each of them against the
installed ReFrame and fails, naming them, when ReFrame's version or the
storage's schema version is not the one they were written against.

Queries are ReFrame's own (``--list-stored-sessions``): a session UUID; a
time period, ``now-7d:now``, ``20261101:20261108``; a filter on the extras
a session was given (``--session-extras tag=pre``): ``?tag=="pre"``, or
both, ``now-30d:now?tag=="pre"``.
'''

import contextlib
import os
import sqlite3
import urllib.parse

from microbench import paths, private

#: The ReFrame release and storage schema the uses were written against
TESTED_REFRAME = private.TESTED_REFRAME
TESTED_SCHEMA = '1.0'

#: Every use of ReFrame's undocumented internals (public names, its
#: storage's schema; its private names: :data:`microbench.private.PRIVATE`),
#: and why no documented way serves
INTERNAL = {
    'reframe.core.runtime.runtime().site_config, reframe.core.config.'
    'load_config, select_subconfig, init_runtime, add_sticky_option':
        'open the storage at a path of our choosing, inside a ReFrame run '
        'or outside any (the microbench command)',
    'reframe.frontend.reporting.storage.StorageBackend.default':
        'the storage backend of that configuration',
    'its private names': 'microbench.private.PRIVATE',
    'reframe.frontend.reporting.utility.parse_query_spec':
        "ReFrame's query syntax",
    'SQL on the schema: sessions(uuid, session_start_unix, json_blob, '
    'report_file), testcases(session_uuid), metadata(schema_version)':
        'select sessions without decoding them, read one session, copy '
        "one session into a storage of ReFrame's schema (a bundle), "
        'whether a session is stored (microbench stored)',
}

#: Every session of a results storage (a time period of ReFrame's query
#: syntax)
ALL = '19700101:now+1d'

#: Sessions read per SQL statement
CHUNK = 100

#: What the first bytes of an SQLite file say
SQLITE = b'SQLite format 3\x00'

#: The tables of ReFrame's schema a reader needs (without them ReFrame
#: would make them in the file it is given: a read would write)
TABLES = ('sessions', 'testcases', 'metadata')


class ResultsError(Exception):
    '''The results storage cannot answer: missing, corrupted, no match.'''


def database(path=None):
    '''The results storage file: ``path``, else ``RFM_SQLITE_DB_FILE``, else
    the suite's (``perflogs/results.db``).'''
    return os.path.abspath(path or os.environ.get('RFM_SQLITE_DB_FILE')
                           or paths.RESULTS_DB)


def backend(path, create=False):
    '''ReFrame's storage backend on ``path`` (made if ``create``).'''
    from reframe.core import config, runtime
    from reframe.core.exceptions import ReframeFatalError
    from reframe.frontend.reporting.storage import StorageBackend

    if not create:
        check_file(path)

    try:
        site = runtime.runtime().site_config
    except ReframeFatalError:
        # ReFrame's builtin configuration: the storage is all it needs
        site = config.load_config('<builtin>')
        site.select_subconfig('generic')
        runtime.init_runtime(site)

    site.add_sticky_option('storage/sqlite_db_file', path)
    return StorageBackend.default()


#: Seconds a reader waits for a writer's lock on the storage (ReFrame
#: storing a session, another tool) before it says the storage is locked
LOCK_WAIT = 30


def read_only(path):
    '''An SQLite connection that cannot write to ``path`` (its URI
    quoted: a path may hold ``?`` or ``#``), waiting up to
    :data:`LOCK_WAIT` seconds for a writer's lock.'''
    uri = f'file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro'
    return contextlib.closing(sqlite3.connect(uri, uri=True,
                                              timeout=LOCK_WAIT))


def check_file(path):
    '''Say in one line why ``path`` is not a results storage to read:
    missing, empty, a directory, not an SQLite file, or one without
    ReFrame's tables; read only, before ReFrame opens it, as ReFrame adds
    its indexes and tables to any SQLite file it is given.

    :raises ResultsError: it is not one.
    '''
    where = (f'no results storage at {path} (run the suite first, or give '
             f'--db or RFM_SQLITE_DB_FILE)')
    if os.path.isdir(path):
        raise ResultsError(f'{where}: it is a directory')
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        raise ResultsError(where)
    said = f'cannot read the results storage {path}'
    try:
        with open(path, 'rb') as fp:
            head = fp.read(len(SQLITE))
    except OSError as err:
        raise ResultsError(f'{said}: {err.strerror}') from None
    if head != SQLITE:
        raise ResultsError(f'{said}: it is not an SQLite file (not '
                           f'ReFrame\'s results storage)')
    try:
        with read_only(path) as conn:
            tables = {name for name, in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = [name for name in TABLES if name not in tables]
            if missing:
                raise ResultsError(
                    f'{said}: an SQLite file without ReFrame\'s table(s) '
                    f'{", ".join(missing)} (not its results storage)')
            versions = conn.execute(
                'SELECT schema_version FROM metadata').fetchall()
    except sqlite3.OperationalError as err:
        if 'locked' in str(err) or 'busy' in str(err):
            raise ResultsError(f'{said}: another program holds it locked '
                               f'for more than {LOCK_WAIT} s ({err})') \
                from None
        raise ResultsError(f'{said}: its tables are not ReFrame\'s '
                           f'({err})') from None
    except sqlite3.Error as err:
        raise ResultsError(f'{said}: a damaged SQLite file '
                           f'({type(err).__name__}: {err})') from None
    if not versions:
        raise ResultsError(f'{said}: its metadata holds no schema version '
                           f'(not a results storage ReFrame made)')


def store(path, report):
    '''Store a session's ReFrame report in the storage at ``path`` (made if
    missing), as ReFrame does at the end of a run.'''
    backend(path, create=True).store(report)


def selector(query):
    '''ReFrame's parse of a session query.'''
    from reframe.frontend.reporting.utility import parse_query_spec

    return parse_query_spec(query)


@contextlib.contextmanager
def reading(path):
    '''``(backend, connection)`` of the storage at ``path``, its schema
    checked by ReFrame, the connection held under ReFrame's read lock (a
    writer never leaves half a session to read), where that lock can be
    taken: a results directory the reader may not write is read without
    it.'''
    storage = backend(path)
    private.check_schema(storage)
    lock = os.path.join(os.path.dirname(path), '.db.lock')
    if os.access(lock if os.path.exists(lock) else os.path.dirname(path),
                 os.W_OK):
        with private.read_locked(storage, path) as conn:
            yield storage, conn
    else:
        with sqlite3.connect(path) as conn:
            yield storage, conn


def candidates(conn, chosen):
    '''UUIDs of the sessions a selector's UUID or time period picks (the
    WHERE clause of ReFrame's own session query, on its schema).'''
    if chosen.by_session_uuid():
        rows = conn.execute('SELECT uuid FROM sessions WHERE uuid == ?',
                            (chosen.uuid.split(':')[0],))
    elif chosen.by_time_period():
        rows = conn.execute(
            'SELECT uuid FROM sessions WHERE session_start_unix >= ? AND '
            'session_start_unix < ?', chosen.time_period)
    else:
        rows = conn.execute('SELECT uuid FROM sessions')
    return [uuid for uuid, in rows.fetchall()]


def blobs(conn, uuids):
    '''``(uuid, JSON text)`` of each session of ``uuids``, in chunks.'''
    for start in range(0, len(uuids), CHUNK):
        part = uuids[start:start + CHUNK]
        yield from conn.execute(
            f'SELECT uuid, json_blob FROM sessions WHERE uuid IN '
            f'({",".join("?" * len(part))})', part).fetchall()


def matches(storage, chosen, info):
    '''Whether a session's info passes a selector's filter on its extras
    (as ReFrame: a filter that cannot apply does not match).'''
    if not chosen.by_session_filter():
        return True
    try:
        return bool(private.filter_matches(storage, chosen.sess_filter,
                                           dict(info)))
    except Exception:
        return False


def session(path, uuid):
    '''``(JSON text, report file)`` of session ``uuid``.'''
    with reading(path) as (_, conn):
        found = conn.execute('SELECT json_blob, report_file FROM sessions '
                             'WHERE uuid = ?', (uuid,)).fetchone()
    if found is None:
        raise ResultsError(f'no session {uuid} in {path}')
    return found


def holds(path, uuid):
    '''Whether session ``uuid`` is in the storage at ``path``: read under
    ReFrame's read lock, so a session ReFrame is writing is whole or not
    there, never half stored.'''
    with reading(path) as (_, conn):
        return conn.execute('SELECT 1 FROM sessions WHERE uuid = ?',
                            (uuid,)).fetchone() is not None


def copy_session(path, uuid, target):
    '''Write ``target``: a results storage of ReFrame's own schema (copied
    from ``path``) holding only session ``uuid``.'''
    with reading(path), sqlite3.connect(target) as dst:
        dst.execute('ATTACH DATABASE ? AS src', (path,))
        schema = dst.execute("SELECT type, sql FROM src.sqlite_master WHERE "
                             "sql IS NOT NULL ORDER BY type = 'index'")
        for _, sql in schema.fetchall():
            dst.execute(sql)
        dst.execute('INSERT INTO sessions SELECT * FROM src.sessions '
                    'WHERE uuid = ?', (uuid,))
        dst.execute('INSERT INTO testcases SELECT * FROM src.testcases '
                    'WHERE session_uuid = ?', (uuid,))
        dst.execute('INSERT INTO metadata SELECT * FROM src.metadata')


def schema_version(path):
    '''The schema version the storage at ``path`` says it has.'''
    with read_only(path) as conn:
        return conn.execute('SELECT schema_version FROM metadata').fetchone(
            )[0]

