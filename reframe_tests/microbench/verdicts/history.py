'''A figure's history: one value per night.

The unit of a nightly comparison is the night (a session), not the sample:
the samples of one night share that night's state of the machine (the
other jobs, the file system's fill, the daemon that restarted), so the
nights differ from each other by more than the samples of one night do,
and pooling the samples of several nights as if they were independent
calls that drift a change.  Each figure's value on a night is its *night
summary*, the median of that night's samples (its value, where it has no
samples); its history is the series of night summaries of one partition,
check, variant and figure (:data:`figures.KEY`), oldest first.  The
samples stay beside it, for the plots and the within-night spread.
'''

import numpy as np
import pandas as pd

from microbench.verdicts import figures

KEY = figures.KEY

#: The columns of a table of nights: one row per figure and session
COLUMNS = ['session', 'start', 'when', 'tag', *KEY, 'unit', 'measures',
           'night', 'n', 'log_sd', 'ref', 'lower', 'upper', 'samples',
           *figures.CONTEXT, figures.COLD_START, figures.WARMUP]


def _summaries(samples, values):
    '''``(night, n, log_sd)`` arrays of the rows whose ``samples`` are
    given (tuples, maybe empty: then the row's value): the rows of each
    count of samples stacked, so one median per count.'''
    counts = np.fromiter((len(s) for s in samples), int, len(samples))
    night = np.asarray(values, dtype=float).copy()
    spread = np.full(len(samples), np.nan)
    for count in np.unique(counts[counts > 0]):
        rows = np.flatnonzero(counts == count)
        block = np.array([samples[i] for i in rows], dtype=float)
        night[rows] = np.median(block, axis=1)
        if count > 1:
            spread[rows] = _log_sd(block)
    return night, counts, spread


def _log_sd(block):
    '''Each row's standard deviation on a log scale (a fraction of its
    level); NaN for a row with a sample that is not positive.'''
    with np.errstate(divide='ignore', invalid='ignore'):
        logs = np.log(np.where(block > 0, block, np.nan))
    return np.std(logs, axis=1, ddof=1)


def nights(frame, last=None):
    '''One row per figure with samples and session of ``frame`` (rows of
    :func:`figures.load`): its night summary ``night``, its count of
    samples ``n`` and their spread ``log_sd``; oldest session first; of
    each partition's ``last`` sessions only, if given.'''
    rows = as_nights(figures.with_samples(frame))
    if last is not None:
        runs = rows.drop_duplicates(['system', 'partition', 'session'])
        kept = runs.sort_values('start').groupby(
            ['system', 'partition']).tail(last)
        rows = rows.merge(kept[['system', 'partition', 'session']])
    if rows.empty:
        return pd.DataFrame(columns=COLUMNS)

    # one row per figure and session: the last (a retried test's)
    rows = rows.drop_duplicates(['session', *KEY], keep='last')
    night, counts, spread = _summaries(rows['samples'].tolist(),
                                       rows['value'].to_numpy())
    out = rows.assign(night=night, n=counts, log_sd=spread)
    return out[COLUMNS].sort_values('start', kind='stable') \
        .reset_index(drop=True)


def as_nights(rows):
    '''``rows`` (of :func:`figures.load`) with each confirmation session's
    rows moved into the night they confirm (its session, start and time),
    after that night's own; a confirmation of a night not among ``rows``
    is left out (it is no night of its own).'''
    if figures.CONFIRMS not in rows:
        return rows
    confirming = rows[figures.CONFIRMS].fillna('').astype(str) != ''
    if not confirming.any():
        return rows
    firsts = rows[~confirming].drop_duplicates('session').set_index(
        'session')[['start', 'when']]
    target = rows.loc[confirming, figures.CONFIRMS]
    target = target[target.isin(firsts.index)]
    out = rows[~confirming | rows.index.isin(target.index)].copy()
    out.loc[target.index, 'session'] = target.to_numpy()
    for column in ('start', 'when'):
        out.loc[target.index, column] = firsts.loc[target, column].to_numpy()
    # stable: a night's confirmation stays after its first session's rows
    return out.sort_values('start', kind='stable')


