'''The figures of every session decoded so far, kept beside the storage.

Decoding a session's JSON is most of the cost of reading the results
storage (a year of nights: seconds), and a stored session never changes,
so the figures of each session are decoded once and kept in
``<storage>.microbench-cache``: an SQLite file of its own, with a table of
the sessions' infos, a table of the samples, one row per write holding
every sample of the figures it added, in their order, as little-endian
64-bit floats, and a table of their figures (:data:`COLUMNS` of
:mod:`.figures`, each figure's count of samples in ``samples``) by column:
one row per column and write, a column of numbers as their little-endian
bytes, any other as the JSON list of its distinct values and each row's
index into it (a year of figures is a few hundred decodes, not a Python
object per cell: reading the cache row by row took most of a night's
``compare --last``).  A table ``about`` says what it is: this format and
its version, the storage it belongs to (path, device and inode) and that
storage's schema version.

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

from microbench.verdicts.storage import schema_version

FORMAT = 'microbench figures cache'
VERSION = '13'
#: How the samples are kept: little-endian 64-bit floats
SAMPLE = np.dtype('<f8')
#: How a column of other values points into the list of its distinct ones
CODE = np.dtype('<i4')
#: The kinds of number a column may be kept as (booleans, integers,
#: floats), and the values a list of distinct ones may hold
NUMBERS = 'buif'
PLAIN = (str, int, float, bool, type(None))
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
            writes = conn.execute(
                'SELECT rowid, data FROM samples ORDER BY rowid').fetchall()
            kept = conn.execute(
                f'SELECT write, name, dtype, uniques, data FROM figures '
                f'WHERE name IN ({", ".join("?" * len(columns))})',
                list(columns)).fetchall()
            infos = {uuid: json.loads(info) for uuid, info in
                     conn.execute('SELECT uuid, info FROM infos')}
        finally:
            conn.close()
        return Known(_decoded(_columns(writes, kept, columns)), infos)
    except (sqlite3.Error, ValueError, TypeError, KeyError) as err:
        _said(storage, f'{type(err).__name__}: {err}')
        return empty(columns)


def _columns(writes, kept, columns):
    '''``{column: values}`` of every write, in the order written, and
    the samples of every figure (a tuple each), checked: every write holds
    every column, each of as many rows, and as many samples as its figures
    count.'''
    by_write = {}
    for write, name, dtype, uniques, data in kept:
        by_write.setdefault(write, {})[name] = _column(dtype, uniques, data)
    parts, samples = {name: [] for name in columns}, []
    for write, data in writes:
        mine = by_write.pop(write, {})
        if set(mine) != set(columns):
            raise ValueError(f'write {write} keeps the columns '
                             f'{sorted(mine)}, not {sorted(columns)}')
        if len({values.size for values in mine.values()}) != 1:
            raise ValueError(f'the columns of write {write} differ in '
                             f'length')
        samples += _samples(mine['samples'], data)
        for name, values in mine.items():
            parts[name].append(values)
    if by_write:
        raise ValueError(f'columns of writes {sorted(by_write)} without '
                         f'their samples')
    out = {}
    for name, values in parts.items():
        values = np.concatenate(values) if values else np.empty(0, object)
        # the types a row-by-row read of the values gives them (a column
        # of numbers and nulls is a column of floats)
        out[name] = pd.Series(values, dtype=values.dtype).infer_objects() \
            if values.dtype == object else values
    out['samples'] = pd.Series(samples, dtype=object)
    return out


def _column(dtype, uniques, data):
    '''The values of one column of one write: its numbers, or its
    distinct values picked by each row's code.'''
    if not isinstance(data, bytes):
        raise ValueError('a column is not bytes')
    if not isinstance(dtype, str):
        raise ValueError('a column has no type')
    if uniques is None:
        kind = np.dtype(dtype)
        if kind.kind not in NUMBERS or len(data) % kind.itemsize:
            raise ValueError(f'a column of {dtype} is not numbers')
        return np.frombuffer(data, dtype=kind)
    if dtype != CODE.str or len(data) % CODE.itemsize:
        raise ValueError('a column of values has no codes')
    distinct = json.loads(uniques)
    if not isinstance(distinct, list) or not all(
            isinstance(value, PLAIN) for value in distinct):
        raise ValueError('a column\'s values are not a list of plain ones')
    codes = np.frombuffer(data, dtype=CODE)
    if codes.size and (codes.min() < 0 or codes.max() >= len(distinct)):
        raise ValueError('a column\'s codes point outside its values')
    values = np.empty(len(distinct), dtype=object)
    values[:] = distinct
    return values[codes]


