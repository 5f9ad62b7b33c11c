'''The figures of the results storage as one pandas data frame.

Each test case of a stored session carries its performance values and every
loggable variable, so every record field of the suite
(:mod:`microbench.fields`), the samples of each figure included.
:func:`load` returns one row per figure of every test case of the sessions
a query selects (ReFrame's query syntax, :mod:`.storage`): the session, the
check and variant, the figure and its samples, the reference it was checked
against, and what ran (:data:`microbench.fields.CONTEXT`).
'''

import json
import sys

import numpy as np
import pandas as pd

from microbench import fields
from microbench.verdicts import cache, storage, suggest
from microbench.verdicts.storage import ALL, ResultsError  # noqa: F401

#: What ran: the record fields that tell two sides of a comparison apart
CONTEXT = list(fields.CONTEXT)

#: The limit in force of a median figure, its value and the figure's
#: share of it, in % (microbench/components.py; empty where none)
LIMIT = ['limit_name', 'limit_value', 'share_of_limit']

#: Whether the figure's round 1 lay outside its other rounds (``round 1
#: x2.4 slower``; empty if not, or not judged: microbench/suite/coldstart.py)
COLD_START = 'cold_start'

#: The leading rounds run and not counted before the samples
WARMUP = 'warmup_rounds'

#: The data a storage figure touched on a node over the node's memory
#: (``0.05x memory, 0.2x client cache``; empty where none:
#: microbench/suite/memory.py)
MEMORY = 'data_to_memory'

#: The counted figures of the figure's test, one value per sample
#: (``device_write_per_byte=1,1;...``; empty where none:
#: microbench/suite/counted.py), judged by :mod:`.behaviour`
COUNTED = 'counted'

#: The figures of the figure's test read per node, where a multi-node run
#: gave them (``write_median_mib_s@mbnode2=812,799;...``; empty where
#: none: :mod:`microbench.nodes.multinode`)
NODE_FIGURES = 'node_figures'

#: What identifies a figure across sessions
KEY = ['system', 'partition', 'environ', 'check', 'variant', 'figure']

#: A session's extra naming the session whose regressions it reran
#: (``--session-extras confirms=<uuid>``: :mod:`.confirm`)
CONFIRMS = 'confirms'

#: A session's extra saying what ran it, and what ci/nightly.sh gives it
#: (``--session-extras kind=nightly``): the sessions ``compare --last``
#: judges as nights (:func:`.history.nightly`)
KIND = 'kind'
NIGHTLY = 'nightly'

COLUMNS = ['session', 'start', 'tag', CONFIRMS, KIND, 'system', 'partition',
           'environ', 'check', 'variant', 'measures', 'figure', 'value',
           'unit', 'ref', 'lower', 'upper', 'result', 'samples', *CONTEXT,
           *LIMIT, COLD_START, WARMUP, MEMORY, COUNTED, NODE_FIGURES]

#: The columns kept in the cache (:mod:`.cache`); a session's kind is
#: taken from its info, which the cache keeps whole
CACHED = [column for column in COLUMNS if column != KIND]

#: The latest start a session may have (pandas' last time, in 2262)
LATEST = 9e9

#: The extras a message of what the storage holds shows of a session
EXTRAS = ('tag', KIND, CONFIRMS)


def fmt(value):
    '''A value as the verdicts show it: a float to four significant
    digits, None or NaN as ``-``, anything else as its text.'''
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return '-'
    return f'{value:.4g}' if isinstance(value, float) else str(value)


def parse_samples(text):
    '''``{figure: samples}`` of a ``figure_samples`` record
    (:data:`microbench.fields.FIGURE_SAMPLES`; a malformed pair left
    out).'''
    return fields.FIGURE_SAMPLES.read(text)


def cold_starts(text):
    '''``{figure: words}`` of a ``cold_start`` record
    (:data:`microbench.fields.COLD_START`; a malformed pair left out).'''
    return fields.COLD_START.read(text)


def _count(value):
    '''A count a record holds (0 where it has none: an older record).'''
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float('nan')


def _limit(case, figure):
    '''The :data:`LIMIT` columns of ``figure`` of a test ``case``.'''
    name, value, share = (fields.FIELDS[field].codec.read(
        case.get(field)).get(figure) for field in LIMIT)
    return [name or '', _number(value), _number(share)]


def _optional(value):
    '''A reference's number, or None where it has none.'''
    return None if value is None else float(value)


