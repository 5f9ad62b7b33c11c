'''What a sample of fio's io_uring completions (S7) and its witness left:
fio's report, the CPU files ``polling.sh`` wrote (:mod:`microbench.suite.cpu`
and the polling threads' stat lines), read and held to each other.

A sample's CPU file names its variant and the clock at each reading; the
readings must hold fio's own run (it ended at fio's ``timestamp_ms``,
after its runtime) and span it but for fio's start and exit
(:data:`STARTUP_S`, :data:`STARTUP_SHARE`): another sample's file, or a
span that is not the sample's, is rejected.  The witness's file adds the
last stat line of every ``iou-sqp`` thread it saw, each held to its
``schedstat`` (its run time in ns, which the ticks must agree with).
'''

import collections
import re

from microbench.suite import cpu
from microbench.suite.output import OutputError, lines, member, number
from microbench.suite.output import load_json
from microbench.tools.fio.output import ERRORS, parse
from microbench.units import size_bytes

#: A thread's stat line: its id, its name, then the fields from the
#: third on (utime and stime are the 14th and 15th)
_STAT = re.compile(r'^(\d+) \((iou-sqp-\d+)\) (\S+( \S+){12,})$')

#: What follows a thread's stat line where the kernel keeps it: its id,
#: then its ``schedstat`` (run time in ns, wait in ns, time slices)
_SCHEDSTAT = re.compile(r'^schedstat (\d+) (\S+) (\S+) (\S+)$')

#: Ticks by which a thread's user and system time may differ from its run
#: time (both read within a moment of each other; measured here: 2 of 124)
TICK_SLACK = 3

#: Seconds the readings of a sample's CPU file may span beyond fio's
#: runtime, beside :data:`STARTUP_SHARE` of it: fio's start (opening the
#: file, setting up the ring) and exit (measured here: 0.3 to 0.4 s of a
#: 2 s sample)
STARTUP_S = 5.0

#: The share of fio's runtime its start and exit may take beside
#: :data:`STARTUP_S`
STARTUP_SHARE = 0.5

#: One polling thread the witness saw: its id, name and ticks (user and
#: system)
Thread = collections.namedtuple('Thread', 'tid name ticks')


class PollingRun:
    '''One sample: fio's read IOPS, the node's busy cores over it, and
    their ratio.'''

    def __init__(self, run, node, block):
        self.run = run
        self.version = run.version
        self.node = node
        iops = (run.io_bytes['read'] / block
                / (run.runtime_ms['read'] / 1000))
        busy = cpu.busy_cores(node)
        if busy <= 0:
            raise OutputError('the node was busy 0 cores while fio read: '
                              'the CPU counters are not of this sample')

        self.figures = {'read': iops, 'busy': busy, 'per_core': iops / busy}


def fio_cpu(text):
    '''% of one core fio says its jobs used (``usr_cpu`` + ``sys_cpu``,
    summed over its jobs).'''
    data = load_json(text)
    total = 0.0
    for job in member(data, 'jobs', 'the output'):
        where = f'job {job.get("jobname")!r}'
        total += sum(number(member(job, key, where), f'{where} {key}',
                            positive=False)
                     for key in ('usr_cpu', 'sys_cpu'))
    return total


def fio_ended(text):
    '''When fio made its report, after its jobs ended (``timestamp_ms``, in
    seconds since the epoch), of its JSON output ``text`` (the warnings
    fio writes before it left out).'''
    start = 0 if text.startswith('{') else text.find('\n{') + 1
    data = load_json(text[start:])
    return number(member(data, 'timestamp_ms', 'the output'),
                  'fio\'s timestamp_ms', integer=True) / 1000


def read_fio(text, asked):
    '''(the run, when fio ended) of fio's JSON output ``text``.'''
    return parse(text, 'read', asked), fio_ended(text)


