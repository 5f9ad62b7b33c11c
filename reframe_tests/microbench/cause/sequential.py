'''The sequential rule of an A/B experiment: B against A, figure by
figure, taking more rounds while a difference is uncertain.

**The ratio.**  Per pair of rounds (:mod:`.pairs`: two rounds adjacent in
time, one of each side) the log ratio ``log(B / A)``; a figure's ratio B/A
is the geometric mean of its pairs' ratios (the exponential of their
mean), its interval the Student t interval of that mean on the log scale.
A t interval, not a bootstrap: 3 to 20 pairs are too few for a bootstrap
to reach the small levels that repeated looks at many figures need (5
pairs resample to 126 distinct means, so a 0.1 % tail is not defined),
and a rank interval cannot reach them at all (the sign test's smallest
two-sided p with 10 pairs is 0.002); the t interval is exact for normal
log ratios, and ``bench/ab_rule.py`` measures it on series drawn with
the noise of the suite's real recorded rounds.

**The looks and the level.**  The rule looks after every pair from
:data:`MIN_PAIRS` on, up to the cap (:data:`CAP_QUICK` pairs in quick
mode, :data:`CAP` else).  The false-difference rate of one experiment,
all its figures and all their looks together, is at most :data:`ALPHA`
(5 %) by the union bound (Bonferroni): each of the ``m`` figures gets
``ALPHA / m``; of that, :data:`LAST_SHARE` (half) goes to the look at the
cap, where the interval is narrowest and most figures are decided, and
the other half is split evenly over the looks before it (an alpha
spending that stops early only on clear differences).  So the intervals
of every figure at every look cover the true ratios together with
probability at least 95 % (repeated confidence intervals, Jennison and
Turnbull), and every verdict below is wrong only where they do not: at
most 5 % of A/A experiments call any difference, and the expected number
of false calls of an experiment is at most 0.05.  The union bound over
looks is loose (the looks share their pairs): measured on A/A series with
the real rounds' noise, 3.1 % of experiments in quick mode and 3.2 %
otherwise (``bench/ab_rule.py``).

**The verdicts**, with the practical threshold :data:`THRESHOLD` (5 %, the
smallest change worth naming), at each look, in order:

- ``B slower`` (``B faster``): the interval excludes 1 on that side and the
  ratio is beyond the threshold (below 0.95 or above 1.05, as the figure's
  direction makes it slower or faster); a figure with no better side (a
  gap) says ``B lower`` or ``B higher``;
- ``same``: the interval lies inside 0.95 to 1.05 (``same (within ±5 %)``);
- else ``continue``: uncertain, take more rounds.

At the cap, a figure still uncertain gets a final word: ``same`` where
its interval holds 1 (no difference found: the issue's three words, B
slower, same, B faster), labelled ``same (within ±x %)`` where the
interval reaches no farther than :data:`MAX_REACH` (50 %, the widest band
``baseline`` writes) and ``same (too noisy to resolve ±x %)`` beyond it,
so the reader, and :mod:`.classify`, weigh what a ``same`` could have
missed; ``inconclusive`` where the interval excludes 1 but the ratio is
inside the threshold (a change, shown neither to be one worth naming nor
to be within the threshold), or where fewer than :data:`MIN_PAIRS` pairs
had a value on both sides.  A figure's
verdict is that of the first look that decides it: later pairs (run for
other figures) do not change it.

**Order of the rounds.**  Pairs of adjacent rounds leave the rule a
machine's drift of one round per pair, never the drift of the whole run:
all A then all B pairs rounds half a run apart, and a real drift makes
differences of nothing (measured: 46 % of A/A experiments in quick mode
without any linear drift, 78 % with -20 % over the run).  A B A B still
leaves a drift linear in time a bias of one round's drift per pair (B
runs one round later: -20 % over a quick run is -1.1 % per pair), which
raises the false differences from 3.1 % to 4.6 % of A/A experiments; A B
B A cancels it over every two pairs (2.8 %): the order to run.
'''

import dataclasses
import functools
import math

import numpy as np

from microbench.cause import pairs as paired
from microbench.verdicts import rule as bands
from microbench.verdicts import vocabulary
from microbench.verdicts.vocabulary import UNDECIDED

