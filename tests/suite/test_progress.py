'''What a rounds job says while it runs (microbench/suite/progress.sh and
progress.py): the benchmark lock it waits for, whose it is and since when,
and each sample as it ends; run by bash for real, two jobs on one lock of
the test's own.  Then the reader of the progress file on real lines,
generated and mutated: every bad line is one event naming the file and the
line, never an exception.

No test here waits for a time to pass: each waits (with a generous
deadline) for what the job writes.
'''

import os
import shutil
import signal
import socket
import subprocess
import time

from hypothesis import given, settings
from hypothesis import strategies as st

import mutations
from microbench import paths
from microbench.suite import progress, records, skeleton
from microbench.suite.rounds import SKELETON

BASH = shutil.which('bash')
DEADLINE = 120


def job(tmp, lock, name, command='true', samples=2, reminder=300):
    '''A rounds job script in ``tmp`` (made) on lock file ``lock``.'''
    tmp.mkdir(exist_ok=True)
    lines = skeleton.job_lines({
        'tool': 'sh', 'job_name': name, 'samples': samples, 'tools': ['sh'],
        'variants': ['a', 'b'], 'outputs': ['out.txt'],
        'commands': {'a': command, 'b': 'sh -c "echo b > out.txt"'},
        'lock_file': str(lock), 'lock_reminder_s': reminder,
        'progress_file': progress.FILE, 'run_by': f'the test {name}',
    }, source=SKELETON)
    script = tmp / 'job.sh'
    script.write_text('\n'.join([*lines, 'rounds_run', '']))
    return script


