'''The nightly verdict: tonight's night against each figure's history.

For every figure with samples, its history (:mod:`.history`: one night
summary per session, the last ``CAP`` nights) goes through two tests
(:mod:`.changes`): Otava's change points over the whole history, and the
last nights (tonight alone, the last 2, the last 3) against the nights
before them.  A figure's *state* on a night is

- ``down`` (``up``, for a figure with no better side ``moved``) when the
  last nights up to it are beyond the prediction interval of the nights
  before them (since their last change point) at the level of that test
  and beyond the band floor, or when the last change point of the history
  up to that night is a change for the worse (better) that still holds;
- else level.

Tonight's verdict is ``regression`` (``improvement``, ``changed``) when
tonight's state is ``down`` (``up``, ``moved``) and last night's was not:
the first night a change is found, by either test.  A change found on an
earlier night that still holds is ``degraded`` (``improved``, ``shifted``)
since the night it began: listed, and the exit code is 0.  A change keeps
the exit code at 1 for one night: the nightly job's status is then a
count of changes (each one red night), so a false alarm costs one red
night of the budget, and a real change is not hidden behind the red of
the ones before it; the report and every later night's compare keep
listing it as degraded, with the night it began, until a change back.

**One budget for the whole night.**  The suite judges ``K`` figures a
night (about 100); an unchanged night may exit 1 in at most ``BUDGET`` of
nights.  ``SHARE`` of it goes to each test, split evenly over the figures
(Bonferroni): the last nights at ``SHARE * BUDGET / K`` one-sided per
figure (a third of it to each of 1, 2 and 3 nights), Otava at that over
``OTAVA_SEARCH`` (its p is that of the
best split of the history, which the search makes look smaller:
``bench/known_answers.py`` measures the factor, and the rates that
result).  The 30 % of the budget left is held back for what the model
of the levels does not see (nights with heavier tails than normal).

A figure with fewer than ``MIN_NIGHTS`` nights before tonight is
``inconclusive``: never a regression from pooled samples.
'''

import numpy as np
import pandas as pd

from microbench import fields
from microbench.verdicts import changes, history, rule, vocabulary

#: Nights of history a figure needs before tonight
MIN_NIGHTS = 14
#: Nights of history analysed (the last ones, tonight's included)
CAP = 90
#: Prior nights of the test of the last nights (the last ones since the
#: last change point), and the most last nights it takes together
PRIOR_CAP = 30
RECENT = 3
#: The share of unchanged whole-suite nights that may exit 1
BUDGET = 0.05
#: The share of the budget each of the two tests spends
SHARE = 0.35
#: How much smaller Otava's p of the best split is than a fixed split's
#: (measured on unchanged histories: bench/known_answers.py)
OTAVA_SEARCH = 3

#: Tonight's verdicts, from worst; the exit code is 1 on a regression
VERDICTS = vocabulary.said_by(vocabulary.NIGHTLY)

#: A state, and the verdict of a change to it that is new or that holds
STATES = vocabulary.states()


def levels(figures, budget=BUDGET):
    '''``(level of the last nights' test, Otava's max p)`` per figure when
    ``figures`` figures are judged a night.'''
    share = SHARE * budget / max(figures, 1)
    return share, share / OTAVA_SEARCH


def _direction(change, better):
    if not better:
        return 'moved'
    return 'up' if change * better > 0 else 'down'