def _text(value, what):
    if not isinstance(value, str):
        raise TypeError(f'{what} is not a text')
    return value


def _rows(session):
    '''The rows of one session (a ReFrame report), checked: a member
    missing or of another type raises (KeyError, TypeError, ValueError).'''
    info = session['session_info']
    start = float(info['time_start_unix'])
    if not 0 <= start <= LATEST:
        raise ValueError(f'time_start_unix {start!r} is not a time')
    for run in session['runs'][-1:]:
        for case in run['testcases']:
            values = case.get('perfvalues') or {}
            if not values:
                continue

            samples = parse_samples(case.get('figure_samples'))
            cold = cold_starts(case.get(COLD_START))
            for key, (value, ref, lower, upper, unit, *result) in \
                    values.items():
                if value is None:
                    continue

                system, partition, figure = key.split(':')
                yield [_text(info['uuid'], 'its uuid'), start,
                       str(info.get('tag', '')),
                       str(info.get(CONFIRMS, '')),
                       str(info.get(KIND, '')), system, partition,
                       _text(case['environ'], 'an environ'),
                       case['display_name'].split()[0],
                       str(case.get('variant', '')),
                       str(case.get('measures', '')),
                       figure, float(value), str(unit), _optional(ref),
                       _optional(lower), _optional(upper),
                       str(result[0]) if result and result[0] is not None
                       else None,
                       samples.get(figure, ()),
                       *(str(case.get(f, '')) for f in CONTEXT),
                       *_limit(case, figure), cold.get(figure, ''),
                       _count(case.get(WARMUP)),
                       fields.DATA_TO_MEMORY.read(case.get(MEMORY)).get(
                           figure, ''), str(case.get(COUNTED) or ''),
                       str(case.get(NODE_FIGURES) or '')]


#: What a session that is not a ReFrame report raises in :func:`_rows`
NOT_A_REPORT = (KeyError, TypeError, ValueError, AttributeError,
                IndexError)


def session_rows(session):
    '''The rows of one session; :class:`ResultsError` (one line) where it
    is not a ReFrame report.'''
    try:
        return list(_rows(session))
    except NOT_A_REPORT as err:
        raise ResultsError(f'not a ReFrame report ({type(err).__name__}: '
                           f'{err})') from None


def frame(found, sort=True):
    '''One row per figure of every test case of the sessions ``found``
    (ReFrame reports; the last run of each: the retries' result).

    :raises ResultsError: a session is not a ReFrame report.
    '''
    out = _table([row for session in found
                  for row in session_rows(session)])
    return out.sort_values('start', kind='stable') if sort else out


def _table(rows):
    '''The data frame of rows of :func:`_rows`.'''
    out = pd.DataFrame(rows, columns=COLUMNS)
    out['value'] = out['value'].astype(float)
    out['start'] = out['start'].astype(float)
    out['when'] = pd.to_datetime(out['start'], unit='s')
    # the kind last, as where it is added to the figures of the cache
    out[KIND] = out.pop(KIND)
    return out


def _decoded(path, pairs):
    '''The sessions of ``pairs`` (``(uuid, JSON text)``) that are ReFrame
    reports, decoded; each other one is left out, said in one line.'''
    out = []
    for uuid, blob in pairs:
        try:
            try:
                session = json.loads(blob)
            except (ValueError, TypeError, RecursionError) as err:
                raise ResultsError(f'not JSON ({type(err).__name__}: '
                                   f'{err})') from None
            rows = session_rows(session)
            if session['session_info']['uuid'] != uuid:
                raise ResultsError('its session_info.uuid is not its own')
        except ResultsError as err:
            print(f'microbench: warning: results storage {path}: session '
                  f'{uuid}: {err}: left out', file=sys.stderr)
            continue
        out.append((session, rows))
    return out