#: The most one experiment calls a false difference (all figures and all
#: looks together)
ALPHA = 0.05
#: The smallest change worth naming, a fraction
THRESHOLD = 0.05
#: Pairs of rounds before the first look
MIN_PAIRS = 3
#: The cap, in pairs of rounds: quick mode, and else
CAP_QUICK = 10
CAP = 20
#: The share of a figure's level spent at the look at the cap
LAST_SHARE = 0.5
#: The farthest a ``same`` at the cap may reach (a fraction either side)
MAX_REACH = 0.5
#: The largest ``max_reach`` a rule may have (``same`` whatever the
#: interval's reach, for a reader who wants it: ``bench/ab_rule.py
#: --max-reach``)
MOST_REACH = 1000
#: The largest cap a rule may have (work is bounded: rounds of a figure)
MOST_PAIRS = 100

#: A figure's direction -> +1 where higher is better, -1 lower, 0 none
DIRECTIONS = {'higher-is-better': 1, 'lower-is-better': -1, 'none': 0}

#: Verdicts, from worst; ``continue`` is never final
VERDICTS = tuple(vocabulary.AB_VERDICTS)

#: (better, B's ratio above 1) -> the verdict of a change
_WORDS = {(1, True): 'B faster', (1, False): 'B slower',
          (-1, True): 'B slower', (-1, False): 'B faster',
          (0, True): 'B higher', (0, False): 'B lower'}


def direction(unit):
    '''The direction of a figure of ``unit`` (:data:`DIRECTIONS`), from
    the verdicts' :data:`microbench.verdicts.rule.BETTER`.'''
    better = bands.BETTER.get(unit, 0)
    return next(name for name, sign in DIRECTIONS.items() if sign == better)


def word(better, higher):
    '''The verdict of a change of a figure whose direction is ``better``
    (+1, -1, 0): B's ratio above 1 where ``higher``.'''
    return _WORDS[better, bool(higher)]


@dataclasses.dataclass(frozen=True)
class Rule:
    '''The rule's numbers (the module's defaults; :meth:`quick` caps at
    :data:`CAP_QUICK`).'''

    alpha: float = ALPHA
    threshold: float = THRESHOLD
    min_pairs: int = MIN_PAIRS
    cap: int = CAP
    last_share: float = LAST_SHARE
    max_reach: float = MAX_REACH

    def __post_init__(self):
        for name in ('alpha', 'threshold'):
            got = getattr(self, name)
            if not isinstance(got, (int, float)) or not 0 < got < 1:
                raise ValueError(f'{name} {got!r} is not a fraction between '
                                 f'0 and 1')
        if not isinstance(self.max_reach, (int, float)) \
                or not 0 < self.max_reach <= MOST_REACH:
            raise ValueError(f'max_reach {self.max_reach!r} is not in (0, '
                             f'{MOST_REACH}]')
        if not (isinstance(self.last_share, (int, float))
                and 0 < self.last_share <= 1):
            raise ValueError(f'last_share {self.last_share!r} is not in '
                             f'(0, 1]')
        for name in ('min_pairs', 'cap'):
            got = getattr(self, name)
            if not isinstance(got, int) or isinstance(got, bool):
                raise ValueError(f'{name} {got!r} is not an integer')
        if not 3 <= self.min_pairs <= self.cap <= MOST_PAIRS:
            raise ValueError(f'pairs: from {self.min_pairs} to {self.cap} '
                             f'is not within 3 <= first look <= cap <= '
                             f'{MOST_PAIRS}')

    @classmethod
    def quick(cls, **numbers):
        '''The rule of quick mode: capped at :data:`CAP_QUICK` pairs.'''
        return cls(**{'cap': CAP_QUICK, **numbers})

    def level(self, look, figures):
        '''The two-sided level of the interval at the look after ``look``
        pairs, ``figures`` figures judged.'''
        share = self.alpha / max(int(figures), 1)
        if self.min_pairs == self.cap:
            return share
        if look >= self.cap:
            return share * self.last_share
        return share * (1 - self.last_share) / (self.cap - self.min_pairs)

    def describe(self):
        '''The rule as the A/B JSON keeps it.'''
        return {**dataclasses.asdict(self),
                'interval': 'Student t of the mean of the pairs\' log '
                            'ratios B/A',
                'family': 'union bound over the figures and their looks: '
                          'alpha / figures each, last_share of it at the '
                          'look at the cap, the rest evenly over the looks '
                          'before'}


