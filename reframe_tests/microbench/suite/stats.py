'''Samples and their statistics: a figure is never a single number.

A gap's samples are its rounds: the ratio of the two variants' samples of
one round, which ran back to back (:func:`round_ratios`).

**The rule of a gap too spread to tell** (:func:`too_spread`).  What the
rounds say of a gap is an interval (:func:`gap_interval`): a
:data:`CONFIDENCE` (75 %) confidence interval of its typical round, the
geometric mean of the round ratios (Student's t on their logarithms: noise
is a share of a figure).  Its pitfall *did not show* where its rounds lie
on both sides of 1 (the lowest ratio at most 1, the highest at least 1)
and that interval holds 1: the rounds do not tell on which side of 1 the
gap lies.  They are *too spread to tell* where the interval's ends lie
:data:`TOO_SPREAD` (1.5) times apart or more: noise that wide could hide
the smallest gap the paper reports.  A gap whose every round lies on one
side of 1 showed its pitfall in each, however far one round strays.
With 3 rounds (the default) the interval is about what their lowest and
highest give; it narrows as rounds are added (as the square root of their
count), so more rounds can tell what 3 could not, where the lowest and
highest of more rounds would only spread further.

**What it cannot judge.**  A single round has no spread: never called too
spread.  Rounds that cannot be paired (the variants' sample counts differ,
a realistic sample not above zero, a round ratio not above zero) give the
widest interval the samples allow: the default's least over the
realistic's most, to its most over the realistic's least.

**How often** (20 000 simulated gaps each, both variants' samples
log-normal with spread ``s``, the rule as here): with 3 rounds at ``s`` =
10 %, 9.2 % of gaps with no pitfall (a true gap of 1) are too spread to
tell, 6.2 % of gaps of 1.2, under 0.05 % of 1.6 (the paper's S2) and of
2.5; at ``s`` = 20 %, 49 %, 40 %, 9.3 % and under 0.05 %.  With 5 rounds
at 20 %: 21 %, 15 %, 0.9 %; with 9: 0.2 %, 0.1 % and under 0.05 %.
'''

import math
from collections import namedtuple

import numpy as np

#: How far apart (high end over low end) a gap's interval must lie, at
#: least, for a gap that did not show to be too spread to tell: noise of
#: 1.5x could hide the smallest gap "Keeping It Real" reports (S2: 530
#: MiB/s preallocated over 330 without, 1.6x)
TOO_SPREAD = 1.5

#: The confidence of a gap's interval: with 3 rounds, about what their
#: lowest and highest give (the chance that the median of 3 draws lies
#: between the other two is 75 %)
CONFIDENCE = 0.75

#: Student's t at (1 + CONFIDENCE) / 2 = 0.875 by degrees of freedom, 1 to
#: 30 (``scipy.stats.t.ppf(0.875, df)``: tests/suite/test_gap_spread.py
#: holds them to it); beyond, :func:`t_875` expands the normal's
T_875 = (2.4142, 1.6036, 1.4226, 1.3444, 1.3009, 1.2733, 1.2543, 1.2403,
         1.2297, 1.2213, 1.2145, 1.2089, 1.2041, 1.2001, 1.1967, 1.1937,
         1.1910, 1.1887, 1.1866, 1.1848, 1.1831, 1.1815, 1.1802, 1.1789,
         1.1777, 1.1766, 1.1756, 1.1747, 1.1739, 1.1731)

#: The normal's quantile at 0.875
Z_875 = 1.1503


class Samples:
    '''The samples of one figure, in one unit.'''

    def __init__(self, values, unit):
        self.values = np.asarray(values, dtype=float)
        self.unit = unit
        if self.values.size == 0:
            raise ValueError('a figure needs at least one sample')

        if not np.all(np.isfinite(self.values)):
            raise ValueError(f'a figure\'s samples must be finite numbers, '
                             f'not {self}')

    @property
    def median(self):
        return float(np.median(self.values))

    @property
    def min(self):
        return float(self.values.min())

    @property
    def max(self):
        return float(self.values.max())

    def scaled(self, factor):
        '''These samples times ``factor``.'''
        return Samples(self.values * factor, self.unit)

    def __str__(self):
        return ','.join(f'{v:.6g}' for v in self.values)


