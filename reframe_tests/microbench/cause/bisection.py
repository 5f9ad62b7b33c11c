'''The search of ``microbench bisect``: which unit of a lock diff moves a
figure, found by halving, and how one step's A/B is read.  Pure: the steps
are run by :mod:`.bisect` (an intermediate stack and an A/B each); here
they are an oracle, so that the search is tested on its own.

**What a step says of a figure.**  The full A/B (A against B) says which
figures moved and by how much (B/A = ``r``).  A step is A with a subset of
the units at B's versions, judged against A: under the bisection's one
assumption (one unit moves the figure; the others leave it where A has
it) the step's B/A is either 1 (the unit is not in the subset) or ``r``
(it is).  Its interval (the A/B rule's Student t interval of the pairs'
log ratios, at a level of its own: :func:`judged`) is read against the
geometric midpoint ``sqrt(r)`` of the two (:func:`outcome`):

- ``reproduced``: the interval lies on B's side of the midpoint, or the
  step moved the figure as B did (the A/B rule's own verdict, ``B slower``
  where B was slower) and its interval reaches B's side;
- ``not reproduced``: the interval lies on A's side of the midpoint and
  the step did not move the figure as B did;
- ``undecided``: anything else (an interval across the midpoint, too few
  pairs, a move in the other direction, or a move by less than half of
  B's: two units that each move it a little break the assumption).

**The search.**  Every moved figure keeps its candidate units (all ``k``
groups at first; B, all of them moved, reproduces it by definition).  A
step that moves the subset ``S`` and reproduces a figure keeps ``S`` of its
candidates, one that does not reproduce it keeps the rest; an undecided
step keeps them all.  The next step halves the candidate set the most
figures share, the largest among sets shared alike (the first ``ceil(n /
2)`` in the groups' order): a figure one step left undecided (a noisy
one) keeps all its candidates, and halving its set first would spend a
step the others do not need (a k = 8 bisection took 5 A/B steps so, where
its two decided figures needed 4); where that half's step was
already run without deciding (it could not be built, or its A/B was
undecided), the other half is tried; where both were, the figure is
*not decided* among its candidates, said, never guessed.  With one cause
and every step decided, a figure is named in ``ceil(log2 k)`` steps, plus
the full A/B: :func:`budget`.  A figure whose candidates become empty (a
step reproduced it with units another step cleared) breaks the assumption:
not decided either, the steps said.  Figures that move together share
their steps.  Work is bounded: at most ``cap`` steps (default ``k``).

**How a unit is named** (:data:`EVIDENCE`): *reproduced*, where a step
that moved it reproduced the figure and the other units that step moved
were cleared by others; or *by elimination*, where every other unit was
cleared and only B (all of them) reproduced it.  Both hold under the one
assumption; only the first shows the unit moving the figure.  Two units
that move a figure only together (an interaction) can look like
elimination's answer: ``confirm`` runs the named unit's own step where it
was named by elimination (one step past the budget at most), and a step
that does not reproduce it leaves the figure not decided.
'''

import collections
import dataclasses
import math

import numpy as np

from microbench.cause import pairs as paired
from microbench.cause import sequential

#: What a step says of a figure
REPRODUCED, NOT_REPRODUCED, UNDECIDED = ('reproduced', 'not reproduced',
                                         'undecided')
OUTCOMES = (REPRODUCED, NOT_REPRODUCED, UNDECIDED)

#: The verdicts of a figure that moved (the A/B rule's words)
MOVES = ('B slower', 'B faster', 'B higher', 'B lower')

#: What a step came to (:mod:`.bisectstep` says each)
STATUSES = ('measured', 'identical to A', 'identical to B',
            'not concretized', 'not installed', 'not measured')
MEASURED = STATUSES[0]

#: What became of a moved figure
NAMED, NOT_DECIDED = 'named', 'not decided'
RESULTS = (NAMED, NOT_DECIDED)

#: How a named unit was found: a step that moved it (and units other
#: steps cleared) reproduced the figure; every other unit was cleared
#: (B, all of them, reproduces it); or none (not named)
REPRODUCTION, ELIMINATION, NO_EVIDENCE = 'reproduced', 'elimination', 'none'
EVIDENCE = (REPRODUCTION, ELIMINATION, NO_EVIDENCE)


def budget(k):
    '''The A/B steps that name one cause among ``k`` units: the full A/B
    and ``ceil(log2 k)`` halvings.'''
    return math.ceil(math.log2(k)) + 1 if k > 1 else 1


def _sides(full_ratio, low, high):
    '''(on B's side, on A's side) of the midpoint, for an interval.'''
    middle = math.log(full_ratio) / 2
    low, high = math.log(low), math.log(high)
    if full_ratio < 1:
        return high < middle, low > middle
    return low > middle, high < middle


