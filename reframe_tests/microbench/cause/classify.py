'''An event's cause, by experiment: the figure's level before the event,
tonight's, and an A/B run now of the night-before stack (A) against
tonight's (B) (issue 43, item 2).  A pure function: :func:`classify`.

Where each side of the A/B lies is read against the two levels of the
history: ``before`` (the level of the nights before the event: the
compare's ``median_before``) and ``tonight`` (tonight's level: its
``median_after``).  A side's level in the A/B is the median of its rounds'
values (:class:`.sequential.Judgement`'s ``median_a``, ``median_b``).  A
level is *at* one of the two where it lies within the tolerance of it (the
nightly band floor, :data:`microbench.verdicts.rule.FLOOR`: 10 %, the
least change the nightly verdicts call) and nearer to it than to the other
(on a log scale): where the two levels are less than twice the tolerance
apart, the nearer one decides.  Then:

- ``machine (by experiment)``: A and B both reached tonight's level, and
  the A/B says ``same``: the old stack is as slow as the new one on
  tonight's machine;
- ``software (by experiment)``: A kept the level before, and B changed
  against A the way the event did (``B slower`` for a drop) by at least
  half the event's change (B/A against tonight/before, on a log scale):
  the old stack still gives the old level here, the new one does not;
- ``not reproduced``: A and B both kept the level before, the A/B
  ``same``;
- ``inconclusive``, saying why, for anything else: the A/B still running
  or inconclusive, an event within the tolerance, a side at neither level,
  A at tonight's level and B a further change (the machine and the
  software both), B changed the other way.

A side *kept* the level before where it is at it, or at least twice as
near it as tonight's (its distance from it less than a third of the
event's change, on a log scale, either side); it *reached* tonight's
where it is at it, or at least twice as near it as the level before.  A
side between the two thirds is at neither.
The machine may drift between the night and the experiment, and a
machine cause (a competing writer) need not hold the figure at exactly
tonight's level: it moves both sides of the A/B, and the ratio B/A is
what the experiment measures.  Two real diagnoses were ``inconclusive``
under the band floor alone: A 10.8 % above the level before in a 47 %
drop (a software plant), and both sides at 4 times tonight's level in a
99 % drop (two competing writers; bench/diagnose.py).

A ``same`` must bound the change: where the A/B's interval of B/A reaches
the event's tonight/before on the event's side (``same (within ±30 %)``
for a 20 % drop), it could hide a software change of the event's size,
and the verdict is ``inconclusive``.  The interval is read on its own
scale: B/A in [0.105, 12.1] excludes a 99 % drop (0.008).
'''

import math

from microbench.cause import sequential
from microbench.verdicts import rule as bands
from microbench.verdicts import vocabulary
from microbench.verdicts.vocabulary import UNDECIDED

#: The causes an experiment finds
CAUSES = tuple(vocabulary.EXPERIMENT_CAUSES)

#: Where a level lies
BEFORE, TONIGHT, NEITHER = 'the level before', "tonight's level", 'neither'


def _positive(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value > 0)


def where(value, before, tonight, tolerance=bands.FLOOR):
    '''Which level ``value`` lies at: :data:`BEFORE`, :data:`TONIGHT` or
    :data:`NEITHER`.'''
    far_before = abs(math.log(value / before))
    far_tonight = abs(math.log(value / tonight))
    if abs(value / before - 1) <= tolerance and far_before < far_tonight:
        return BEFORE
    if abs(value / tonight - 1) <= tolerance and far_tonight < far_before:
        return TONIGHT
    return NEITHER


def _way(value, before, tonight):
    '''How far ``value`` lies from ``before`` towards ``tonight`` (log
    scale): 0 at the level before, 1 at tonight's.'''
    return math.log(value / before) / math.log(tonight / before)


def _pct(fraction):
    return f'{fraction * 100:.0f} %'


def _said(cause, why):
    return {'cause': cause, 'why': why}


