'''A node's samples of one figure of one night, read as untrusted input
for the same-night rule (:mod:`microbench.nodes.outliers`): a figure (the
median) and a spread, a job that gave nothing, or the reason they cannot
be judged; never an exception, whatever was passed.
'''

import collections
import collections.abc
import math
import numbers
import reprlib

import numpy as np


def refused(what, value, says):
    '''``(None, None, reason)``: ``sample 'x' is not a number`` (the value
    shortened as reprlib does).'''
    return None, None, f'{what} {reprlib.repr(value)} {says}'


def read_samples(samples):
    '''``(value, log spread, reason)`` of one node's samples: the median
    and the log standard deviation (0 with one sample), or a reason they
    cannot be judged; ``(None, None, '')`` for no samples (failed).'''
    if samples is None:
        return None, None, ''
    if isinstance(samples, (str, bytes)):
        return refused('samples', samples, 'are not numbers')
    if isinstance(samples, numbers.Real):
        samples = [samples]
    try:
        listed = list(samples)
    except TypeError:
        return refused('samples', samples, 'are not a list of numbers')
    if not listed:
        return None, None, ''
    values = []
    for sample in listed:
        if isinstance(sample, bool) or not isinstance(sample, numbers.Real):
            return refused('sample', sample, 'is not a number')
        try:
            value = float(sample)
        except OverflowError:
            return refused('sample', sample, 'is too large')
        if not math.isfinite(value):
            return refused('sample', sample, 'is not finite')
        if value <= 0:
            return refused('sample', sample, 'is not positive (a rate or a '
                           'time is)')
        values.append(value)
    logs = np.log(values)
    spread = float(np.std(logs, ddof=1)) if len(values) > 1 else 0.0
    return float(np.median(values)), spread, ''


def entries(nodes):
    '''``([(node, samples)], '')`` of a mapping or of (node, samples)
    pairs, or ``([], the reason it is neither)``.'''
    if isinstance(nodes, collections.abc.Mapping):
        return list(nodes.items()), ''
    neither = f'{reprlib.repr(nodes)} is not a mapping of node to samples'
    if nodes is None or isinstance(nodes, (str, bytes)):
        return [], neither
    try:
        pairs = [tuple(pair) for pair in nodes]
    except TypeError:
        return [], neither
    if any(len(pair) != 2 for pair in pairs):
        return [], 'not every entry is a (node, samples) pair'
    try:
        collections.Counter(node for node, _ in pairs)
    except TypeError:
        return [], 'a node name is not a name (unhashable)'
    return pairs, ''
