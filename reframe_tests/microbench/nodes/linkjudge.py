'''A run of the link search judged (:mod:`microbench.nodes.links`): its
outcomes, and when its answer is slow.

A run's answer is judged in one place, :func:`judge`: a bool is the
caller's verdict (True: slow); a figure is judged by a :class:`Threshold`
(a bandwidth is slow when ``figure < clean_level x (1 - margin)``, a
latency when ``figure > clean_level / (1 - margin)``) or the caller's
function of it.  Anything else (None, NaN, a string, a threshold that
raises) is a failed run, saying why.
'''

import dataclasses
import math
import numbers

import numpy as np

#: How far past the clean level a figure is slow (a bandwidth 25 % under
#: a healthy link's)
MARGIN = 0.25

#: A run's outcome, with its meaning
OUTCOMES = {
    'slow': 'the run\'s figure is past the threshold: a bad link may be '
            'among its links',
    'clean': 'the run\'s figure is within the threshold',
    'failed': 'the run gave no figure (the search stops: run failed)',
}
SLOW, CLEAN, FAILED = OUTCOMES


def is_figure(value):
    '''Whether ``value`` is a finite real number (not a bool).'''
    return isinstance(value, numbers.Real) and \
        not isinstance(value, (bool, np.bool_)) and math.isfinite(value)


@dataclasses.dataclass(frozen=True)
class Threshold:
    '''When a run's figure is slow (called on the figure): ``margin`` (a
    share) past ``clean_level``, a healthy link's figure (the module's
    docstring).'''

    clean_level: float
    margin: float = MARGIN
    higher_is_better: bool = True

    def __post_init__(self):
        '''A clean level above 0 and finite, a margin between 0 and 1.'''
        if not (is_figure(self.clean_level) and self.clean_level > 0 and
                is_figure(self.margin) and 0 < self.margin < 1):
            raise ValueError(f'clean level {self.clean_level!r}, margin '
                             f'{self.margin!r}: give a finite figure above 0 '
                             f'and a share between 0 and 1')

    def __call__(self, figure):
        '''Whether ``figure`` is slow.'''
        if self.higher_is_better:
            return figure < self.clean_level * (1 - self.margin)
        return figure > self.clean_level / (1 - self.margin)


def judge(answer, threshold=None):
    '''``(outcome, figure, why)`` of a run's ``answer``: outcome slow,
    clean or failed, the figure where it was one, why where it failed.'''
    if isinstance(answer, (bool, np.bool_)):
        return (SLOW if answer else CLEAN), None, ''
    if not is_figure(answer) or answer < 0:
        return FAILED, None, (f'gave {answer!r}: neither slow or clean (a '
                              f'bool) nor a finite figure of 0 or more')
    figure = float(answer)
    if threshold is None:
        return FAILED, figure, (f'gave the figure {figure:g}, but the '
                                f'search has no threshold to judge it by')
    try:
        slow = threshold(figure)
    except Exception as err:
        return FAILED, figure, (f'the threshold raised {type(err).__name__}'
                                f' on the figure {figure:g}: {err}')
    if not isinstance(slow, (bool, np.bool_)):
        return FAILED, figure, (f'the threshold said {slow!r} of the figure '
                                f'{figure:g}, not True or False')
    return (SLOW if slow else CLEAN), figure, ''