def start(tmp, script):
    return subprocess.Popen([BASH, str(script)], cwd=tmp, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def until(what, condition):
    '''Wait for ``condition()`` to hold, at most :data:`DEADLINE` s.'''
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f'never: {what}'
        time.sleep(0.05)


def events(tmp):
    return progress.Follower(str(tmp / progress.FILE)).events()


def finish(proc):
    out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0, err
    return records.parse(out)


def test_a_waiting_job_says_whose_lock_since_when_and_when_it_took_it(
        tmp_path):
    lock = tmp_path / 'microbench.lock'
    holder_dir, waiter_dir = tmp_path / 'holder', tmp_path / 'waiter'
    # the holder's first sample runs until the test says go
    holder = start(holder_dir, job(
        holder_dir, lock, 'holder_rounds', samples=1,
        command='sh -c "until [ -e go ]; do sleep 0.05; done"'))
    until('the holder writes its line', lambda: lock.exists()
          and lock.read_text().count('\t') == 3)
    since, pid, host, who = lock.read_text().rstrip('\n').split('\t')
    assert (int(pid), host) == (holder.pid, socket.gethostname())
    assert who == 'holder_rounds of the test holder_rounds'

    waiter = start(waiter_dir, job(waiter_dir, lock, 'waiter_rounds',
                                   reminder=1))
    until('a reminder of the wait', lambda: sum(
        e.kind == 'lock_wait' for e in events(waiter_dir)) >= 2)
    (holder_dir / 'go').touch()
    finish(holder)
    recs = finish(waiter)

    found = events(waiter_dir)
    kinds = [e.kind for e in found]
    first = found[0]
    assert kinds[0] == 'lock_wait' and first.fields['waited'] == 0
    assert first.fields['lock'] == str(lock)
    assert first.fields['since'] == int(since)
    assert first.fields['holder'] == (f'holder_rounds of the test '
                                      f'holder_rounds (pid {holder.pid} on '
                                      f'{host})')
    assert found[1].kind == 'lock_wait' and found[1].fields['waited'] >= 1
    taken = kinds.index('lock_taken')
    assert set(kinds[:taken]) == {'lock_wait'}
    assert found[taken].fields['waited'] >= 1
    # then every sample, round-robin
    assert [(e.fields['variant'], e.fields['round'], e.fields['rounds'])
            for e in found[taken + 1:]] == [('a', 1, 2), ('b', 1, 2),
                                            ('a', 2, 2), ('b', 2, 2)]
    tag, said = progress.words(first)
    assert tag == 'LOCK'
    assert said.startswith(f'waits for the benchmark lock {lock}, held '
                           f'since ')
    assert said.endswith(f' ago) by holder_rounds of the test holder_rounds '
                         f'(pid {holder.pid} on {host})')
    assert progress.words(found[taken])[1].startswith(
        f'took the benchmark lock {lock} after ')
    # the job's records keep the wait, and the lock's line goes with it
    assert recs['lock_wait'][0].startswith(
        f'{lock}: held by holder_rounds of the test holder_rounds (pid '
        f'{holder.pid} on {host}) since ')
    assert int(recs['lock_waited'][0]) >= 1
    assert lock.read_text() == ''


def by_hand_flock(lock, seconds):
    '''``flock LOCK sleep SECONDS`` in a process group of its own (the
    sleep holds the lock too).'''
    return subprocess.Popen(['flock', str(lock), 'sleep', seconds],
                            start_new_session=True)


def stop(by_hand):
    os.killpg(by_hand.pid, signal.SIGKILL)
    by_hand.wait()


def _wait_for_holder_words(tmp_path, lock):
    '''What a job waiting for ``lock`` says of its holder.'''
    waiter = start(tmp_path / 'waiter', job(tmp_path / 'waiter', lock,
                                            'waiter_rounds'))
    until('the wait', lambda: any(e.kind == 'lock_wait'
                                  for e in events(tmp_path / 'waiter')))
    return waiter, events(tmp_path / 'waiter')[0].fields


def test_a_lock_taken_by_hand_is_named_by_its_process(tmp_path):
    lock = tmp_path / 'microbench.lock'
    by_hand = by_hand_flock(lock, '117')
    try:
        until('the flock', lambda: lock.exists() and subprocess.run(
            ['flock', '-n', str(lock), 'true']).returncode)
        waiter, fields = _wait_for_holder_words(tmp_path, lock)
        assert fields['since'] == '-'
        assert fields['holder'] == f'pid {by_hand.pid}: flock {lock} sleep 117'
    finally:
        stop(by_hand)
    finish(waiter)


def test_a_line_its_holder_left_is_said_to_be_stale(tmp_path):
    lock = tmp_path / 'microbench.lock'
    ended = subprocess.run(['sh', '-c', 'echo $$'], capture_output=True,
                           text=True).stdout.strip()
    host = socket.gethostname()
    lock.write_text(f'1700000000\t{ended}\t{host}\tgone_rounds\n')
    by_hand = by_hand_flock(lock, '118')
    try:
        until('the flock', lambda: subprocess.run(
            ['flock', '-n', str(lock), 'true']).returncode)
        waiter, fields = _wait_for_holder_words(tmp_path, lock)
        assert fields['since'] == 1700000000
        assert fields['holder'].startswith(
            f'gone_rounds (pid {ended} on {host}), which has ended: ')
    finally:
        stop(by_hand)
    finish(waiter)


def test_a_free_lock_is_taken_without_a_word(tmp_path):
    lock = tmp_path / 'microbench.lock'
    recs = finish(start(tmp_path, job(tmp_path, lock, 'alone_rounds')))
    assert 'lock_wait' not in recs and recs['lock'] == [str(lock)]
    assert [e.kind for e in events(tmp_path)] == ['sample'] * 4


def test_a_failed_sample_and_a_warm_up_round_are_said(tmp_path):
    lock = tmp_path / 'microbench.lock'
    script = job(tmp_path, lock, 'fails_rounds', command='exit 3')
    text = script.read_text().replace('rounds_begin',
                                      'warmup_rounds=1\nrounds_begin')
    script.write_text(text)
    finish(start(tmp_path, script))
    said = [progress.words(e, lambda variant, number: f'figures of '
                           f'{variant} {number}')[1]
            for e in events(tmp_path)]
    assert [line.rsplit(' (', 1)[0] for line in said] == [
        'a, warm-up round 1 of 1: failed (exit code 3): the variant runs '
        'no more',
        'b, warm-up round 1 of 1: figures of b warmup1',
        'b, round 1 of 2: figures of b 1', 'b, round 2 of 2: figures of b 2']


# -- the reader ---------------------------------------------------------------

#: The progress files of two real ReFrame runs that waited for the lock
#: (tests/data/README.md)
REAL = {name: os.path.join(paths.ROOT, 'tests', 'data', 'progress', name)
        for name in ('fio_fallocate-waited.txt',
                     'fio_time_based_overwrite-waited.txt')}


def test_the_real_progress_of_runs_that_waited():
    fallocate = progress.Follower(REAL['fio_fallocate-waited.txt']).events()
    assert [e.kind for e in fallocate] == [
        'lock_wait', 'lock_wait', 'lock_taken', 'witness', 'witness',
        *['sample'] * 6]
    said = [progress.words(e, lambda v, n: f'{v} {n}')[1] for e in fallocate]
    assert said[0].startswith('waits for the benchmark lock '
                              '/tmp/microbench-0.lock, held since ')
    assert ' (1 min 3 s ago) by component_limits_rounds_f31aa88d of ' \
        'reframe pid 2343 on vm: reframe -c ' in said[0]
    assert said[1].startswith('still waits for the benchmark lock '
                              '/tmp/microbench-0.lock (5 min 0 s so far), ')
    assert said[2] == ('took the benchmark lock /tmp/microbench-0.lock '
                       'after 8 min 10 s')
    assert said[3] == 'default: the witness ran (1.6 s)'
    assert said[5] == 'default, round 1 of 3: default 1 (2.6 s)'
    overwrite = progress.Follower(
        REAL['fio_time_based_overwrite-waited.txt']).events()
    # it waited for the job of the other run, started just before it
    assert overwrite[0].fields['holder'].startswith(
        "fio_fallocate_rounds_f31aa88d of reframe pid 5359 on vm: reframe "
        "-c /work/main/reframe_tests -n '^fio_fallocate' ")
    assert [(e.fields['variant'], e.fields['round']) for e in overwrite
            if e.kind == 'sample'] == [
        (variant, number) for number in (1, 2, 3)
        for variant in ('large', 'small')]

def real_progress(tmp_path_factory):
    '''The progress file of a real job (its lines as progress.sh writes
    them).'''
    tmp = tmp_path_factory.mktemp('real')
    finish(start(tmp, job(tmp, tmp / 'lock', 'real_rounds', samples=3)))
    return (tmp / progress.FILE).read_bytes()


def test_the_reader_reads_what_the_job_wrote_as_it_grows(tmp_path_factory,
                                                         tmp_path):
    data = real_progress(tmp_path_factory)
    path = tmp_path / progress.FILE
    follower = progress.Follower(str(path))
    assert follower.events() == []      # not written yet
    got = []
    # the job's lines arrive in pieces: a line is read once it is whole
    for at in range(0, len(data), 7):
        with open(path, 'ab') as fp:
            fp.write(data[at:at + 7])
        got += follower.events()
    assert [e.kind for e in got] == ['sample'] * 6
    assert all(e.end >= e.fields['start'] > 1.6e9 for e in got)


@settings(mutations.MUTATIONS)
@given(data=st.data())
def test_every_mutated_line_is_one_event_naming_the_file_and_line(
        tmp_path_factory, data):
    which = data.draw(st.sampled_from(['generated', *sorted(REAL)]))
    if which == 'generated':
        real = real_progress_once(tmp_path_factory)
    else:
        with open(REAL[which], 'rb') as fp:
            real = fp.read()
    mutation = data.draw(st.sampled_from(
        [mutations.cut, mutations.garbage, mutations.non_utf8,
         mutations.dup_line, mutations.drop_line]))
    _, mutated = mutation(data.draw, real)
    path = tmp_path_factory.mktemp('mutated') / progress.FILE
    path.write_bytes(mutated)
    found = progress.Follower(str(path)).events()
    assert len(found) == mutated.count(b'\n')
    for number, event in enumerate(found, 1):
        if event.kind == 'bad':
            assert event.fields['why'].startswith(f'{path}, line {number}: ')
        else:
            assert event.kind in progress.FIELDS
            tag, said = progress.words(event)
            assert tag == progress.TAGS[event.kind] and '\n' not in said


_REAL = []


def real_progress_once(tmp_path_factory):
    if not _REAL:
        _REAL.append(real_progress(tmp_path_factory))
    return _REAL[0]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_are_events_never_an_exception(tmp_path_factory, data):
    path = tmp_path_factory.mktemp('bytes') / progress.FILE
    path.write_bytes(data)
    for event in progress.Follower(str(path)).events():
        tag, said = progress.words(event, lambda *_: 'figures')
        assert tag in progress.TAGS.values() and said


@settings(max_examples=100, deadline=None)
@given(kind=st.sampled_from(sorted(progress.FIELDS)),
       values=st.lists(st.text(st.characters(blacklist_characters='\t\n'),
                               max_size=12), max_size=7))
def test_generated_lines_parse_or_say_why(kind, values):
    line = '\t'.join(['1700000000.5', kind, *values])
    try:
        event = progress.parse(line)
    except ValueError as err:
        assert str(err)
    else:
        assert len(event.fields) == len(progress.FIELDS[kind])
        assert progress.words(event, lambda *_: 'figures')[1]


def test_a_line_too_long_is_one_bad_event_and_the_next_is_read(tmp_path):
    path = tmp_path / progress.FILE
    follower = progress.Follower(str(path))
    good = b'1700000000.5\tlock_taken\t/tmp/l\t3\n'
    with open(path, 'wb') as fp:
        fp.write(b'x' * (progress.LONGEST_LINE + 10))
    first = follower.events()
    with open(path, 'ab') as fp:
        fp.write(b'y' * 100 + b'\n' + good)
    second = follower.events()
    assert [e.kind for e in first] == ['bad']
    assert 'line 1: longer than 4096 bytes' in first[0].fields['why']
    assert [e.kind for e in second] == ['lock_taken']


def test_a_figure_without_a_unit_says_so():
    assert progress.figure_words({'write': 1030.25}, {'write': 'MiB/s'}) \
        == 'write 1030 MiB/s'
    assert progress.figure_words({'read': 12.345}, {}) == (
        'read 12.35 (no unit known to the rounds job: its check reports '
        'them)')


def test_durations():
    assert [progress.duration(s) for s in (3.21, 35, 75, 7322)] == \
        ['3.2 s', '35 s', '1 min 15 s', '2 h 2 min']
