'''Multi-node runs read per node (issue 45, item 4) through storage,
compare, report, weather and export: a real session of the Slurm test
cluster, 4 nodes, IOR's easy shape with O_DIRECT with one rank a node, and
elbencho with a service a node, mbnode2's writes throttled
(tests/data/multinode/throttled.json), as the last of a partition's
nights; the nights before it its clean copies (their per-node figures
left out) and a real clean session of elbencho alone
(tests/data/multinode/clean.json).  The throttled node is named, with the
figure it is slow in and its drain command; the clean session names none.
Bad input: a per-node value that does not decode, too few nodes.'''

import copy
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from microbench import fields
from microbench.nodes import multinode, outliers
from microbench.verdicts import compare_json, figures, nightly, storage

import exported
from fixtures import text
from nights import night

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
SYSTEM = 'slurm_testbed:shared'
SLOW = 'mbnode2'


def report(name):
    return json.loads(text(f'multinode/{name}.json'))


def the_day_before(made, other):
    '''``made`` (a copy) as the session a day before ``other``: the clean
    session was recorded after the throttled one.'''
    made = copy.deepcopy(made)
    info = made['session_info']
    length = info['time_end_unix'] - info['time_start_unix']
    info['time_start_unix'] = other['session_info']['time_start_unix'] - \
        86400
    info['time_end_unix'] = info['time_start_unix'] + length
    return made


def without_node_figures(made):
    for case in made['runs'][-1]['testcases']:
        case[multinode.COLUMN] = ''
    return made


@pytest.fixture(scope='module')
def bed(tmp_path_factory):
    '''The nights' storage: nights made of the clean session without
    their per-node figures, the real clean session, then the real
    throttled one; compare --last's JSON and text.'''
    folder = tmp_path_factory.mktemp('multinode')
    rng = np.random.default_rng(45)
    clean = report('clean')
    for index in range(nightly.MIN_NIGHTS):
        made = without_node_figures(night(clean, index, rng))
        made['session_info'].update(kind=figures.NIGHTLY,
                                    tag=f'night-{index}')
        storage.store(str(folder / 'results.db'), made)
    throttled = report('throttled')
    for name, made in (('clean', the_day_before(clean, throttled)),
                       ('throttled', throttled)):
        made['session_info'].update(kind=figures.NIGHTLY, tag=name)
        storage.store(str(folder / 'results.db'), made)
    verdicts = folder / 'last.json'
    proc = microbench(folder, 'compare', '--last', '--json', str(verdicts))
    assert proc.returncode in (0, 1), proc.stderr
    return folder, verdicts, proc.stdout


def microbench(folder, *args):
    return subprocess.run(
        [MICROBENCH, '--db', str(folder / 'results.db'), *args],
        capture_output=True, text=True, timeout=600)


def judged(*sessions):
    '''The newest night of multi-node runs of ``sessions`` (reports, or
    the names of the data's), judged.'''
    frame = figures.frame([report(made) if isinstance(made, str) else made
                           for made in sessions])
    return multinode.newest(frame)[SYSTEM]


def test_the_throttled_node_and_only_it_is_slow():
    found = judged('throttled')
    assert found.slow() == [SLOW], multinode.vetting.text(found)
    assert found.failed_nodes() == []
    results = {result.figure: result for result in
               found.judged.nodes[SLOW].results}
    direct = results['ior_page_cache easy.odirect write']
    assert direct.state == outliers.SLOW and direct.ratio < 0.5
    assert direct.describe().startswith(
        f'{SLOW}: ior_page_cache easy.odirect write 0.')
    assert found.drains()[SLOW].startswith(
        f'scontrol update nodename={SLOW} state=drain reason="')
    for node in ('mbnode1', 'mbnode3', 'mbnode4'):
        assert found.judged.nodes[node].state != outliers.SLOW


def test_the_clean_session_names_no_node():
    found = judged('clean')
    assert found.slow() == [] and found.failed_nodes() == []
    assert sorted(found.judged.nodes) == ['mbnode1', 'mbnode2', 'mbnode3',
                                          'mbnode4']


def test_the_clean_night_before_is_the_second_witness():
    throttled = report('throttled')
    found = judged(the_day_before(report('clean'), throttled), throttled)
    assert found.persistence[SLOW] == 'slow tonight only'


def test_compare_says_the_slow_node_in_text_and_json(bed):
    _, verdicts, text = bed
    doc = compare_json.read(str(verdicts)).doc
    said, = [entry for entry in doc['nodes']
             if entry['tag'].startswith(multinode.PREFIX)]
    assert said['partition'] == SYSTEM and said['slow'] == [SLOW]
    assert f'nodes of {SYSTEM} (multi-node runs of session-' in text
    assert f'    {SLOW}: ior_page_cache easy.odirect write 0.' in text


def test_the_report_the_weather_and_the_export_name_it(bed, tmp_path):
    folder, verdicts, _ = bed
    proc = microbench(folder, 'report', '-o', str(tmp_path / 'r'),
                      '--verdicts', str(verdicts))
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / 'r' / 'report.html').read_text()
    section = page[page.index('<section id="nodes">'):]
    assert 'multi-node runs of session-' in section
    assert f'<td class="regression">{SLOW}</td>' in section
    proc = microbench(folder, 'weather', '-o', str(tmp_path / 'w'),
                      '--verdicts', str(verdicts))
    assert proc.returncode == 0, proc.stderr
    assert f'node {SLOW} slower than its peers' in \
        (tmp_path / 'w' / 'weather.html').read_text()
    families = exported.export_families(
        lambda *args: microbench(folder, *args), verdicts,
        tmp_path / 'nodes.txt')
    slow = {sample.labels['node']: sample.value
            for sample in families['microbench_node_slow'].samples
            if sample.labels['night'].startswith(multinode.PREFIX)}
    assert slow == {'mbnode1': 0, 'mbnode2': 1, 'mbnode3': 0, 'mbnode4': 0}


def test_a_value_that_does_not_decode_is_left_out():
    made = copy.deepcopy(report('throttled'))
    case = next(case for case in made['runs'][-1]['testcases']
                if case.get(multinode.COLUMN))
    found = fields.NODE_FIGURES.read(case[multinode.COLUMN])
    case[multinode.COLUMN] += ';write_median_mib_s@=1;x@mbnode1=oops;' \
                              'write_median_mib_s=3;junk'
    rows = multinode.node_rows(figures.frame([made]))
    mine = rows[(rows['check'] == case['display_name'].split()[0])
                & (rows['variant'] == case['variant'])]
    assert len(mine) == len(found)


def test_too_few_nodes_are_not_judged():
    made = copy.deepcopy(report('throttled'))
    for case in made['runs'][-1]['testcases']:
        kept = {name: values for name, values in fields.NODE_FIGURES.read(
            case.get(multinode.COLUMN)).items()
            if name.endswith(('@mbnode1', '@mbnode2'))}
        case[multinode.COLUMN] = fields.NODE_FIGURES.encode(kept)
    found = multinode.newest(figures.frame([made]))[SYSTEM]
    assert found.slow() == []
    states = {verdict.state for verdict in found.judged.nodes.values()}
    assert states == {outliers.UNJUDGED}
