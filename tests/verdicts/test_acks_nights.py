'''A broken acknowledgements file of each kind of issue 42 on a real
night: the night is judged.

The results storage holds 18 nights made from a recorded session
(tests/data/results/fio-quick-limits.json, stored by ReFrame's own
storage code), the watched figure (fio_cache_flags direct's O_DIRECT
write) halved from night 16 on: ``compare --last`` calls it ``degraded``.
The file of each case holds a valid ``known`` entry for that change (it
makes the watched figure ``acknowledged``) and one broken entry, an
``expected`` one for the same figure (were it applied, the figure would
be judged against the new level: ``unchanged``); or the whole file is
broken.  For each:

- ``compare --last --json`` exits as without acknowledgements, judges
  every figure as without them but the watched one, which is
  ``acknowledged (known: ...)`` where the file could be read and
  ``degraded`` where it could not; one warning line per broken entry (or
  for the file), naming it;
- ``acks`` exits 0, ``acks --check`` exits 2, both with the line;
- ``ack ... --write`` exits 2 with one line naming the file and writes
  nothing (an entry is not added to a broken file);
- no door raises (a traceback).

The doors run in process through ``microbench``'s ``main`` (what the
console script calls), and one case of each level through the console
script itself (compare and ack).
'''

import contextlib
import gc
import io
import json
import os
import subprocess

import pytest

from microbench import cli
from microbench.verdicts import storage

from changes import CHANGE, WATCHED, drop, history, session
from nights import MICROBENCH

HEAD = 'format: microbench acknowledgements\nversion: 1\nacks:\n'


def entry(night, kind, reason, changes=None):
    '''An entry naming the watched figure, the members of ``changes``
    written as they say (None: the member left out).'''
    values = {'partition': 'default', 'check': WATCHED[0],
              'variant': WATCHED[1], 'figure': WATCHED[2], 'night': night,
              'kind': kind, 'reason': reason, **(changes or {})}
    lines = [f'  {name}: {text}' for name, text in values.items()
             if text is not None]
    return '- ' + '\n'.join(lines)[2:] + '\n'


def valid(night):
    return entry(night, 'known', 'the RAID rebuild')


#: An entry broken one way: ``(what, members as written, said)``
ENTRIES = [
    ('an impossible month, unquoted', {'expires': '2027-13-01'},
     "expires '2027-13-01' is not a date"),
    ('a 30th of February, unquoted', {'expires': '2027-02-30'},
     "expires '2027-02-30' is not a date"),
    ('an expiry of eight digits', {'expires': '20270301'},
     "expires '20270301' is not a date"),
    ('an expiry as an ISO week date', {'expires': '2027-W09-1'},
     "expires '2027-W09-1' is not a date"),
    ('an expiry already past', {'expires': '2026-01-01'},
     'expired on 2026-01-01: its verdict is back'),
    ('a night of eight digits', {'night': '20261005'},
     "night '20261005' is neither a session"),
    ('an impossible night', {'night': '2026-02-30'},
     "night '2026-02-30' is neither a session"),
    ('the kind as a list', {'kind': '[expected, noise]'},
     'kind is a list, not a text'),
    ('the kind as a mapping', {'kind': '{expected: yes}'},
     'kind is a mapping, not a text'),
    ('the kind as a block list', {'kind': '\n    - expected'},
     'kind is a list, not a text'),
    ('the check as a list', {'check': f'[{WATCHED[0]}]'},
     'check is a list, not a text'),
    ('the reason as a mapping', {'reason': '{why: firmware}'},
     'reason is a mapping, not a text'),
    ('a kind that is none', {'kind': 'Expected'},
     "kind 'Expected' is not one of expected, noise, known"),
    ('no reason', {'reason': None}, 'no reason'),
    ('a member given twice', {'kind': 'expected\n  kind: noise'},
     "'kind' given twice"),
    ('an unknown member', {'owner': 'me'}, "unknown member(s) 'owner'"),
    ('an escape sequence in the reason', {'reason': '"\\e[31mred"'},
     "reason '\\x1b[31mred' holds a control character"),
]

LAUGHS = ''.join(f'  x{i}: &a{i} [{", ".join([f"*a{i - 1}"] * 9)}]\n'
                 for i in range(1, 10))

