'''Two sides of sessions, the session as the unit (``microbench compare
BEFORE AFTER``: before and after an upgrade).

Each side of a figure is its night summaries, one per session
(:mod:`.history`), compared on a log scale:

- several sessions a side: Welch's t test of the two sides' summaries, and
  the ratio of their geometric means with its interval;
- one session on a side, several on the other: that session against the
  other side's prediction interval (:func:`.changes.recent`);
- one session a side: no test.  A session's own offset (the nights differ
  with nothing changed) cannot be told from a change: the verdict is
  ``inconclusive``, with the figure's session-to-session spread measured
  on the whole results storage, so a reader can
  weigh the ratio.

The level is one family-wise level ``alpha`` for all figures compared,
split evenly (``alpha / K``).  A change is called when it is significant
and the ratio is outside the band floor; ``unchanged`` when the ratio's
interval is inside the band; else ``inconclusive``.
'''

import math

import numpy as np
import pandas as pd

from microbench.verdicts import changes, history, rule, vocabulary

#: The family-wise level of a pre/post comparison
ALPHA = 0.05

COLUMNS = [*history.KEY, 'unit', 'verdict', 'median_before', 'median_after',
           'ratio', 'ci_low', 'ci_high', 'p', 'band_low', 'band_high',
           'sessions_before', 'sessions_after', 'why', 'change_points']


def welch(before, after, level):
    '''``(ratio, ci_low, ci_high, p)`` of two sides' summaries (log
    scale).'''
    import scipy.stats

    lhs, rhs = np.log(before), np.log(after)
    res = scipy.stats.ttest_ind(rhs, lhs, equal_var=False)
    ratio = math.exp(rhs.mean() - lhs.mean())
    if not np.isfinite(res.pvalue):         # both sides constant
        same = ratio == 1
        return ratio, ratio, ratio, 1.0 if same else 0.0
    ci = res.confidence_interval(1 - level)
    return ratio, math.exp(ci.low), math.exp(ci.high), float(res.pvalue)


def predicted(prior, one, level):
    '''``(ratio, ci_low, ci_high, p)`` of one session against several.'''
    import scipy.stats

    out = changes.recent(prior, [one])
    logs = np.log(prior)
    half = (scipy.stats.t.ppf(1 - level / 2, logs.size - 1)
            * logs.std(ddof=1) * math.sqrt(1 + 1 / logs.size))
    p = min(1.0, 2 * min(out['p_low'], out['p_high']))
    return (out['ratio'], out['ratio'] * math.exp(-half),
            out['ratio'] * math.exp(half), p)


def judge(before, after, better, level, floor=rule.FLOOR, spread=None):
    '''The verdict on one figure from its sessions' summaries.'''
    before, after = np.asarray(before, float), np.asarray(after, float)
    out = {'median_before': float(np.median(before)),
           'median_after': float(np.median(after)),
           'band_low': 1 - floor, 'band_high': 1 + floor,
           'sessions_before': before.size, 'sessions_after': after.size}
    if not history.usable(before) or not history.usable(after):
        return {**out, 'verdict': vocabulary.INCONCLUSIVE, 'ratio': math.nan,
                'ci_low': math.nan, 'ci_high': math.nan, 'p': math.nan,
                'why': 'a session summary is not a positive number'}
    if before.size == 1 and after.size == 1:
        ratio = float(after[0] / before[0])
        told = (f'this figure\'s sessions differ by {spread:.1%} (standard '
                f'deviation) with nothing changed' if spread is not None
                and not math.isnan(spread) else 'too few stored sessions '
                'to say by how much they differ')
        return {**out, 'verdict': vocabulary.INCONCLUSIVE, 'ratio': ratio,
                'ci_low': math.nan, 'ci_high': math.nan, 'p': math.nan,
                'why': f'one session a side: a session\'s own offset cannot '
                       f'be told from a change ({told}); run several '
                       f'sessions a side'}
    if before.size > 1 and after.size > 1:
        ratio, low, high, p = welch(before, after, level)
        test = 'Welch t on the sessions (log)'
    elif after.size == 1:
        ratio, low, high, p = predicted(before, after[0], level)
        test = 'one session against the other side\'s prediction interval'
    else:
        ratio, low, high, p = predicted(after, before[0], level)
        ratio, low, high = 1 / ratio, 1 / high, 1 / low
        test = 'one session against the other side\'s prediction interval'
    out.update(ratio=ratio, ci_low=low, ci_high=high, p=p)
    lo, hi = 1 - floor, 1 + floor
    if p < level and not lo <= ratio <= hi:
        sign = 1 if ratio > 1 else -1
        verdict = (vocabulary.CHANGED if not better else
                   vocabulary.IMPROVEMENT if sign == better else
                   vocabulary.REGRESSION)
        why = f'{test}: p = {p:.2g} < {level:.2g}, ratio outside the band'
    elif lo <= low and high <= hi:
        verdict = vocabulary.UNCHANGED
        why = f'{test}: the interval inside the band'
    else:
        verdict = vocabulary.INCONCLUSIVE
        why = (f'{test}: p = {p:.2g}, the interval {low:.3f}..{high:.3f} '
               f'reaches outside the band {lo:.3f}..{hi:.3f}')
    return {**out, 'verdict': verdict, 'why': why}


def compare(before, after, alpha=ALPHA, floor=rule.FLOOR, everything=None):
    '''One row per figure with samples on both sides.

    :arg everything: rows of the whole results storage, for the spread of
        a figure compared one session a side.
    '''
    lhs = history.series(history.nights(before))
    rhs = history.series(history.nights(after))
    common = sorted(set(lhs) & set(rhs))
    level = alpha / max(len(common), 1)
    spreads = {}
    if everything is not None and any(
            lhs[k]['session'].nunique() == 1 == rhs[k]['session'].nunique()
            for k in common):
        spreads = {key: _between(rows) for key, rows in
                   history.series(history.nights(everything)).items()}
    rows = []
    for key in common:
        unit = rhs[key]['unit'].iloc[-1]
        got = judge(_per_session(lhs[key]), _per_session(rhs[key]),
                    rule.BETTER.get(unit, 0), level, floor,
                    spreads.get(key))
        rows.append({**dict(zip(history.KEY, key)), 'unit': unit, **got,
                     'change_points': []})
    return pd.DataFrame(rows, columns=COLUMNS), level


def _per_session(rows):
    return rows.groupby('session', sort=False)['night'].median().to_numpy()


def _between(rows):
    '''The session-to-session spread of one figure: the standard deviation
    of its night summaries on a log scale (NaN with fewer than 3).'''
    values = rows['night'].to_numpy()
    if values.size < 3 or not history.usable(values):
        return math.nan
    return float(np.std(np.log(values), ddof=1))
