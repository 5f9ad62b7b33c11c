'''S7's figures and witness: the node's CPU over a sample
(microbench.suite.cpu), the polling check's samples and its polling
threads' ticks (microbench.tools.fio.polling), on real outputs of
fio_completion_polling (fio 3.40, io_uring, on this machine's virtio disk),
and the helper polling.sh run on known inputs: a thread named as io_uring
names its poller, spinning for a known time.'''

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from microbench.suite import cpu
from microbench.suite.output import OutputError
from microbench.tools.fio import polling

from fixtures import fio_options, text

SQPOLL, INTERRUPT = ('fio/suite-polling-sqpoll.json',
                     'fio/suite-polling-interrupt.json')


def test_the_nodes_cpu_over_a_sample():
    node = cpu.parse(text('polling/cpu-sqpoll.txt'))
    # 2 CPUs; over the sample 479 ticks passed, 414 of them busy
    assert node == cpu.CpuTime(2, 414, 479, 100)
    assert cpu.busy_cores(node) == pytest.approx(1.7286, abs=1e-4)
    node = cpu.parse(text('polling/cpu-interrupt.txt'))
    assert cpu.busy_cores(node) == pytest.approx(0.3167, abs=1e-4)


@pytest.mark.parametrize('name, cpu_file, busy', [
    (SQPOLL, 'polling/cpu-sqpoll.txt', 1.7286),
    (INTERRUPT, 'polling/cpu-interrupt.txt', 0.3167)])
def test_a_sample_gives_iops_busy_cores_and_their_ratio(name, cpu_file,
                                                       busy):
    run = polling.parse_sample(text(name), text(cpu_file), fio_options(name))
    # fio's own IOPS of the read: io_bytes over 4 KiB over the runtime
    said = json.loads(text(name))['jobs'][0]['read']['iops']
    assert run.figures['read'] == pytest.approx(said, rel=1e-6)
    assert run.figures['busy'] == pytest.approx(busy, abs=1e-4)
    assert run.figures['per_core'] == pytest.approx(
        run.figures['read'] / run.figures['busy'])


def test_a_sample_is_held_to_what_was_asked():
    asked = {**fio_options(SQPOLL), 'iodepth': '16'}
    with pytest.raises(OutputError, match='iodepth=32, not the asked '
                                          'iodepth=16'):
        polling.parse_sample(text(SQPOLL), text('polling/cpu-sqpoll.txt'),
                             asked)


def test_the_polling_thread_of_sqpoll_and_none_of_interrupt():
    node, threads = polling.parse_threads(text('polling/threads-sqpoll.txt'))
    # iou-sqp-4275 ran 93 ticks (stime) of the 1 s witness; its schedstat
    # says 936 ms
    assert threads == [polling.Thread(4279, 'iou-sqp-4275', 93)]
    assert node.cpus == 2
    _, threads = polling.parse_threads(text('polling/threads-interrupt.txt'))
    assert threads == []


def test_fio_reports_its_jobs_cpu_not_the_pollers():
    said = polling.fio_cpu(text('fio/suite-polling-witness-sqpoll.json'))
    assert said == pytest.approx(92.707292)


def _edited(name, old, new):
    found = text(name)
    assert old in found
    return found.replace(old, new, 1)


def test_what_does_not_add_up_is_rejected():
    threads = 'polling/threads-sqpoll.txt'
    # the stat line's system time against its schedstat run time
    with pytest.raises(OutputError, match='ran 93.6 ticks by its schedstat '
                                          'but 50 by its stat line'):
        polling.parse_threads(_edited(threads, ' 0 93 0 0 ', ' 0 50 0 0 '))

    # a CPU's ticks against the node's line, read at once
    with pytest.raises(OutputError, match="cpu line's user \\(after\\)"):
        cpu.parse(_edited('polling/cpu-sqpoll.txt', 'cpu0 187783',
                          'cpu0 107783'))

    # counters going back: the readings after, then before
    rows = text('polling/cpu-sqpoll.txt').splitlines(keepends=True)
    swapped = [rows[0], *rows[5:8], rows[4], *rows[1:4], *rows[8:]]
    with pytest.raises(OutputError, match='cpu user went from 450015 to '
                                          '449800 ticks'):
        cpu.parse(''.join(swapped))

    # cut before its end, or another section
    found = text('polling/cpu-sqpoll.txt')
    with pytest.raises(OutputError, match='not "## end"'):
        cpu.parse(found.replace('## end\n', ''))

    with pytest.raises(OutputError, match='the sections are'):
        cpu.parse(text(threads))

    with pytest.raises(OutputError, match='no stat line of an iou-sqp'):
        polling.parse_threads(_edited(threads, '## end',
                                      'fio: pid=4275, err=5/\n## end'))


HELPER = polling.HELPER

#: A thread that calls itself what io_uring calls its submission-queue
#: poller, and spins for 1 s, in a process that waits for it
SPINNER = '''
import ctypes, os, threading, time
def spin():
    name = ('iou-sqp-%d' % os.getpid()).encode()
    ctypes.CDLL(None).prctl(15, name, 0, 0, 0)
    end = time.monotonic() + 1
    while time.monotonic() < end:
        pass
thread = threading.Thread(target=spin)
thread.start()
thread.join()
'''


def _helper(*argv, cwd):
    return subprocess.run(['bash', HELPER, *argv], cwd=cwd,
                          capture_output=True, text=True)


def test_a_polling_threads_ticks_are_counted(tmp_path):
    done = _helper('threads', 'out.txt', sys.executable, '-c', SPINNER,
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    node, threads = polling.parse_threads((tmp_path / 'out.txt').read_text())
    assert len(threads) == 1
    assert re.fullmatch(r'iou-sqp-\d+', threads[0].name)
    # it spun 1 s (seen up to 0.1 s before it ended): a core's ticks
    assert 0.7 * node.clk_tck <= threads[0].ticks <= 1.1 * node.clk_tck
    # and the node saw a core busy at least for that second
    assert node.busy >= 0.7 * node.clk_tck


def test_a_sleeping_command_has_no_polling_thread_and_its_status_is_kept(
        tmp_path):
    done = _helper('threads', 'out.txt', 'sh', '-c', 'sleep 0.3; exit 3',
                   cwd=tmp_path)
    assert done.returncode == 3
    node, threads = polling.parse_threads((tmp_path / 'out.txt').read_text())
    assert threads == []
    # 0.3 s on every CPU of the node, at least
    assert node.total >= 0.3 * node.clk_tck * node.cpus * 0.9
    done = _helper('cpu', 'cpu.txt', 'sleep', '0.2', cwd=tmp_path)
    assert done.returncode == 0
    cpu.parse((tmp_path / 'cpu.txt').read_text())


@pytest.mark.skipif(shutil.which('findmnt') is None,
                    reason='findmnt is missing (util-linux)')
def test_the_device_under_a_directory(tmp_path):
    said = _helper('device', str(tmp_path), cwd=tmp_path).stdout.strip()
    # a disk and its poll queues (0 or 1), or why there is none
    assert re.fullmatch(r'\S+ io_poll=(0|1|unknown)|none \(.*\)', said), said
    if os.path.isdir('/dev/shm'):
        shm = _helper('device', '/dev/shm', cwd=tmp_path).stdout.strip()
        assert shm == 'none (the scratch is on tmpfs, no block device)'
