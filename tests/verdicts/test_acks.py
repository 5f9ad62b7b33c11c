'''Acknowledgements as reviewable data: the file's validation (each
problem one line, the entry left out, never a traceback), its checks
against the results storage (unknown partition, figure or night, an
ambiguous date, an expired entry), and ``microbench ack``, ``acks`` and
``compare --last`` on a real results storage of nights made from a
recorded session.'''

import datetime
import json
import os
import subprocess

import pytest

from microbench.verdicts import acks, storage

from changes import CHANGE, WATCHED, drop, history, session
from nights import MICROBENCH
from weather_history import date

GOOD = '''# reviewed like the references
format: microbench acknowledgements
version: 1
acks:
- partition: default
  check: fio_*
  variant: direct
  figure: write_median_mib_s
  night: 2026-11-20
  kind: known
  reason: the RAID rebuild (ticket 4711)
  link: https://tickets.example.org/4711
  expires: 2026-12-31
'''


def test_a_valid_file_reads_back():
    found, problems = acks.parse(GOOD, 'local', 'local.yaml')
    assert problems == []
    entry, = found
    assert (entry.night, entry.expires, entry.kind) == (
        '2026-11-20', '2026-12-31', 'known')
    assert entry.matches('local', 'default', 'fio_cache_flags', 'direct',
                         'write_median_mib_s')
    assert not entry.matches('local', 'other', 'fio_cache_flags', 'direct',
                             'write_median_mib_s')
    assert not entry.matches('local', 'default', 'ior_page_cache', 'direct',
                             'write_median_mib_s')
    assert entry.expired('2027-01-01') and not entry.expired('2026-12-31')


@pytest.mark.parametrize('text, said', [
    ('format: [', 'local.yaml: line '),
    ('- a list', 'not an acknowledgements file'),
    ('format: microbench acknowledgements\nversion: 9\nacks: []',
     "acknowledgements version '9', this microbench reads version 1"),
    ('format: microbench acknowledgements\nversion: 1\nacks: 3',
     "acks is '3', not a list"),
])
def test_a_file_that_is_not_one_is_one_line(text, said):
    found, problems = acks.parse(text, 'local', 'local.yaml')
    assert found == []
    line, = problems
    assert said in line and 'no acknowledgement of it applies' in line
    assert '\n' not in line


@pytest.mark.parametrize('change, said', [
    (('kind: known', 'kind: maybe'),
     "kind 'maybe' is not one of expected, noise, known"),
    (('  reason: the RAID rebuild (ticket 4711)\n', ''), 'no reason'),
    (('expires: 2026-12-31', 'expires: soon'),
     "expires 'soon' is not a date (YYYY-MM-DD)"),
    (('  link:', '  owner: me\n  link:'), "unknown member(s) 'owner'"),
])
def test_a_bad_entry_is_left_out_in_one_line(change, said):
    text = GOOD.replace(*change) + GOOD.split('acks:\n')[1].replace(
        'known', 'noise')
    found, problems = acks.parse(text, 'local', 'local.yaml')
    assert [a.kind for a in found] == ['noise']
    line, = problems
    assert line.startswith('local.yaml #1 (line 5): ') and said in line
    assert line.endswith(': left out')


def _nights():
    return {('local', 'default'): [('s-1', '2026-11-19 02:30'),
                                   ('s-2', '2026-11-20 02:30'),
                                   ('s-3', '2026-11-20 14:00')]}


KEYS = [('local', 'default', 'builtin', 'fio_cache_flags', 'direct',
         'write_median_mib_s')]


@pytest.mark.parametrize('change, said', [
    ({'partition': 'nvme'}, 'partition local:nvme has no nights'),
    ({'figure': 'read_*'}, 'no figure of the results storage is'),
    ({'night': '2026-11-18'}, 'night 2026-11-18 is not a night of'),
    ({'night': '2026-11-20'}, 'night 2026-11-20 holds 2 sessions'),
    ({'expires': '2026-11-01'}, 'expired on 2026-11-01: its verdict is '
                                'back'),
])
def test_an_entry_the_storage_does_not_have_is_one_line(change, said):
    values = {'partition': 'default', 'check': 'fio_cache_flags',
              'variant': 'direct', 'figure': 'write_median_mib_s',
              'night': '2026-11-19', 'kind': 'noise', 'reason': 'x'}
    entry = acks.new('local', {**values, **change})
    found, problems = acks.check([entry], _nights(), KEYS, '2026-11-25')
    assert found == []
    line, = problems
    assert said in line


def test_a_date_names_the_partitions_only_night_that_day():
    values = {'partition': 'default', 'check': 'fio_cache_flags',
              'variant': 'direct', 'figure': 'write_median_mib_s',
              'night': '2026-11-19', 'kind': 'noise', 'reason': 'x'}
    found, problems = acks.check([acks.new('local', values)], _nights(),
                                 KEYS, '2026-11-25')
    assert problems == [] and found[0].night == 's-1'
    assert found[0].date == '2026-11-19 02:30'


@pytest.fixture(scope='module')
def nights(tmp_path_factory):
    '''A results storage of 18 nights of the recorded session, the watched
    figure halved from night 16 on; the acks folder of the tests.'''
    tmp = tmp_path_factory.mktemp('acks')
    db = tmp / 'results.db'
    reports = history(CHANGE + 2, drop(0.5))
    for report in reports:
        storage.store(str(db), report)
    return tmp, db, reports


