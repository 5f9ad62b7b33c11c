'''What the export's tests share: the labels and values a real report's
figures must have in Prometheus, and a storage of nights with a planted
drop whose variant name Prometheus must escape.'''

import copy
import json
import subprocess

import numpy as np
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families

from microbench.verdicts import nightly, storage

from fixtures import path
from nights import MICROBENCH, night, recorded

#: A variant name Prometheus must get escaped: quotes, a backslash, a
#: newline, non-ASCII
ODD = 'buffered "q" \\ back\nslash \u00e9'

#: The labels of a figure, in the order export writes them
LABELS = ['system', 'partition', 'environ', 'check', 'variant', 'figure',
          'unit']

#: The value of microbench_verdict, by the verdict's first word
DIRECTION = {'regression': -1, 'degraded': -1, 'unchanged': 0,
             'improvement': 1, 'improved': 1}


def microbench(db, *args):
    return subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=300)


def report(name):
    with open(path(f'results/{name}.json')) as fp:
        return json.load(fp)


def expected(source, odd=None):
    '''{labels: value} of every figure of a ReFrame report, read from its
    perfvalues (the variant ``buffered`` read as ``odd``).'''
    out = {}
    for case in source['runs'][-1]['testcases']:
        for key, (value, *_, unit, _result) in (case.get('perfvalues')
                                               or {}).items():
            if value is None:
                continue
            system, partition, figure = key.split(':')
            variant = case.get('variant', '')
            out[system, partition, case['environ'],
                case['display_name'].split()[0],
                odd if odd and variant == 'buffered' else variant,
                figure, unit] = value
    return out


def renamed(source, odd=ODD):
    '''A copy of a report, the variant ``buffered`` named ``odd``.'''
    out = copy.deepcopy(source)
    for case in out['runs'][-1]['testcases']:
        if case.get('variant') == 'buffered':
            case['variant'] = odd
    return out


def families_of(path):
    '''{name: family} of an OpenMetrics file ``path`` (what ``microbench
    export --openmetrics`` wrote).'''
    with open(path) as fp:
        return {family.name: family
                for family in text_string_to_metric_families(fp.read())}


def export_families(run, verdicts, out):
    '''``microbench export --verdicts verdicts --openmetrics out`` by
    ``run`` (a test's way of calling microbench with its storage), which
    must succeed; the families it wrote (:func:`families_of`).'''
    proc = run('export', '--verdicts', str(verdicts), '--openmetrics',
               str(out))
    assert proc.returncode == 0, proc.stderr
    return families_of(out)


def samples(families, name):
    '''{labels: (value, timestamp)} of the gauge ``name``.'''
    out = {}
    for family in families:
        if family.name != name:
            continue
        for sample in family.samples:
            labels = dict(sample.labels)
            key = tuple(labels.pop(k) for k in LABELS if k in labels)
            key += tuple(labels[k] for k in sorted(labels))
            assert key not in out, key
            out[key] = (sample.value, sample.timestamp)
    return out


def make_nights(tmp):
    '''A results storage of 17 nights of the recorded fio session, the
    variant buffered named ODD, the watched figure halved from night 15;
    (the storage, the last night's report, compare --last's JSON of it).'''
    db = tmp / 'results.db'
    source, rng = renamed(recorded()), np.random.default_rng(0)
    for index in range(nightly.MIN_NIGHTS + 3):
        last = night(source, index, rng,
                     drop=0.5 if index > nightly.MIN_NIGHTS else 1)
        storage.store(str(db), last)
    proc = microbench(db, 'compare', '--last', '--json',
                      str(tmp / 'last.json'))
    assert proc.returncode == 0, proc.stderr
    return db, last, tmp / 'last.json'
