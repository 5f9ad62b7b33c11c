'''compare's JSON reader (microbench.verdicts.compare_json.read) against
every input: two documents the writer made (a night's verdicts with an
event and its change points; a pre-post comparison of the two real fio
sessions of tests/data/results), every number in them replaced by what
the writer never writes (``NaN``, ``Infinity``, ``-Infinity``, ``1e400``,
an integer of 400 digits), every mutation of tests/helpers/mutations.py,
and values made by Hypothesis put into any member.

Each file is read right (exactly what a standard JSON reader reads, every
number finite) or rejected in one line naming the file (and the member);
never another exception.'''

import json
import re
import subprocess

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.verdicts import compare, compare_json, figures, storage

from changes import CHANGE, drop, history
from fixtures import path
import json_doors
from json_doors import MUTATIONS, NOT_WRITTEN, VALUES, finite, numbers
from nights import MICROBENCH
from witness_tally import COUNTS, PROPERTIES, dump, holds, one_line

READER = 'compare JSON (compare_json.read)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


@pytest.fixture(scope='module')
def documents(tmp_path_factory):
    '''{name: the text of a document the writer made}.'''
    tmp = tmp_path_factory.mktemp('compare')
    frame = figures.frame(history(CHANGE + 1, drop(0.5)))
    nightly, _, _ = compare.last(frame, found=[])
    db = tmp / 'results.db'
    for number in (1, 2):
        with open(path(f'results/fio-quick-{number}.json')) as fp:
            storage.store(str(db), json.load(fp))
    made = subprocess.run([MICROBENCH, '--db', str(db), 'compare',
                           '?tag=="dev1"', '?tag=="dev2"', '--json',
                           str(tmp / 'prepost.json')], capture_output=True,
                          text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    return {'nightly': _fixed(compare_json.dumps(nightly)),
            'pre-post': _fixed((tmp / 'prepost.json').read_text())}


#: A session's UUID, or an event's fingerprint (a hash of sessions)
_NEW = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-'
                  r'[0-9a-f]{12}|ev-[0-9a-f]{12}')


def _fixed(found_text):
    '''``found_text`` with its sessions' UUIDs and events' fingerprints
    (new on every run) made the same on every run, in the order they
    appear, each of the same length: the same cases, and the same counts,
    every run.'''
    names = {}
    for found in _NEW.findall(found_text):
        number = f'{len(names):012d}'
        names.setdefault(found, f'ev-{number}' if found.startswith('ev-')
                         else f'00000000-0000-4000-8000-{number}')
    return _NEW.sub(lambda m: names[m[0]], found_text)


@pytest.fixture(scope='module')
def scratch(tmp_path_factory):
    '''A directory the property tests write each case into (one file,
    written again for every case).'''
    return tmp_path_factory.mktemp('cases')


def read_text(tmp, found_text):
    '''compare_json.read of ``found_text`` written to a file in ``tmp``.'''
    where = tmp / 'verdicts.json'
    where.write_bytes(found_text if isinstance(found_text, bytes)
                      else found_text.encode())
    return compare_json.read(str(where))


def read_right(found_text):
    def check(found):
        assert found.doc == json.loads(found_text)
        assert finite(found.doc)
    return check


def rejected_in_one_line(tmp, found_text, member=None):
    '''The one line the reader rejects ``found_text`` with, naming the
    file and (where given) ``member``.'''
    with pytest.raises(compare_json.FormatError) as err:
        read_text(tmp, found_text)
    said = str(err.value)
    one_line(said)
    assert said.startswith(f'{tmp / "verdicts.json"}: '), said
    if member is not None:
        assert f': {member} is ' in said, said
    COUNTS[READER, 'rejected'] += 1
    return said


def test_the_documents_are_read(documents, tmp_path):
    for found_text in documents.values():
        holds(READER, lambda data: read_text(tmp_path, data), found_text,
              read_right(found_text))


@pytest.mark.parametrize('name', ['nightly', 'pre-post'])
def test_every_number_replaced_by_what_the_writer_never_writes(
        documents, tmp_path, name):
    doc = json.loads(documents[name])
    places = list(numbers(doc))
    assert len(places) > 20
    for member, parent, key in places:
        saved = parent[key]
        parent[key] = '@@number@@'
        found_text = json.dumps(doc)
        parent[key] = saved
        for token in NOT_WRITTEN:
            said = rejected_in_one_line(
                tmp_path, found_text.replace('"@@number@@"', token), member)
            assert 'never NaN, an infinity or a number beyond' in said


@pytest.mark.parametrize('name', ['nightly', 'pre-post'])
@pytest.mark.parametrize('mutation', MUTATIONS)
@PROPERTIES
@given(st.data())
def test_a_mutated_document_is_read_right_or_rejected(documents, scratch,
                                                      name, mutation, data):
    original = documents[name].encode()
    how, mutated = json_doors.mutated(data.draw, original, mutation)
    note(how)

    def right(found):
        read_right(mutated.decode())(found)

    holds(READER, lambda raw: read_text(scratch, raw), mutated, right,
          rejected=(compare_json.FormatError,))


@PROPERTIES
@given(st.sampled_from(['nightly', 'pre-post']), VALUES, st.data())
def test_any_value_in_any_member_is_read_right_or_rejected(
        documents, scratch, name, value, data):
    doc = json.loads(documents[name])
    places = list(numbers(doc))
    member, parent, key = data.draw(st.sampled_from(places))
    parent[key] = value
    # json.dumps writes NaN and the infinities as the writer never does
    found_text = json.dumps(doc)
    note(f'{member} = {found_text[:200]}')
    try:
        found = read_text(scratch, found_text)
    except compare_json.FormatError as err:
        one_line(str(err))
        COUNTS[READER, 'rejected'] += 1
        return
    assert finite(value) and found.doc == json.loads(found_text)
    COUNTS[READER, 'read right'] += 1


@pytest.mark.parametrize('found_text, said', [
    ('[' * 100_000, 'not JSON'),
    ('{"a": ' + '9' * 5000 + '}', 'a is 999999999999...999999999999 '
                                  '(5000 characters)'),
    ('{"format": NaN}', 'format is NaN'),
    (b'{"format": "\xff"}', 'not JSON'),
    ('{"figures": [{"ratio": Infinity}]}', 'figures[0].ratio is Infinity'),
    ('{"k\\nl": -Infinity}', 'k\\nl is -Infinity'),
])
def test_what_no_writer_writes_is_one_line(tmp_path, found_text, said):
    assert said in rejected_in_one_line(tmp_path, found_text)
