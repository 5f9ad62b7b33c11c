'''Samples and their statistics: a figure is never a single number.'''

import numpy as np


class Samples:
    '''The samples of one figure, in one unit.'''

    def __init__(self, values, unit):
        self.values = np.asarray(values, dtype=float)
        self.unit = unit
        if self.values.size == 0:
            raise ValueError('a figure needs at least one sample')

    @property
    def median(self):
        return float(np.median(self.values))

    @property
    def min(self):
        return float(self.values.min())

    @property
    def max(self):
        return float(self.values.max())

    def __str__(self):
        return ','.join(f'{v:.6g}' for v in self.values)
