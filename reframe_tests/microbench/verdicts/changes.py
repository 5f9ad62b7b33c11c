'''The two tests on a figure's history (:mod:`.history`).

**Change points** (:func:`change_points`): Apache Otava's E-divisive means
with a Student t significance test (``otava.analysis``: the change-point
core of MongoDB's and DataStax's performance CI), over the night summaries
divided by their median (Otava's least magnitude is a relative change of
the segments' means).  A change point is the first night of a new level:
the means of the night summaries before and after it, the change in %,
and Otava's p.  A level needs ``MIN_SEGMENT`` nights on each side: a single
outlying night is not a change point (Otava splits it off as a segment of
one night; both its edges are dropped and the rest are tested again on the
segments that remain); a level of fewer than ``SHORT`` nights must lie
wholly on its side of the midpoint between the two levels.

**The last nights** (:func:`recent`): the mean of the last ``j`` nights'
summaries (1, 2 or 3) against the prior nights' summaries, on a log
scale: a one-sided prediction interval of the mean of ``j`` new nights
from ``k`` prior nights (Student t with ``k - 1`` degrees of freedom,
``sqrt(1/j + 1/k)`` times their standard deviation).  With ``j = 1`` it
is the single-night test: a large drop is called on its first night,
before a change point can have nights after it; with 2 and 3 a smaller
drop is called on its second or third night, where Otava's divisive
search may still split the history elsewhere (its best split weighs a
level of 3 nights little against 30).
'''

import math

import numpy as np

#: The fewest nights a level spans
MIN_SEGMENT = 2
#: A level of fewer nights than this must lie wholly on its side of the
#: midpoint between it and its neighbour (an outlying night followed by
#: an ordinary one is not a new level of two nights)
SHORT = 3


def _tester(max_pvalue):
    from otava.analysis import TTestSignificanceTester

    return TTestSignificanceTester(max_pvalue)


def _retested(points, series, max_pvalue, floor):
    '''Otava's change points without those next to a segment shorter than
    :data:`MIN_SEGMENT` nights, the rest tested again on the segments that
    remain (until none changes).'''
    tester = _tester(max_pvalue)
    while True:
        bounds = [0, *(p.index for p in points), len(series)]
        keep = [p for i, p in enumerate(points)
                if bounds[i + 1] - bounds[i] >= MIN_SEGMENT
                and bounds[i + 2] - bounds[i + 1] >= MIN_SEGMENT]
        intervals = tester.get_intervals(keep)
        keep = [tester.change_point(p.to_candidate(), series, intervals)
                for p in keep]
        bounds = [0, *(p.index for p in keep), len(series)]
        keep = [p for i, p in enumerate(keep) if p.stats.pvalue < max_pvalue
                and p.stats.change_magnitude() > floor
                and _apart(series, bounds[i:i + 3], p.stats)]
        if [p.index for p in keep] == [p.index for p in points]:
            return keep
        points = keep


def _apart(series, bounds, stats):
    '''Whether the short levels on each side of a change point (between
    ``bounds``: start, the change point, end) lie wholly on their side of
    the midpoint of the two levels' means.'''
    middle = (stats.mean_1 + stats.mean_2) / 2
    before = np.asarray(series[bounds[0]:bounds[1]])
    after = np.asarray(series[bounds[1]:bounds[2]])
    side = 1 if stats.mean_2 > stats.mean_1 else -1
    return ((before.size >= SHORT or np.all(side * (before - middle) < 0))
            and (after.size >= SHORT or np.all(side * (after - middle) > 0)))


def change_points(values, max_pvalue, floor, window=50):
    '''The change points of a series of night summaries (positive).

    :arg max_pvalue: Otava's significance level (its first pass uses ten
        times it).
    :arg floor: the least relative change of a level worth a change point.
    :returns: a list of dicts, oldest first: ``index`` (of the first night
        of the new level), ``mean_before``, ``mean_after`` (of the night
        summaries of the levels on each side, in the figure's unit),
        ``change`` (after over before, minus 1) and ``p``.
    '''
    from otava.analysis import compute_change_points

    values = np.asarray(values, dtype=float)
    if values.size < 2 * MIN_SEGMENT:
        return []
    scale = float(np.median(values))
    series = (values / scale).tolist()
    points, _ = compute_change_points(series, window_len=window,
                                      max_pvalue=max_pvalue,
                                      min_magnitude=floor)
    out = []
    for point in _retested(list(points), series, max_pvalue, floor):
        stats = point.stats
        out.append({'index': int(point.index),
                    'mean_before': float(stats.mean_1) * scale,
                    'mean_after': float(stats.mean_2) * scale,
                    'change': float(stats.mean_2 / stats.mean_1 - 1),
                    'p': float(stats.pvalue)})
    return out


def recent(prior, last):
    '''The mean of the ``last`` nights' summaries (one or a few) against
    the ``prior`` nights' (log scale): a prediction interval of the mean
    of ``j`` new nights from ``k`` prior ones.

    :returns: dict: ``ratio`` (the last nights' geometric mean over the
        prior nights'), ``p_low`` and ``p_high``, the one-sided p of last
        nights this low (this high), ``k`` and ``j``, and ``apart``:
        whether every one of the last nights lies on the ratio's side of
        the midpoint between the two means (one outlying night among them
        does not make a level).
    '''
    # Student's t distribution function itself: what scipy.stats.t.cdf
    # and .sf compute, to the bit, without their checks of the arguments
    # (most of the cost of a night's verdicts' thousand calls), and
    # without importing scipy.stats where nothing else needs it
    from scipy.special import stdtr

    logs = np.log(np.asarray(prior, dtype=float))
    mine = np.log(np.asarray(last, dtype=float))
    k, j = logs.size, mine.size
    shift = float(mine.mean() - logs.mean())
    middle = float(logs.mean()) + shift / 2
    out = {'ratio': math.exp(shift), 'k': k, 'j': j,
           'apart': bool(np.all(np.sign(shift) * (mine - middle) > 0))}
    sd = float(logs.std(ddof=1)) * math.sqrt(1 / j + 1 / k)
    if sd == 0:
        out.update(p_low=0.0 if shift < 0 else 1.0,
                   p_high=0.0 if shift > 0 else 1.0)
        return out
    t = shift / sd
    out.update(p_low=float(stdtr(k - 1, t)), p_high=float(stdtr(k - 1, -t)))
    return out