def _extra(rows, name):
    '''The session extra ``name`` of each of ``rows``, as text ('' where
    none).'''
    if name not in rows:
        return pd.Series('', index=rows.index)
    return rows[name].fillna('').astype(str)


def nightly(frame, cap=None):
    '''``(rows, said)``: the rows of ``frame`` (of :func:`figures.load`)
    that are nights, and one line each for what was left out.

    A night is a session ci/nightly.sh ran (tagged ``--session-extras
    kind=nightly``: :data:`figures.KIND`), with its confirmation rerun
    (tagged ``confirms=<night>``).  Every other session (a one-check trial
    run, a post-upgrade side, a replay) is *ad hoc*: neither judged nor
    part of a history.  A store made before the tag (older nights untagged)
    keeps them: a session older than the first tagged night is a night
    (said while one is among the last ``cap`` nights); a store with no
    tagged session at all is judged as before, every session a night, said
    in one line.
    '''
    if frame.empty:
        return frame, []
    firsts = frame.drop_duplicates('session').sort_values('start',
                                                          kind='stable')
    kind, confirms = (_extra(firsts, name) for name in (figures.KIND,
                                                        figures.CONFIRMS))
    tagged = firsts[(kind == figures.NIGHTLY) & (confirms == '')]
    if tagged.empty:
        return frame, [f'no session is tagged {figures.KIND}='
                       f'{figures.NIGHTLY} (ci/nightly.sh tags its runs): '
                       f'every session is judged as a night']
    first = tagged['start'].min()
    older = firsts[(firsts['start'] < first) & (confirms == '')]
    nights = set(tagged['session']) | set(older['session'])
    confirming = firsts[confirms.isin(nights)]
    kept = nights | set(confirming['session'])
    apart = firsts[~firsts['session'].isin(kept)]
    last = tagged['start'].max()
    after = int((apart['start'] > last).sum())
    said = []
    if after:
        said.append(f'{after} ad-hoc session{"s" if after != 1 else ""} '
                    f'after the last night {"are" if after != 1 else "is"} '
                    f'not judged (not tagged {figures.KIND}='
                    f'{figures.NIGHTLY}: the newest '
                    f'{apart["session"].iloc[-1]})')
    among = len(apart) - after
    if among:
        said.append(f'{among} ad-hoc session{"s" if among != 1 else ""} '
                    f'among the nights left out of the histories')
    recent = firsts[firsts['session'].isin(nights)].tail(cap or len(nights))
    untagged = int(recent['session'].isin(set(older['session'])).sum())
    if untagged:
        said.append(f'{untagged} untagged session'
                    f'{"s" if untagged != 1 else ""} from before the first '
                    f'tagged night judged as nights (stored before '
                    f'ci/nightly.sh tagged its runs)')
    if len(kept) == len(firsts):
        return frame, said          # every session a night: no copy
    return frame[frame['session'].isin(kept)], said


def sessions_of_nights(frame):
    '''``{night's session: [its sessions]}`` of ``frame``: each night's
    first session, then its confirmations, oldest night first.'''
    order = frame.drop_duplicates('session').sort_values('start',
                                                         kind='stable')
    out = {}
    confirms = (order[figures.CONFIRMS].fillna('').astype(str)
                if figures.CONFIRMS in order else [''] * len(order))
    for session, confirmed in zip(order['session'], confirms):
        if confirmed and confirmed in out:
            out[confirmed].append(session)
        elif not confirmed:
            out[session] = [session]
    return out


def series(table):
    '''``{key: rows}`` of a table of :func:`nights`, each figure's rows
    oldest first.'''
    return {key: rows for key, rows in table.groupby(KEY, sort=True)}


def usable(values):
    '''Whether night summaries can be judged: finite and positive (the
    analysis is on a log scale).'''
    values = np.asarray(values, dtype=float)
    return bool(values.size) and bool(np.all(np.isfinite(values))) \
        and bool(np.all(values > 0))