@functools.lru_cache(maxsize=4096)
def _quantile(level, df):
    '''Student t's two-sided quantile (SciPy, imported where first needed:
    the command line does not pay its import to start).'''
    import scipy.stats

    return float(scipy.stats.t.ppf(1 - level / 2, df))


@dataclasses.dataclass(frozen=True)
class Judgement:
    '''One figure's verdict and the numbers behind it: ``ratio`` B/A with
    its interval ``low``..``high`` and ``reach`` (the farthest the interval
    reaches from 1, a fraction), from ``pairs`` pairs with a value on both
    sides among the ``look`` pairs run when it was decided (``lost``: the
    others), the interval's two-sided ``level``; ``median_a`` and
    ``median_b``: the medians of each side's round values in those pairs.
    Numbers are None (NaN in arrays) where there are too few pairs.'''

    verdict: str
    label: str
    why: str
    ratio: float = None
    low: float = None
    high: float = None
    reach: float = None
    pairs: int = 0
    lost: int = 0
    look: int = 0
    level: float = None
    median_a: float = None
    median_b: float = None

    def as_dict(self):
        return dataclasses.asdict(self)


def _pct(fraction):
    '''A fraction as a whole percent, rounded up: ``±x %`` holds it.'''
    return f'{math.ceil(round(fraction * 100, 6))} %'


def change(ratio):
    '''A ratio as a signed change in percent (``-7.6 %``).'''
    return f'{(ratio - 1) * 100:+.1f} %'


def _numbers(found, look, level):
    '''The interval of the usable pairs ``found`` (arrays of A's and B's
    values) at ``level``: a dict of :class:`Judgement`'s numbers.'''
    a, b = found
    logs = np.log(b) - np.log(a)
    n = logs.size
    mean = float(logs.mean())
    half = _quantile(level, n - 1) * float(logs.std(ddof=1)) / math.sqrt(n)
    low, high = math.exp(mean - half), math.exp(mean + half)
    return {'ratio': math.exp(mean), 'low': low, 'high': high,
            'reach': max(1 - low, high - 1), 'pairs': n, 'lost': look - n,
            'look': look, 'level': level,
            'median_a': float(np.median(a)), 'median_b': float(np.median(b))}


def _shown(got):
    return (f'B/A {got["ratio"]:.3f} [{got["low"]:.3f}, {got["high"]:.3f}] '
            f'from {got["pairs"]} pairs'
            + (f' ({got["lost"]} lost)' if got['lost'] else ''))


def _decided(got, better, rule):
    '''The verdict of a look (``continue`` where none), and why.'''
    threshold = rule.threshold
    for higher in (False, True):
        excludes = got['low'] > 1 if higher else got['high'] < 1
        beyond = (got['ratio'] > 1 + threshold if higher
                  else got['ratio'] < 1 - threshold)
        if excludes and beyond:
            verdict = word(better, higher)
            return verdict, verdict, (
                f'{_shown(got)}: the interval excludes 1 and the change '
                f'{change(got["ratio"])} is beyond ±{_pct(threshold)}')
    if got['low'] >= 1 - threshold and got['high'] <= 1 + threshold:
        return 'same', f'same (within ±{_pct(threshold)})', (
            f'{_shown(got)}: the interval lies inside ±{_pct(threshold)}')
    return 'continue', 'continue', (
        f'{_shown(got)}: neither beyond nor inside ±{_pct(threshold)} yet')


