'''The A/B JSON reader (microbench.cause.ab_json.read) against every
input: the document the writer made of the real fio sessions' rounds
(tests/cause/ab_cases.py), every number in it replaced by what the writer
never writes (``NaN``, ``Infinity``, ``-Infinity``, ``1e400``, an integer
of 400 digits), every mutation of tests/helpers/mutations.py, and values
made by Hypothesis put into any member.

Each file is read right (exactly what a standard JSON reader reads, every
number finite) or rejected in one line naming the file (and the member);
never another exception.'''

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.cause import ab_json

from ab_cases import real_document
import json_doors
from json_doors import MUTATIONS, NOT_WRITTEN, VALUES, finite, numbers
from witness_tally import COUNTS, PROPERTIES, dump, one_line

READER = 'A/B JSON (ab_json.read)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


@pytest.fixture(scope='module')
def document():
    '''The text of the document the writer made.'''
    doc, _ = real_document()
    return ab_json.dumps(doc)


@pytest.fixture(scope='module')
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp('cases')


def read_text(tmp, found_text):
    where = tmp / 'ab.json'
    where.write_bytes(found_text if isinstance(found_text, bytes)
                      else found_text.encode())
    return ab_json.read(str(where))


def outcome(tmp, found_text, member=None):
    '''Read ``found_text``: right (what json reads, finite), or rejected in
    one line naming the file (and ``member``); the outcome's name.'''
    try:
        found = read_text(tmp, found_text)
    except ab_json.FormatError as err:
        said = str(err)
        one_line(said)
        assert said.startswith(f'{tmp / "ab.json"}: '), said
        if member is not None:
            assert f': {member} is ' in said, said
        COUNTS[READER, 'rejected'] += 1
        return 'rejected'
    text = found_text.decode() if isinstance(found_text, bytes) \
        else found_text
    assert found.doc == json.loads(text) and finite(found.doc)
    COUNTS[READER, 'read right'] += 1
    return 'read right'


def test_the_document_is_read_right(document, tmp_path):
    assert outcome(tmp_path, document) == 'read right'


def test_every_number_replaced_by_what_the_writer_never_writes(document,
                                                              tmp_path):
    doc = json.loads(document)
    places = list(numbers(doc))
    assert len(places) > 200
    for member, parent, key in places:
        saved = parent[key]
        parent[key] = '@@number@@'
        found_text = json.dumps(doc)
        parent[key] = saved
        for token in NOT_WRITTEN:
            assert outcome(tmp_path, found_text.replace('"@@number@@"',
                                                        token),
                           member) == 'rejected'


@pytest.mark.parametrize('mutation', MUTATIONS)
@PROPERTIES
@given(st.data())
def test_a_mutated_document_is_read_right_or_rejected(document, scratch,
                                                      mutation, data):
    original = document.encode()
    how, mutated = json_doors.mutated(data.draw, original, mutation)
    note(how)
    outcome(scratch, mutated)


def _members(node, where=''):
    '''(where, parent, key) of every member of ``node``, at any depth.'''
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        name = f'{where}[{key}]' if isinstance(key, int) else \
            (f'{where}.{key}' if where else key)
        yield name, node, key
        yield from _members(value, name)


@PROPERTIES
@given(VALUES, st.data())
def test_any_value_in_any_member_is_read_right_or_rejected(
        document, scratch, value, data):
    doc = json.loads(document)
    member, parent, key = data.draw(st.sampled_from(list(_members(doc))))
    parent[key] = value
    # json.dumps writes NaN and the infinities as the writer never does
    found_text = json.dumps(doc)
    note(f'{member} = {found_text[:200]}')
    outcome(scratch, found_text)


def test_a_wrong_value_in_each_named_member_is_rejected(document, tmp_path):
    '''A number where each member of the format's parts wants a text, a
    text where it wants anything else: rejected.'''
    doc = json.loads(document)
    kinds = {**ab_json.TOP, **ab_json.FIGURE, **ab_json.STACK,
             **ab_json.RULE, **ab_json.ROUND}
    cases = 0
    for member, parent, key in _members(doc):
        if not isinstance(key, str) or key not in kinds:
            continue
        saved = parent[key]
        parent[key] = 7 if kinds[key].startswith('str') else 'seven'
        found_text = json.dumps(doc)
        parent[key] = saved
        assert outcome(tmp_path, found_text) == 'rejected', member
        cases += 1
    assert cases > 300
