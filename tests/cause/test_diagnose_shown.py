'''An event's cause by experiment where people read it: a results storage
of nights made from a real recorded night (tests/cause/diagnose_cases.py:
the last night on another stack, its O_DIRECT write figure halved: one
event), its diagnosis classed against a real A/B JSON
(tests/data/ab/fio_cache_flags-ab-342.json) and kept in ``diagnoses/``
beside the storage.  Then

- ``compare --last`` says ``cause: <label>`` on the event's line and each
  member's A/B figure under it, and its JSON's event carries the
  diagnosis (format version 4); without the diagnosis, neither;
- the report's events table, the weather page's news line and the
  export (``microbench_event_cause``, ``microbench_event_ab_ratio``) show
  it from that JSON;
- a diagnosis file that is not one is one warning line, and the event has
  none.
'''

import json
import os
import re
import subprocess

import pytest

from microbench.cause import diagnosis_json
from microbench.verdicts import compare_json

from diagnose_cases import bed_of, diagnosis_of
from nights import MICROBENCH


def microbench(db, *args):
    return subprocess.run([MICROBENCH, '--db', db, *args],
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope='module')
def diagnosed(tmp_path_factory):
    '''(storage, compare JSON with the diagnosis, its text, the
    diagnosis).'''
    root = str(tmp_path_factory.mktemp('shown'))
    db, verdicts, _ = bed_of(root)
    doc = diagnosis_of(verdicts)
    diagnosis_json.write(os.path.join(root, 'diagnoses'), doc)
    again = os.path.join(root, 'again.json')
    proc = microbench(db, 'compare', '--last', '--json', again)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == '', proc.stderr
    return db, again, proc.stdout, doc


def test_compare_says_the_cause_and_the_ab_figures(diagnosed):
    _, _, text, doc = diagnosed
    event = next(line for line in text.splitlines()
                 if line.startswith(f'event {doc["event"]}: '))
    assert event.endswith(f'the suite or software changed; cause: '
                          f'{doc["label"]}')
    assert f'    cause: {doc["label"]}: {doc["why"]}' in text
    row = doc['figures'][0]
    assert re.search(rf'      A/B fio_cache_flags direct write_median_mib_s: '
                     rf'{re.escape(row["label"])}, B/A '
                     rf'{row["ratio"]:.3f} \[[0-9.]+, [0-9.]+\]: '
                     rf'{re.escape(row["cause"])}', text), text


def test_the_compare_json_event_carries_the_diagnosis(diagnosed):
    _, again, _, doc = diagnosed
    event, = compare_json.read(again).events
    found = event['diagnosis']
    assert found['cause'] == doc['cause'] and found['label'] == doc['label']
    assert found['stacks'] == {'A': 'night-before', 'B': 'tonight'}
    assert [row['ratio'] for row in found['figures']] == \
        [row['ratio'] for row in doc['figures']]
    assert json.load(open(again))['version'] == compare_json.VERSION


def test_without_a_diagnosis_the_event_has_none(tmp_path):
    db, verdicts, _ = bed_of(str(tmp_path))
    event, = compare_json.read(verdicts).events
    assert event['diagnosis'] is None
    proc = microbench(db, 'compare', '--last')
    assert 'cause:' not in proc.stdout


def test_a_diagnosis_that_is_not_one_is_one_warning(tmp_path):
    db, verdicts, _ = bed_of(str(tmp_path))
    event, = compare_json.read(verdicts).events
    bad = tmp_path / 'diagnoses' / f'{event["fingerprint"]}.json'
    bad.parent.mkdir()
    bad.write_text('{"format": "microbench diagnosis", "version": 7}')
    proc = microbench(db, 'compare', '--last', '--json', verdicts)
    assert proc.returncode == 1
    warning, = proc.stderr.strip().splitlines()
    assert warning == (f'microbench compare: warning: diagnoses: {bad}: the '
                       f'JSON of microbench diagnosis version 7; this '
                       f'microbench reads version 1: left out')
    assert compare_json.read(verdicts).events[0]['diagnosis'] is None


def test_the_report_shows_the_cause(diagnosed, tmp_path):
    db, again, _, doc = diagnosed
    proc = microbench(db, 'report', '-o', str(tmp_path), '--verdicts', again)
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / 'report.html').read_text()
    section = page[page.index('<section id="events">'):]
    section = section[:section.index('</section>')]
    assert f'cause: {doc["label"]}' in section
    assert 'A/B of night-before (the night before) and tonight' in section


def test_the_weather_says_the_cause(diagnosed, tmp_path):
    db, again, _, doc = diagnosed
    proc = microbench(db, 'weather', '-o', str(tmp_path), '--verdicts',
                      again)
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / 'weather.html').read_text()
    assert f'; cause: {doc["label"]}' in page


def test_the_export_says_the_cause_and_the_ab_ratios(diagnosed, tmp_path):
    db, again, _, doc = diagnosed
    out = tmp_path / 'metrics.txt'
    proc = microbench(db, 'export', '--verdicts', again, '--openmetrics',
                      str(out))
    assert proc.returncode == 0, proc.stderr
    samples = metrics(out.read_text())
    assert samples['microbench_event_cause'] == [(
        {'system': 'local', 'partition': 'default', 'event': doc['event'],
         'cause': doc['label']}, 1.0)]
    row = doc['figures'][0]
    assert samples['microbench_event_ab_ratio'] == [(
        {'system': 'local', 'partition': 'default', 'event': doc['event'],
         'check': 'fio_cache_flags', 'variant': 'direct',
         'figure': 'write_median_mib_s', 'ab_verdict': row['label'],
         'cause': row['cause']}, pytest.approx(row['ratio']))]


def metrics(text):
    '''``{name: [(labels, value)]}`` of an OpenMetrics text (label
    values without escapes, as these are).'''
    out = {}
    for line in text.splitlines():
        found = re.fullmatch(r'(\w+)\{(.*)\} (\S+)( \S+)?', line)
        if found:
            labels = dict(re.findall(r'(\w+)="([^"]*)"', found[2]))
            out.setdefault(found[1], []).append((labels, float(found[3])))
    return out