def _select(query, path=None):
    '''(UUIDs of the sessions ``query`` selects, their infos, the figures
    of every session decoded so far)'''
    path = storage.database(path)
    storage.check_file(path)
    try:
        chosen = storage.selector(query)
    except Exception as err:
        raise ResultsError(suggest.not_a_query(query, err, path)) \
            from None
    try:
        with storage.reading(path) as (backend, conn):
            uuids = storage.candidates(conn, chosen)
            known = cache.read(path, CACHED)
            missing = [u for u in uuids if u not in known.infos]
            found = _decoded(path, storage.blobs(conn, missing))
    except ResultsError:
        raise
    except Exception as err:
        why = ' '.join(str(err).split())
        raise ResultsError(f'cannot read the results storage {path}: '
                           f'{type(err).__name__}: {why}') from None

    if found:
        decoded = _table([row for _, mine in found for row in mine])
        new = cache.Known(decoded, {
            s['session_info']['uuid']: s['session_info'] for s, _ in found})
        if known.infos:
            cache.append(path, new, CACHED)
        else:
            cache.write(path, new, CACHED)
        known = known.extended(new.figures, new.infos)

    # a session left out (not a report) has no info: not selected
    uuids = [u for u in uuids if u in known.infos
             and storage.matches(backend, chosen, known.infos[u])]
    return uuids, known


def sessions(query, path=None):
    '''The UUIDs of the sessions ``query`` selects, oldest first.'''
    uuids, known = _select(query, path)
    return sorted(uuids, key=lambda u: known.infos[u]['time_start_unix'])


def _selected(query, path=None):
    '''(the figures of the sessions ``query`` selects, their UUIDs,
    everything decoded so far)'''
    uuids, known = _select(query, path)
    out = known.figures
    # A year of figures is copied whole by a filter or a sort: none where
    # every session is selected (every session of the storage), none where
    # they are in order already (the cache keeps them as stored, nightly)
    if len(uuids) < len(known.infos):
        out = out[out['session'].isin(set(uuids))].copy()
    if not out['start'].is_monotonic_increasing:
        out = out.sort_values('start', kind='stable')
    # each session's kind from its info (the cache keeps infos whole)
    kinds = {uuid: str(info.get(KIND, '')) for uuid, info in
             known.infos.items()}
    out[KIND] = out['session'].map(kinds).fillna('')
    return out, uuids, known


def select(query, path=None):
    '''The figures of the sessions ``query`` selects, oldest session first,
    and how many sessions it selects.

    ReFrame's own API decodes the whole JSON of every session on every
    call; sessions never change once stored, so the figures of each one are
    decoded once and kept beside the results storage (:mod:`.cache`).
    '''
    out, uuids, _ = _selected(query, path)
    return out, len(uuids)


def load(query, path=None, partition=None):
    '''The figures of the sessions ``query`` selects, of ``partition``
    (``system:partition``) if given.

    :raises ResultsError: no storage, a corrupted one, or no figure: what
        the storage holds said (its partitions, its sessions).
    '''
    out, uuids, known = _selected(query, path)
    where = storage.database(path)
    every = set(known.figures['system'] + ':' + known.figures['partition'])
    if query != ALL and (not uuids or partition and partition not in every):
        # what the storage holds is said of all of it: every session
        # decoded (and kept in the cache), not those decoded so far
        _, _, known = _selected(ALL, path)
        every = set(known.figures['system'] + ':' +
                    known.figures['partition'])
    if not uuids:
        raise ResultsError(suggest.no_session(query, where, known, EXTRAS))
    if partition:
        if partition not in every:
            raise ResultsError(suggest.unknown(
                'partition', partition, sorted(every),
                f'the results storage {where}'))
        out = out[(out['system'] + ':' + out['partition']) == partition]
    if out.empty:
        mine = known.figures[known.figures['session'].isin(set(uuids))]
        theirs = sorted(set(mine['system'] + ':' + mine['partition']))
        raise ResultsError(
            f'no figures in the results storage {where} for '
            f'{suggest.said(query)}'
            + (f' on {partition}' if partition else '')
            + f' ({suggest.matched(len(uuids))}' + (
                f'; their figures are of {suggest.listed(theirs)})'
                if partition and theirs else
                ': no performance figure in them)'))
    return out


def load_many(queries, path=None, partition=None):
    '''The figures of the sessions of every query of ``queries`` (each
    figure of a session once).'''
    frames = [load(query, path, partition) for query in queries]
    if len(frames) == 1:
        return frames[0]
    out = pd.concat(frames, ignore_index=True)
    return out.drop_duplicates(subset=['session', *KEY])


def with_samples(rows):
    '''The rows of figures that have samples of their own (a variant's
    median figures, a gap's ratios; not its min and max).'''
    return rows[rows['samples'].map(len) > 0]


def session_values(rows):
    '''One value per session of one figure's ``rows``: the session's
    median, by session.'''
    return rows.groupby('session')['value'].median()
