'''An event keeps its identity from its first night, on nights made from a
real recorded session (tests/data/results/fio-quick-limits.json: the fio
checks on the local default, tests/helpers/changes.py): the O_DIRECT
write figure halved from night N, the O_SYNC write figure halved from
night N + 1.

- the fingerprint, the night and the date of the event on night N are
  those of night N + 1, when the second figure has joined it, and of
  night N + 2; the member that joined is listed under it with its own
  night, and joins without a new alarm;
- ``microbench ack --event`` with the fingerprint compare gave on night
  N names the event in night N + 1's compare JSON, both members;
- the fingerprint is a function of the partition and the first night
  only.
'''

import json
import os
import subprocess

import pytest

from microbench.verdicts import events, figures, storage, triage

from changes import CHANGE, WATCHED, drop, history, session
from nights import MICROBENCH

#: The figure that joins a night later
JOINS = ('fio_cache_flags', 'sync', 'write_median_mib_s')


def joins(case):
    return (case['display_name'].split()[0], case.get('variant')) == \
        JOINS[:2]


def scale(index, case):
    '''The watched figure halved from night CHANGE, the joining one from
    night CHANGE + 1.'''
    first, then = drop(0.5)(index, case), drop(0.5, CHANGE + 1,
                                              which=joins)(index, case)
    return first * then


@pytest.fixture(scope='module')
def reports():
    return history(CHANGE + 3, scale)


def judged(reports, index):
    found = triage.judge(figures.frame(reports[:index + 1]), found=[])
    event, = found.events
    return found, event


def member(event, names):
    return next(m for m in event['members']
                if (m['check'], m['variant'], m['figure']) == names)


def test_a_figure_that_joins_later_keeps_the_fingerprint(reports):
    found, first = judged(reports, CHANGE)
    assert [(m['check'], m['variant'], m['figure'])
            for m in first['members']] == [WATCHED]
    assert first['verdict'] == 'regression' and found.exit_code == 1
    assert first['night'] == session(reports, CHANGE)

    found, then = judged(reports, CHANGE + 1)
    assert len(then['members']) == 2
    assert then['fingerprint'] == first['fingerprint']
    assert then['night'] == first['night'] and then['date'] == first['date']
    joined = member(then, JOINS)
    assert joined['since_session'] == session(reports, CHANGE + 1)
    assert member(then, WATCHED)['since_session'] == session(reports,
                                                             CHANGE)
    # one alarm per event: the member that joins is no new one
    assert joined['verdict'] == 'degraded' and found.exit_code == 0
    row = next(r for r in found.figures
               if (r['check'], r['variant'], r['figure']) == JOINS)
    assert row['event'] == first['fingerprint']
    assert row['why'].startswith('joins the event since ')

    _, later = judged(reports, CHANGE + 2)
    assert later['fingerprint'] == first['fingerprint']


def test_the_fingerprint_is_the_partition_and_the_first_night():
    one = events.fingerprint('local', 'default', 's-1')
    assert one == events.fingerprint('local', 'default', 's-1')
    assert one.startswith('ev-') and len(one) == 15
    assert len({one, events.fingerprint('local', 'other', 's-1'),
                events.fingerprint('local', 'default', 's-2'),
                events.fingerprint('other', 'default', 's-1')}) == 4


def test_the_event_is_named_by_its_earliest_night_whatever_the_order():
    rows = [{'since_session': night, 'verdict': 'degraded'}
            for night in ('n2', 'n0', 'n1')]
    (night, members), = events._clusters(rows, ['n0', 'n1', 'n2', 'n3'])
    assert night == 'n0' and len(members) == 3


def run(db, env, *args):
    proc = subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc


def test_an_ack_of_the_first_nights_fingerprint_names_it_the_next_night(
        reports, tmp_path):
    db = tmp_path / 'results.db'
    env = {'MICROBENCH_ACKS_DIR': str(tmp_path / 'acks')}
    for report in reports[:CHANGE + 1]:
        storage.store(str(db), report)
    tonight = tmp_path / 'compare-n.json'
    proc = run(db, env, 'compare', '--last', '--json', str(tonight))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    fingerprint, = [e['fingerprint'] for e in
                    json.loads(tonight.read_text())['events']]

    storage.store(str(db), reports[CHANGE + 1])
    later = tmp_path / 'compare-n1.json'
    proc = run(db, env, 'compare', '--last', '--json', str(later))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f'event {fingerprint}: ' in proc.stdout
    assert f'{JOINS[0]} {JOINS[1]} {JOINS[2]}: degraded' in proc.stdout
    assert ', joined: its change began ' in proc.stdout

    proc = run(db, env, 'ack', '--partition', 'local:default', '--event',
               fingerprint, '--verdicts', str(later), '--kind', 'known',
               '--reason', 'the RAID rebuild')
    assert proc.returncode == 0, proc.stderr
    added = [line for line in proc.stdout.splitlines()
             if line.startswith('+  variant: ')]
    assert sorted(added) == ['+  variant: direct', '+  variant: sync']
    assert f'+  night: {session(reports, CHANGE)}' in proc.stdout
