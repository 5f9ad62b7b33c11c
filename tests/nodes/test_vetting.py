'''A vetting night's per-node records through storage, compare, report,
weather and export, on real sessions: two vetting nights of the Slurm
test cluster's four nodes (tests/data/vetting: ``bench/node_plants.py``,
a clean night and one with mbnode1's slurmd throttled), and a history of
nights made from one node's real session (tests/helpers/nights.py, tagged
``kind=nightly`` as ci/nightly.sh tags its runs) in the nights' storage
beside them.

Wanted: the throttled node, and only it, slow on its night, said the
issue's way; the clean night clean; the vetting sessions never in the
nights' series; compare --last's text and JSON (version 7) naming the
node; the report's node map; the weather's line; the export's gauges;
the JSON of ``microbench nodes`` read back; a broken one refused in one
line.  Bad input: one node, an unknown night, no vetting storage.
'''

import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from microbench.nodes import nodes_json, outliers, vetting
from microbench.verdicts import compare_json, figures, nightly, storage

import exported
from fixtures import path
from nights import night

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
SYSTEM = 'slurm_testbed:node_local'
CLEAN, PLANTED = 'vetting-clean', 'vetting-planted'
SLOW = 'mbnode1'


def reports(tag):
    '''The real session reports of one vetting night, by node.'''
    out = {}
    for name in sorted(glob.glob(path(f'vetting/{tag}-*.json'))):
        with open(name) as fp:
            out[name.rsplit('-', 1)[1][:-5]] = json.load(fp)
    assert len(out) == 4, name
    return out


@pytest.fixture(scope='module')
def bed(tmp_path_factory):
    '''The nights' storage (16 nights of mbnode2's real clean session)
    and the vetting storage beside it (the two real vetting nights);
    compare --last's JSON of the last night.'''
    folder = tmp_path_factory.mktemp('vetting')
    rng = np.random.default_rng(45)
    source = reports(CLEAN)['mbnode2']
    for index in range(nightly.MIN_NIGHTS + 2):
        made = night(source, index, rng)
        # a night as ci/nightly.sh tags it, not a vetting session
        info = made['session_info']
        info.update(kind=figures.NIGHTLY, tag=f'night-{index}')
        info.pop(vetting.VETTED)
        storage.store(str(folder / 'results.db'), made)
    for tag in (CLEAN, PLANTED):
        for report in reports(tag).values():
            storage.store(str(folder / vetting.STORAGE), report)
    verdicts = folder / 'last.json'
    proc = microbench(folder, 'compare', '--last', '--json', str(verdicts))
    assert proc.returncode == 0, proc.stderr
    return folder, verdicts, proc.stdout


def microbench(folder, *args):
    return subprocess.run(
        [MICROBENCH, '--db', str(folder / 'results.db'), *args],
        capture_output=True, text=True, timeout=600)


def tag_of(name):
    '''The vetting night's tag (``vetting-<time>``) of the data's night
    ``name``.'''
    return reports(name)['mbnode1']['session_info']['tag']


def test_the_planted_node_and_only_it_is_slow(bed):
    folder, _, _ = bed
    db = str(folder / vetting.STORAGE)
    planted = vetting.judge(db, SYSTEM, tag_of(PLANTED))
    assert planted.slow() == [SLOW]
    assert planted.failed_nodes() == []
    verdict = planted.judged.nodes[SLOW]
    direct = next(result for result in verdict.results
                  if result.figure == 'fio_cache_flags direct write')
    assert direct.state == outliers.SLOW and direct.ratio < 0.5
    assert direct.describe().startswith(
        f'{SLOW}: fio_cache_flags direct write 0.')
    assert direct.describe().endswith(')') and '(4 nodes, MAD 0.' in \
        direct.describe()
    assert planted.persistence[SLOW] == 'slow tonight only'
    assert planted.drains()[SLOW].startswith(
        f'scontrol update nodename={SLOW} state=drain reason="microbench '
        f'vetting: ')
    clean = vetting.judge(db, SYSTEM, tag_of(CLEAN))
    assert clean.slow() == [] and clean.failed_nodes() == []


def test_a_node_asked_for_that_gave_nothing_is_failed_not_slow(bed):
    folder, _, _ = bed
    db = str(folder / vetting.STORAGE)
    found = vetting.judge(db, SYSTEM, tag_of(CLEAN),
                          asked=['mbnode1', 'mbnode2', 'mbnode3', 'mbnode4',
                                 'mbnode5'],
                          failed={'mbnode5': 'reframe exited 1'})
    assert found.failed_nodes() == ['mbnode5']
    assert found.slow() == []
    assert found.alarming()
    assert 'mbnode5: failed: reframe exited 1' in vetting.text(found)