def run(db, env, *args):
    return subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def test_ack_writes_a_diff_then_compare_applies_it(nights, tmp_path):
    _, db, reports = nights
    env = {'MICROBENCH_ACKS_DIR': str(tmp_path)}
    night = session(reports, CHANGE)
    proc = run(db, env, 'compare', '--last')
    assert proc.returncode == 0 and 'degraded' in proc.stdout
    args = ['ack', '--partition', 'local:default', '--check', WATCHED[0],
            '--variant', WATCHED[1], '--figure', WATCHED[2], '--night',
            night, '--kind', 'known', '--reason', 'the RAID rebuild']
    proc = run(db, env, *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f'--- {tmp_path}/local.yaml\n')
    assert f'+  night: {night}\n' in proc.stdout
    assert '(a diff: nothing written; --write applies it)' in proc.stderr
    assert not (tmp_path / 'local.yaml').exists()
    proc = run(db, env, *args, '--write')
    assert proc.returncode == 0, proc.stderr
    written = (tmp_path / 'local.yaml').read_text()
    assert acks.parse(written, 'local', 'local.yaml')[1] == []

    out = tmp_path / 'verdicts.json'
    proc = run(db, env, 'compare', '--last', '--json', str(out))
    assert proc.returncode == 0, proc.stderr
    assert 'acknowledged (known: the RAID rebuild): local:default ' \
        'fio_cache_flags direct write_median_mib_s' in proc.stdout
    doc = json.loads(out.read_text())
    mine, = [f for f in doc['figures'] if f['verdict'] == 'acknowledged']
    assert mine['ack']['night'] == night
    assert doc['acks']['in_force'] == 1 and doc['acks']['warnings'] == []

    proc = run(db, env, 'acks', '--stats')
    assert proc.returncode == 0, proc.stderr
    assert 'local:default             known' in proc.stdout
    assert 'local:default: 0 of 4 judged nights acknowledged as noise' in \
        proc.stdout


@pytest.mark.parametrize('text, said', [
    ('format: microbench acknowledgements\nversion: 1\nacks:\n- [', 'not '
     'YAML'),
    (GOOD.replace('2026-11-20', '2031-01-01'), 'night 2031-01-01 is not a '
     'night of local:default in the results storage'),
    (GOOD.replace('fio_*', 'no_such_check').replace('2026-11-20',
                                                    date(CHANGE)),
     'no figure of the results '
     'storage is local:default no_such_check'),
])
def test_bad_acks_warn_in_one_line_and_change_nothing(nights, tmp_path,
                                                      text, said):
    _, db, _ = nights
    (tmp_path / 'local.yaml').write_text(text)
    env = {'MICROBENCH_ACKS_DIR': str(tmp_path)}
    plain = run(db, {'MICROBENCH_ACKS_DIR': str(tmp_path / 'none')},
                'compare', '--last')
    proc = run(db, env, 'compare', '--last')
    assert proc.returncode == plain.returncode == 0
    assert proc.stdout == plain.stdout
    line, = proc.stderr.splitlines()
    assert line.startswith('microbench compare: warning: ') and said in line
    assert 'Traceback' not in proc.stderr
    check = run(db, env, 'acks', '--check')
    assert check.returncode == 2 and said in check.stdout


def test_ack_refuses_what_the_storage_does_not_have(nights, tmp_path):
    _, db, reports = nights
    env = {'MICROBENCH_ACKS_DIR': str(tmp_path)}
    base = ['ack', '--partition', 'local:default', '--check', WATCHED[0],
            '--figure', WATCHED[2], '--kind', 'noise', '--reason', 'x']
    proc = run(db, env, *base, '--night', '2031-01-01')
    assert proc.returncode == 2
    assert proc.stderr.startswith('microbench ack: error: the new entry: '
                                  'night 2031-01-01 is not a night')
    proc = run(db, env, *base[:-6], '--figure', 'nothing', '--kind',
               'noise', '--reason', 'x', '--night',
               session(reports, CHANGE))
    assert proc.returncode == 2 and 'no figure of the results storage' in \
        proc.stderr
    assert not list(tmp_path.iterdir())


def _utc_day(days=0):
    now = datetime.datetime.now(datetime.timezone.utc)
    return (now + datetime.timedelta(days=days)).strftime('%Y-%m-%d')


@pytest.mark.parametrize('expires, said', [
    (_utc_day(-1), f'--expires {_utc_day(-1)}: already past (today is '
                   f'{_utc_day()}, UTC)'),
    ('20270301', "expires '20270301' is not a date (YYYY-MM-DD)"),
    ('2027-W09-1', "expires '2027-W09-1' is not a date (YYYY-MM-DD)"),
    (_utc_day(), None),
])
def test_ack_refuses_an_expiry_already_past(nights, tmp_path, expires,
                                            said):
    '''An expiry day before today (UTC) would act nowhere: refused; today
    is the last day an entry is in force, so it is taken.'''
    _, db, reports = nights
    env = {'MICROBENCH_ACKS_DIR': str(tmp_path)}
    proc = run(db, env, 'ack', '--partition', 'local:default', '--check',
               WATCHED[0], '--figure', WATCHED[2], '--kind', 'noise',
               '--reason', 'x', '--night', session(reports, CHANGE),
               '--expires', expires, '--write')
    if said is None:
        assert proc.returncode == 0, proc.stderr
        assert f"expires: '{expires}'" in (tmp_path / 'local.yaml').read_text()
        return
    assert proc.returncode == 2 and proc.stdout == ''
    line, = proc.stderr.splitlines()
    assert line.startswith('microbench ack: error: ') and said in line
    assert not list(tmp_path.iterdir())
