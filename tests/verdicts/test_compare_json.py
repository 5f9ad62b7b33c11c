'''The compare JSON as a format: one module writes and reads it; a
document round-trips; an older or newer version, a missing member or one
of the wrong type is one line naming the file and what is wrong; NaN is
written as null (JSON any tool reads).'''

import json
import math
import subprocess

import pytest

from microbench.verdicts import compare, compare_json, figures, storage

from changes import CHANGE, drop, history
from nights import MICROBENCH


@pytest.fixture(scope='module')
def doc():
    frame = figures.frame(history(CHANGE + 1, drop(0.5)))
    made, _, _ = compare.last(frame, found=[])
    return made


def test_a_document_round_trips(doc, tmp_path):
    path = tmp_path / 'verdicts.json'
    compare_json.write(str(path), doc)
    found = compare_json.read(str(path))
    assert found.doc == doc
    assert found.kind == 'nightly' and found.exit_code == 1
    assert found.session == doc['sessions'][0]
    assert found.judges(found.session) and not found.judges('other')
    assert len(found.by_key()) == len(doc['figures'])
    assert doc['counts'] == {'regression': 1, 'unchanged': 12}
    text = path.read_text()
    assert 'NaN' not in text and \
        json.loads(text)['version'] == compare_json.VERSION


def _broken(doc, tmp_path, change):
    data = json.loads(json.dumps(doc))
    change(data)
    path = tmp_path / 'broken.json'
    path.write_text(json.dumps(data))
    with pytest.raises(compare_json.FormatError) as err:
        compare_json.read(str(path))
    line = str(err.value)
    assert line.startswith(f'{path}: ') and '\n' not in line
    return line


def _old(data):
    for name in ('format', 'version', 'kind', 'session', 'sessions'):
        data.pop(name)


@pytest.mark.parametrize('change, said', [
    (_old, 'the JSON of an older microbench compare (version 1, no format '
           'member): make it again'),
    (lambda d: d.update(version=8), 'version 8; this microbench reads '
                                    'version 7'),
    (lambda d: d.update(version=3), 'version 3; this microbench reads '
                                    'version 7'),
    (lambda d: d['nodes'].append({'partition': 'p:q'}),
     "nodes[0]: no member 'tag'"),
    (lambda d: d['behaviour'].append({'verdict': 'worse'}),
     "behaviour[0]: no member 'system'"),
    (lambda d: d['figures'][0]['reasons'].append({'kind': 'mood',
                                                  'text': 'x'}),
     "reasons[1]: kind 'mood' is not one of statistics"),
    (lambda d: d['figures'][0]['reasons'].append({'kind': 'event'}),
     "reasons[1]: no member 'text'"),
    # version 3: no diagnosis of an event
    (lambda d: d['events'][0].pop('diagnosis'),
     "events[0]: no member 'diagnosis'"),
    # version 2: no cold start of a figure
    (lambda d: d['figures'][0].pop('cold_start'),
     "no member 'cold_start'"),
    (lambda d: d.pop('session'), "no member 'session'"),
    (lambda d: d['figures'][0].update(verdict='bad'),
     "verdict 'bad' is not one of regression"),
    (lambda d: d['figures'][0].update(ratio='1.2'),
     "ratio is '1.2', not a number or null"),
    (lambda d: d['figures'][0]['change_points'].append({'session': 'x'}),
     "change_points[0]: no member 'date'"),
    (lambda d: d.update(kind='weekly'), "kind 'weekly' is not one of"),
    (lambda d: d['events'][0].pop('members'), "events[0]: no member "
                                              "'members'"),
])
def test_what_is_not_a_document_is_one_line(doc, tmp_path, change, said):
    assert said in _broken(doc, tmp_path, change)


def test_not_json_and_not_an_object(tmp_path):
    for text, said in (('{"figures": [', 'not JSON'),
                       ('[1, 2]', 'not an object'),
                       ('{"figures": 3}', 'no format')):
        path = tmp_path / 'x.json'
        path.write_text(text)
        with pytest.raises(compare_json.FormatError, match=said):
            compare_json.read(str(path))


def test_plain_values():
    import numpy as np

    assert compare_json.plain({'a': np.float64('nan'), 'b': np.int64(3),
                               'c': (1.5, math.inf)}) == \
        {'a': None, 'b': 3, 'c': [1.5, None]}


@pytest.fixture(scope='module')
def stored(tmp_path_factory):
    '''A results storage of the nights of :func:`doc`'s history, and the
    compare JSON of its last night made old (version 1: no format).'''
    tmp = tmp_path_factory.mktemp('old')
    db = tmp / 'results.db'
    for report in history(CHANGE + 1, drop(0.5)):
        storage.store(str(db), report)
    made = subprocess.run([MICROBENCH, '--db', str(db), 'compare', '--last',
                           '--json', str(tmp / 'new.json')],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 1, made.stderr
    data = json.loads((tmp / 'new.json').read_text())
    _old(data)
    (tmp / 'old.json').write_text(json.dumps(data))
    return tmp, db


@pytest.mark.parametrize('command', [
    ['report', '-o', 'out'], ['weather', '-o', 'out'],
    ['export', '--openmetrics', 'out.txt'],
    ['confirm', '--report-file', 'r.json', '--', 'false']])
def test_each_reader_refuses_an_older_json_in_one_line(stored, command):
    tmp, db = stored
    proc = subprocess.run([MICROBENCH, '--db', str(db), command[0],
                           '--verdicts', str(tmp / 'old.json'),
                           *command[1:]], capture_output=True, text=True,
                          timeout=300, cwd=tmp)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    line, = proc.stderr.splitlines()
    assert line.startswith(f'microbench {command[0]}: error: ')
    assert 'the JSON of an older microbench compare (version 1' in line
    assert not (tmp / 'out').exists() and not (tmp / 'out.txt').exists()


def test_a_version_4_document_is_read_with_its_why_as_its_reason(doc,
                                                                 tmp_path):
    '''Last night's file, written before figures had reasons, still
    reads: each figure's ``why`` is its one reason.'''
    data = json.loads(json.dumps(doc))
    data['version'] = 4
    data.pop('behaviour')
    for row in data['figures']:
        row.pop('reasons')
    path = tmp_path / 'v4.json'
    path.write_text(json.dumps(data))
    found = compare_json.read(str(path))
    assert found.doc['version'] == compare_json.VERSION
    for row in found.figures:
        assert row['reasons'] == [{'kind': 'statistics', 'text': row['why']}]


def test_every_figure_is_written_with_its_reasons(doc):
    for row in doc['figures']:
        assert row['reasons'] and row['reasons'][-1]['kind'] == 'statistics'
        assert row['why'] == '; '.join(item['text']
                                       for item in row['reasons'])


def test_a_version_5_document_is_read_with_no_behaviour(doc, tmp_path):
    '''Last night's file, written before counted figures, still reads:
    its ``behaviour`` is empty.'''
    data = json.loads(json.dumps(doc))
    data['version'] = 5
    data.pop('behaviour')
    path = tmp_path / 'v5.json'
    path.write_text(json.dumps(data))
    found = compare_json.read(str(path))
    assert found.doc['version'] == compare_json.VERSION
    assert found.doc['behaviour'] == []
