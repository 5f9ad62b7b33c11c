'''From samples to verdicts: tolerance bands, and did a figure change?

**Bands** (:func:`band`).  A figure's reference is the median of its values
in the baseline sessions (one value per session: the session's median); its
band reaches on each side ``margin`` times the farthest baseline session on
that side, and never less than ``floor``: a few sessions underestimate the
night-to-night spread, and a change smaller than the floor is not worth a
facility's attention.  Every baseline session passes its own band by
construction (:func:`passes` checks it).  A cache figure is checked from
below only; a gap's band never crosses 1 on the wrong side of its direction.

**Changes** (:func:`judge`).  Two sides, each a set of samples (every
sample of every session of that side, pooled).  The test is the
Mann-Whitney U rank test, two-sided, exact for small samples
(``scipy.stats.mannwhitneyu``): it assumes no distribution (a stalled
sample or a bimodal device does not break it) and it is exact at the 3
samples of a quick night.  The ratio of the sides' medians gets a bootstrap
confidence interval (``scipy.stats.bootstrap``, percentile method, samples
of each side resampled on their own).  A change is called only when it is
both significant (p < ``alpha``) and outside the band; otherwise the figure
is unchanged (significant but inside the band, or the interval inside the
band) or inconclusive (the interval reaches outside the band, or too few
samples for a rank test to reach ``alpha`` at all: 3 against 3 can give no
p below 0.1).

Direction: bandwidths and rates are better higher, latencies and round
trips lower: a change against that is a ``regression``, with it an
``improvement``.  A gap, or a witness figure such as CPU use, has no better
side: a change is ``changed``.
'''

import math

import numpy as np

#: Verdicts, from worst
VERDICTS = ('regression', 'changed', 'inconclusive', 'improvement',
            'unchanged')

#: unit -> +1 where higher is better, -1 where lower is
BETTER = {'MiB/s': 1, 'GiB/s': 1, 'ops/s': 1, 'us': -1}

#: Defaults: significance level, band floor and margin
ALPHA = 0.01
FLOOR = 0.10
MARGIN = 1.5


def add_band_arguments(parser):
    '''A command's ``--floor`` and ``--margin`` of :func:`band`.'''
    parser.add_argument('--floor', type=float, default=FLOOR,
                        help='the least half-width of a band, a fraction '
                        '(default %(default)s)')
    parser.add_argument('--margin', type=float, default=MARGIN,
                        help='a band reaches this many times the farthest '
                        'baseline session (default %(default)s)')


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


def passes(value, ref, lower, upper):
    '''Whether ``value`` is inside the band (ReFrame's rule).'''
    low = -math.inf if lower is None else ref * (1 + lower)
    high = math.inf if upper is None else ref * (1 + upper)
    return low <= value <= high


def smallest_p(n_a, n_b):
    '''The smallest two-sided p-value an exact rank test can give with
    ``n_a`` and ``n_b`` samples (no ties).'''
    return min(1.0, 2 / math.comb(n_a + n_b, n_a))


def _median_ratio(after, before, axis=-1):
    return np.median(after, axis=axis) / np.median(before, axis=axis)


def ratio_interval(before, after, level, seed=0):
    '''Bootstrap interval of ``median(after) / median(before)``.'''
    import scipy.stats      # here: a second to import, and the report
                            # needs none of it

    if before.size < 2 or after.size < 2:
        return math.nan, math.nan

    res = scipy.stats.bootstrap((after, before), _median_ratio,
                                confidence_level=level, n_resamples=999,
                                method='percentile', vectorized=True,
                                rng=np.random.default_rng(seed))
    return (float(res.confidence_interval.low),
            float(res.confidence_interval.high))


def judge(before, after, lower, upper, better=1, alpha=ALPHA):
    '''The verdict on one figure.

    :arg before, after: the samples of each side.
    :arg lower, upper: the band, fractions of the before side's median
        (``upper`` None: open above; ``lower`` None: open below).
    :arg better: +1 if higher is better, -1 if lower, 0 if neither.
    :returns: dict with both medians, ``ratio`` (after over before), its
        interval, ``p``, ``verdict`` and ``why``.
    '''
    before = np.asarray(before, dtype=float)
    after = np.asarray(after, dtype=float)
    out = {'n_before': int(before.size), 'n_after': int(after.size),
           'median_before': float(np.median(before)),
           'median_after': float(np.median(after))}
    out['ratio'] = out['median_after'] / out['median_before']
    out['ci_low'], out['ci_high'] = ratio_interval(before, after, 1 - alpha)
    lo = 1 + (lower if lower is not None else -math.inf)
    hi = 1 + (upper if upper is not None else math.inf)
    out['band_low'], out['band_high'] = lo, hi
    if smallest_p(before.size, after.size) >= alpha:
        out.update(p=math.nan, verdict='inconclusive',
                   why=f'too few samples ({before.size} vs {after.size}): '
                       f'a rank test cannot reach p < {alpha}')
        return out

    import scipy.stats

    if np.ptp(np.concatenate([before, after])) == 0:
        out['p'] = 1.0
    else:
        out['p'] = float(scipy.stats.mannwhitneyu(
            after, before, alternative='two-sided').pvalue)

    outside = not lo <= out['ratio'] <= hi
    if out['p'] < alpha and outside:
        sign = 1 if out['ratio'] > 1 else -1
        verdict = ('changed' if not better else
                   'improvement' if sign == better else 'regression')
        why = (f'p = {out["p"]:.2g} < {alpha}, ratio {out["ratio"]:.3f} '
               f'outside the band {lo:.3f}..{hi:.3f}')
    elif out['p'] < alpha:
        verdict = 'unchanged'
        why = (f'a significant change (p = {out["p"]:.2g}) inside the band '
               f'{lo:.3f}..{hi:.3f}')
    elif lo <= out['ci_low'] and out['ci_high'] <= hi:
        verdict = 'unchanged'
        why = f'p = {out["p"]:.2g}, the interval inside the band'
    else:
        verdict = 'inconclusive'
        why = (f'p = {out["p"]:.2g} >= {alpha}, but the interval '
               f'{out["ci_low"]:.3f}..{out["ci_high"]:.3f} reaches outside '
               f'the band {lo:.3f}..{hi:.3f}')

    out.update(verdict=verdict, why=why)
    return out
