'''Samples and their statistics: a figure is never a single number.'''

import numpy as np


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
