'''``microbench advise``: how many samples a night each figure needs.

Kuhn's "3 runs at least, 30 better", made quantitative for the nightly
verdict.  Per figure, from its stored history (the last
``nightly.CAP`` nights of its partition; one-way random effects on a log
scale, the nights as groups): the *within-night* spread (the pooled
standard deviation of one night's samples) and the *between-night* spread
(how much the nights' own levels differ with nothing changed: the
variance of the night means less the part the within-night spread
explains).  A night summary of ``n`` samples then varies by
``sqrt(between^2 + (pi/2) within^2 / n)`` (the median's variance).

A drop is visible within 3 nights at the budget when the nightly
verdict's test of the last nights (:mod:`.nightly`) calls it with 90 %
power: the mean of the 3 nights against 30 before them at its level, and
each of the 3 past the midpoint.  The advisor gives the least ``n`` that
makes a 25 % drop so; where the between-night spread alone is too large,
no ``n`` does: more samples buy nothing (more nights, or a quieter
machine, do).

A figure whose round 1 lay outside its other rounds (the cold-start
witness, microbench/suite/coldstart.py) on at least half its nights with
3 samples or more has a cold start, not noise: the advice says to run a
warm-up round (``-S warmup_rounds=1``), or, where it ran one already,
that the cause is not the first round alone.  Flagged on fewer nights, it
says how many: noise at a large spread flags a night now and then.
'''

import functools
import math
import sys

import numpy as np
import pandas as pd

from microbench.verdicts import figures, history, nightly

HELP = 'samples a night each figure needs to show a drop within 3 nights'

#: The drop the advice is for, the nights it may take, the power wanted
DROP = 0.25
NIGHTS = 3
POWER = 0.9
#: Prior nights the tests see, the most samples a night worth advising
PRIOR = 30
MOST = 100
#: The median's variance over the mean's, for large n
MEDIAN = math.pi / 2


def spreads(rows):
    '''``(within, between, nights, samples a night)`` of one figure's
    ``rows`` of :func:`history.nights` (log standard deviations; NaN where
    too few nights or samples tell).'''
    nights = [s for s in rows['samples'] if len(s) > 1 and min(s) > 0]
    if len(nights) < 2:
        return math.nan, math.nan, len(nights), math.nan
    counts = np.array([len(s) for s in nights])
    # each night's mean log and squared deviations from it, the nights of
    # each count of samples at once (a row of a block is computed as the
    # night alone would be, to the bit); summed in the nights' order
    means, squares = np.empty(len(nights)), np.empty(len(nights))
    for count in np.unique(counts):
        at = np.flatnonzero(counts == count)
        logs = np.log(np.array([nights[i] for i in at], dtype=float))
        means[at] = logs.mean(axis=1)
        squares[at] = ((logs - means[at, None]) ** 2).sum(axis=1)
    within2 = sum(squares.tolist()) / int((counts - 1).sum())
    per = float(np.mean(counts))
    between2 = max(0.0, float(means.var(ddof=1)) - within2 / per)
    return math.sqrt(within2), math.sqrt(between2), len(nights), per


@functools.lru_cache
def _most(judged, drop, budget):
    '''The largest spread of a night summary that still shows ``drop``
    within :data:`NIGHTS` nights at the budget.'''
    # The quantile functions themselves, Student's t (stdtrit) and the
    # normal (ndtri): what scipy.stats.t.ppf and norm.ppf compute, to the
    # bit, without importing scipy.stats (half a second of the report)
    from scipy.special import ndtri, stdtrit

    level, _ = nightly.levels(judged, budget)
    effect = -math.log(1 - drop)
    # the test of the last nights: their mean against PRIOR nights...
    quantile = (stdtrit(PRIOR - 1, 1 - level / nightly.RECENT)
                + stdtrit(PRIOR - 1, POWER))
    most = effect / (quantile * math.sqrt(1 / NIGHTS + 1 / PRIOR))
    # ...and every one of them past the midpoint
    return min(most, effect / 2 / ndtri(POWER ** (1 / NIGHTS)))


