'''The diagnosis JSON (microbench.cause.diagnosis_json): a document the
writer made (an event of nights made from a real recorded night, classed
against a real A/B JSON: tests/cause/diagnose_cases.py) read back whole;
every member missing, of the wrong kind or outside its vocabulary, every
number replaced by what the writer never writes, every mutation of
tests/helpers/mutations.py and values made by Hypothesis put into any
member: each file is read right or rejected in one line naming the file
(and the member), never another exception.  The event's cause from its
members' (microbench.cause.diagnose.cause_of).'''

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.cause import diagnose, diagnosis_json

from diagnose_cases import bed_of, diagnosis_of
import json_doors
from json_doors import MUTATIONS, NOT_WRITTEN, VALUES, finite, numbers
from witness_tally import COUNTS, PROPERTIES, dump, one_line

READER = 'diagnosis JSON (diagnosis_json.read)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


@pytest.fixture(scope='module')
def document(tmp_path_factory):
    _, verdicts, _ = bed_of(str(tmp_path_factory.mktemp('format')))
    return diagnosis_of(verdicts)


@pytest.fixture(scope='module')
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp('cases')


def read_text(tmp, text):
    where = tmp / 'ev-0123456789ab.json'
    where.write_bytes(text if isinstance(text, bytes) else text.encode())
    return diagnosis_json.read(str(where))


def outcome(tmp, text, member=None):
    try:
        found = read_text(tmp, text)
    except diagnosis_json.FormatError as err:
        said = str(err)
        one_line(said)
        assert said.startswith(f'{tmp / "ev-0123456789ab.json"}: '), said
        if member is not None:
            assert member in said, said
        COUNTS[READER, 'rejected'] += 1
        return 'rejected'
    raw = text.decode() if isinstance(text, bytes) else text
    assert found.doc == json.loads(raw) and finite(found.doc)
    COUNTS[READER, 'read right'] += 1
    return 'read right'


def test_the_writer_and_the_reader_agree(document, tmp_path):
    written = diagnosis_json.write(str(tmp_path), document)
    assert written == str(tmp_path / f'{document["event"]}.json')
    found = diagnosis_json.read(written)
    assert found.doc == document and found.event == document['event']
    assert found.label == diagnosis_json.label(found.cause)
    assert found.summary()['figures'][0]['check'] == 'fio_cache_flags'


@pytest.mark.parametrize('cause, label', [
    ('software (by experiment)', 'software (by experiment)'),
    ('not reproduced', 'not reproduced (by experiment)'),
    ('inconclusive', 'inconclusive (by experiment)')])
def test_the_label_of_a_cause(cause, label):
    assert diagnosis_json.label(cause) == label


def changed(document, change):
    doc = json.loads(json.dumps(document))
    change(doc)
    return json.dumps(doc)


@pytest.mark.parametrize('change, said', [
    (lambda d: d.pop('cause'), "the document has no member 'cause'"),
    (lambda d: d.update(version=2), 'version 2; this microbench reads '
                                    'version 1'),
    (lambda d: d.update(format='microbench ab'), 'not the JSON of '
                                                 'microbench diagnosis'),
    (lambda d: d.update(cause='the weather'), "cause is 'the weather', not "
                                              'one of software'),
    (lambda d: d.update(label='not reproduced (by experiment)'
                        if d['cause'] != 'not reproduced'
                        else 'machine (by experiment)'), 'label is '),
    (lambda d: d.update(event='ev-XYZ'), "event is 'ev-XYZ', not an "
                                         "event's fingerprint"),
    (lambda d: d.update(aa='no'), "aa is 'no', not true or false"),
    (lambda d: d['stacks'].pop('B'), "stacks has no stack 'B'"),
    (lambda d: d['stacks']['A'].pop('text'), "stacks.A has no member "
                                             "'text'"),
    (lambda d: d['verdicts'].update(kind='weekly'), 'verdicts.kind is '),
    (lambda d: d['ab'].update(pairs_run=1.5), 'ab.pairs_run is 1.5, not '
                                              'an integer'),
    (lambda d: d['ab'].update(nodes=[3]), 'ab.nodes[0] is 3'),
    (lambda d: d['figures'][0].update(verdict='worse'),
     "figures[0].verdict is 'worse'"),
    (lambda d: d['figures'][0].update(cause='both'),
     "figures[0].cause is 'both'"),
    (lambda d: d['figures'][0].update(ratio='0.8'),
     "figures[0].ratio is '0.8', not a number or null"),
    (lambda d: d['left_out'].append({'check': 'x'}),
     "left_out[0] has no member 'why'"),
])
def test_what_is_not_a_diagnosis_is_one_line(document, tmp_path, change,
                                             said):
    assert outcome(tmp_path, changed(document, change), said) == 'rejected'


