'''What a person types or gives that the results storage does not hold:
one line, exit 2, never a traceback, nothing written.

- a mistyped partition or check gets the closest names (difflib) and the
  names that exist; a session query that selects nothing gets what the
  storage holds (its sessions, their period, the newest) and the closest
  UUID; a query ReFrame cannot parse says what a query is;
- every file argument of compare, baseline and confirm (``--db``,
  ``--json``, ``--verdicts``, ``--report-file``), given a path that does
  not exist, a directory, an empty file or garbage: one line naming it,
  exit 2, the file as it was and no cache made beside it.

The storage: two real sessions of the fio checks on the local default
(tests/data/results/fio-quick-1.json and -2.json, tagged dev1 and dev2).
'''

import json
import os
import sqlite3

import pytest
from hypothesis import given, settings, strategies as st

from microbench import cli
from microbench.verdicts import cache, figures, storage, suggest

import fixtures

DATA = fixtures.path('results')


def report(name):
    with open(os.path.join(DATA, f'{name}.json')) as fp:
        return json.load(fp)


@pytest.fixture(scope='module')
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp('doors') / 'results.db'
    for name in ('fio-quick-1', 'fio-quick-2'):
        storage.store(str(path), report(name))
    return path


def main(*argv, capsys, monkeypatch):
    '''``microbench ARGV`` in this process: (exit code, stdout, stderr).
    The process is not ending: its objects are not frozen.'''
    monkeypatch.setattr(cli.gc, 'freeze', lambda: None)
    code = cli.main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def error(code, err, command):
    '''The one line of a refused command, without its prefix.'''
    assert code == 2, err
    line, = err.splitlines()
    assert line.startswith(f'microbench {command}: error: '), line
    assert 'Traceback' not in err
    return line.removeprefix(f'microbench {command}: error: ')


@pytest.mark.parametrize('command', [
    ['compare', '--last'], ['baseline', figures.ALL, '--write'],
    ['compare', '?tag=="dev1"', '?tag=="dev2"']])
@pytest.mark.parametrize('partition, near', [
    ('local:defualt', 'local:default'), ('defualt', 'local:default'),
    ('local:Default', 'local:default'), ('nowhere:at_all', None)])
def test_a_mistyped_partition_gets_the_names_that_exist(
        db, command, partition, near, capsys, monkeypatch):
    code, out, err = main('--db', db, *command, '--partition', partition,
                          capsys=capsys, monkeypatch=monkeypatch)
    said = error(code, err, command[0])
    head = f'no partition {partition} in the results storage {db}'
    assert said == head + (f'; did you mean {near}?' if near else '') + \
        ' (partitions: local:default)'
    assert '19700101' not in said and out == ''


def test_a_uuid_one_character_off_gets_the_stored_one(db, capsys,
                                                      monkeypatch):
    uuid = report('fio-quick-2')['session_info']['uuid']
    typo = uuid[:-1] + ('0' if uuid[-1] != '0' else '1')
    code, _, err = main('--db', db, 'compare', typo, uuid, capsys=capsys,
                        monkeypatch=monkeypatch)
    said = error(code, err, 'compare')
    assert said.startswith(f'no session of the results storage {db} '
                           f'matches {typo!r}; did you mean {uuid}? (it '
                           f'holds 2 sessions from ')
    assert f'the newest: {uuid} (' in said and ', tag=dev2)' in said


def test_a_filter_that_selects_nothing_lists_the_values_stored(
        db, capsys, monkeypatch):
    code, _, err = main('--db', db, 'compare', '?tag=="dev3"', '?tag=="dev1"',
                        capsys=capsys, monkeypatch=monkeypatch)
    said = error(code, err, 'compare')
    assert said.startswith(f'no session of the results storage {db} '
                           f'matches \'?tag=="dev3"\' (it holds 2 sessions')
    assert said.endswith('; tag: dev1, dev2)')


