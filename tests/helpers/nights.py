'''Nights made from a real recorded session: a copy of a ReFrame report
with a new UUID and date, every sample times that night's drift (the
nightly verdict's, the export's and the triage's tests).'''

import copy
import glob
import json
import os
import sys
import uuid

import numpy as np

from microbench.verdicts import figures

from fixtures import path

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
WATCHED = ('fio_cache_flags', 'direct', 'write_median_mib_s')
START = 1_790_000_000


def recorded():
    with open(path('results/fio-quick-1.json')) as fp:
        return json.load(fp)


def night(source, index, rng, drop=1.0, drift=0.03, scale=None):
    '''The recorded session as night ``index``: a new UUID and time, every
    sample of each test case times the night's drift; the watched figure's
    samples times ``drop`` too (or each test case's times ``scale(case)``,
    where given).'''
    report = copy.deepcopy(source)
    info = report['session_info']
    info['uuid'] = str(uuid.uuid4())
    info['time_start_unix'] = START + index * 86400
    info['time_end_unix'] = info['time_start_unix'] + 600
    for case in report['runs'][-1]['testcases']:
        case['uuid'] = f'{info["uuid"]}:0:{case["uuid"].split(":")[-1]}'
        watched = (case['display_name'].split()[0] == WATCHED[0]
                   and case.get('variant') == WATCHED[1])
        factor = float(np.exp(rng.normal(0, drift))) * (
            scale(case) if scale else drop if watched else 1)
        scaled = {name: [x * factor for x in values] for name, values in
                  figures.parse_samples(case.get('figure_samples')).items()}
        case['figure_samples'] = ';'.join(
            name + '=' + ','.join(map(repr, values))
            for name, values in scaled.items())
        for value in (case.get('perfvalues') or {}).values():
            if isinstance(value[0], (int, float)):
                value[0] *= factor
    return report


def not_stored(session, report, db):
    '''The error line of ``microbench stored`` and the recipes.'''
    return (f'session {session} of {report} is not in the results storage '
            f'{db}: ReFrame could not store it (see its output: lock '
            f'timeout, full disk, read-only directory?)')


def sessions(count, first=0):
    '''``count`` real recorded sessions (every recorded report in turn),
    each a night of its own: a new UUID and time.'''
    sources = []
    for name in sorted(glob.glob(path('results/*.json'))):
        with open(name) as fp:
            sources.append(json.load(fp))
    rng = np.random.default_rng(first)
    return [night(sources[index % len(sources)], index, rng)
            for index in range(first, first + count)]
