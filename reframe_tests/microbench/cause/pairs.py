'''The rounds of an A/B experiment, as the runner gives them, made into
pairs of rounds adjacent in time (:mod:`microbench.cause.sequential`
judges the pairs).

The runner gives, per figure, its rounds in time order: ``(round index,
side, samples)``, the side ``'A'`` or ``'B'``, the samples that figure's
check gave in that round.  The rounds alternate, A B A B or A B B A: so
the rounds taken two by two in time order (the first and second, the
third and fourth, ...) each hold one round of each side, run one after
the other.  A drift of the machine during the run is then nearly the same
on both rounds of a pair, and the pair's ratio B/A does not see it.  A
round's value is the median of its samples (one sample a round is the
usual case: its value is that sample).

What the runner gives is checked, one line on anything that is not this
shape (:class:`RoundsError`): a round that is not a triple, a side that is
not A or B, an index that does not grow, two rounds of one side in a pair.
A sample that is not a positive finite number (a failed sample: NaN, zero,
an infinity) is left out of its round; a round left with no sample has no
value, and its pair is *lost*: counted, never judged.  A last round
without its partner is not a pair yet.
'''

import math
import numbers
import statistics

#: The two sides of an A/B experiment
SIDES = ('A', 'B')

#: The orders the rounds may run in: each pair of rounds holds one of each
#: side; ABBA also cancels a drift linear in time over two pairs
ORDERS = ('ABAB', 'ABBA')


class RoundsError(ValueError):
    '''The rounds of a figure are not the shape :func:`pairs` reads (one
    line).'''


def value(samples):
    '''A round's value: the median of its positive finite samples; None
    where it has none.'''
    kept = [float(sample) for sample in samples if _usable(sample)]
    return statistics.median(kept) if kept else None


def _usable(sample):
    return (isinstance(sample, numbers.Real)
            and not isinstance(sample, bool)
            and math.isfinite(sample) and sample > 0)


def _checked(where, position, found):
    '''``(index, side, samples)`` of one round, or :class:`RoundsError`.'''
    if not isinstance(found, (tuple, list)) or len(found) != 3:
        raise RoundsError(f'{where}: round {position} is {found!r:.80}, not '
                          f'(round index, side, samples)')
    index, side, samples = found
    if not isinstance(index, numbers.Integral) or isinstance(index, bool):
        raise RoundsError(f'{where}: round {position}: index {index!r:.40} '
                          f'is not an integer')
    if side not in SIDES:
        raise RoundsError(f'{where}: round {position}: side {side!r:.40} is '
                          f'not A or B')
    if not isinstance(samples, (tuple, list)):
        raise RoundsError(f'{where}: round {position}: samples '
                          f'{samples!r:.60} are not a list')
    for sample in samples:
        if not isinstance(sample, numbers.Real) or isinstance(sample, bool):
            raise RoundsError(f'{where}: round {position}: sample '
                              f'{sample!r:.40} is not a number')
    return int(index), side, samples


def pairs(rounds, where='rounds'):
    '''The pairs of ``rounds`` (in time order): per pair run, ``(A's value,
    B's value)``, or None where a side has no value (a lost pair).

    :arg where: what the rounds are, for a message (the figure).
    :raises RoundsError: ``rounds`` are not alternating rounds.
    '''
    if not isinstance(rounds, (tuple, list)):
        raise RoundsError(f'{where}: the rounds are {rounds!r:.60}, not a '
                          f'list')
    checked = [_checked(where, position, found)
               for position, found in enumerate(rounds)]
    for position in range(1, len(checked)):
        if checked[position][0] <= checked[position - 1][0]:
            raise RoundsError(
                f'{where}: round {position} has index {checked[position][0]}'
                f' after {checked[position - 1][0]}: the rounds are not in '
                f'time order')
    out = []
    for first in range(0, len(checked) - 1, 2):
        one, two = checked[first], checked[first + 1]
        if one[1] == two[1]:
            raise RoundsError(
                f'{where}: rounds {one[0]} and {two[0]} are both {one[1]}: '
                f'each pair of rounds must hold one of A and one of B '
                f'({" or ".join(ORDERS)})')
        sides = {one[1]: value(one[2]), two[1]: value(two[2])}
        lost = sides['A'] is None or sides['B'] is None
        out.append(None if lost else (sides['A'], sides['B']))
    return out


def order(rounds):
    '''The order the sides of ``rounds`` ran in (:data:`ORDERS`), or the
    sides as they ran where neither (``AB?``: too few rounds to tell).'''
    sides = ''.join(found[1] for found in rounds)
    for name in ORDERS:
        pattern = (name * (len(sides) // len(name) + 1))[:len(sides)]
        if sides == pattern and len(sides) >= len(name):
            return name
    return sides
