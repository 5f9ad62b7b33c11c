'''A/B series of the tests of microbench.cause's rule and format, from the
real recorded sessions of tests/data/results (their ``figure_samples``:
one sample a round, in the order the rounds ran) and with known answers.
'''

import json

from microbench.cause import ab_json, sequential
from microbench.verdicts import figures

from fixtures import path

#: The stacks of the documents below, as the runner names them
STACKS = {'A': {'name': 'fio-3.33 (dev1)', 'lock_hash': 'abc1234',
                'prefix': '/opt/fio-3.33', 'tools': {'fio': '3.33'},
                'session': None},
          'B': {'name': 'fio-3.33 (dev2)', 'lock_hash': 'def5678',
                'prefix': None, 'tools': {'fio': '3.33'},
                'session': None}}


def recorded(name):
    '''``{figure key: samples}`` of a real session's figures with 3
    samples or more (``results/<name>.json``).'''
    with open(path(f'results/{name}.json')) as fp:
        table = figures.frame([json.load(fp)])
    return {(row.check, row.variant, row.figure, row.unit,
             sequential.direction(row.unit)): list(row.samples)
            for row in table.itertuples() if len(row.samples) >= 3}


def interleaved(a, b, order='ABAB'):
    '''The rounds of one figure: ``a``'s and ``b``'s samples (one a round)
    taken in turn, in ``order``.'''
    rounds, queues = [], {'A': list(a), 'B': list(b)}
    for index in range(len(a) + len(b)):
        side = order[index % len(order)]
        rounds.append((index, side, [queues[side].pop(0)]))
    return rounds


def constant(ratios, level=100.0, order='ABAB'):
    '''The rounds of a figure whose A is ``level`` every round and whose B
    is ``level`` times each of ``ratios`` in turn (the pairs' ratios are
    exactly ``ratios``).'''
    return interleaved([level] * len(ratios),
                       [level * ratio for ratio in ratios], order)


def real_series(a='fio-quick-1', b='fio-quick-2', factor=1.0):
    '''``{figure key: rounds}``: session ``a``'s rounds of each figure as
    A's, session ``b``'s (times ``factor``) as B's, interleaved.'''
    one, two = recorded(a), recorded(b)
    return {key: interleaved(one[key], [v * factor for v in two[key]])
            for key in one if key in two}


def real_document(rule=None, series=None):
    '''The A/B document of :func:`real_series` (one round's sample of one
    figure made NaN: a lost pair, written as null), and its series.'''
    series = series or real_series()
    key = sorted(series)[0]
    index, side, _ = series[key][2]
    series[key][2] = (index, side, [float('nan')])
    experiment = sequential.Experiment(rule or sequential.Rule(cap=3))
    experiment.update(series)
    doc = ab_json.document(
        experiment, series, 'quick', 'local', 'default', STACKS,
        ['fio_cache_flags', 'fio_fallocate', 'fio_time_based_overwrite'],
        ['-S num_samples=3'], 'ABAB', ['localhost'], ['4242'],
        date='2026-11-27 14:02')
    return doc, series
