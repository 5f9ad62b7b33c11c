'''End to end: what a person running ``reframe ... -r`` sees while a rounds
job runs (microbench/suite/progress.sh and progress.py): the real fio,
through ReFrame, on the local default.

The test holds the benchmark lock itself, as a suite job would (its holder
line written into the lock file), until the console of the ReFrame run
says whose lock it waits for and since when: live, the job still
waiting.  Then it lets it go; the console must say that the job took it,
and every sample as it ends with its figure in its unit, in the order
they ran, before ReFrame ends the rounds job.
'''

import fcntl
import os
import re
import shutil
import socket
import subprocess
import threading
import time

import pytest

import project

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]

#: The benchmark lock of this user on this node (progress.sh)
LOCK = f'/tmp/microbench-{os.getuid()}.lock'
DEADLINE = 900


def reframe(tmp):
    '''``reframe ... -r`` of fio_fallocate (2 samples), started.'''
    env = {**os.environ, 'RFM_CONFIG_FILES': project.CONFIG,
           'RFM_SQLITE_DB_FILE': str(tmp / 'results.db'),
           'MICROBENCH_REFERENCES': project.NO_USER_REFERENCES}
    return subprocess.Popen(
        [project.REFRAME, '-c', project.CHECKS_DIR, '-n', '^fio_fallocate',
         '--mode', 'quick', '-S', 'samples=2', '-S',
         f'scratch_dir={tmp}/scratch', '-r', '--prefix', str(tmp),
         '--perflogdir', str(tmp / 'perflogs'), '--report-file',
         str(tmp / 'report.json')],
        env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)


def console(run):
    '''(the lines of ``run``'s console as they come, the thread that
    reads them: it ends with the run).'''
    lines = []

    def read():
        for line in run.stdout:
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return lines, reader


def test_the_console_says_the_lock_it_waits_for_and_every_sample(tmp_path):
    host = socket.gethostname()
    with open(LOCK, 'a+') as lock:
        # another run's benchmark may hold it: the test waits its turn
        fcntl.flock(lock, fcntl.LOCK_EX)
        since = int(time.time())
        with open(LOCK, 'w') as line:
            line.write(f'{since}\t{os.getpid()}\t{host}\tthe progress test\n')
        run = reframe(tmp_path)
        lines, reader = console(run)
        deadline = time.monotonic() + DEADLINE
        while not any(line.startswith('[ LOCK') for line in lines):
            assert run.poll() is None, ''.join(lines)[-3000:]
            assert time.monotonic() < deadline, 'never said it waits'
            time.sleep(0.2)
        with open(LOCK, 'w'):
            pass
        fcntl.flock(lock, fcntl.LOCK_UN)
    assert run.wait(timeout=DEADLINE) == 0, ''.join(lines)[-3000:]
    reader.join(timeout=60)
    out = ''.join(lines)

    said = [line for line in out.splitlines()
            if line.startswith(('[ LOCK', '[ SAMPLE', '[ WITNESS'))]
    name = 'fio_fallocate_rounds ~local:default+builtin'
    assert said[0] == (
        f'[ LOCK     ] {name}: waits for the benchmark lock {LOCK}, held '
        f'since {time.strftime("%H:%M:%S", time.localtime(since))} '
        f'({said[0].split(" (", 1)[1].split(" ago)")[0]} ago) by the '
        f'progress test (pid {os.getpid()} on {host})')
    # another run's job may take the lock first once the test lets it go:
    # this one says it still waits, then that it took it
    took = next(i for i, line in enumerate(said) if ': took the' in line)
    assert all(': still waits for the benchmark lock ' in line
               for line in said[1:took])
    assert re.fullmatch(rf'\[ LOCK     \] {re.escape(name)}: took the '
                        rf'benchmark lock {LOCK} after .+', said[took])
    samples = [line for line in said if line.startswith('[ SAMPLE')]
    assert [re.sub(r': write [\d.]+ MiB/s \([\d.]+ s\)$', '', line)
            for line in samples] == [
        f'[ SAMPLE   ] {name}: {variant}, round {number} of 2'
        for number in (1, 2) for variant in ('default', 'none')]
    # live: every line before the rounds job's end on the console
    finished = out.index(f'] (1/4) {name}')
    assert all(out.index(line) < finished for line in said)