#: A file broken as a whole: ``(what, its bytes from the valid entry's
#: text, said)``
FILES = [
    ('YAML that does not parse', lambda good: (good + '- [\n').encode(),
     'not YAML'),
    ('a tab in the indentation',
     lambda good: good.replace('  kind', '\tkind').encode(), 'not YAML'),
    ('a billion laughs', lambda good: (
        good.replace('reason: the', 'reason: &a0 the') + LAUGHS).encode(),
     'a YAML anchor or alias'),
    ('an entry reused by an alias', lambda good: (
        good.replace('- partition', '- &one\n  partition') + '- *one\n'
    ).encode(), 'a YAML anchor or alias'),
    ('a reason nested 200 000 deep', lambda good: good.replace(
        'the RAID rebuild', '[' * 200_000 + ']' * 200_000).encode(),
     'nested deeper than 8 levels'),
    ('a file over the cap', lambda good: (
        good + '#' * (1 << 20) + '\n').encode(),
     'larger than the 1024 KiB'),
    ('a byte that is not UTF-8',
     lambda good: good.encode().replace(b'RAID', b'R\xe9ID'),
     'not UTF-8 (byte 0xe9)'),
    ('a control character', lambda good: good.replace(
        'the RAID', 'the \x01 RAID').encode(), 'not YAML'),
    ('two documents', lambda good: (good + '---\n' + good).encode(),
     'a second YAML document'),
    ('acks given twice', lambda good: (
        good + good[good.index('acks:'):]).encode(), "'acks' given twice"),
    ('no format', lambda good: good.replace(
        'format: microbench acknowledgements\n', '').encode(),
     'not an acknowledgements file'),
    ('another version', lambda good: good.replace(
        'version: 1', 'version: 2').encode(), "acknowledgements version '2'"),
    ('acks as a mapping', lambda good: (
        good.split('acks:')[0] + 'acks: {first: x}\n').encode(),
     'acks is a mapping, not a list'),
    ('NUL bytes', lambda good: b'\0' * 64, 'not YAML'),
]


@pytest.fixture(scope='module')
def nights(tmp_path_factory):
    '''A results storage of 18 nights of the recorded session, the watched
    figure halved from night 16 on.'''
    tmp = tmp_path_factory.mktemp('acks-nights')
    db = tmp / 'results.db'
    reports = history(CHANGE + 2, drop(0.5))
    for report in reports:
        storage.store(str(db), report)
    return db, session(reports, CHANGE)


def console(db, acks_dir, *args):
    '''``microbench --db DB ARGS`` through the console script.'''
    return subprocess.run(
        [MICROBENCH, '--db', str(db), *args], capture_output=True,
        text=True, timeout=300,
        env={**os.environ, 'MICROBENCH_ACKS_DIR': str(acks_dir)})


def verdicts(path):
    '''``(exit code, {figure: (verdict, ack kind)}, warnings)`` of a
    compare JSON.'''
    with open(path) as fp:
        doc = json.load(fp)
    found = {(f['partition'], f['check'], f['variant'], f['figure']):
             (f['verdict'], (f['ack'] or {}).get('kind'))
             for f in doc['figures']}
    return doc['exit_code'], found, doc['acks']['warnings']


@pytest.fixture(scope='module')
def expected(nights, tmp_path_factory):
    '''The verdicts without acknowledgements and with the valid one
    alone.'''
    db, night = nights
    out = {}
    for name, text in (('none', None), ('valid', HEAD + valid(night))):
        folder = tmp_path_factory.mktemp(f'acks-{name}')
        if text:
            (folder / 'local.yaml').write_text(text)
        said = io.StringIO()
        with pytest.MonkeyPatch.context() as patch, \
                contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(said):
            patch.setenv('MICROBENCH_ACKS_DIR', str(folder))
            code = in_process(db, 'compare', '--last', '--json',
                              str(folder / 'verdicts.json'))
        assert code == 0 and said.getvalue() == ''
        out[name] = verdicts(folder / 'verdicts.json')
    watched = ('default', *WATCHED)
    assert out['none'][1][watched] == ('degraded', None)
    assert out['valid'][1][watched] == ('acknowledged', 'known')
    assert {k: v for k, v in out['none'][1].items() if k != watched} == {
        k: v for k, v in out['valid'][1].items() if k != watched}
    return out


def in_process(db, *args):
    '''The exit code of ``microbench --db DB ARGS`` in this process: any
    exception is the test's error (a traceback).'''
    try:
        return cli.main(['--db', str(db), *args])
    finally:
        # main freezes what the process holds (it is meant to end after)
        gc.unfreeze()


def door(capsys, db, *args):
    '''``(exit code, stdout, stderr)`` of ``microbench --db DB ARGS`` in
    this process.'''
    code = in_process(db, *args)
    out, err = capsys.readouterr()
    return code, out, err


def ack_args(night):
    return ['ack', '--partition', 'local:default', '--check', WATCHED[0],
            '--variant', WATCHED[1], '--figure', WATCHED[2], '--night',
            night, '--kind', 'noise', '--reason', 'one more', '--write']


def judged(capsys, db, folder, want, lines):
    '''Every door on the file in ``folder``: compare judges the night as
    ``want`` (the verdicts of :func:`expected`) with one warning for each
    of ``lines`` (each a tuple of what it says); acks and acks --check
    list them.'''
    out = folder / 'verdicts.json'
    code, _, err = door(capsys, db, 'compare', '--last', '--json', str(out))
    exit_code, found, warnings = verdicts(out)
    assert (code, exit_code, found) == (want[0], *want[:2])
    assert len(warnings) == len(lines)
    for warning, says in zip(warnings, lines):
        assert all(said in warning for said in says), (warning, says)
        assert '\n' not in warning
    assert err.splitlines() == [f'microbench compare: warning: {w}'
                                for w in warnings]
    code, listed, _ = door(capsys, db, 'acks')
    assert code == 0 and all(w in listed for w in warnings)
    code, listed, _ = door(capsys, db, 'acks', '--check')
    assert code == 2 and all(w in listed for w in warnings)


