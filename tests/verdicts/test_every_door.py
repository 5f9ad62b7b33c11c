'''Every door of ``microbench``: each subcommand given, for each of its file
arguments, a path that does not exist, an empty file, a directory, a file
of another kind and generated garbage, answers in one line and exits 2
(``stored``: 4, its own "not stored"), writes nothing, and never raises
(``MICROBENCH_TRACEBACK=1``: an unexpected error fails the test instead of
being said as an internal error).

The results storage is a real one: nights of a recorded session
(tests/data/results/fio-quick-limits.json), stored as ReFrame stores them.
'''

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from microbench import cli
from microbench.verdicts import storage

from changes import history
from fixtures import path as data_path

PARTITION = 'local:default'

#: subcommand -> argument lists; BAD is the door under test, DB the real
#: results storage, OUT where the command would write (it must not)
BAD, DB, OUT = '{bad}', '{db}', '{out}'
DOORS = [
    ('baseline', ['--db', BAD, 'now-1000d:now+1d', '--partition',
                  PARTITION]),
    ('compare', ['--db', BAD, '--last']),
    ('compare', ['--db', DB, '--last', '--json', OUT, '--partition', BAD]),
    ('ack', ['--db', BAD, '--partition', PARTITION, '--check', 'fio_*',
             '--figure', '*', '--night', '2026-01-01', '--kind', 'noise',
             '--reason', 'a test']),
    ('ack', ['--db', DB, '--partition', PARTITION, '--event', 'ev-0',
             '--verdicts', BAD, '--kind', 'noise', '--reason', 'a test',
             '--write']),
    ('acks', ['--db', BAD, '--check']),
    ('advise', ['--db', BAD]),
    ('report', ['--db', BAD, '-o', OUT]),
    ('report', ['--db', DB, '-o', OUT, '--verdicts', BAD]),
    ('bundle', ['--db', BAD, 'now-1000d:now+1d', '-o', OUT]),
    ('check-bundle', [BAD]),
    ('replay', [BAD]),
    ('stored', ['--db', DB, BAD]),
    ('limits', ['--db', BAD, '--partition', PARTITION]),
    ('weather', ['--db', BAD, '-o', OUT]),
    ('weather', ['--db', DB, '-o', OUT, '--verdicts', BAD]),
    ('export', ['--db', BAD, '--openmetrics', OUT]),
    ('export', ['--db', DB, '--verdicts', BAD, '--openmetrics', OUT]),
    ('audit', [BAD]),
    ('nodes', ['--db', DB, '--vetting-db', BAD, '--partition', PARTITION,
               '--json', OUT]),
]

#: The exit codes a door may answer bad input with
REFUSED = {'stored': {4}}

#: The bad inputs every door is given
KINDS = ['missing', 'empty', 'directory', 'text', 'binary', 'report',
         'database']


@pytest.fixture(scope='module')
def db(tmp_path_factory):
    target = tmp_path_factory.mktemp('doors') / 'results.db'
    for report in history(4):
        storage.store(str(target), report)
    return str(target)


@pytest.fixture(autouse=True)
def tracebacks(monkeypatch, tmp_path):
    monkeypatch.setenv(cli.TRACEBACK, '1')
    # no acknowledgements file of the project's own applies
    monkeypatch.setenv('MICROBENCH_ACKS_DIR', str(tmp_path / 'acks'))


def knock(capsys, command, args, bad, db, out):
    '''Run one door: its exit code and what it said.'''
    argv = [command] + [a.replace(BAD, bad).replace(DB, db)
                        .replace(OUT, out) for a in args]
    code = cli.main(argv)
    said = capsys.readouterr()
    return code, said.err + said.out


def assert_refused(command, code, said, out, bad):
    assert code in REFUSED.get(command, {2}), (code, said)
    assert 'Traceback' not in said
    lines = [line for line in said.splitlines() if line.strip()]
    # one line says why, naming what was wrong (the file, or the storage)
    assert lines and len(lines) <= 2, said
    assert any(bad in line or 'results storage' in line or 'error:' in line
               for line in lines), said
    assert not os.path.exists(out), f'{command} wrote {out}'


def bad_inputs(tmp_path, db):
    '''name -> path of every bad input of :data:`KINDS`.'''
    empty = tmp_path / 'empty'
    empty.write_bytes(b'')
    text = tmp_path / 'text.txt'
    text.write_text('kind: [known]\nexpires: 2027-13-01\n{[')
    binary = tmp_path / 'binary'
    binary.write_bytes(b'\x00\xff' * 64 + b'{[')
    folder = tmp_path / 'folder'
    folder.mkdir()
    return {'missing': str(tmp_path / 'no' / 'such'), 'empty': str(empty),
            'directory': str(folder), 'text': str(text),
            'binary': str(binary),
            'report': data_path('results/fio-quick-1.json'),
            'database': db}


@pytest.mark.parametrize('command,args', DOORS,
                         ids=[f'{c}-{i}' for i, (c, _) in enumerate(DOORS)])
@pytest.mark.parametrize('kind', KINDS)
def test_a_door_refuses_in_one_line(capsys, tmp_path, db, command, args,
                                    kind):
    bad = bad_inputs(tmp_path, db)[kind]
    if bad == db and DB not in args:
        pytest.skip('the real storage is this door\'s valid input')
    if kind == 'report' and command == 'stored':
        pytest.skip('a run report is stored\'s valid input')
    out = str(tmp_path / 'out')
    code, said = knock(capsys, command, args, bad, db, out)
    if kind in ('report', 'database') and code in (0, 1):
        # a valid file of another kind that this door reads as its own
        return
    assert_refused(command, code, said, out, bad)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.binary(max_size=2048), index=st.integers(0, len(DOORS)))
def test_a_door_refuses_generated_garbage(capsys, tmp_path, db, content,
                                          index):
    command, args = DOORS[index % len(DOORS)]
    bad = tmp_path / 'garbage'
    bad.write_bytes(content)
    out = tmp_path / f'out-{index}'
    code, said = knock(capsys, command, args, str(bad), db, str(out))
    if command == 'audit' and code in (0, 1):
        # garbage that happens to be a command line the audit reads
        return
    assert_refused(command, code, said, str(out), str(bad))


def test_db_is_taken_after_the_subcommand_too(capsys, db):
    assert cli.main(['compare', '--last', '--db', db]) in (0, 1)
    assert cli.main(['--db', db, 'compare', '--last']) in (0, 1)
    assert 'Traceback' not in capsys.readouterr().err


def broken(args):
    raise KeyError('a bug')


def with_broken_handler(monkeypatch):
    '''``cli.parser`` whose parse gives every command a handler with a
    bug.'''
    real = cli.parser

    def parser():
        top = real()
        parse = top.parse_args

        def parse_args(argv):
            args = parse(argv)
            args.handler = broken
            return args

        top.parse_args = parse_args
        return top

    monkeypatch.setattr(cli, 'parser', parser)


def test_an_unexpected_error_is_one_line(capsys, monkeypatch):
    monkeypatch.delenv(cli.TRACEBACK)
    with_broken_handler(monkeypatch)
    assert cli.main(['acks']) == 2
    said = capsys.readouterr().err
    assert said.count('\n') == 1
    assert 'internal error: KeyError' in said and 'Traceback' not in said


def test_the_switch_shows_where(monkeypatch):
    with_broken_handler(monkeypatch)
    with pytest.raises(KeyError):
        cli.main(['acks'])
