'''The readers of the results storage on generated and mutated inputs: the
storage file itself (:func:`storage.check_file` and :func:`figures.load`)
and each session's JSON in it (:func:`figures.session_rows`).  Each
either reads, or says in one line what is wrong (a
:class:`storage.ResultsError`): never another exception, and the storage
file is left as it was.  A session that is not a ReFrame report is left
out with one warning line naming it; the others are read.

Real inputs: a storage ReFrame made of two real sessions of the fio checks
on the local default (tests/data/results/fio-quick-1.json and -2.json), mutated
(cut, a byte changed, garbage appended) and the JSON of one session
mutated as the parser tests mutate real outputs
(tests/helpers/mutations.py).
'''

import json
import os
import sqlite3
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from microbench.verdicts import figures, storage

import fixtures
import mutations

DATA = fixtures.path('results')
NAMES = ('fio-quick-1', 'fio-quick-2')

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


def report(name):
    with open(os.path.join(DATA, f'{name}.json')) as fp:
        return json.load(fp)


@pytest.fixture(scope='module')
def real(tmp_path_factory):
    '''The bytes of a real results storage of two sessions.'''
    path = tmp_path_factory.mktemp('real') / 'results.db'
    for name in NAMES:
        storage.store(str(path), report(name))
    return path.read_bytes()


def read(data):
    '''``figures.load`` of a storage of bytes ``data`` (in a folder of its
    own): the figures, or the one line that refused it; the file after.'''
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'results.db')
        with open(path, 'wb') as fp:
            fp.write(data)
        try:
            got = figures.load(figures.ALL, path)
        except storage.ResultsError as err:
            got = str(err)
            assert '\n' not in got, got
        with open(path, 'rb') as fp:
            return got, fp.read()


@FAST
@given(st.binary(max_size=4096))
def test_any_bytes_are_refused_in_one_line(data):
    got, after = read(data)
    assert isinstance(got, str) and after == data


@FAST
@given(st.binary(min_size=0, max_size=200))
def test_sqlite_s_header_then_garbage_is_refused(tail):
    data = storage.SQLITE + tail
    got, after = read(data)
    assert isinstance(got, str) and after == data


@settings(FAST, max_examples=40)
@given(st.data())
def test_a_mutated_real_storage_reads_or_is_refused(real, data):
    how = data.draw(st.sampled_from(['cut', 'byte', 'append']))
    if how == 'cut':
        mutated = real[:data.draw(st.integers(1, len(real) - 1))]
    elif how == 'byte':
        at = data.draw(st.integers(0, len(real) - 1))
        byte = data.draw(st.integers(0, 255))
        mutated = real[:at] + bytes([byte]) + real[at + 1:]
    else:
        mutated = real + data.draw(st.binary(min_size=1, max_size=4096))
    got, after = read(mutated)
    assert after == mutated
    assert isinstance(got, str) or set(got['session']) <= {
        report(name)['session_info']['uuid'] for name in NAMES}


def test_an_sqlite_storage_read_is_left_as_it_was(real):
    got, after = read(real)
    assert after == real and got['session'].nunique() == 2


# -- one session's JSON --------------------------------------------------

def with_blob(real, tmp, blob):
    '''A copy of the real storage in ``tmp`` whose second session's JSON
    is ``blob``.'''
    path = os.path.join(tmp, 'results.db')
    with open(path, 'wb') as fp:
        fp.write(real)
    uuid = report(NAMES[1])['session_info']['uuid']
    with sqlite3.connect(path) as conn:
        conn.execute('UPDATE sessions SET json_blob = ? WHERE uuid = ?',
                     (blob, uuid))
    conn.close()
    return path, uuid


KINDS = sorted([*mutations.MUTATIONS_OF_ANY, *mutations.MUTATIONS_OF_JSON])


@settings(FAST, max_examples=30)
@given(data=st.data())
def test_a_mutated_session_is_read_or_left_out_in_one_line(real, capsys,
                                                           data):
    text = json.dumps(report(NAMES[1]), indent=1).encode()
    kind = data.draw(st.sampled_from(KINDS))
    if kind in mutations.MUTATIONS_OF_JSON:
        _, blob = mutations.MUTATIONS_OF_JSON[kind](data.draw, text, 'json')
    else:
        _, blob = mutations.MUTATIONS_OF_ANY[kind](data.draw, text)
    blob = blob.decode('utf-8', 'replace')
    with tempfile.TemporaryDirectory() as tmp:
        path, uuid = with_blob(real, tmp, blob)
        capsys.readouterr()
        got = figures.load(figures.ALL, path)
        said = capsys.readouterr().err.splitlines()
    first = report(NAMES[0])['session_info']['uuid']
    assert first in set(got['session'])
    if uuid in set(got['session']):
        assert said == []
    else:
        line, = said
        assert line.startswith(f'microbench: warning: results storage '
                               f'{path}: session {uuid}: ')
        assert line.endswith(': left out')


@pytest.mark.parametrize('blob, said', [
    ('not json', 'Expecting value'),
    ('[]', 'not a ReFrame report (TypeError'),
    ('{}', "not a ReFrame report (KeyError: 'session_info')"),
    ('[' * 100000, 'RecursionError'),
    ('{"session_info": {"uuid": "x", "time_start_unix": 1e300}, '
     '"runs": []}', 'time_start_unix 1e+300 is not a time'),
    (None, 'the JSON object must be str'),
])
def test_a_session_that_is_not_a_report_is_named(real, tmp_path, capsys,
                                                 blob, said):
    path, uuid = with_blob(real, str(tmp_path), blob)
    got = figures.load(figures.ALL, path)
    assert uuid not in set(got['session'])
    line, = capsys.readouterr().err.splitlines()
    assert f'session {uuid}: ' in line and said in line
    # not kept in the cache: said again on the next read, still left out
    assert uuid not in set(figures.load(figures.ALL, path)['session'])
    assert capsys.readouterr().err.splitlines() == [line]


def test_a_storage_of_only_broken_sessions_says_so(real, tmp_path, capsys):
    path, _ = with_blob(real, str(tmp_path), '{}')
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE sessions SET json_blob = '[]'")
    conn.close()
    with pytest.raises(storage.ResultsError, match=r'^no session of the '
                       r'results storage .* matches every session \(it '
                       r'holds no session'):
        figures.load(figures.ALL, path)
    # one line for each session left out
    assert len(capsys.readouterr().err.splitlines()) == 2