def saturation(points, growth):
    '''Where a figure stops growing.

    :arg points: ``(size, value)`` pairs in the order of growing size.
    :arg growth: the smallest relative gain that counts as growth (0.1 is
        10%) over the best value before it.
    :returns: the size of the last point that grew.
    '''
    best_size, best = points[0]
    for size, value in points[1:]:
        if value > best * (1 + growth):
            best_size, best = size, value

    return best_size


def round_ratios(default, realistic):
    '''The gap of every round: sample i of ``default`` over sample i of
    ``realistic`` (:class:`Samples` of two variants measured round-robin),
    as :class:`Samples` in ``x``; None where their sample counts differ or
    a realistic sample is not above zero (a round with no ratio).'''
    if default.values.size != realistic.values.size:
        return None

    if not np.all(realistic.values > 0):
        return None

    return Samples(default.values / realistic.values, 'x')


#: A gap too spread to tell (:func:`too_spread`): the gap (the medians'
#: ratio), the interval its rounds give (``paired``), or where they could
#: not be paired the one the samples allow, how far apart its ends are
#: (high over low), and the least and most sample of either variant, in
#: ``unit``
Unclear = namedtuple('Unclear',
                     'gap low high spread paired least most unit')


def t_875(df):
    '''Student's t at 0.875 with ``df`` degrees of freedom: the table to
    30, then the normal's with the first term of its expansion in 1/df
    (0.05 % off at 30).'''
    if df <= len(T_875):
        return T_875[df - 1]

    return Z_875 + (Z_875 ** 3 + Z_875) / (4 * df)


def log_interval(values):
    '''(low, high): the :data:`CONFIDENCE` confidence interval of the
    geometric mean of ``values`` (all above zero), Student's t on their
    logarithms; a single value is its own interval.'''
    logs = np.log(np.asarray(values, dtype=float))
    centre = float(logs.mean())
    if logs.size < 2:
        return math.exp(centre), math.exp(centre)

    half = t_875(logs.size - 1) * float(logs.std(ddof=1)) / math.sqrt(
        logs.size)
    return math.exp(centre - half), math.exp(centre + half)


def gap_interval(default, realistic):
    '''``(low, high)``: what the rounds of the gap ``default`` over
    ``realistic`` say of it: the :func:`log_interval` of its
    :func:`round_ratios`; where they cannot be paired or a ratio is not
    above zero, the widest range the samples allow (``inf`` where a
    realistic sample is not above zero).'''
    ratios = round_ratios(default, realistic)
    if ratios is not None and np.all(ratios.values > 0):
        return log_interval(ratios.values)

    least = realistic.min
    return (default.min / realistic.max if realistic.max > 0 else 0.0,
            default.max / least if least > 0 else float('inf'))


def too_spread(default, realistic, limit=TOO_SPREAD):
    '''An :class:`Unclear` where the gap of ``default`` over ``realistic``
    (the :class:`Samples` of one figure of two variants) did not show and
    its rounds are too spread to tell, by the rule of this module (``limit``:
    :data:`TOO_SPREAD`); None where the gap showed (its interval on one side
    of 1), its rounds agree (its ends less than ``limit`` apart), or it has
    no ratio (a realistic median not above zero).'''
    if realistic.median <= 0:
        return None

    ratios = round_ratios(default, realistic)
    paired = ratios is not None and bool(np.all(ratios.values > 0))
    if paired and not ratios.min <= 1 <= ratios.max:
        # Every round on one side of 1: the pitfall showed in each
        return None

    low, high = gap_interval(default, realistic)
    if not low <= 1 <= high:
        return None

    spread = high / low if low > 0 else float('inf')
    if spread < limit:
        return None

    return Unclear(default.median / realistic.median, low, high, spread,
                   paired, min(default.min, realistic.min),
                   max(default.max, realistic.max), default.unit)
