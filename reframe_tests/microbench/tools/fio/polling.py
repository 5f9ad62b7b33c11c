'''fio's io_uring completions (S7): the rounds of the polling check, what
one sample costs the node, and the polling thread's witness.

Every sample runs under ``polling.sh cpu cpu.txt`` (beside this file,
copied into the stage directory): ``/proc/stat`` right before and right
after fio, so the node's busy cores count whatever worked for fio,
io_uring's submission-queue polling thread (``iou-sqp-<pid>``) included,
which fio's own report of its jobs' CPU leaves out.  The witness runs each
variant once more, on a short sample of its own, under ``polling.sh
threads``: every 0.1 s it reads the stat lines of fio's ``iou-sqp``
threads, each with its ``schedstat`` (its run time in ns, which the
ticks must agree with), so their own CPU is known (the poll would cost the
measured samples CPU, so they never run it); beside it, what fio's report
of its jobs' CPU said of the same sample.  Figures: read IOPS, the node's
busy cores and IOPS per busy core.
'''

import collections
import os
import re
import shutil

from reframe.core.builtins import run_before, variable
from reframe.core.exceptions import SanityError

from microbench import knobs
from microbench.suite import cpu, memory, records
from microbench.suite.output import OutputError, lines, member, number
from microbench.suite.output import load_json
from microbench.suite.rounds import SCRATCH
from microbench.suite.variant import VariantCheck
from microbench.tools.fio.checks import NEW_OFFSETS, FioRounds
from microbench.tools.fio.output import ERRORS, command, data_bytes, parse
from microbench.units import size_bytes

#: The shell helper every sample and witness runs under
HELPER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      'polling.sh')

#: The least of a core a submission-queue polling thread holds over the
#: witness's sample (it polls while fio submits)
POLLER_CORES = 0.25

#: A thread's stat line: its id, its name, then the fields from the
#: third on (utime and stime are the 14th and 15th)
_STAT = re.compile(r'^(\d+) \((iou-sqp-\d+)\) (\S+( \S+){12,})$')

#: What follows a thread's stat line where the kernel keeps it: its id,
#: then its ``schedstat`` (run time in ns, wait in ns, time slices)
_SCHEDSTAT = re.compile(r'^schedstat (\d+) (\S+) (\S+) (\S+)$')

#: Ticks by which a thread's user and system time may differ from its run
#: time (both read within a moment of each other; measured here: 2 of 124)
TICK_SLACK = 3

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


def read_sample(sample, asked):
    ''':class:`PollingRun` of one sample asked ``asked``: its JSON output
    (no job error on its stderr) and its CPU file.'''
    run = sample.parse('fio.json', parse, 'read', asked)
    sample.reject_errors(ERRORS, 'fio')
    return PollingRun(run, sample.parse('cpu.txt', cpu.parse),
                      size_bytes(asked['bs']))


