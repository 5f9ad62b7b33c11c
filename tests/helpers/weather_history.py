'''Histories of nights for the weather's tests, made from real recorded
sessions as tests/helpers/nights.py makes them (its ``night``: a
copy with a new UUID and date, every sample times that night's drift, the
watched figure, fio_cache_flags ``direct``'s O_DIRECT write, times
``drop``).

A night holds two partitions of the local system: ``default`` (every
check: tests/data/results/all-quick.json) and ``scratch`` (the fio checks
of fio-quick-1.json on a partition of that name).  :func:`history` makes
``count`` nights, the watched figure of ``scratch`` times :data:`DROP`
from night ``change`` on, when the kernel of ``scratch``'s records
changes too.
'''

import copy
import datetime
import json

import numpy as np

from fixtures import path
from nights import START, night  # noqa: F401

#: The watched figure's level from the change on, and the kernel then
DROP = 0.69
KERNEL = '6.19.2-weather'
#: The partition whose figure drops
SCRATCH = 'scratch'


def recorded(name):
    with open(path(f'results/{name}.json')) as fp:
        return json.load(fp)


def as_partition(report, name):
    '''``report`` with every test case on partition ``name``.'''
    report = copy.deepcopy(report)
    for case in report['runs'][-1]['testcases']:
        case['partition'] = name
        case['perfvalues'] = {
            f'{key.split(":")[0]}:{name}:{key.split(":")[2]}': value
            for key, value in (case.get('perfvalues') or {}).items()}
    return report


def merged(first, second):
    '''``first``'s session with ``second``'s test cases too.'''
    info = first['session_info']
    cases = first['runs'][-1]['testcases']
    for case in second['runs'][-1]['testcases']:
        case['uuid'] = f'{info["uuid"]}:0:{len(cases)}'
        cases.append(case)
    return first


def date(index):
    '''Night ``index``'s date, as the verdicts say it.'''
    return datetime.datetime.fromtimestamp(
        START + index * 86400, datetime.timezone.utc).strftime('%Y-%m-%d')


def history(count, change=None, drop=DROP, seed=0):
    '''``count`` nights (ReFrame reports, oldest first) of both
    partitions; from night ``change`` on (if given), ``scratch``'s
    O_DIRECT write times ``drop`` and its kernel :data:`KERNEL`.'''
    rng = np.random.default_rng(seed)
    every = recorded('all-quick')
    fio = as_partition(recorded('fio-quick-1'), SCRATCH)
    out = []
    for index in range(count):
        changed = change is not None and index >= change
        report = merged(night(every, index, rng),
                        night(fio, index, rng,
                              drop=drop if changed else 1.0))
        if changed:
            for case in report['runs'][-1]['testcases']:
                if case['partition'] == SCRATCH:
                    case['kernel'] = KERNEL
        out.append(report)
    return out