def cpu_of_run(text, variant, run, ended):
    ''':class:`~microbench.suite.cpu.CpuTime` of the CPU file ``text`` of
    ``variant``, held to fio's ``run`` that ended at ``ended``.'''
    node = cpu.parse(text, variant=variant)
    seconds = run.runtime_ms['read'] / 1000
    cpu.held_to_run(node, STARTUP_S + STARTUP_SHARE * seconds, ended,
                    seconds)
    return node


def read_sample(sample, asked, variant):
    ''':class:`PollingRun` of one sample of ``variant`` asked ``asked``:
    its JSON output (no job error on its stderr) and its CPU file, which
    names ``variant`` and holds the run.'''
    run, ended = sample.parse('fio.json', read_fio, asked)
    sample.reject_errors(ERRORS, 'fio')
    return PollingRun(run, sample.parse('cpu.txt', cpu_of_run, variant, run,
                                        ended),
                      size_bytes(asked['bs']))


def parse_sample(text, cpu_text, asked, variant):
    ''':class:`PollingRun` of a sample's texts: fio's JSON output and its
    CPU file (what :func:`read_sample` reads, for the tests).'''
    run, ended = read_fio(text, asked)
    return PollingRun(run, cpu_of_run(cpu_text, variant, run, ended),
                      size_bytes(asked['bs']))


def _schedstat(match, name, ticks, clk_tck):
    '''Raise unless a thread's run time (``schedstat``) is its ticks.'''
    run_ns = number(match[2], f'the run time of {name}', positive=False,
                    integer=True)
    for value, what in ((match[3], 'wait time'), (match[4], 'time slices')):
        number(value, f'the {what} of {name}', positive=False, integer=True)

    run_ticks = run_ns * clk_tck / 1e9
    if abs(run_ticks - ticks) > TICK_SLACK + 0.02 * run_ticks:
        raise OutputError(f'{name} ran {run_ticks:.1f} ticks by its '
                          f'schedstat but {ticks} by its stat line: the '
                          f'lines are corrupted')


def parse_threads(text, variant=None):
    '''(:class:`~microbench.suite.cpu.CpuTime`, [:class:`Thread`]) of
    what ``polling.sh threads`` wrote for ``variant`` (None: any): the
    node's CPU over the witness and the last stat line of every polling
    thread it saw, held to its schedstat where the kernel keeps one.'''
    node = cpu.parse(text, 'iou-sqp', variant)
    rows = lines(text)
    threads = {}
    for row in rows[rows.index('## iou-sqp') + 1:-1]:
        schedstat = _SCHEDSTAT.match(row)
        if schedstat:
            tid = int(schedstat[1])
            if tid not in threads or tid != list(threads)[-1]:
                raise OutputError(f'a schedstat of thread {tid} does not '
                                  f'follow its stat line')

            _schedstat(schedstat, threads[tid].name, threads[tid].ticks,
                       node.clk_tck)
            continue

        match = _STAT.match(row)
        if not match:
            raise OutputError(f'{row[:60]!r} is no stat line of an iou-sqp '
                              f'thread')

        fields = match[3].split()
        tid = int(match[1])
        if tid in threads:
            raise OutputError(f'thread {tid} is listed twice')

        # stat's fields from the third: utime is the 14th, stime the 15th
        threads[tid] = Thread(tid, match[2], sum(
            number(fields[n - 3], f'{match[2]} field {n}', positive=False,
                   integer=True) for n in (14, 15)))

    return node, list(threads.values())


def parse_witness(text, variant, run, ended):
    ''':func:`parse_threads` of the witness's CPU file ``text`` of
    ``variant``, its readings held to the witness's fio ``run`` that
    ended at ``ended``.'''
    node, threads = parse_threads(text, variant)
    seconds = run.runtime_ms['read'] / 1000
    cpu.held_to_run(node, STARTUP_S + STARTUP_SHARE * seconds, ended,
                    seconds)
    return node, threads
