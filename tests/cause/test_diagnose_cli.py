'''``microbench diagnose`` up to its A/B, on a results storage of nights
made from a real recorded night (tests/cause/diagnose_cases.py): 16 nights
on the planted-a stack, then one on the planted-b stack whose O_DIRECT
write figure is halved: one event, classed from its records as a
software change.

- the plan names the night-before stack (planted-a's environment) as A and
  tonight's (planted-b's) as B, runs the event's check, and is an A/A
  where both nights ran the same stack;
- bad input is one line and exit 2, and nothing is stored (no diagnosis,
  no A/B storage): a compare JSON that is not one, an event that is not
  in it (the events it holds listed), a night-before stack that is no
  longer installed, neither an event nor ``--events``;
- ``--events new-software`` selects the new regression whose records show
  a software change, ``--events all`` every event.
'''

import argparse
import datetime
import os
import shutil
import subprocess

import pytest

from microbench.cause import diagnose
from microbench.verdicts import compare_json

from diagnose_cases import CHANGE, bed_of, digest
from nights import MICROBENCH, START
from witness_tally import one_line


@pytest.fixture(scope='module')
def bed(tmp_path_factory):
    return bed_of(str(tmp_path_factory.mktemp('software')))


def event_of(verdicts):
    event, = compare_json.read(verdicts).events
    return event


def args_of(db, verdicts, root, **given):
    return argparse.Namespace(**{
        'db': db, 'event': None, 'events': None, 'verdicts': verdicts,
        'a': None, 'mode': 'quick', 'diagnoses': None, 'ab_db': None,
        'stacks': os.path.join(root, 'nowhere'), 'setvars': [],
        'job_options': [], 'first': 3, 'batch': 3, 'cap': None, **given})


def test_the_event_is_a_software_change_of_its_records(bed):
    _, verdicts, _ = bed
    event = event_of(verdicts)
    assert event['cause'] == 'software' and event['new']
    assert set(event['differences']) >= {'tool_path', 'spack_lock'}
    assert event['diagnosis'] is None


def test_the_plan_runs_the_night_before_stack_against_tonights(bed):
    db, verdicts, stacks = bed
    found = compare_json.read(verdicts)
    plan = diagnose.Plan(args_of(db, verdicts, os.path.dirname(db)),
                         found, found.events[0])
    assert (plan.a, plan.b, plan.aa) == (stacks['planted-a'],
                                         stacks['planted-b'], False)
    assert plan.checks == ['fio_cache_flags'] and plan.left_out == []
    assert plan.before.lock == digest('planted-a')
    assert plan.tonight.lock == digest('planted-b')
    assert plan.ab_db == os.path.join(os.path.dirname(db), 'ab.db')
    ab = diagnose.ab_args(args_of(db, verdicts, os.path.dirname(db)), plan,
                          'x.json')
    assert (ab.a, ab.b, ab.aa, ab.system) == (
        stacks['planted-a'], stacks['planted-b'], False, 'local:default')


def test_the_same_stack_both_nights_is_an_aa(tmp_path):
    db, verdicts, stacks = bed_of(str(tmp_path), same=True)
    found = compare_json.read(verdicts)
    event = found.events[0]
    assert event['cause'] == 'nothing recorded'
    plan = diagnose.Plan(args_of(db, verdicts, str(tmp_path)), found, event)
    assert plan.aa and plan.a == plan.b == stacks['planted-a']
    ab = diagnose.ab_args(args_of(db, verdicts, str(tmp_path)), plan, 'x')
    assert ab.aa and ab.b is None


def run(db, *args):
    return subprocess.run([MICROBENCH, '--db', db, 'diagnose', *args],
                          capture_output=True, text=True, timeout=600)


def nothing_stored(db):
    where = os.path.dirname(db)
    assert not os.path.exists(os.path.join(where, 'diagnoses'))
    assert not os.path.exists(os.path.join(where, 'ab.db'))
    assert not os.path.exists(os.path.join(where, 'ab-runs'))


def refused(proc, *words):
    assert proc.returncode == 2, proc.stdout + proc.stderr
    line = proc.stderr.strip()
    one_line(line)
    assert line.startswith('microbench diagnose: error: '), line
    for word in words:
        assert word in line, line
    return line


def test_a_compare_json_that_is_not_one(bed, tmp_path):
    db, _, _ = bed
    bad = tmp_path / 'ab.json'
    bad.write_text('{"format": "microbench ab", "version": 1}')
    refused(run(db, 'ev-000000000000', '--verdicts', str(bad)), str(bad),
            'not the JSON of microbench compare')
    nothing_stored(db)


def test_an_event_that_is_not_there(bed):
    db, verdicts, _ = bed
    event = event_of(verdicts)['fingerprint']
    wrong = event[:-1] + ('0' if event[-1] != '0' else '1')
    refused(run(db, wrong, '--verdicts', verdicts), f'no event {wrong} in '
            f'{verdicts}', f'did you mean {event}?', 'its events: '
            f'{event} (regression, local:default since')
    nothing_stored(db)


def test_a_night_before_stack_no_longer_installed(tmp_path):
    db, verdicts, stacks = bed_of(str(tmp_path))
    shutil.move(stacks['planted-a'], str(tmp_path / 'gone'))
    event = event_of(verdicts)['fingerprint']
    line = refused(run(db, event, '--verdicts', verdicts, '--stacks',
                       str(tmp_path / 'stacks')),
                   "the night before's stack (lock "
                   f'{digest("planted-a")[:12]}', 'is no longer installed',
                   'MICROBENCH_STACKS', 'Keeping stacks')
    assert f'{stacks["planted-a"]} is gone' in line
    nothing_stored(db)


def test_an_event_or_a_selection(bed):
    db, verdicts, _ = bed
    refused(run(db, '--verdicts', verdicts), 'name one EVENT, or --events')
    nothing_stored(db)


def test_the_selections(bed):
    _, verdicts, _ = bed
    found = compare_json.read(verdicts)
    event = found.events[0]
    assert diagnose.selected(found, 'all') == [event]
    assert diagnose.selected(found, 'new-software') == [event]
    found.events[0] = {**event, 'cause': 'machine'}
    assert diagnose.selected(found, 'new-software') == []


def test_a_pre_post_comparison_names_the_event_and_its_stacks(bed, tmp_path):
    '''Before: the nights on planted-a (a time period); after: the last
    night on planted-b.  What changed in the partition is one event, its
    night the after side's first session; diagnose's plan runs the before
    side's last stack against the after side's.'''
    db, verdicts, stacks = bed
    last = compare_json.read(verdicts).session
    start = datetime.datetime.fromtimestamp(START, datetime.timezone.utc)
    until = start + datetime.timedelta(days=CHANGE)
    prepost = str(tmp_path / 'prepost.json')
    proc = subprocess.run([MICROBENCH, '--db', db, 'compare',
                           f'{start:%Y%m%d}:{until:%Y%m%d}', last, '--json',
                           prepost], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    found = compare_json.read(prepost)
    event, = found.events
    assert event['night'] == last and event['cause'] == 'software'
    assert [m['check'] for m in event['members']] == ['fio_cache_flags']
    plan = diagnose.Plan(args_of(db, prepost, str(tmp_path)), found, event)
    assert (plan.a, plan.b) == (stacks['planted-a'], stacks['planted-b'])