class Series:
    '''The tests on one figure's night summaries ``values`` (oldest first,
    tonight last), memoized by the night they end on.'''

    def __init__(self, values, better, level, max_p, floor=rule.FLOOR):
        self.values = np.asarray(values, dtype=float)
        self.better, self.level, self.max_p = better, level, max_p
        self.floor = floor
        self._points = {}

    def points(self, end):
        '''Change points of the nights before ``end``.'''
        if end not in self._points:
            self._points[end] = changes.change_points(
                self.values[:end], self.max_p, self.floor)
        return self._points[end]

    def recent(self, night):
        '''The test of the last nights up to ``night`` (:func:`.changes.
        recent`, the mean of the last 1, 2 and 3, each at a third of the
        level), the one with the smallest p; None: too few prior nights
        since the last change point.'''
        since = max([0, *(p['index'] for p in self.points(night))])
        found = []
        for j in range(1, RECENT + 1):
            prior = self.values[since:night + 1 - j][-PRIOR_CAP:]
            if prior.size < MIN_NIGHTS:
                break
            found.append(self._shift(changes.recent(
                prior, self.values[night + 1 - j:night + 1])))
        if not found:
            return None
        alarms = [out for out in found if out['state']]
        return min(alarms or found, key=lambda out: out['p'])

    def _shift(self, out):
        '''``out`` of :func:`.changes.recent` with the ``state`` it
        calls (None: level) and its ``p`` in the direction that matters.'''
        if self.better:
            worse = out['p_low'] if self.better > 0 else out['p_high']
            better = out['p_high'] if self.better > 0 else out['p_low']
            shifts = {'down': worse, 'up': better}
        else:
            shifts = {'moved': min(1.0, 2 * min(out['p_low'],
                                                 out['p_high']))}
        outside = abs(out['ratio'] - 1) > self.floor and out['apart']
        out['state'] = next((state for state, p in shifts.items()
                             if p < self.level / RECENT and outside), None)
        out['p'] = min(shifts.values())
        return out

    def state(self, night):
        '''``(state, since, how)`` of night ``night``: state None where
        level; ``since`` the night the change began; ``how`` the recent
        test or the change point that says so.'''
        recent = self.recent(night)
        if recent and recent['state']:
            return recent['state'], night + 1 - recent['j'], recent
        points = self.points(night + 1)
        if points:
            last = points[-1]
            return _direction(last['change'], self.better), last['index'], \
                last
        return None, None, None


def judge(values, better, level, max_p, floor=rule.FLOOR):
    '''Tonight's (the last value's) verdict on one figure's night
    summaries: dict with ``verdict``, ``since`` (index of the night the
    change began), ``recent`` (tonight's test of the last nights),
    ``points`` (the history's change points) and ``why``.'''
    values = np.asarray(values, dtype=float)[-CAP:]
    prior = values.size - 1
    if prior < MIN_NIGHTS:
        return {'verdict': vocabulary.INCONCLUSIVE, 'since': None,
                'recent': None, 'points': [],
                'why': f'history: {prior} nights, needs {MIN_NIGHTS}'}
    if not history.usable(values):
        return {'verdict': vocabulary.INCONCLUSIVE, 'since': None,
                'recent': None, 'points': [],
                'why': 'a night summary is not a positive number'}

    tests = Series(values, better, level, max_p, floor)
    tonight, since, how = tests.state(prior)
    before, _, _ = tests.state(prior - 1)
    out = {'since': since, 'recent': tests.recent(prior),
           'points': tests.points(prior + 1)}
    if tonight is None:
        out.update(verdict=vocabulary.UNCHANGED, why=_level_why(out['recent']))
    else:
        new = before != tonight
        out['verdict'] = STATES[tonight][0 if new else 1]
        out['why'] = _change_why(how, since, prior, new)
    return out


def _level_why(recent):
    if recent is None:
        return ('no change point; fewer than {} nights since the last, '
                'no test of the last nights'.format(MIN_NIGHTS))
    nights = ('tonight' if recent['j'] == 1 else
              f'the last {recent["j"]} nights')
    return (f'no change point; {nights} {recent["ratio"]:.3f} of the '
            f'{recent["k"]} nights before (p = {recent["p"]:.2g})')


def _change_why(how, since, tonight, new):
    first = 'found tonight' if new else 'found before tonight'
    if 'index' in how:
        return (f'{first}: a change point {tonight - since} night(s) ago, '
                f'{how["mean_before"]:.4g} -> {how["mean_after"]:.4g} '
                f'({how["change"]:+.1%}, p = {how["p"]:.2g})')
    nights = ('tonight alone' if how['j'] == 1 else
              f'the last {how["j"]} nights')
    return (f'{first}: {nights} {how["ratio"]:.3f} of the {how["k"]} '
            f'nights before, p = {how["p"]:.2g} (last nights)')