def refused(capsys, db, night, path, said):
    '''``ack --write`` on the file at ``path``: exit 2, one line naming
    the file, nothing written.'''
    before = path.read_bytes() if path.is_file() else None
    code, out, err = door(capsys, db, *ack_args(night))
    assert code == 2 and out == ''
    line, = err.splitlines()
    assert line.startswith(f'microbench ack: error: {path}') and said in line
    assert (path.read_bytes() if path.is_file() else None) == before


@pytest.mark.parametrize('what, members, said', ENTRIES,
                         ids=[case[0] for case in ENTRIES])
def test_a_broken_entry_costs_itself_only(nights, expected, tmp_path,
                                          monkeypatch, capsys, what,
                                          members, said):
    db, night = nights
    monkeypatch.setenv('MICROBENCH_ACKS_DIR', str(tmp_path))
    path = tmp_path / 'local.yaml'
    path.write_text(HEAD + valid(night) + entry(
        night, 'expected', 'a broken entry', members))
    where = f'{path} #2 ' + ('' if 'expired' in said else '(line 11): ')
    judged(capsys, db, tmp_path, expected['valid'], [(where, said)])
    if 'expired' in said:
        # an expired entry is history, not a typo: ack adds to its file
        code, _, err = door(capsys, db, *ack_args(night))
        assert code == 0 and err.startswith('written: ')
    else:
        refused(capsys, db, night, path, said)


@pytest.mark.parametrize('what, make, said', FILES,
                         ids=[case[0] for case in FILES])
def test_a_broken_file_costs_its_entries_only(nights, expected, tmp_path,
                                              monkeypatch, capsys, what,
                                              make, said):
    db, night = nights
    monkeypatch.setenv('MICROBENCH_ACKS_DIR', str(tmp_path))
    path = tmp_path / 'local.yaml'
    path.write_bytes(make(HEAD + valid(night)))
    judged(capsys, db, tmp_path, expected['none'], [
        (f'{path}: ', said, ': no acknowledgement of it applies')])
    refused(capsys, db, night, path, said)


def test_a_fifo_for_a_file_costs_nothing(nights, expected, tmp_path,
                                         monkeypatch, capsys):
    '''Never opened: a reader of a FIFO would wait for a writer.'''
    db, night = nights
    monkeypatch.setenv('MICROBENCH_ACKS_DIR', str(tmp_path))
    os.mkfifo(tmp_path / 'local.yaml')
    judged(capsys, db, tmp_path, expected['none'],
           [('local.yaml: not a regular file',)])
    refused(capsys, db, night, tmp_path / 'local.yaml',
            'not a regular file')


def test_every_broken_entry_at_once_is_one_line_each(nights, expected,
                                                     tmp_path, monkeypatch,
                                                     capsys):
    db, night = nights
    monkeypatch.setenv('MICROBENCH_ACKS_DIR', str(tmp_path))
    path = tmp_path / 'local.yaml'
    broken = [entry(night, 'expected', f'broken {index}', members)
              for index, (_, members, _) in enumerate(ENTRIES, 2)]
    path.write_text(HEAD + valid(night) + ''.join(broken))
    lines = [(f'{path} #{index} ', said)
             for index, (_, _, said) in enumerate(ENTRIES, 2)]
    # the file's problems first, then those against the storage
    judged(capsys, db, tmp_path, expected['valid'],
           sorted(lines, key=lambda line: 'expired' in line[1]))


@pytest.mark.parametrize('case', [ENTRIES[0], FILES[2]],
                         ids=lambda case: case[0])
def test_the_console_script_says_the_same(nights, expected, tmp_path,
                                          case):
    '''compare and ack through the console script: no traceback, the exit
    codes and lines as in process.'''
    db, night = nights
    what, change, said = case
    good = HEAD + valid(night)
    path = tmp_path / 'local.yaml'
    if callable(change):
        path.write_bytes(change(good))
        want = expected['none']
    else:
        path.write_text(good + entry(night, 'expected', 'broken', change))
        want = expected['valid']
    proc = console(db, tmp_path, 'compare', '--last', '--json',
                   str(tmp_path / 'verdicts.json'))
    assert proc.returncode == want[0]
    assert verdicts(tmp_path / 'verdicts.json')[1] == want[1]
    line, = proc.stderr.splitlines()
    assert line.startswith('microbench compare: warning: ') and said in line
    before = path.read_bytes()
    proc = console(db, tmp_path, *ack_args(night))
    assert proc.returncode == 2 and 'Traceback' not in proc.stderr
    assert said in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert path.read_bytes() == before