def classify(before, tonight, ab, tolerance=bands.FLOOR):
    '''The cause of an event of one figure: ``{'cause': one of
    :data:`CAUSES`, 'why': one line}``.

    :arg before: the figure's level before the event.
    :arg tonight: its level tonight.
    :arg ab: the figure's A/B (a mapping: ``verdict``, ``ratio``, ``low``,
        ``high``, ``reach``, ``median_a``, ``median_b``, ``direction``; the
        A/B JSON's figure, or a :class:`.sequential.Judgement`'s
        ``as_dict()`` with its ``direction``).
    '''
    for name, value in (('the level before', before),
                        ("tonight's level", tonight),
                        ("A's level in the A/B", ab.get('median_a')),
                        ("B's level in the A/B", ab.get('median_b'))):
        if not _positive(value):
            return _said(UNDECIDED, f'{name} is {value!r:.40}, not a '
                         f'positive number')
    event = tonight / before
    if abs(event - 1) <= tolerance:
        return _said(UNDECIDED, f'the event\'s change '
                     f'{sequential.change(event)} is within the tolerance '
                     f'±{_pct(tolerance)}: the levels cannot be told apart')
    verdict = ab.get('verdict')
    if verdict not in sequential.VERDICTS or verdict in ('continue',
                                                         UNDECIDED):
        return _said(UNDECIDED, f'the A/B says {verdict!r:.40}: '
                     f'{str(ab.get("why", ""))[:200]}')
    better = sequential.DIRECTIONS.get(ab.get('direction'), 0)
    as_event = sequential.word(better, event > 1)
    side_a = where(ab['median_a'], before, tonight, tolerance)
    side_b = where(ab['median_b'], before, tonight, tolerance)
    levels = (f'A {ab["median_a"]:.4g} ({side_a}), B {ab["median_b"]:.4g} '
              f'({side_b}); before {before:.4g}, tonight {tonight:.4g} '
              f'({sequential.change(event)})')
    if verdict == 'same':
        return _same(ab, event, before, tonight, levels, tolerance)
    if verdict != as_event:
        return _said(UNDECIDED, f'the A/B says {verdict} where the '
                     f'event is {as_event}: not the software\'s change; '
                     f'{levels}')
    if not _positive(ab.get('ratio')):
        return _said(UNDECIDED, f'the A/B\'s ratio is '
                     f'{ab.get("ratio")!r:.40}, not a positive number')
    kept = _kept(ab['median_a'], before, tonight, tolerance)
    share = math.log(ab['ratio']) / math.log(event)
    if kept and share >= 0.5:
        return _said('software (by experiment)', f'the night-before stack '
                     f'keeps the level before and tonight\'s does not: '
                     f'{verdict} (B/A {ab["ratio"]:.3f}, {_pct(share)} of '
                     f'the event); {levels}')
    if kept:
        return _said(UNDECIDED, f'{verdict}, but B/A {ab["ratio"]:.3f} '
                     f'is only {_pct(share)} of the event\'s change: the '
                     f'software explains part of the event; {levels}')
    if side_a == TONIGHT:
        return _said(UNDECIDED, f'A is at tonight\'s level and B '
                     f'changed further ({verdict}, B/A '
                     f'{ab["ratio"]:.3f}): the machine and the software '
                     f'both; {levels}')
    return _said(UNDECIDED, f'{verdict}, but A is at neither level: '
                 f'{levels}')


def _excludes(ab, event):
    '''Whether the A/B's interval of B/A excludes ``event`` (B/A as large a
    change as the event's, a software change of its size), on the event's
    side: for a drop, the interval's low end lies above it.  ``None``
    where the interval is no pair of positive numbers.'''
    low, high = ab.get('low'), ab.get('high')
    if not (_positive(low) and _positive(high)) or low > high:
        return None
    return low > event if event < 1 else high < event


def _reached(value, before, tonight, tolerance):
    '''Whether ``value`` lies at tonight's level, or at least twice as
    near it as the level before (on a log scale): the side of a ``same``
    that is as slow as tonight's figure.'''
    return (where(value, before, tonight, tolerance) == TONIGHT
            or _way(value, before, tonight) > 2 / 3)


def _kept(value, before, tonight, tolerance):
    '''Whether ``value`` kept the level before: at it, or at least twice
    as near it as tonight's level (on a log scale, either side).'''
    return (where(value, before, tonight, tolerance) == BEFORE
            or abs(_way(value, before, tonight)) < 1 / 3)


def _same(ab, event, before, tonight, levels, tolerance):
    '''The cause where the A/B says ``same``.'''
    excludes = _excludes(ab, event)
    span = f'[{ab.get("low")!r:.10}, {ab.get("high")!r:.10}]'
    if excludes is None:
        return _said(UNDECIDED, f'the A/B\'s interval {span:.60} is no '
                     f'interval of positive numbers')
    if not excludes:
        return _said(UNDECIDED, f'the A/B says same, but its interval of '
                     f'B/A {span} reaches the event\'s {event:.3f}: it '
                     f'cannot rule out a software change of the event\'s '
                     f'size; {levels}')
    a, b = ab['median_a'], ab['median_b']
    if _reached(a, before, tonight, tolerance) and \
            _reached(b, before, tonight, tolerance):
        return _said('machine (by experiment)', f'both stacks at tonight\'s '
                     f'level, B/A in {span}, not the event\'s '
                     f'{event:.3f}: the machine, or what both stacks share; '
                     f'{levels}')
    if _kept(a, before, tonight, tolerance) and \
            _kept(b, before, tonight, tolerance):
        return _said('not reproduced', f'both stacks at the level before, '
                     f'B/A in {span}; {levels}')
    return _said(UNDECIDED, f'the A/B says same, but the sides lie at '
                 f'different levels or at neither; {levels}')