def test_the_vetting_sessions_are_not_in_the_nights_series(bed):
    folder, _, _ = bed
    nights = figures.load(figures.ALL, str(folder / 'results.db'))
    assert set(nights['kind']) == {figures.NIGHTLY}
    assert len(set(nights['session'])) == nightly.MIN_NIGHTS + 2


def test_compare_says_the_slow_node_in_text_and_json(bed):
    folder, verdicts, text = bed
    doc = compare_json.read(str(verdicts)).doc
    assert doc['version'] == compare_json.VERSION == 7
    said, = doc['nodes']
    assert said['partition'] == SYSTEM and said['slow'] == [SLOW]
    node = next(item for item in said['nodes'] if item['node'] == SLOW)
    assert node['drain'].startswith(f'scontrol update nodename={SLOW} ')
    assert f'nodes of {SYSTEM} (vetting night ' in text
    assert f'  {SLOW}: slow tonight only' in text
    assert f'    {SLOW}: fio_cache_flags direct write 0.' in text


def test_a_version_6_document_is_read_without_nodes(bed, tmp_path):
    _, verdicts, _ = bed
    doc = json.loads(verdicts.read_text())
    doc['version'] = 6
    del doc['nodes']
    old = tmp_path / 'v6.json'
    old.write_text(json.dumps(doc))
    assert compare_json.read(str(old)).doc['nodes'] == []


def test_the_report_has_a_node_map(bed, tmp_path):
    folder, verdicts, _ = bed
    proc = microbench(folder, 'report', '-o', str(tmp_path), '--verdicts',
                      str(verdicts))
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / 'report.html').read_text()
    section = page[page.index('<section id="nodes">'):]
    assert f'<td class="regression">{SLOW}</td>' in section
    assert section.count('<tr>') == 1 + 4


def test_the_weather_names_the_slow_node(bed, tmp_path):
    folder, verdicts, _ = bed
    proc = microbench(folder, 'weather', '-o', str(tmp_path), '--verdicts',
                      str(verdicts))
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / 'weather.html').read_text()
    assert f'node {SLOW} slower than its peers' in page


def test_the_export_has_the_node_gauges(bed, tmp_path):
    folder, verdicts, _ = bed
    families = exported.export_families(
        lambda *args: microbench(folder, *args), verdicts,
        tmp_path / 'nodes.txt')
    slow = {sample.labels['node']: sample.value
            for sample in families['microbench_node_slow'].samples}
    assert slow == {'mbnode1': 1, 'mbnode2': 0, 'mbnode3': 0, 'mbnode4': 0}
    ratios = [sample for sample in families['microbench_node_ratio'].samples
              if sample.labels['node'] == SLOW and sample.labels['figure']
              == 'fio_cache_flags direct write']
    assert len(ratios) == 1 and ratios[0].value < 0.5
    assert ratios[0].labels['state'] == 'slow'


def test_the_nodes_json_round_trips_and_refuses_a_broken_one(bed, tmp_path):
    folder, _, _ = bed
    out = tmp_path / 'night.json'
    proc = microbench(folder, 'nodes', '--partition', SYSTEM, '--json',
                      str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = nodes_json.read(str(out))
    assert [item['node'] for item in doc['nodes']
            if item['state'] == 'slow'] == [SLOW]
    doc['nodes'][0]['state'] = 'sluggish'
    out.write_text(json.dumps(doc))
    with pytest.raises(nodes_json.FormatError, match=r"nodes\[0\]\.state "
                       r"is 'sluggish', not one of slow"):
        nodes_json.read(str(out))
    out.write_text('{"format": "microbench vetting", "version": 2}')
    with pytest.raises(nodes_json.FormatError, match='version 2'):
        nodes_json.read(str(out))


def test_bad_input_is_one_line(bed, tmp_path):
    folder, _, _ = bed
    proc = microbench(folder, 'nodes', '--partition', SYSTEM, 'vetting-x')
    assert proc.returncode == 2
    assert proc.stderr.startswith('microbench nodes: error: no vetting '
                                  'night vetting-x in the results storage ')
    assert proc.stderr.strip().endswith('(vetting nights: '
                                        'vetting-20261128T140230, '
                                        'vetting-20261128T140620)')
    proc = microbench(tmp_path, 'nodes', '--partition', SYSTEM)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f'microbench nodes: error: no vetting night of {SYSTEM} in the '
        f'results storage {tmp_path / vetting.STORAGE} (microbench vet '
        f'makes one)')
