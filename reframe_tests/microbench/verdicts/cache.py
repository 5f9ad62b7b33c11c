'''The figures of every session decoded so far, kept beside the storage.

Decoding a session's JSON is most of the cost of reading the results
storage (a year of nights: seconds), and a stored session never changes,
so the figures of each session are decoded once and kept in
``<storage>.microbench-cache``: an SQLite file of its own, with a table of
the sessions' infos, a table of their figures (:data:`COLUMNS` of
:mod:`.figures`, each figure's count of samples in ``samples``) and a
table of the samples, one row per write holding every sample of the
figures it added, in their order, as little-endian 64-bit floats (a few
decodes for a year of them), and a table ``about`` that says what it is:
this format and its version, the storage it belongs to (path, device and
inode) and that storage's schema version.

A results directory may be shared (a facility's nightly runs, group
writable): nothing in the cache is code, and it is validated on load.  A
cache that is not ours, of another storage or format version, truncated
or corrupt is ignored, said so once on stderr, and made again: written
whole to a temporary file and renamed over the old one, with the storage
file's own permissions.  A valid cache gets a night's new sessions
appended in one transaction (:func:`append`: a year is not written again
every night); a session another process appended first is not added
twice.  Where the directory or the file cannot be written, nothing is
kept and the answers are the same.
'''

import contextlib
import itertools
import json
import os
import sqlite3
import sys
import warnings

import numpy as np
import pandas as pd

FORMAT = 'microbench figures cache'
VERSION = '6'
#: How the samples are kept: little-endian 64-bit floats
SAMPLE = np.dtype('<f8')
SUFFIX = '.microbench-cache'


class Known:
    '''Figures and session infos decoded so far.'''

    def __init__(self, figures, infos):
        self.figures = figures
        self.infos = infos

    def extended(self, figures, infos):
        '''These and ``figures`` (of new sessions) with their ``infos``.'''
        if not len(self.figures):
            return Known(figures, {**self.infos, **infos})
        with warnings.catch_warnings():
            # a night whose column is all None (no reference, a one-sided
            # band) keeps the dtype the year before gives the column, as
            # pandas 2.2 does; the deprecation would say so on every night
            warnings.filterwarnings('ignore', category=FutureWarning,
                                    message='The behavior of DataFrame '
                                    'concatenation with empty or all-NA')
            both = pd.concat([self.figures, figures], ignore_index=True)
        return Known(both, {**self.infos, **infos})


def empty(columns):
    '''Nothing known: no figures (of ``columns``), no sessions.'''
    return Known(pd.DataFrame(columns=[*columns, 'when']), {})


def path_of(storage):
    return storage + SUFFIX


def identity(storage):
    '''What the cache of ``storage`` must say it belongs to.'''
    from microbench.verdicts.storage import schema_version

    stat = os.stat(storage)
    return {'format': FORMAT, 'version': VERSION,
            'storage': os.path.realpath(storage),
            'device': str(stat.st_dev), 'inode': str(stat.st_ino),
            'schema': str(schema_version(storage))}


def _said(storage, why):
    print(f'microbench: ignored the cache {path_of(storage)} ({why}); '
          f'it is made again', file=sys.stderr)


def read(storage, columns):
    '''The figures (``columns`` of each) and infos kept for ``storage``;
    none where there is no cache, or one that is not valid for it (said
    why).'''
    path = path_of(storage)
    if not os.path.exists(path):
        return empty(columns)
    try:
        conn = sqlite3.connect(f'file:{path}?mode=ro', uri=True, timeout=30,
                               isolation_level=None)
        try:
            # One read transaction: every SELECT sees the same cache, never
            # one half appended to by another reader of the storage
            conn.execute('BEGIN')
            about = dict(conn.execute('SELECT key, value FROM about'))
            if about != identity(storage):
                _said(storage, 'it is of another storage or format')
                return empty(columns)
            figures = pd.read_sql_query(
                f'SELECT {", ".join(_quoted(columns))} FROM figures '
                f'ORDER BY rowid', conn)
            infos = {uuid: json.loads(info) for uuid, info in
                     conn.execute('SELECT uuid, info FROM infos')}
            kept = b''.join(data for data, in conn.execute(
                'SELECT data FROM samples ORDER BY rowid'))
        finally:
            conn.close()
        return Known(_decoded(figures, kept), infos)
    except (sqlite3.Error, ValueError, TypeError, KeyError,
            pd.errors.DatabaseError) as err:
        _said(storage, f'{type(err).__name__}: {err}')
        return empty(columns)