def outcome(full_verdict, full_ratio, verdict, low, high):
    '''(:data:`OUTCOMES` word, why) of a step's judgement of a figure
    (its look's ``verdict`` and interval ``low``..``high``) against the
    full A/B's (``full_verdict``, B/A ``full_ratio``).'''
    if low is None or high is None or not (low > 0 and high > 0):
        return UNDECIDED, 'too few pairs for an interval'
    middle = math.sqrt(full_ratio)
    b_side, a_side = _sides(full_ratio, low, high)
    moved = verdict == full_verdict
    interval = f'[{low:.3f}, {high:.3f}]'
    if verdict in MOVES and not moved:
        return UNDECIDED, (f'{verdict}, where B was {full_verdict} '
                           f'({interval}): not one unit\'s')
    if b_side or (moved and not a_side):
        return REPRODUCED, (
            f'{interval} on B\'s side of {middle:.3f} (the midpoint of 1 '
            f'and B\'s {full_ratio:.3f})' if b_side else
            f'{verdict} as B, {interval} reaching B\'s side of '
            f'{middle:.3f}')
    if a_side and not moved:
        return NOT_REPRODUCED, (f'{interval} on A\'s side of {middle:.3f} '
                                f'(the midpoint of 1 and B\'s '
                                f'{full_ratio:.3f})')
    if moved:
        return UNDECIDED, (f'{verdict} as B, but by less than half of B\'s '
                           f'move ({interval}, all on A\'s side of '
                           f'{middle:.3f}): not one unit\'s')
    return UNDECIDED, (f'{interval} holds {middle:.3f}, the midpoint of 1 '
                       f'and B\'s {full_ratio:.3f}')


@dataclasses.dataclass(frozen=True)
class Moved:
    '''A figure that moved in the full A/B: its key (``check, variant,
    figure, unit, direction``), verdict and B/A with its interval.'''

    key: tuple
    verdict: str
    ratio: float
    low: float = None
    high: float = None

    def name(self):
        return ' '.join(part for part in self.key[:3] if part)


@dataclasses.dataclass(frozen=True)
class Judged:
    '''A step's judgement of a moved figure at its last look: the
    :data:`OUTCOMES` word, why, the look's numbers (B/A, interval, level,
    usable pairs) and whether more pairs could change it (``settled``
    False).'''

    outcome: str
    why: str
    ratio: float = None
    low: float = None
    high: float = None
    level: float = None
    pairs: int = 0
    settled: bool = False


def judged(moved, rounds, rule, figures):
    '''The :class:`Judged` of ``moved`` from its ``rounds`` in a step's
    A/B (A against the step), at the step's last look: the A/B rule's
    interval and verdict of that look, at the level of ``figures`` figures
    (the moved figures the step judges: its family) and of that look among
    the rule's looks (:meth:`sequential.Rule.level`), so that every look's
    interval of every moved figure holds its ratio together with
    probability ``1 - rule.alpha``, and the step may stop at any look.'''
    found = paired.pairs(rounds, moved.name())[:rule.cap]
    look = len(found)
    usable = [pair for pair in found if pair is not None]
    if len(usable) < rule.min_pairs:
        return Judged(UNDECIDED, f'{len(usable)} of {look} pairs usable, '
                      f'the rule needs {rule.min_pairs}', pairs=len(usable),
                      settled=look >= rule.cap)
    a = np.array([pair[0] for pair in usable])
    b = np.array([pair[1] for pair in usable])
    # the rule's own interval and verdict of one look (not a copy)
    got = sequential._numbers((a, b), look, rule.level(look, figures))
    better = sequential.DIRECTIONS[moved.key[4]]
    verdict = sequential._decided(got, better, rule)[0]
    word, why = outcome(moved.verdict, moved.ratio, verdict, got['low'],
                        got['high'])
    partial = word == UNDECIDED and verdict == moved.verdict
    return Judged(word, f'B/A {got["ratio"]:.3f} from {len(usable)} pairs: '
                  f'{why}', ratio=got['ratio'], low=got['low'],
                  high=got['high'], level=got['level'], pairs=len(usable),
                  settled=word != UNDECIDED or partial or look >= rule.cap)


@dataclasses.dataclass
class Step:
    '''A step of the search: its number, the groups it moves (indices),
    what became of it (:mod:`.bisect`'s status), and per moved figure key
    the outcome.'''

    number: int
    subset: frozenset
    status: str = ''
    outcomes: dict = dataclasses.field(default_factory=dict)


