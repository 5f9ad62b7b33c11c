'''fio's io_uring completions (S7): the rounds of the polling check, what
one sample costs the node, and the polling thread's witness.

Every sample runs under ``polling.sh cpu cpu.txt <variant>`` (beside this
file, copied into the stage directory): ``/proc/stat`` right before and
right after fio, so the node's busy cores count whatever worked for fio,
io_uring's submission-queue polling thread (``iou-sqp-<pid>``) included,
which fio's own report of its jobs' CPU leaves out.  The file names its
variant, and the clock at each reading: the readings must hold fio's own
run (it ended at fio's ``timestamp_ms``, after its runtime) and span it
but for fio's start and exit (:data:`STARTUP_S`): another sample's file,
or a span that is not the sample's, is rejected.  The witness runs each
variant once more, on a short sample of its own, under ``polling.sh
threads``: every 0.1 s it reads the stat lines of fio's ``iou-sqp``
threads, each with its ``schedstat`` (its run time in ns, which the
ticks must agree with), so their own CPU is known (the poll would cost the
measured samples CPU, so they never run it); beside it, what fio's report
of its jobs' CPU said of the same sample.  On a saturated node (less than
:data:`POLLER_CORES` of a core idle over the witness: of the poller's CPU
where ``sqpoll_cpu`` pins it) a poller held back by other work cannot be
told from none: the witness says it is inconclusive, with the node's load,
and fails nothing.  Figures: read IOPS, the node's busy cores and IOPS per
busy core.
'''

import os
import shutil

from reframe.core.builtins import run_before, variable
from reframe.core.exceptions import SanityError

from microbench import knobs
from microbench.suite import cpu, memory, records
from microbench.suite.skeleton import SCRATCH
from microbench.suite.variant import VariantCheck
from microbench.tools.fio.checks import NEW_OFFSETS, FioRounds
from microbench.tools.fio.output import command, data_bytes
from microbench.tools.fio.polling_files import (fio_cpu, parse_witness,
                                                read_fio, read_sample)

#: The shell helper every sample and witness runs under
HELPER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      'polling.sh')

#: The least of a core a submission-queue polling thread holds over the
#: witness's sample (it polls while fio submits)
POLLER_CORES = 0.25


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
        return (self.fio_options(variant), variant)

    def measured(self, mode, out, variant, options):
        '''fio with ``options`` under ``polling.sh MODE OUT VARIANT``,
        through the launcher.'''
        return self.launch('bash', './polling.sh', mode, out, variant,
                           *command(self.program_path(), options))

    def variant_command(self, variant):
        return self.measured('cpu', 'cpu.txt', variant, {
            **self.fio_options(variant), 'output-format': 'json',
            'output': 'fio.json'})

    def prepare_command(self, variant):
        options = {'name': 'fio_completion_polling_layout',
                   'filename': f'{SCRATCH}/polling', 'rw': 'write',
                   'bs': '1m', 'direct': 1, 'size': self.file_size,
                   'output': '/dev/null'}
        return self.launch(*command(self.program_path(), options))

    def witness_command(self, variant):
        options = self.witness_options(variant, f'witness-{variant}.json')
        threads = self.measured('threads', f'witness-{variant}-cpu.txt',
                                variant, options)
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
        variant's claim: ``sqpoll`` has one holding a quarter of a core at
        least (inconclusive where the node left it no room), the others
        none.'''
        rounds = self.rounds
        variant = self.variant
        asked = {**rounds.fio_options(variant),
                 'name': f'{rounds.unique_name}_witness',
                 'runtime': rounds.witness_runtime_s}
        witness, ended, fio_said = rounds.read_witness(
            variant, f'witness-{variant}.json',
            lambda text: (*read_fio(text, asked), fio_cpu(text)), self)
        node, threads = rounds.read_witness(
            variant, f'witness-{variant}-cpu.txt',
            lambda text: parse_witness(text, variant, witness, ended), self)
        return judge_poller(variant, node, threads, witness, fio_said,
                            rounds.sqpoll_cpu)


def judge_poller(variant, node, threads, run, fio_said, pinned=None):
    '''What the witness says of ``variant``'s polling ``threads`` over its
    fio ``run``, on ``node`` (:class:`~microbench.suite.cpu.CpuTime`);
    ``pinned``: the CPU ``sqpoll``'s poller is pinned to (None: any).

    :raises SanityError: ``sqpoll`` without a poller holding
        :data:`POLLER_CORES` where the node had that much idle, or a
        poller where none was asked.
    '''
    seconds = run.runtime_ms['read'] / 1000
    cores = sum(t.ticks for t in threads) / node.clk_tck / seconds
    seen = (f'{len(threads)} iou-sqp thread(s) '
            f'({", ".join(t.name for t in threads) or "none"}) held '
            f'{cores:.2f} cores over the witness\'s {seconds:.3g} s '
            f'sample, when the node was busy {cpu.busy_cores(node):.2f} '
            f'of its {node.cpus} cores and fio reported its jobs\' CPU '
            f'as {fio_said:.0f} % of one core')
    if variant != 'sqpoll' and threads:
        raise SanityError(f'witness: {seen}, but {variant!r} asks no '
                          f'submission-queue polling thread')

    if variant != 'sqpoll' or (threads and cores >= POLLER_CORES):
        return seen

    idle = cpu.idle_cores(node, pinned)
    if idle < POLLER_CORES:
        where = (f'CPU {pinned}, the poller\'s,' if pinned is not None
                 and pinned < len(node.per_cpu) else 'the node')
        return (f'{seen}; inconclusive: {where} had {idle:.2f} of a core '
                f'idle, less than the {POLLER_CORES} a poller holds: one '
                f'held back by other work cannot be told from none')

    raise SanityError(f'witness: {seen}, but sqpoll claims a kernel '
                      f'thread polling the submission queue (at least '
                      f'{POLLER_CORES} of a core), and the node had '
                      f'{idle:.2f} cores idle')