def _quoted(names):
    return [f'"{name}"' for name in names]


def _decoded(figures, kept):
    '''The figures as read back: samples as tuples of floats (from
    ``kept``, every sample's bytes, and each figure's count), the numbers
    as numbers, checked.'''
    counts = figures['samples'].to_numpy()
    if not isinstance(kept, bytes) or len(kept) % SAMPLE.itemsize:
        raise ValueError('the samples are not a whole number of floats')
    if counts.dtype.kind != 'i' or (counts < 0).any():
        raise ValueError('the sample counts are not counts')
    flat = np.frombuffer(kept, dtype=SAMPLE)
    if counts.sum() != flat.size:
        raise ValueError(f'{flat.size} samples kept, the figures count '
                         f'{counts.sum()}')
    values = iter(flat.tolist())
    figures['samples'] = [tuple(itertools.islice(values, count))
                          for count in counts.tolist()]
    for name in ('value', 'start', 'limit_value', 'share_of_limit'):
        figures[name] = figures[name].astype(float)
    figures['when'] = pd.to_datetime(figures['start'], unit='s')
    return figures


def _tables(conn, storage):
    conn.execute('CREATE TABLE about (key TEXT PRIMARY KEY, value TEXT)')
    conn.executemany('INSERT INTO about VALUES (?, ?)',
                     identity(storage).items())
    conn.execute('CREATE TABLE infos (uuid TEXT PRIMARY KEY, info TEXT)')
    conn.execute('CREATE TABLE samples (data BLOB)')


def _add(conn, known, columns):
    '''Insert ``known``'s infos, figures and their samples (one row).'''
    conn.executemany('INSERT INTO infos VALUES (?, ?)', (
        (uuid, json.dumps(info)) for uuid, info in known.infos.items()))
    figures = known.figures[columns].copy()
    counts = figures['samples'].map(len)
    flat = np.fromiter(itertools.chain.from_iterable(figures['samples']),
                       dtype=SAMPLE, count=int(counts.sum()))
    figures['samples'] = counts
    figures.to_sql('figures', conn, index=False, if_exists='append')
    conn.execute('INSERT INTO samples VALUES (?)', (flat.tobytes(),))


def write(storage, known, columns):
    '''Keep ``known`` (``columns`` of its figures) for ``storage``:
    written whole, then renamed.'''
    path = path_of(storage)
    tmp = f'{path}.{os.getpid()}.tmp'
    try:
        mode = os.stat(storage).st_mode & 0o666
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode))
        os.chmod(tmp, mode)
        with sqlite3.connect(tmp) as conn:
            _tables(conn, storage)
            _add(conn, known, columns)
        conn.close()
        os.replace(tmp, path)
    except (OSError, sqlite3.Error):
        # a results directory this user cannot write: no cache, same
        # answers
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def append(storage, new, columns):
    '''Add ``new`` (figures and infos of sessions not in the cache read
    before) to the valid cache of ``storage``, in one transaction; the
    sessions another process added since are left out.'''
    path = path_of(storage)
    try:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        conn.execute('BEGIN IMMEDIATE')
        if dict(conn.execute('SELECT key, value FROM about')) \
                != identity(storage):
            conn.execute('ROLLBACK')
            return
        there = {uuid for uuid, in conn.execute('SELECT uuid FROM infos')}
        fresh = {u: i for u, i in new.infos.items() if u not in there}
        if fresh:
            _add(conn, Known(new.figures[new.figures['session'].isin(
                set(fresh))], fresh), columns)
        conn.execute('COMMIT')
    except (OSError, sqlite3.Error):
        with contextlib.suppress(sqlite3.Error):
            conn.execute('ROLLBACK')
    finally:
        conn.close()
