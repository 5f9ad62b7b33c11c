'''The cold-start witness: does round 1 of a figure belong with the rest?

A figure's samples are its rounds, in order.  The first round of a job can
pay what the later ones do not: a fresh file system region to allocate,
buffers touched for the first time, a cold cache of metadata, a network
connection set up.  Its value then pulls the figure's median and min (a
quick run's median of 3 is the middle of round 1 and two others).

**The rule** (:func:`judge`), on a log scale (a rate and a time are
reciprocals, and noise is a share of the value): round 1 is *cold* when it
lies beyond the range of rounds 2..n by more than that range, and by more
than :data:`MARGIN` (25 %) of the nearer edge.  Its ratio is round 1
against the median of the others, said as ``round 1 x2.4 slower`` (or
``faster``; ``lower`` or ``higher`` for a unit with no speed, a share or a
ratio: :data:`microbench.units.FASTER`).

**What it cannot judge.**  Fewer than :data:`FEWEST` (3) samples: no range
of the others; a figure with a sample of zero or less (no log), or one
that is not a finite number (NaN, an infinity: no figure any reader
passes, and no ratio to say).  Those figures are not judged, and not
flagged.  Samples a float's range apart (1e-300 and 1e300) are judged on
their logs, and a ratio beyond ten thousand is said in powers of ten
(``x1.0e+600``): no ratio overflows.

**False alarms** (``bench/coldstart.py``, iid log-normal noise of spread
``s``, 20 000 series each): with 3 samples, 0.01 % of figures at ``s`` =
5 %, 2.9 % at 10 %, but 17 % at 20 %: two other rounds give a poor range,
and the margin carries the rule.  With 5 samples 0.7 %, 4.2 % and 5.6 % at
10, 20 and 30 %; with 9, under 0.6 % at any spread.  A round 1 twice as
slow is found in 99.5 % of figures with 3 samples at ``s`` = 10 %, 83 % at
20 %.  A flag that comes back night after night is a cold start, not noise
(``microbench advise`` counts the nights).
'''

import math

import numpy as np

from microbench import fields
from microbench.units import FASTER

#: The fewest samples judged: round 1 and two others (their range)
FEWEST = 3

#: How far beyond the nearer edge of the others round 1 must lie, at least
#: (a share of that edge)
MARGIN = 0.25

#: What the note says before the flags
NOTE = 'cold start'


def judge(values, unit):
    '''``round 1 x2.4 slower`` where round 1 of ``values`` (the samples
    of a figure in ``unit``, in round order) lies outside the others by
    the rule above; '' where it does not, or the figure cannot be judged
    (fewer than :data:`FEWEST` samples, a sample of zero or less).'''
    values = np.asarray(values, dtype=float)
    if values.size < FEWEST or not np.all(np.isfinite(values)) \
            or not np.all(values > 0):
        return ''

    logs = np.log(values)
    first, others = logs[0], logs[1:]
    spread = others.max() - others.min()
    beyond = max(others.min() - first, first - others.max())
    if beyond <= spread or beyond <= math.log1p(MARGIN):
        return ''

    ratio = _times(abs(first - float(np.median(others))))
    return f'round 1 {ratio} {_way(first < others.min(), unit)}'


def _times(log_ratio):
    '''``x2.4`` of a ratio's natural log; ``x1.2e+05`` from ten thousand
    on (``x1.0e+600`` beyond a float's range: the log says it).'''
    if log_ratio < math.log(1e4):
        return f'x{math.exp(log_ratio):.1f}'

    exponent = log_ratio / math.log(10)
    whole = math.floor(exponent)
    mantissa = round(10 ** (exponent - whole), 1)
    if mantissa >= 10:
        mantissa, whole = mantissa / 10, whole + 1
    return f'x{mantissa:.1f}e+{whole:02d}'


def _way(below, unit):
    '''The word for round 1 below (or above) the others in ``unit``.'''
    faster = FASTER.get(unit)
    if faster is None:
        return 'lower' if below else 'higher'
    return 'slower' if below == (faster > 0) else 'faster'


def flags(figures):
    '''``[(figure, words)]`` of every flagged figure of ``figures``
    ({name: :class:`~microbench.suite.stats.Samples`}), in their order.'''
    found = ((name, judge(samples.values, samples.unit))
             for name, samples in figures.items())
    return [(name, words) for name, words in found if words]


def record(found):
    '''The ``cold_start`` field of :func:`flags`
    (:data:`microbench.fields.COLD_START`: ``<figure>=round 1 x2.4
    slower`` joined by ``;``), '' if none.'''
    return fields.COLD_START.encode(found)


def note(found):
    '''What the note says of :func:`flags` ('' if none).'''
    if not found:
        return ''
    return f'{NOTE}: ' + ', '.join(f'{name} {words}' for name, words in found)
