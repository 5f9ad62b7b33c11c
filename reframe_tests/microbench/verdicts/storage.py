'''The figures of ReFrame's results storage as one pandas data frame.

ReFrame keeps every session (a run of ``reframe -r``) in its results storage
(``perflogs/results.db``, or ``RFM_SQLITE_DB_FILE``); each test case of a
session carries its performance values and every loggable variable, so
every record field of the suite (:mod:`microbench.fields`), the samples of
each figure included.  This module reads sessions through ReFrame's own
API, selected with ReFrame's own query syntax (``--list-stored-sessions``):

- a session UUID;
- a time period, ``now-7d:now``, ``20261101:20261108``;
- a filter on the extras a session was given (``--session-extras
  tag=pre``): ``?tag=="pre"``, or both, ``now-30d:now?tag=="pre"``.

:func:`load` returns one row per figure of every test case: the session, the
check and variant, the figure and its samples, the reference it was checked
against, and what ran (versions, specs, nodes, kernel, scratch).
'''

import json
import os
import pickle
import sqlite3

import numpy as np
import pandas as pd

from microbench import paths


#: What ran: the record fields that tell two sides of a comparison apart
#: (not the scratch directory: every job makes a private one)
CONTEXT = ['tool_version', 'spack_env', 'spack_spec', 'node', 'kernel',
           'scratch_fstype', 'scratch_mount_options', 'suite_commit']

COLUMNS = ['session', 'start', 'tag', 'system', 'partition', 'environ',
           'check', 'variant', 'measures', 'figure', 'value', 'unit', 'ref',
           'lower', 'upper', 'result', 'samples', *CONTEXT]


#: Every session of a results storage (a time period of ReFrame's query
#: syntax)
ALL = '19700101:now+1d'

#: The version of the cache of decoded sessions (:func:`select`)
CACHE_VERSION = 2


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

    if not create and (not os.path.isfile(path)
                       or os.path.getsize(path) == 0):
        raise ResultsError(f'no results storage at {path} (run the suite '
                           f'first, or give --db or RFM_SQLITE_DB_FILE)')

    try:
        site = runtime.runtime().site_config
    except ReframeFatalError:
        # ReFrame's builtin configuration: the storage is all it needs
        site = config.load_config('<builtin>')
        site.select_subconfig('generic')
        runtime.init_runtime(site)

    site.add_sticky_option('storage/sqlite_db_file', path)
    return StorageBackend.default()


def _candidates(conn, selector):
    '''UUIDs of the sessions a selector's UUID or time period picks (the
    WHERE clause of ReFrame's own session query, on its schema).'''
    if selector.by_session_uuid():
        return conn.execute('SELECT uuid FROM sessions WHERE uuid == ?',
                            (selector.uuid.split(':')[0],)).fetchall()
    if selector.by_time_period():
        return conn.execute(
            'SELECT uuid FROM sessions WHERE session_start_unix >= ? AND '
            'session_start_unix < ?', selector.time_period).fetchall()
    return conn.execute('SELECT uuid FROM sessions').fetchall()


def _read_cache(path):
    try:
        with open(path, 'rb') as fp:
            cache = pickle.load(fp)
        if cache.get('version') == CACHE_VERSION:
            return cache
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError,
            ImportError, TypeError, KeyError):
        pass

    return {'version': CACHE_VERSION, 'info': {},
            'frame': pd.DataFrame(columns=[*COLUMNS, 'when'])}