def test_a_period_that_selects_nothing_says_the_stored_period(
        db, capsys, monkeypatch):
    code, _, err = main('--db', db, 'baseline', '20000101:20000102',
                        '--partition', 'local:default', capsys=capsys,
                        monkeypatch=monkeypatch)
    said = error(code, err, 'baseline')
    starts = sorted(report(name)['session_info']['time_start_unix']
                    for name in ('fio-quick-1', 'fio-quick-2'))
    first, last = (suggest._day(start) for start in starts)
    assert f'(it holds 2 sessions from {first} to {last}; the newest: ' in \
        said


def test_what_is_not_a_query_says_what_a_query_is(db, capsys, monkeypatch):
    code, _, err = main('--db', db, 'compare', 'fio_cache_flags', 'now',
                        capsys=capsys, monkeypatch=monkeypatch)
    said = error(code, err, 'compare')
    assert said.startswith("'fio_cache_flags' is not a session query (")
    assert 'a session UUID, a time period (now-7d:now' in said


def test_a_mistyped_check_gets_the_closest():
    names = ['fio_cache_flags', 'fio_fallocate', 'fio_time_based_overwrite']
    assert suggest.unknown('check', 'fio_cache_flgs', names) == (
        'no check fio_cache_flgs in the results storage; did you mean '
        'fio_cache_flags? (checks: fio_cache_flags, fio_fallocate, '
        'fio_time_based_overwrite)')
    assert suggest.unknown('check', 'x', []) == \
        'no check x in the results storage (it holds no check)'
    many = [f'check_{i}' for i in range(30)]
    assert suggest.unknown('check', 'zzz', many).endswith(
        'check_11 and 18 more)')


#: Names a person can type: no control character, no line break
TYPED = st.text(st.characters(blacklist_categories=('Cc', 'Cs', 'Zl',
                                                    'Zp')), max_size=40)


@settings(max_examples=200, deadline=None)
@given(TYPED, st.lists(TYPED, max_size=40))
def test_any_name_gets_one_line_with_names_that_exist(name, names):
    said = suggest.unknown('partition', name, names)
    assert len(said.splitlines()) == 1
    assert said.startswith(f'no partition {name} in the results storage')
    near = suggest.close(name, names)
    assert len(near) <= 3 and set(near) <= set(names)
    if near:
        assert f'; did you mean {" or ".join(near)}?' in said


@settings(max_examples=60, deadline=None)
@given(query=st.one_of(TYPED, st.builds(
    lambda head, name, value: f'{head}?{name}=="{value}"',
    st.sampled_from(['', 'now-1d:now', '20000101:20000102']),
    st.sampled_from(['tag', 'kind', 'confirms', 'nope']), TYPED)))
def test_any_query_is_read_or_refused_in_one_line(db, query):
    try:
        got = figures.load(query, str(db))
    except storage.ResultsError as err:
        assert len(str(err).splitlines()) == 1, str(err)
    else:
        assert not got.empty


# -- file arguments -------------------------------------------------------

def storages(tmp):
    '''``{what: path}`` of what is not a results storage.'''
    (tmp / 'a-directory').mkdir()
    (tmp / 'empty').write_bytes(b'')
    (tmp / 'garbage').write_bytes(b'not a database at all\n' * 64)
    with sqlite3.connect(tmp / 'foreign.db') as conn:
        conn.execute('CREATE TABLE x (a)')
    with sqlite3.connect(tmp / 'no-version.db') as conn:
        conn.execute('CREATE TABLE sessions (uuid)')
        conn.execute('CREATE TABLE testcases (uuid)')
        conn.execute('CREATE TABLE metadata (schema_version)')
    with sqlite3.connect(tmp / 'other-columns.db') as conn:
        for table in storage.TABLES:
            conn.execute(f'CREATE TABLE {table} (a)')
    return {'nonexistent': tmp / 'nonexistent.db',
            'a directory': tmp / 'a-directory', 'empty': tmp / 'empty',
            'garbage': tmp / 'garbage', 'foreign SQLite': tmp / 'foreign.db',
            'no schema version': tmp / 'no-version.db',
            'other columns': tmp / 'other-columns.db'}