class Search:
    '''The candidates of every moved figure and the steps so far.

    ``groups``: the units that move together, in order (k of them);
    ``keys``: the moved figures' keys, in order; ``cap``: the most steps.
    '''

    def __init__(self, groups, keys, cap=None, confirm=False):
        self.groups = list(groups)
        self.keys = list(keys)
        self.cap = len(self.groups) if cap is None else cap
        self.confirm = confirm
        everything = frozenset(range(len(self.groups)))
        self.candidates = {key: everything for key in self.keys}
        self.stuck = {}
        self.steps = []

    def _tried(self, subset):
        return any(step.subset == subset for step in self.steps)

    def _open(self):
        return [key for key in self.keys
                if len(self.candidates[key]) > 1 and key not in self.stuck]

    def next_subset(self):
        '''The groups the next step moves (a frozenset of indices), or
        None: every figure named or not decided, or the cap reached.'''
        while self._open():
            if len(self.steps) >= self.cap:
                for key in self._open():
                    self.stuck[key] = (f'the cap of {self.cap} steps was '
                                       f'reached first')
                return None
            subset = self._halving()
            if subset is not None:
                return subset
        return self._confirming()

    def _confirming(self):
        '''With ``confirm``: the step of a unit named by elimination
        alone, where it was not run (nor the cap reached).'''
        if not self.confirm or len(self.steps) >= self.cap:
            return None
        for key in self.keys:
            if key in self.stuck or len(self.candidates[key]) != 1:
                continue
            subset = self.candidates[key]
            if self.evidence(key) == ELIMINATION and \
                    not self._tried(subset):
                return subset
        return None

    def _halving(self):
        '''The half not yet tried of the candidate set the most open
        figures share (the largest among sets shared alike); None where
        both were (that figure is then not decided).'''
        order = {key: place for place, key in enumerate(self.keys)}
        shared = collections.Counter(self.candidates[key]
                                     for key in self._open())
        key = max(self._open(), key=lambda one: (
            shared[self.candidates[one]], len(self.candidates[one]),
            -order[one]))
        ranked = sorted(self.candidates[key])
        half = frozenset(ranked[:(len(ranked) + 1) // 2])
        rest = frozenset(ranked) - half
        for subset in (half, rest):
            if not self._tried(subset):
                return subset
        self.stuck[key] = (
            f'the steps of both halves ({self.spelt(half)}; '
            f'{self.spelt(rest)}) left it undecided')
        return None

    def spelt(self, subset):
        '''The units of ``subset`` as a person reads them.'''
        return ', '.join('+'.join(self.groups[i]) for i in sorted(subset))

    def record(self, subset, status, outcomes):
        '''A step run: it moved ``subset``; ``outcomes``: {key: word of
        :data:`OUTCOMES`} (a key left out is undecided).  Its
        :class:`Step`.'''
        step = Step(len(self.steps) + 1, frozenset(subset), status,
                    dict(outcomes))
        self.steps.append(step)
        for key in self.keys:
            word = outcomes.get(key, UNDECIDED)
            if key in self.stuck or word == UNDECIDED:
                continue
            kept = (self.candidates[key] & step.subset if word == REPRODUCED
                    else self.candidates[key] - step.subset)
            if not kept:
                self.stuck[key] = (
                    f'step {step.number} ({self.spelt(step.subset)}) '
                    f'{word} it, against the steps before: no one unit '
                    f'moves it (two units together, or noise)')
                continue
            self.candidates[key] = kept
        return step

    def deciding(self, key):
        '''The numbers of the steps that decided ``key`` either way.'''
        return [step.number for step in self.steps
                if step.outcomes.get(key, UNDECIDED) != UNDECIDED]

    def evidence(self, key):
        '''How the unit of ``key`` was named (:data:`EVIDENCE`).'''
        if key in self.stuck or len(self.candidates[key]) != 1:
            return NO_EVIDENCE
        if len(self.groups) == 1 or any(
                step.outcomes.get(key) == REPRODUCED
                for step in self.steps):
            return REPRODUCTION
        return ELIMINATION

    def result(self, key):
        '''(:data:`RESULTS` word, candidate indices sorted, why).'''
        left = sorted(self.candidates[key])
        if key not in self.stuck and len(left) == 1:
            steps = self.deciding(key)
            if not steps:
                return NAMED, left, 'named: the only unit (the full A/B)'
            said = f'named by steps {", ".join(map(str, steps))}'
            if self.evidence(key) == REPRODUCTION:
                last = [step.number for step in self.steps
                        if step.outcomes.get(key) == REPRODUCED][-1]
                return NAMED, left, (f'{said}: step {last} reproduced '
                                     f'it, the other units it moved '
                                     f'cleared')
            return NAMED, left, (f'{said}: every other unit cleared, B '
                                 f'reproduces it (by elimination, one '
                                 f'cause assumed: --confirm runs its own '
                                 f'step)')
        why = self.stuck.get(key, 'no step was run')
        return NOT_DECIDED, left, (f'not decided among {self.spelt(left)}: '
                                   f'{why}')
