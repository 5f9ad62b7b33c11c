'''Histories with a planted change, for the triage's tests: nights of a
real recorded session (tests/data/results/fio-quick-limits.json: the fio
checks on the local default, every write figure with its limit), chosen
figures scaled from a night on.'''

import numpy as np

from nights import WATCHED, night
from weather_history import merged, recorded

#: The night a change begins
CHANGE = 16


def history(count, scale=None, seed=0, source='fio-quick-limits',
            limits=False):
    '''``count`` nights (reports) of the recorded session (with the
    recorded component limits' test cases, if ``limits``); a test case's
    samples times ``scale(index, case)`` where given.'''
    rng, src = np.random.default_rng(seed), recorded(source)
    if limits:
        src = merged(src, recorded('limits-quick'))
    return [night(src, index, rng, scale=(
        (lambda case, index=index: scale(index, case)) if scale else None))
        for index in range(count)]


def is_watched(case):
    return (case['display_name'].split()[0], case.get('variant')) == \
        WATCHED[:2]


def drop(factor, start=CHANGE, end=None, which=is_watched):
    '''A ``scale`` of :func:`history`: the test cases ``which`` selects
    times ``factor`` from night ``start`` (to ``end``, excluded).'''
    def scale(index, case):
        inside = index >= start and (end is None or index < end)
        return factor if inside and which(case) else 1.0
    return scale


def session(reports, index):
    return reports[index]['session_info']['uuid']