class Nightly:
    '''The verdicts of one night: ``figures`` (a table, one row per
    figure) and ``exit_code``.'''

    def __init__(self, table, nfigures, level, max_p):
        self.figures = table
        self.judged = nfigures
        self.level, self.max_p = level, max_p
        self.exit_code = int((table['verdict'] == vocabulary.REGRESSION).any())

    def counts(self):
        counts = self.figures['verdict'].value_counts()
        return {v: int(counts[v]) for v in VERDICTS if counts.get(v)}


#: The columns of a night's verdict table
COLUMNS = [*history.KEY, 'unit', 'verdict', 'median_before', 'median_after',
           'ratio', 'p', 'band_low', 'band_high', 'nights', 'since_session',
           'since_date', 'why', 'change_points']


def judge_last(frame, budget=BUDGET, floor=rule.FLOOR, adjust=None):
    '''The last session of ``frame`` (rows of :func:`figures.load`)
    against each figure's history before it.

    :arg adjust: ``adjust(key, rows)``: a figure's nights (rows of
        :func:`history.nights`) as they are to be judged (the
        acknowledgements' restarted levels and nights left out:
        :mod:`.triage`), or None.
    '''
    table = history.nights(frame, last=CAP)
    if table.empty:
        return Nightly(pd.DataFrame(columns=COLUMNS), 0, 0, 0)
    last = table['session'].iloc[-1]
    mine = {key: rows for key, rows in history.series(table).items()
            if rows['session'].iloc[-1] == last}
    level, max_p = levels(len(mine), budget)
    rows = [_row(key, adjust(key, rows) if adjust else rows, level, max_p,
                 floor, frame) for key, rows in mine.items()]
    out = pd.DataFrame(rows, columns=COLUMNS)
    out = rule.worst_first(out, VERDICTS, history.KEY).reset_index(
        drop=True)
    return Nightly(out, len(mine), level, max_p)


def _row(key, rows, level, max_p, floor, frame):
    rows = rows.iloc[-CAP:]
    unit = rows['unit'].iloc[-1]
    got = judge(rows['night'], rule.BETTER.get(unit, 0), level, max_p, floor)
    values = rows['night'].to_numpy()
    recent = got['recent']
    # before: the nights before tonight since the last change point
    level = max([0, *(p['index'] for p in got['points']
                      if p['index'] < values.size - 1)])
    prior = values[level:-1][-PRIOR_CAP:]
    before = (float(np.exp(np.mean(np.log(prior))))
              if prior.size and history.usable(values) else np.nan)
    since = got['since']
    out = {**dict(zip(history.KEY, key)), 'unit': unit,
           'verdict': got['verdict'], 'median_before': before,
           'median_after': float(values[-1]),
           'ratio': float(values[-1]) / before,
           'p': recent['p'] if recent else np.nan,
           'band_low': 1 - floor, 'band_high': 1 + floor,
           'nights': len(values), 'why': got['why'],
           'since_session': rows['session'].iloc[since]
           if since is not None else None,
           'since_date': _date(rows, since)}
    out['change_points'] = [_point(p, rows, frame) for p in got['points']]
    return out


def _date(rows, index):
    if index is None:
        return None
    return rows['when'].iloc[index].strftime('%Y-%m-%d %H:%M')


def _point(point, rows, frame):
    '''A change point as the verdicts show it: its night, its levels, and
    what differs between the records of the nights around it.'''
    first, last = rows.iloc[point['index']], rows.iloc[point['index'] - 1]
    sides = [frame[(frame['session'] == night['session'])
                   & (frame['system'] == night['system'])
                   & (frame['partition'] == night['partition'])]
             for night in (last, first)]
    return {'session': first['session'], 'date': _date(rows, point['index']),
            'night_before': last['session'],
            'mean_before': point['mean_before'],
            'mean_after': point['mean_after'],
            'change_pct': 100 * point['change'], 'p': point['p'],
            'differences': {k: {'before': v[0], 'after': v[1]} for k, v in
                            fields.differences(*sides).items()}}
