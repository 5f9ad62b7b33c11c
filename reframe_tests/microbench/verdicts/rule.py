'''Reference bands, and the verdicts' words and directions.

**Bands** (:func:`band`).  A figure's reference is the median of its values
in the baseline sessions (one value per session: the session's median); its
band reaches on each side ``margin`` times the farthest baseline session on
that side, and never less than ``floor``: a few sessions underestimate the
night-to-night spread, and a change smaller than the floor is not worth a
facility's attention.  Every baseline session passes its own band by
construction (:func:`passes` checks it).  A cache figure is checked from
below only; a gap's band never crosses 1 on the wrong side of its direction.

**A band refused** (:func:`refusal`).  Sessions whose farthest two
differ by more than :data:`MAX_SPREAD` (the largest over the smallest)
do not share one level (a busy machine, a failing disk, a changed
setup among them), and the band they would make is too wide to check
anything: ``baseline`` refuses such a figure, saying why, and writes no
entry for it (its reference stays as it was).  So does it a band whose
lower edge would reach zero or below (a larger ``--margin`` or
``--floor``): no value of a bandwidth or a ratio can be below zero, so
it never fails from below.  Clamping the edge instead is not enough: an
edge at zero still never fails, and an edge moved anywhere above it is
a level no baseline session gave, which the lowest session may fail.
Within the default spread the widest band is -50 % to +75 % (margin
1.5: a session at two thirds of the reference, or one at 1.5 times it).

The floor is also the least change the verdicts call (:mod:`.nightly`,
:mod:`.prepost`).  Direction: bandwidths and rates are better higher,
latencies and round trips lower: a change against that is a
``regression``, with it an ``improvement``.  A gap, or a witness figure
such as CPU use, has no better side: a change is ``changed``.
'''

import math

import numpy as np

from microbench.verdicts import vocabulary

#: Verdicts of two sides of sessions (:mod:`.prepost`), from worst
VERDICTS = vocabulary.said_by(vocabulary.SIDES)


def worst_first(table, verdicts=VERDICTS, key=()):
    '''``table`` (a :class:`pandas.DataFrame` with a ``verdict`` column)
    sorted worst verdict first, in the order of ``verdicts``, then by the
    columns ``key``.'''
    order = {v: i for i, v in enumerate(verdicts)}
    return table.sort_values(
        by=['verdict', *key], kind='stable',
        key=lambda c: c.map(order) if c.name == 'verdict' else c)


#: unit -> +1 where higher is better, -1 where lower is
BETTER = {'MiB/s': 1, 'GiB/s': 1, 'ops/s': 1, 'us': -1}

#: Defaults: band floor and margin
FLOOR = 0.10
MARGIN = 1.5

#: The most the baseline sessions of one figure may spread (the largest
#: over the smallest) for a band to be made of them
MAX_SPREAD = 1.5


def gap_direction(ref, lower, upper, unit):
    '''True if a gap's reference keeps it above 1, False below, else
    None.'''
    if unit != 'x' or not ref:
        return None
    if lower is not None and ref * (1 + lower) >= 1:
        return True
    if upper is not None and ref * (1 + upper) <= 1:
        return False
    return None


def cache_figure(row):
    '''Whether a figure measures a cache (by design, or demoted at run
    time): checked from below only.'''
    return (row['measures'] in ('page cache', 'client cache')
            or '_cache_' in row['figure'])


def add_band_arguments(parser):
    '''A command's ``--floor`` and ``--margin`` of :func:`band`.'''
    parser.add_argument('--floor', type=float, default=FLOOR,
                        help='the least half-width of a band, a fraction '
                        '(default %(default)s)')
    parser.add_argument('--margin', type=float, default=MARGIN,
                        help='a band reaches this many times the farthest '
                        'baseline session (default %(default)s)')
    parser.add_argument('--max-spread', type=float, default=MAX_SPREAD,
                        help='refuse a figure whose baseline sessions '
                        'differ by more than this factor, the largest '
                        'over the smallest (default %(default)s)')


def band(values, floor=FLOOR, margin=MARGIN, one_sided=False, above=None):
    '''``(reference, lower, upper)`` of a figure from its values in the
    baseline sessions; ``lower``/``upper`` are fractions of the reference
    (ReFrame's), ``upper`` None for a figure checked from below only.

    :arg above: for a gap with a direction, True if it must stay above 1,
        False below 1.
    '''
    values = np.asarray(values, dtype=float)
    if values.size == 0 or not np.all(np.isfinite(values)) \
            or np.any(values <= 0):
        raise ValueError(f'a band needs positive finite values, not '
                         f'{values.tolist()}')

    ref = float(f'{np.median(values):.4g}')
    spread = values / ref - 1
    # Rounded to 3 decimals outwards: every baseline session stays inside
    lower = math.floor(-max(floor, margin * max(-float(spread.min()), 0))
                       * 1000) / 1000
    upper = math.ceil(max(floor, margin * max(float(spread.max()), 0))
                      * 1000) / 1000
    # ...also where the product with the reference rounds the other way
    while values.min() < ref * (1 + lower):
        lower = round(lower - 0.001, 3)
    while values.max() > ref * (1 + upper):
        upper = round(upper + 0.001, 3)
    if above is True:
        if ref <= 1:
            raise ValueError(f'the baseline {ref:.4g} contradicts the '
                             f'gap\'s direction (> 1)')
        lower = max(lower, math.ceil((1 / ref - 1) * 1000) / 1000)
    elif above is False:
        if ref >= 1:
            raise ValueError(f'the baseline {ref:.4g} contradicts the '
                             f'gap\'s direction (< 1)')
        upper = min(upper, math.floor((1 / ref - 1) * 1000) / 1000)

    return ref, lower, None if one_sided else upper


def refusal(values, lower, upper, max_spread=MAX_SPREAD):
    '''Why no band is made of ``values`` (the baseline sessions' values)
    whose :func:`band` reaches ``lower`` and ``upper``; None where one
    is.'''
    values = np.asarray(values, dtype=float)
    spread = float(values.max() / values.min())
    if spread > max_spread:
        reach = f'{lower:+.1%}' + ('' if upper is None else
                                   f' to {upper:+.1%}')
        return (f'its sessions spread x{spread:.2f} (from '
                f'{values.min():.4g} to {values.max():.4g}), more than '
                f'x{max_spread:g} (--max-spread): they share no level, and '
                f'a band of them would reach {reach}; find what differs '
                f'between the sessions, or baseline quieter ones')
    if lower <= -1:
        return (f'its band would reach {lower:+.1%}, below zero (--margin '
                f'x the farthest session, or --floor): no value is below '
                f'zero, so it would never fail from below')
    return None


def passes(value, ref, lower, upper):
    '''Whether ``value`` is inside the band (ReFrame's rule).'''
    low = -math.inf if lower is None else ref * (1 + lower)
    high = math.inf if upper is None else ref * (1 + upper)
    return low <= value <= high