def _final(got, rule):
    '''The verdict at the cap of a figure still uncertain, and why: an
    interval that holds 1 is ``same`` (no difference found), its label
    saying how far the interval reaches, and flagging one beyond
    ``rule.max_reach`` as too noisy to resolve a change that size.'''
    reach = _pct(got['reach'])
    if got['low'] <= 1 <= got['high']:
        if got['reach'] <= rule.max_reach:
            return 'same', f'same (within ±{reach})', (
                f'{_shown(got)} at the cap: no difference found, and the '
                f'interval bounds it within ±{reach}')
        return 'same', f'same (too noisy to resolve ±{reach})', (
            f'{_shown(got)} at the cap: no difference found, but the '
            f'interval reaches ±{reach}, beyond ±{_pct(rule.max_reach)}: '
            f'a change smaller than that cannot be seen in {rule.cap} '
            f'pairs (more samples a round, or a quieter machine)')
    return UNDECIDED, 'inconclusive (a small change)', (
        f'{_shown(got)} at the cap: a change {change(got["ratio"])}, '
        f'inside ±{_pct(rule.threshold)}, but the interval reaches beyond it')


def _few(usable, look, rule, final):
    verdict = UNDECIDED if final else 'continue'
    label = (f'inconclusive ({usable} usable pairs)' if final
             else 'continue')
    return Judgement(verdict, label, (
        f'{usable} of {look} pairs with a value on both sides, the rule '
        f'needs {rule.min_pairs}' + (' (the cap is reached)' if final
                                     else '')),
        pairs=usable, lost=look - usable, look=look)


def judge(found, better, rule, figures, run=None):
    '''The verdict of one figure.

    :arg found: its pairs (:func:`.pairs.pairs`: per pair run, ``(A, B)``
        or None).
    :arg better: its direction, +1, -1 or 0 (:data:`DIRECTIONS`).
    :arg figures: how many figures the experiment judges (its family).
    :arg run: the pairs the experiment ran (``found`` counts as lost the
        pairs it lacks of them); ``len(found)`` where None.  Pairs beyond
        the cap are not judged: the rule's level is spent by then.
    '''
    run = len(found) if run is None else max(run, len(found))
    run = min(run, rule.cap)
    found = list(found[:run]) + [None] * (run - len(found))
    a = np.array([pair[0] if pair else np.nan for pair in found])
    b = np.array([pair[1] if pair else np.nan for pair in found])
    if run < rule.min_pairs:
        return _few(int(np.isfinite(a).sum()), run, rule, False)
    got = None
    for look in range(rule.min_pairs, run + 1):
        keep = np.isfinite(a[:look])
        if keep.sum() < rule.min_pairs:
            continue
        got = _numbers((a[:look][keep], b[:look][keep]), look,
                       rule.level(look, figures))
        verdict, label, why = _decided(got, better, rule)
        if verdict != 'continue':
            return Judgement(verdict, label, why, **got)
    if got is None:
        return _few(int(np.isfinite(a).sum()), run, rule, run >= rule.cap)
    if run >= rule.cap:
        return Judgement(*_final(got, rule), **got)
    return Judgement('continue', 'continue', f'{why}: taking more rounds '
                     f'(cap {rule.cap} pairs)', **got)


class Experiment:
    '''The state of one A/B experiment: the rule, the pairs run, and each
    figure's :class:`Judgement` (``judgements``, by figure key: ``(check,
    variant, figure, unit, direction)``).  :meth:`update` judges again
    from all the rounds so far (the verdicts are a function of the rounds:
    a figure keeps the verdict of the first look that decided it).'''

    def __init__(self, rule=None):
        self.rule = rule or Rule()
        self.pairs_run = 0
        self.judgements = {}

    def update(self, series):
        '''Judge ``series`` (``{figure key: rounds}``, the rounds of
        :func:`.pairs.pairs`); returns the judgements.

        :raises RoundsError: a figure's rounds or key are not the shape.
        '''
        found = {}
        for key, rounds in series.items():
            where = ' '.join(map(str, key)) if isinstance(key, tuple) \
                else str(key)
            if not isinstance(key, tuple) or len(key) != 5 \
                    or key[4] not in DIRECTIONS:
                raise paired.RoundsError(
                    f'{where[:120]}: not a figure key (check, variant, '
                    f'figure, unit, direction: {", ".join(DIRECTIONS)})')
            found[key] = paired.pairs(rounds, where)
        self.pairs_run = max((len(p) for p in found.values()), default=0)
        self.judgements = {
            key: judge(p, DIRECTIONS[key[4]], self.rule, len(found),
                       self.pairs_run) for key, p in found.items()}
        return self.judgements
