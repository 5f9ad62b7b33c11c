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

- ``machine (by experiment)``: A and B both at tonight's level, and the A/B
  says ``same``: the old stack is as slow as the new one on tonight's
  machine;
- ``software (by experiment)``: A kept the level before, and B changed
  against A the way the event did (``B slower`` for a drop) by at least
  half the event's change (B/A against tonight/before, on a log scale):
  the old stack still gives the old level here, the new one does not.  A
  *kept* the level before where it is at it (above), or where it lies
  less than half the event's change from it (on a log scale, either
  side): a machine that drifted between the night and the experiment
  moves both sides of the A/B, and the A/B's ratio, not A's level, is
  what the experiment measures (a diagnosis with A 10.8 % above the level
  before in a 47 % drop was ``inconclusive`` under the band floor alone);
- ``not reproduced``: A and B both at the level before, the A/B ``same``;
- ``inconclusive``, saying why, for anything else: the A/B still running
  or inconclusive, an event within the tolerance, a side at neither level,
  A at tonight's level and B a further change (the machine and the
  software both), B changed the other way.

A ``same`` must bound the change: where the A/B's interval reaches as far
as the event's change (``same (within ±30 %)`` for a 20 % drop), it could
hide a software change of the event's size, and the verdict is
``inconclusive``.
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
        return _same(ab, event, side_a, side_b, levels)
    if verdict != as_event:
        return _said(UNDECIDED, f'the A/B says {verdict} where the '
                     f'event is {as_event}: not the software\'s change; '
                     f'{levels}')
    if not _positive(ab.get('ratio')):
        return _said(UNDECIDED, f'the A/B\'s ratio is '
                     f'{ab.get("ratio")!r:.40}, not a positive number')
    kept = side_a == BEFORE or abs(_way(ab['median_a'], before,
                                        tonight)) < 0.5
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


def _same(ab, event, side_a, side_b, levels):
    '''The cause where the A/B says ``same``.'''
    reach = ab.get('reach')
    if not _positive(reach) and reach != 0:
        return _said(UNDECIDED, f'the A/B\'s reach is {reach!r:.40}, '
                     f'not a number')
    if reach >= abs(event - 1):
        return _said(UNDECIDED, f'the A/B says same, but within '
                     f'±{_pct(reach)}: it cannot rule out a software change '
                     f'of the event\'s size; {levels}')
    if side_a == side_b == TONIGHT:
        return _said('machine (by experiment)', f'both stacks at tonight\'s '
                     f'level, the same within ±{_pct(reach)}: the machine, or '
                     f'what both stacks share; {levels}')
    if side_a == side_b == BEFORE:
        return _said('not reproduced', f'both stacks at the level before, '
                     f'the same within ±{_pct(reach)}; {levels}')
    return _said(UNDECIDED, f'the A/B says same, but the sides lie at '
                 f'different levels or at neither; {levels}')