COMMANDS = {
    'compare --last': ['compare', '--last'],
    'compare A B': ['compare', '?tag=="dev1"', '?tag=="dev2"'],
    'baseline': ['baseline', figures.ALL, '--partition', 'local:default'],
    'confirm': ['confirm', '--verdicts', '{verdicts}', '--report-file',
                '{tmp}/r.json', '--', 'reframe'],
}

SAID = {'nonexistent': 'no results storage at ',
        'a directory': ': it is a directory',
        'empty': 'no results storage at ',
        'garbage': ': it is not an SQLite file',
        'foreign SQLite': "an SQLite file without ReFrame's table(s) "
                          "sessions, testcases, metadata",
        'no schema version': 'its metadata holds no schema version',
        'other columns': "its tables are not ReFrame's (no such column: "
                         "schema_version)"}


@pytest.fixture(scope='module')
def verdicts(db, tmp_path_factory):
    '''A compare JSON of two sides (confirm refuses it after reading the
    storage: it reruns a night).'''
    path = tmp_path_factory.mktemp('verdicts') / 'verdicts.json'
    code = cli.main(['--db', str(db), 'compare', '?tag=="dev1"',
                     '?tag=="dev2"', '--json', str(path)])
    assert code == 0
    return path


def filled(args, **values):
    return [arg.format(**values) for arg in args]


@pytest.mark.parametrize('what', list(SAID))
@pytest.mark.parametrize('command', list(COMMANDS))
def test_a_bad_results_storage_is_one_line(command, what, tmp_path,
                                           verdicts, capsys, monkeypatch):
    path = storages(tmp_path)[what]
    before = path.read_bytes() if path.is_file() else None
    args = filled(COMMANDS[command], verdicts=verdicts, tmp=tmp_path)
    if command == 'confirm':
        # a night's verdicts: confirm reads the storage
        doc = json.loads(verdicts.read_text())
        doc['kind'] = 'nightly'
        doc['figures'][0]['verdict'] = 'regression'
        night = tmp_path / 'night.json'
        night.write_text(json.dumps(doc))
        args[args.index(str(verdicts))] = str(night)
    code, out, err = main('--db', path, *args, capsys=capsys,
                          monkeypatch=monkeypatch)
    said = error(code, err, args[0])
    assert SAID[what] in said and str(path) in said
    assert (path.read_bytes() if path.is_file() else None) == before
    assert not os.path.exists(cache.path_of(str(path)))
    assert out == ''


@pytest.mark.parametrize('command, option, value, said', [
    ('compare', '--json', '{tmp}/no/such/dir/v.json',
     '--json {tmp}/no/such/dir/v.json: no such directory {tmp}/no/such/dir'),
    ('compare', '--json', '{tmp}', '--json {tmp}: a directory, not a file'),
    ('confirm', '--verdicts', '{tmp}/none.json',
     '--verdicts {tmp}/none.json: no such file'),
    ('confirm', '--verdicts', '{tmp}', '--verdicts {tmp}: no such file'),
    ('confirm', '--verdicts', '{tmp}/garbage', '{tmp}/garbage: not JSON'),
    ('confirm', '--report-file', '{tmp}/no/such/r.json',
     '--report-file {tmp}/no/such/r.json: no such directory'),
])
def test_a_bad_file_argument_is_one_line_before_any_work(
        db, verdicts, tmp_path, command, option, value, said, capsys,
        monkeypatch):
    (tmp_path / 'garbage').write_bytes(b'\x00\xff garbage')
    args = {'compare': ['compare', '--last', '--json', str(tmp_path / 'v')],
            'confirm': ['confirm', '--verdicts', str(verdicts),
                        '--report-file', str(tmp_path / 'r.json'), '--',
                        'reframe']}[command]
    args[args.index(option) + 1] = value.format(tmp=tmp_path)
    code, out, err = main('--db', db, *args, capsys=capsys,
                          monkeypatch=monkeypatch)
    assert said.format(tmp=tmp_path) in error(code, err, command)
    assert out == ''
    assert not (tmp_path / 'r.json').exists()