def needed(within, between, judged=100, drop=DROP, budget=nightly.BUDGET):
    '''The least samples a night that make ``drop`` visible within
    :data:`NIGHTS` nights; None when no count does (``between`` alone is
    too large); NaN when the spreads are unknown.'''
    if math.isnan(within) or math.isnan(between):
        return math.nan
    room = _most(judged, drop, budget) ** 2 - between ** 2
    if room <= 0:
        return None
    return max(1, math.ceil(MEDIAN * within ** 2 / room))


def advice(frame, judged=None):
    '''One row per figure of ``frame``: its spreads and the samples a
    night it needs.'''
    table = history.nights(frame, last=nightly.CAP)
    keyed = history.series(table)
    judged = judged or len(keyed)
    rows = []
    for key, mine in keyed.items():
        within, between, nights, per = spreads(mine)
        n = needed(within, between, judged)
        cold = cold_start(mine)
        rows.append({**dict(zip(history.KEY, key)), 'nights': nights,
                     'samples_now': per, 'within_pct': 100 * within,
                     'between_pct': 100 * between, 'needed': n,
                     'cold_start': cold,
                     'advice': '; '.join(filter(None, [_say(n, per, nights),
                                                       cold]))})
    return pd.DataFrame(rows)


def cold_start(rows):
    '''What to do of one figure's cold first rounds, from its ``rows`` of
    :func:`history.nights`: '' where none of its nights with 3 samples or
    more was flagged.'''
    judged = rows[rows['n'] >= 3]
    flagged = judged[judged[figures.COLD_START] != '']
    if flagged.empty:
        return ''
    said = (f'round 1 cold on {len(flagged)} of {len(judged)} nights '
            f'(last: {flagged[figures.COLD_START].iloc[-1]})')
    if 2 * len(flagged) < len(judged):
        return f'{said}: now and then, as noise at this spread can'
    warmup = int(judged[figures.WARMUP].iloc[-1])
    if warmup:
        return (f'{said} even after {warmup} warm-up round(s): the cause '
                f'is not the first round alone (look at the samples)')
    return (f'{said}: run a warm-up round, -S warmup_rounds=1, or find '
            f'what round 1 pays (file system allocation, first touch of '
            f'buffers, connection setup)')


def _say(n, per, nights):
    if nights < 5:
        return f'{nights} night(s) with samples: too few to tell (5 or more)'
    if n is None:
        return ('between-night drift dominates: more samples buy nothing; '
                'more nights or a quieter machine do')
    if n > MOST:
        return f'{n} samples a night (more than {MOST}: drift nearly ' \
               f'dominates)'
    if n <= per:
        return f'{n} samples a night suffice (now {per:.0f})'
    return f'{n} samples a night (now {per:.0f})'


def text(table):
    head = ('figure', 'nights', 'within', 'between', 'needed', 'advice')
    body = [(f'{r.system}:{r.partition} {r.check} {r.variant} {r.figure}',
             str(r.nights), f'{figures.fmt(r.within_pct)} %',
             f'{figures.fmt(r.between_pct)} %',
             '-' if r.needed is None or r.needed != r.needed
             else str(r.needed), r.advice)
            for r in table.itertuples()]
    widths = [max(len(line[c]) for line in [head, *body])
              for c in range(len(head))]
    lines = ['  '.join(cell.ljust(w) for cell, w in zip(line, widths))
             .rstrip() for line in [head, *body]]
    return (f'samples a night that show a {DROP:.0%} drop within {NIGHTS} '
            f'nights at the nightly budget (one-way random effects on the '
            f'stored nights)\n' + '\n'.join(lines) + '\n')


def add_arguments(parser):
    parser.add_argument('sessions', nargs='?', default=figures.ALL,
                        help='session query (default: every session)')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.set_defaults(handler=run)


def run(args):
    frame = figures.load(args.sessions, args.db, args.partition)
    table = advice(frame)
    if table.empty:
        raise figures.ResultsError('no figure with samples to advise on')
    if table['nights'].max() < 2:
        raise figures.ResultsError(
            f'every figure has one night with samples '
            f'({frame["session"].nunique()} session(s)): the spreads need '
            f'nights to compare (5 or more)')
    sys.stdout.write(text(table))
    return 0