def parse_sample(text, cpu_text, asked):
    ''':class:`PollingRun` of a sample's texts: fio's JSON output and its
    CPU file (what :func:`read_sample` reads, for the tests).'''
    return PollingRun(parse(text, 'read', asked), cpu.parse(cpu_text),
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


def parse_threads(text):
    '''(:class:`~microbench.suite.cpu.CpuTime`, [:class:`Thread`]) of
    what ``polling.sh threads`` wrote: the node's CPU over the witness and
    the last stat line of every polling thread it saw, held to its
    schedstat where the kernel keeps one.'''
    node = cpu.parse(text, extra='iou-sqp')
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


class PollingRounds(FioRounds):
    '''4 KiB random O_DIRECT reads of one file through io_uring, for
    ``runtime_s``, with each completion mode; the node's CPU over every
    sample.'''

    variants = tuple(knobs.FIO_COMPLETION_POLLING)
    reader = staticmethod(read_sample)
    output_files = ('fio.json', 'cpu.txt')
    witness_tool = None
    # No Darshan witness: io_uring's reads are no POSIX calls Darshan sees
    darshan = ['off']
    block_size = '4k'

    #: Reads in flight (io_uring ``iodepth``).
    #:
    #: :type: :class:`int`
    #: :default: ``32``
    iodepth = variable(int, value=32)

    #: Size of the file the reads go to (written with O_DIRECT before every
    #: sample, so that none of it is cached).
    #:
    #: :type: :class:`str`
    #: :default: ``'4g'``
    file_size = variable(str, value='4g')

    #: The CPU the ``sqpoll`` variant's polling thread is pinned to
    #: (``sqthread_poll_cpu``); None: the scheduler places it.
    #:
    #: :type: :class:`int` or :obj:`None`
    #: :default: :obj:`None`
    sqpoll_cpu = variable(int, type(None), value=None)

    @run_before('run')
    def copy_helper(self):
        shutil.copy(HELPER, self.stagedir)

    def fio_options(self, variant):
        options = {'name': 'fio_completion_polling',
                   'filename': f'{SCRATCH}/polling', 'rw': 'randread',
                   **NEW_OFFSETS, 'bs': self.block_size, 'direct': 1,
                   'ioengine': 'io_uring', 'iodepth': self.iodepth,
                   'size': self.file_size, 'runtime': self.runtime_s,
                   'time_based': None,
                   **knobs.FIO_COMPLETION_POLLING[variant]}
        if variant == 'sqpoll' and self.sqpoll_cpu is not None:
            options['sqthread_poll_cpu'] = self.sqpoll_cpu

        return options

    def reader_args(self, variant):
        return (self.fio_options(variant),)

    def measured(self, mode, out, options):
        '''fio with ``options`` under ``polling.sh MODE OUT``, through the
        launcher.'''
        return self.launch('bash', './polling.sh', mode, out,
                           *command(self.fio, options))

    def variant_command(self, variant):
        return self.measured('cpu', 'cpu.txt', {
            **self.fio_options(variant), 'output-format': 'json',
            'output': 'fio.json'})

    def prepare_command(self, variant):
        options = {'name': 'fio_completion_polling_layout',
                   'filename': f'{SCRATCH}/polling', 'rw': 'write',
                   'bs': '1m', 'direct': 1, 'size': self.file_size,
                   'output': '/dev/null'}
        return self.launch(*command(self.fio, options))

    def witness_command(self, variant):
        options = self.witness_options(variant, f'witness-{variant}.json')
        threads = self.measured('threads', f'witness-{variant}-cpu.txt',
                                options)
        return f'{self.prepare_command(variant)} && {threads}'

    def facts(self):
        return {'scratch_device': f'bash ./polling.sh device {SCRATCH}'}

    def probe(self, variant):
        if variant != 'hipri':
            return None

        return (f"bash ./polling.sh device {SCRATCH} | grep -qx "
                f"'[^ ]* io_poll=1'",
                'the block device under the scratch has no poll queues '
                '(io_poll is not 1): polled completions (hipri) cannot be '
                'measured here')

    def variant_records(self, variant, check):
        recs = records.of_variant(self.records, variant)
        if 'unsupported' in recs:
            device = self.records.get('scratch_device', ['unknown'])[0]
            check.skip(f'{variant}: the block device under the scratch '
                       f'{self.scratch} is {device}: no poll queues, so '
                       f'polled completions (hipri) cannot be measured '
                       f'here')

        return super().variant_records(variant, check)

    def expected_seconds(self):
        # the preparation writes the file before every sample
        return self.runtime_s + 300


class PollingVariantCheck(VariantCheck):
    '''One completion mode: read IOPS, the node's busy cores and IOPS per
    busy core (median, min and max over the samples); the witness says
    what the polling thread held, and what fio said its jobs used.'''

    main_figures = {'fio': [('read', 'IOPS'), ('busy', 'cores'),
                            ('per_core', 'IOPS/core')]}
    limits = {'read': 'storage_randread_iops'}

    def judge(self, runs, recs):
        rounds = self.rounds
        self.measures = 'storage'
        seconds = min(run.run.runtime_ms['read'] for run in runs) / 1000
        if seconds < 0.9 * rounds.runtime_s:
            raise SanityError(f'a sample read for {seconds:.3g} s of its '
                              f'{rounds.runtime_s} s runtime: not sustained')

        self.witness = self.judge_threads()

    def data_touched(self, runs):
        options = self.rounds.fio_options(self.variant)
        return {'read': memory.touched(
            [data_bytes(run.run, options, 'read') for run in runs], 1,
            True)}

    def judge_threads(self):
        '''What the witness saw of the polling threads, held to the
        variant's claim: ``sqpoll`` has one holding a core, the others
        none.'''
        rounds = self.rounds
        variant = self.variant
        asked = {**rounds.fio_options(variant),
                 'name': f'{rounds.unique_name}_witness',
                 'runtime': rounds.witness_runtime_s}
        witness, fio_said = rounds.read_witness(
            variant, f'witness-{variant}.json',
            lambda text: (parse(text, 'read', asked), fio_cpu(text)), self)
        node, threads = rounds.read_witness(
            variant, f'witness-{variant}-cpu.txt', parse_threads, self)
        seconds = witness.runtime_ms['read'] / 1000
        cores = sum(t.ticks for t in threads) / node.clk_tck / seconds
        seen = (f'{len(threads)} iou-sqp thread(s) '
                f'({", ".join(t.name for t in threads) or "none"}) held '
                f'{cores:.2f} cores over the witness\'s {seconds:.3g} s '
                f'sample, when the node was busy {cpu.busy_cores(node):.2f} '
                f'of its {node.cpus} cores and fio reported its jobs\' CPU '
                f'as {fio_said:.0f} % of one core')
        if variant == 'sqpoll' and (not threads or cores < POLLER_CORES):
            raise SanityError(f'witness: {seen}, but sqpoll claims a kernel '
                              f'thread polling the submission queue (at '
                              f'least {POLLER_CORES} of a core)')

        if variant != 'sqpoll' and threads:
            raise SanityError(f'witness: {seen}, but {variant!r} asks no '
                              f'submission-queue polling thread')

        return seen