def test_every_member_missing(document, tmp_path):
    for name in diagnosis_json.TOP:
        text = changed(document, lambda d, name=name: d.pop(name))
        said = {'format': 'format', 'version': 'version'}.get(name, repr(name))
        assert outcome(tmp_path, text, said) == 'rejected'


def test_not_json_and_not_an_object(tmp_path):
    assert outcome(tmp_path, 'not json', 'not JSON') == 'rejected'
    assert outcome(tmp_path, '[1, 2]', 'not an object') == 'rejected'


def test_every_number_replaced_by_what_the_writer_never_writes(document,
                                                              tmp_path):
    doc = json.loads(json.dumps(document))
    places = list(numbers(doc))
    assert len(places) >= 10
    for member, parent, key in places:
        saved = parent[key]
        parent[key] = '@@number@@'
        text = json.dumps(doc)
        parent[key] = saved
        for token in NOT_WRITTEN:
            assert outcome(tmp_path, text.replace('"@@number@@"', token),
                           member) == 'rejected'


@pytest.mark.parametrize('mutation', MUTATIONS)
@PROPERTIES
@given(st.data())
def test_a_mutated_diagnosis_is_read_right_or_rejected(document, scratch,
                                                       mutation, data):
    original = (json.dumps(document, indent=1) + '\n').encode()
    how, mutated = json_doors.mutated(data.draw, original, mutation)
    note(how)
    outcome(scratch, mutated)


@PROPERTIES
@given(st.data(), VALUES)
def test_any_value_in_any_member(document, scratch, data, value):
    doc = json.loads(json.dumps(document))
    places = [(doc, key) for key in doc] + [
        (doc['figures'][0], key) for key in doc['figures'][0]] + [
        (doc['stacks']['A'], key) for key in doc['stacks']['A']]
    parent, key = data.draw(st.sampled_from(places))
    parent[key] = value
    try:
        text = json.dumps(doc)
    except ValueError:
        return
    outcome(scratch, text)


def test_the_diagnoses_of_a_directory(document, tmp_path):
    written = diagnosis_json.write(str(tmp_path), document)
    other = json.loads(json.dumps(document))
    other['event'] = 'ev-0000000000aa'
    (tmp_path / 'ev-0000000000bb.json').write_text(json.dumps(other))
    (tmp_path / 'ev-0000000000cc.json').write_text('{')
    events = [{'fingerprint': document['event']},
              {'fingerprint': 'ev-0000000000bb'},
              {'fingerprint': 'ev-0000000000cc'},
              {'fingerprint': 'ev-0000000000dd'}]
    warnings = diagnosis_json.attach(events, str(tmp_path))
    assert events[0]['diagnosis']['path'] == written
    assert [event['diagnosis'] for event in events[1:]] == [None] * 3
    assert len(warnings) == 2
    for line in warnings:
        one_line(line)
    assert 'the diagnosis of ev-0000000000aa, not of the event its file ' \
           'names' in warnings[0]
    assert 'ev-0000000000cc.json: not JSON' in warnings[1]
    assert diagnosis_json.attach(events, str(tmp_path / 'none')) == []


def row(cause):
    return {'cause': cause, 'why': f'why {cause}', 'check': 'c',
            'variant': 'v', 'figure': 'f'}


@pytest.mark.parametrize('causes, event', [
    (['software (by experiment)'] * 2, 'software (by experiment)'),
    (['machine (by experiment)', 'inconclusive'], 'machine (by experiment)'),
    (['inconclusive'], 'inconclusive'),
    (['inconclusive', 'inconclusive'], 'inconclusive'),
    (['software (by experiment)', 'machine (by experiment)'],
     'inconclusive'),
    (['not reproduced', 'not reproduced'], 'not reproduced'),
])
def test_the_events_cause_from_its_members(causes, event):
    cause, why = diagnose.cause_of([row(c) for c in causes])
    assert cause == event
    one_line(why)
    if len(set(causes) - {'inconclusive'}) > 1:
        assert why.startswith('the members disagree: 1 software (by '
                              'experiment), 1 machine (by experiment)')