def _write_cache(path, cache):
    tmp = f'{path}.{os.getpid()}.tmp'
    try:
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
                  'wb') as fp:
            pickle.dump(cache, fp, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass      # a read-only results directory: no cache, same answers


def _select(query, path=None):
    '''(UUIDs of the sessions ``query`` selects, the decoded cache)'''
    from reframe.frontend.reporting.utility import parse_query_spec

    path = database(path)
    storage = backend(path)
    cache_path = path + '.microbench-cache'
    try:
        selector = parse_query_spec(query)
        storage._db_file()                     # ReFrame's schema check
        with sqlite3.connect(path) as conn:
            uuids = [u for u, in _candidates(conn, selector)]
            cache = _read_cache(cache_path)
            missing = [u for u in uuids if u not in cache['info']]
            for start in range(0, len(missing), 100):
                part = missing[start:start + 100]
                blobs = conn.execute(
                    f'SELECT json_blob FROM sessions WHERE uuid IN '
                    f'({",".join("?" * len(part))})', part).fetchall()
                found = [json.loads(b) for b, in blobs]
                new = frame(found, sort=False)
                cache['frame'] = (pd.concat([cache['frame'], new],
                                            ignore_index=True)
                                  if len(cache['frame']) else new)
                cache['info'].update((s['session_info']['uuid'],
                                      s['session_info']) for s in found)
    except (sqlite3.DatabaseError, ValueError, KeyError) as err:
        raise ResultsError(f'cannot read the results storage {path} '
                           f'({query!r}): {err}') from None
    except Exception as err:
        raise ResultsError(f'cannot read the results storage {path} '
                           f'({query!r}): {type(err).__name__}: {err}') \
            from None

    if missing:
        _write_cache(cache_path, cache)

    if selector.by_session_filter():
        def match(uuid):
            try:
                return storage._db_filter_json(selector.sess_filter,
                                               dict(cache['info'][uuid]))
            except Exception:
                return False       # as ReFrame: a filter that cannot apply
        uuids = [u for u in uuids if match(u)]

    return uuids, cache


def sessions(query, path=None):
    '''The UUIDs of the sessions ``query`` selects, oldest first.'''
    uuids, cache = _select(query, path)
    return sorted(uuids, key=lambda u: cache['info'][u]['time_start_unix'])


def select(query, path=None):
    '''The figures of the sessions ``query`` selects (ReFrame's query
    syntax), oldest session first.

    ReFrame's API decodes the whole JSON of every session on every call (3
    s for a year of nightly sessions here); sessions never change once
    stored, so the figures of each one are decoded once and kept beside
    the results storage (``<db>.microbench-cache``, by session UUID).
    Selection is ReFrame's: its query parser, the WHERE clause of its
    session query on its own schema (checked first), its filter on a
    session's extras.
    '''
    uuids, cache = _select(query, path)
    out = cache['frame']
    out = out[out['session'].isin(set(uuids))]
    return out.sort_values('start', kind='stable'), len(uuids)


def parse_samples(text):
    '''``{figure: samples}`` of a ``figure_samples`` record.'''
    out = {}
    for item in filter(None, (text or '').split(';')):
        name, _, values = item.partition('=')
        try:
            out[name] = tuple(float(v) for v in values.split(','))
        except ValueError:
            continue

    return out


def _rows(session):
    info = session['session_info']
    for run in session['runs'][-1:]:
        for case in run['testcases']:
            values = case.get('perfvalues') or {}
            if not values:
                continue

            samples = parse_samples(case.get('figure_samples'))
            for key, (value, ref, lower, upper, unit, *result) in \
                    values.items():
                if value is None:
                    continue

                system, partition, figure = key.split(':')
                yield [info['uuid'], info['time_start_unix'],
                       info.get('tag', ''), system, partition,
                       case['environ'], case['display_name'].split()[0],
                       case.get('variant', ''), case.get('measures', ''),
                       figure, value, unit, ref, lower, upper,
                       result[0] if result else None,
                       samples.get(figure, ()),
                       *(str(case.get(f, '')) for f in CONTEXT)]


def frame(found, sort=True):
    '''One row per figure of every test case of the sessions ``found``
    (ReFrame reports; the last run of each: the retries' result).'''
    rows = [row for session in found for row in _rows(session)]
    out = pd.DataFrame(rows, columns=COLUMNS)
    out['value'] = out['value'].astype(float)
    out['start'] = out['start'].astype(float)
    out['when'] = pd.to_datetime(out['start'], unit='s')
    return out.sort_values('start', kind='stable') if sort else out


def load(query, path=None, partition=None):
    '''The figures of the sessions ``query`` selects, of ``partition``
    (``system:partition``) if given.

    :raises ResultsError: no storage, a corrupted one, or no figure.
    '''
    out, nsessions = select(query, path)
    if partition:
        out = out[(out['system'] + ':' + out['partition']) == partition]

    if out.empty:
        raise ResultsError(f'no figures in the results storage '
                           f'{database(path)} for {query!r}'
                           + (f' on {partition}' if partition else '')
                           + f' ({nsessions} session(s) matched)')

    return out


def key_columns():
    '''What identifies a figure across sessions.'''
    return ['system', 'partition', 'environ', 'check', 'variant', 'figure']


def pooled(rows):
    '''All samples of ``rows`` (one figure, several sessions), as one
    array; a figure without samples contributes its value.'''
    return np.concatenate([np.asarray(s if s else (v,), dtype=float)
                           for s, v in zip(rows['samples'], rows['value'])])