def _samples(counts, data):
    '''The samples of one write's figures, a tuple each (``data``: every
    sample's bytes, ``counts``: each figure's count).'''
    if not isinstance(data, bytes) or len(data) % SAMPLE.itemsize:
        raise ValueError('the samples are not a whole number of floats')
    if counts.dtype.kind not in 'iu' or (counts < 0).any():
        raise ValueError('the sample counts are not counts')
    flat = np.frombuffer(data, dtype=SAMPLE)
    if counts.sum() != flat.size:
        raise ValueError(f'{flat.size} samples kept, the figures count '
                         f'{counts.sum()}')
    values = iter(flat.tolist())
    return [tuple(itertools.islice(values, count))
            for count in counts.tolist()]


def _decoded(columns):
    '''The figures of ``columns`` (:func:`_columns`), the numbers as
    numbers, and when each session began.'''
    figures = pd.DataFrame(columns)
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
    conn.execute('CREATE TABLE figures (write INTEGER, name TEXT, '
                 'dtype TEXT, uniques TEXT, data BLOB)')


def _add(conn, known, columns):
    '''Insert ``known``'s infos, and its figures as one write: their
    samples (one row) and each of their ``columns``.'''
    conn.executemany('INSERT INTO infos VALUES (?, ?)', (
        (uuid, json.dumps(info)) for uuid, info in known.infos.items()))
    figures = known.figures
    counts = figures['samples'].map(len).to_numpy(dtype=np.int64)
    flat = np.fromiter(itertools.chain.from_iterable(figures['samples']),
                       dtype=SAMPLE, count=int(counts.sum()))
    write = conn.execute('INSERT INTO samples VALUES (?)',
                         (flat.tobytes(),)).lastrowid
    conn.executemany('INSERT INTO figures VALUES (?, ?, ?, ?, ?)', [
        (write, name, *_encoded(counts if name == 'samples'
                                else figures[name].to_numpy()))
        for name in columns])


def _encoded(values):
    '''``(dtype, uniques, data)`` of one column: numbers as their
    little-endian bytes (no uniques); any other values as the JSON list
    of the distinct ones and each row's index into it.

    :raises TypeError: a value that is not plain (:data:`PLAIN`).
    '''
    if values.dtype.kind in NUMBERS:
        kind = values.dtype.newbyteorder('<')
        return kind.str, None, values.astype(kind).tobytes()
    codes, distinct = _factorized(values)
    return CODE.str, json.dumps(distinct), codes.astype(CODE).tobytes()


def _factorized(values):
    '''Each value's index into the list of the distinct ones, and that
    list; a value is its type too (1, 1.0 and True, None and NaN stay
    apart, as they were).'''
    codes, distinct = pd.factorize(values, use_na_sentinel=False)
    kinds = [type(value) for value in distinct]
    if all(type(value) is kinds[code]
           for value, code in zip(values, codes.tolist())):
        distinct = list(distinct)
    else:
        # values pandas holds equal but of other types: one by one
        index = {}
        codes = np.array([index.setdefault((type(value), value), len(index))
                          for value in values], dtype=np.int64)
        distinct = [value for _, value in index]
    if not all(isinstance(value, PLAIN) for value in distinct):
        raise TypeError('a column holds values that are not plain')
    return codes, distinct


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
    except (OSError, sqlite3.Error, TypeError):
        # a results directory this user cannot write (or figures that are
        # not data): no cache, same answers
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
    except (OSError, sqlite3.Error, TypeError):
        with contextlib.suppress(sqlite3.Error):
            conn.execute('ROLLBACK')
    finally:
        conn.close()
