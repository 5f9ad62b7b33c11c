'''S7's figures and witness: the node's CPU over a sample
(microbench.suite.cpu), the polling check's samples and its polling
threads' ticks (microbench.tools.fio.polling), on real outputs of
fio_completion_polling (fio 3.33, io_uring, on this machine's virtio disk),
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
from microbench.tools.fio import polling, polling_files

from fixtures import fio_options, text

#: Real samples of fio_completion_polling (fio 3.33 here; each fio JSON
#: and its CPU file, as polling.sh wrote it)
SQPOLL, INTERRUPT = ('fio/polling-sqpoll-1.json',
                     'fio/polling-interrupt-1.json')


def test_the_nodes_cpu_over_a_sample():
    node = cpu.parse(text('polling/cpu-sqpoll-1.txt'), variant='sqpoll')
    # 2 CPUs; over the sample 471 ticks passed, 470 of them busy (the
    # machine was busy with other work too)
    assert node[:5] == (2, 470, 471, 100, 'sqpoll')
    assert node.per_cpu == ((236, 236), (236, 237))
    assert cpu.busy_cores(node) == pytest.approx(1.9958, abs=1e-4)
    # the ticks span 2.355 s, the clock 2.363 s
    assert cpu.span_s(node) == pytest.approx(2.355)
    assert node.end - node.start == pytest.approx(2.3628, abs=1e-4)
    node = cpu.parse(text('polling/cpu-interrupt-2.txt'))
    assert cpu.busy_cores(node) == pytest.approx(1.68)
    assert cpu.idle_cores(node) == pytest.approx(0.32)


@pytest.mark.parametrize('name, variant, busy', [
    (SQPOLL, 'sqpoll', 1.9958), (INTERRUPT, 'interrupt', 1.9876)])
def test_a_sample_gives_iops_busy_cores_and_their_ratio(name, variant, busy):
    run = polling_files.parse_sample(
        text(name), text(f'polling/cpu-{variant}-1.txt'), fio_options(name),
        variant)
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
        polling_files.parse_sample(text(SQPOLL),
                                   text('polling/cpu-sqpoll-1.txt'), asked,
                                   'sqpoll')


def test_another_variants_or_samples_cpu_file_is_rejected():
    asked = fio_options(SQPOLL)
    # the interrupt variant's file beside the sqpoll sample
    with pytest.raises(OutputError, match="the file is of variant "
                                          "'interrupt', not 'sqpoll'"):
        polling_files.parse_sample(text(SQPOLL),
                                   text('polling/cpu-interrupt-1.txt'),
                                   asked, 'sqpoll')

    # sample 2's file beside sample 1's run: their clocks do not meet
    with pytest.raises(OutputError, match="the file is another sample's"):
        polling_files.parse_sample(text(SQPOLL),
                                   text('polling/cpu-sqpoll-2.txt'), asked,
                                   'sqpoll')

    # a file of the polling.sh before files named their variant
    with pytest.raises(OutputError, match='not "## variant <name>"'):
        polling_files.parse_sample(text(SQPOLL),
                                   text('polling/cpu-sqpoll.txt'), asked,
                                   'sqpoll')


def _edited(name, old, new):
    found = text(name)
    assert old in found
    return found.replace(old, new, 1)


def test_a_span_that_cannot_be_the_samples_is_rejected():
    asked = fio_options(SQPOLL)
    # the readings 2.4 s apart by the clock, 62.4 s by the CPUs' ticks
    with pytest.raises(OutputError, match='2.36 s apart by the clock but '
                                          r'62.4 s by the ticks'):
        cpu.parse(_edited('polling/cpu-sqpoll-1.txt',
                          'cpu  181133 0 25981', 'cpu  193133 0 25981'
                          ).replace('cpu0 89658', 'cpu0 95658').replace(
                              'cpu1 91475', 'cpu1 97475'))

    # both 60 s later: the clock and the ticks agree, but the run (2 s)
    # cannot fill the span
    stretched = _edited(
        'polling/cpu-sqpoll-1.txt', '## after 1795789312.390969443',
        '## after 1795789372.390969443').replace(
        'cpu  181133 0 25981', 'cpu  193133 0 25981').replace(
        'cpu0 89658', 'cpu0 95658').replace('cpu1 91475', 'cpu1 97475')
    with pytest.raises(OutputError, match='62.4 s apart, the run 2.01 s'):
        polling_files.parse_sample(text(SQPOLL), stretched, asked, 'sqpoll')

    # a span shorter than the run: it started before the first reading
    with pytest.raises(OutputError, match="another sample's"):
        polling_files.parse_sample(
            _edited(SQPOLL, '"runtime" : 2008', '"runtime" : 4008').replace(
                '"bw_bytes" : 37000669', '"bw_bytes" : 18537261'),
            text('polling/cpu-sqpoll-1.txt'), asked, 'sqpoll')


def test_the_polling_thread_of_sqpoll_and_none_of_interrupt():
    node, threads = polling_files.parse_threads(
        text('polling/witness-sqpoll-cpu.txt'), 'sqpoll')
    # iou-sqp-14163 ran 60 ticks (stime) of the 1 s witness; its schedstat
    # says 607 ms
    assert threads == [polling_files.Thread(14167, 'iou-sqp-14163', 60)]
    assert node.cpus == 2
    _, threads = polling_files.parse_threads(
        text('polling/witness-interrupt-cpu.txt'), 'interrupt')
    assert threads == []


def test_fio_reports_its_jobs_cpu_not_the_pollers():
    said = polling_files.fio_cpu(text('fio/polling-witness-sqpoll.json'))
    assert said == pytest.approx(60.1)


def _witness(variant):
    name = f'fio/polling-witness-{variant}.json'
    asked = {**fio_options(name), 'runtime': '1'}
    run, ended = polling_files.read_fio(text(name), asked)
    return run, ended


def test_the_witness_is_held_to_its_own_run():
    run, ended = _witness('sqpoll')
    node, threads = polling_files.parse_witness(
        text('polling/witness-sqpoll-cpu.txt'), 'sqpoll', run, ended)
    said = polling.judge_poller('sqpoll', node, threads, run, 60.1)
    assert said.startswith('1 iou-sqp thread(s) (iou-sqp-14163) held 0.60 '
                           "cores over the witness's 1 s sample, when the "
                           'node was busy 1.92 of its 2 cores')
    # the interrupt variant's witness file is not sqpoll's
    with pytest.raises(OutputError, match="of variant 'interrupt'"):
        polling_files.parse_witness(text('polling/witness-interrupt-cpu.txt'),
                                    'sqpoll', run, ended)


def _node(busy, cpus=2, per_cpu=None):
    '''What the CPU file of a 1 s witness says of a node ``busy`` cores
    busy (the decision's input, not an output).'''
    total = 100 * cpus
    return cpu.CpuTime(cpus, round(busy * 100), total, 100, 'sqpoll', 0.0,
                       1.0, per_cpu or ((50, 100),) * cpus)


POLLER = [polling_files.Thread(9, 'iou-sqp-8', 22)]


@pytest.mark.parametrize('busy, threads', [(2.0, POLLER), (1.9, POLLER),
                                           (2.0, [])])
def test_a_saturated_node_makes_the_sqpoll_witness_inconclusive(busy,
                                                                threads):
    run, _ = _witness('sqpoll')
    said = polling.judge_poller('sqpoll', _node(busy), threads, run, 50.0)
    assert f'when the node was busy {busy:.2f} of its 2 cores' in said
    assert said.endswith(f'inconclusive: the node had {2 - busy:.2f} of a '
                         f'core idle, less than the 0.25 a poller holds: one '
                         f'held back by other work cannot be told from none')


def test_a_poller_pinned_to_a_saturated_cpu_is_inconclusive_too():
    run, _ = _witness('sqpoll')
    node = _node(1.0, per_cpu=((100, 100), (0, 100)))
    said = polling.judge_poller('sqpoll', node, POLLER, run, 50.0, pinned=0)
    assert "inconclusive: CPU 0, the poller's, had 0.00 of a core idle" in \
        said
    with pytest.raises(polling.SanityError, match='the node had 1.00 cores '
                                                  'idle'):
        polling.judge_poller('sqpoll', node, POLLER, run, 50.0, pinned=1)


def test_a_node_with_room_and_no_poller_fails_the_claim():
    run, _ = _witness('sqpoll')
    with pytest.raises(polling.SanityError, match='at least 0.25 of a core'):
        polling.judge_poller('sqpoll', _node(1.2), POLLER, run, 50.0)

    # a poller where none was asked fails, however busy the node
    with pytest.raises(polling.SanityError, match="'interrupt' asks no "
                                                  'submission-queue'):
        polling.judge_poller('interrupt', _node(2.0), POLLER, run, 50.0)


def test_what_does_not_add_up_is_rejected():
    threads = 'polling/witness-sqpoll-cpu.txt'
    # the stat line's system time against its schedstat run time
    with pytest.raises(OutputError, match='ran 60.7 ticks by its schedstat '
                                          'but 30 by its stat line'):
        polling_files.parse_threads(_edited(threads, ' 0 60 0 0 ',
                                            ' 0 30 0 0 '))

    # a CPU's ticks against the node's line, read at once
    with pytest.raises(OutputError, match="cpu line's user \\(after\\)"):
        cpu.parse(_edited('polling/cpu-sqpoll-1.txt', 'cpu0 89658',
                          'cpu0 79658'))

    # counters going back: the readings after, then before
    rows = text('polling/cpu-sqpoll-1.txt').splitlines(keepends=True)
    swapped = [rows[0], rows[5].replace('after', 'before'), *rows[6:9],
               rows[1].replace('before', 'after'), *rows[2:5], *rows[9:]]
    with pytest.raises(OutputError, match='went from'):
        cpu.parse(''.join(swapped))

    # cut before its end, or another section
    found = text('polling/cpu-sqpoll-1.txt')
    with pytest.raises(OutputError, match='not "## end"'):
        cpu.parse(found.replace('## end\n', ''))

    with pytest.raises(OutputError, match='the sections are'):
        cpu.parse(text(threads))

    with pytest.raises(OutputError, match='no stat line of an iou-sqp'):
        polling_files.parse_threads(_edited(threads, '## end',
                                            'fio: pid=4275, err=5/\n## end'))


HELPER = polling.HELPER

#: A thread that calls itself what io_uring calls its submission-queue
#: poller, and spins until it has had 1 s of CPU, in a process that waits
#: for it: however busy the machine, its ticks are a second's (its wall
#: time is what the machine gives it)
SPINNER = '''
import ctypes, os, threading, time
def spin():
    name = ('iou-sqp-%d' % os.getpid()).encode()
    ctypes.CDLL(None).prctl(15, name, 0, 0, 0)
    end = time.thread_time() + 1
    while time.thread_time() < end:
        pass
thread = threading.Thread(target=spin)
thread.start()
thread.join()
'''


def _helper(*argv, cwd):
    return subprocess.run(['bash', HELPER, *argv], cwd=cwd,
                          capture_output=True, text=True)


def test_a_polling_threads_ticks_are_counted(tmp_path):
    done = _helper('threads', 'out.txt', 'spinner', sys.executable, '-c',
                   SPINNER, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    node, threads = polling_files.parse_threads(
        (tmp_path / 'out.txt').read_text(), 'spinner')
    assert len(threads) == 1
    assert re.fullmatch(r'iou-sqp-\d+', threads[0].name)
    # it had 1 s of CPU (seen up to 0.1 s, of the wall, before it ended;
    # on a busy machine less of a core in that time): a core's ticks
    assert 0.7 * node.clk_tck <= threads[0].ticks <= 1.1 * node.clk_tck
    # and the node saw a core busy at least for that second
    assert node.busy >= 0.7 * node.clk_tck


def test_a_sleeping_command_has_no_polling_thread_and_its_status_is_kept(
        tmp_path):
    done = _helper('threads', 'out.txt', 'sleeper', 'sh', '-c',
                   'sleep 0.3; exit 3', cwd=tmp_path)
    assert done.returncode == 3
    node, threads = polling_files.parse_threads(
        (tmp_path / 'out.txt').read_text())
    assert threads == []
    # 0.3 s on every CPU of the node, at least
    assert node.total >= 0.3 * node.clk_tck * node.cpus * 0.9
    done = _helper('cpu', 'cpu.txt', 'sleeper', 'sleep', '0.2',
                   cwd=tmp_path)
    assert done.returncode == 0
    assert cpu.parse((tmp_path / 'cpu.txt').read_text(),
                     variant='sleeper').variant == 'sleeper'


@pytest.mark.skipif(shutil.which('findmnt') is None,
                    reason='findmnt is missing (util-linux)')
def test_the_device_under_a_directory(tmp_path):
    said = _helper('device', str(tmp_path), cwd=tmp_path).stdout.strip()
    # a disk and its poll queues (0 or 1), or why there is none
    assert re.fullmatch(r'\S+ io_poll=(0|1|unknown)|none \(.*\)', said), said
    if os.path.isdir('/dev/shm'):
        shm = _helper('device', '/dev/shm', cwd=tmp_path).stdout.strip()
        assert shm == 'none (the scratch is on tmpfs, no block device)'
