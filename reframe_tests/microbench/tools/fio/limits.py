'''The storage and memory limits of a partition, measured with fio.

Not a pitfall's shape but the one that reaches the device (Kuhn,
"Performance Analysis"): large blocks, a deep queue (libaio) and several
jobs for the sequential O_DIRECT peaks, 4 KiB blocks at the same depth for
random O_DIRECT IOPS; then the ceilings of anything cached: a buffered read
of files fio has just written and read (so the page cache holds them; fio
is told not to drop them, ``invalidate=0``), and 4 KiB random writes to
tmpfs (``/dev/shm``).  Reads run over files a preparation wrote before
every sample (O_DIRECT, so none of them is cached, except where the cache
is the point).  Figures: MiB/s for the sequential variants, IOPS for the
random ones (:data:`microbench.components.LIMITS` names each limit).
'''

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench.suite import memory, residency, samples
from microbench.suite.skeleton import SCRATCH
from microbench.suite.variant import VariantCheck
from microbench.tools.fio.checks import NEW_OFFSETS, FioRounds
from microbench.tools.fio.output import command, data_bytes
from microbench.units import size_bytes

#: variant -> (direction, fio options of its shape, what prepares its files)
#: ``None``: nothing; ``direct``: the files written with O_DIRECT;
#: ``cached``: written buffered, then read once, so the page cache holds
#: them
SHAPES = {
    'write': ('write', {'rw': 'write', 'direct': 1}, None),
    'read': ('read', {'rw': 'read', 'direct': 1}, 'direct'),
    'randwrite': ('write', {'rw': 'randwrite', 'direct': 1, **NEW_OFFSETS},
                  None),
    'randread': ('read', {'rw': 'randread', 'direct': 1, **NEW_OFFSETS},
                 'direct'),
    'cached_read': ('read', {'rw': 'read', 'direct': 0, 'invalidate': 0,
                             'ioengine': 'psync'}, 'cached'),
    'tmpfs': ('write', {'rw': 'randwrite', 'direct': 0, 'ioengine': 'psync',
                        'directory': '/dev/shm', 'unlink': 1, **NEW_OFFSETS},
              None),
}

#: Variants measured in 4 KiB operations per second
RANDOM = ('randwrite', 'randread', 'tmpfs')


class LimitRun:
    '''One fio run of a limit: its figures in MiB/s and, for 4 KiB random
    variants, in IOPS (bytes moved over the block size: every operation
    is one block).'''

    def __init__(self, run, direction, block):
        self.run = run
        self.version = run.version
        mib_s = run.mib_s(direction)
        self.figures = {direction: mib_s,
                        'ops': run.io_bytes[direction] / block
                        / (run.runtime_ms[direction] / 1000)}


class LimitsRounds(FioRounds):
    '''Every storage and memory limit of a partition, from one node.'''

    variants = tuple(SHAPES)
    page_cache_variants = ('cached_read', 'tmpfs')
    # No Darshan witness: a limit is fio's own shape, not a claim to check
    darshan = ['off']

    #: Size of every sequential request (``block_size``, 4 KiB for the
    #: random variants)
    block_size = '1m'

    #: Requests in flight per job (libaio ``iodepth``).
    #:
    #: :type: :class:`int`
    #: :default: ``32``
    iodepth = variable(int, value=32)

    #: fio jobs, one file each.
    #:
    #: :type: :class:`int`
    #: :default: ``4``
    jobs = variable(int, value=4)

    #: Size of each job's file (read variants read it whole, again and
    #: again, for ``runtime_s``).
    #:
    #: :type: :class:`str`
    #: :default: ``'4g'``
    file_size = variable(str, value='4g')

    def block(self, variant):
        return 4096 if variant in RANDOM else size_bytes(self.block_size)

    def fio_options(self, variant):
        _, shape, _ = SHAPES[variant]
        return {'name': 'component_limits', 'directory': SCRATCH,
                'ioengine': 'libaio', 'iodepth': self.iodepth,
                'bs': self.block(variant), 'numjobs': self.jobs,
                'size': self.file_size, 'runtime': self.runtime_s,
                'time_based': None, 'group_reporting': None, **shape}

    def prepare_command(self, variant):
        how = SHAPES[variant][2]
        if how is None:
            return None

        options = {**self.fio_options(variant), 'rw': 'write',
                   'bs': size_bytes(self.block_size),
                   'direct': 1 if how == 'direct' else 0,
                   'output': '/dev/null'}
        for name in ('time_based', 'runtime', 'invalidate'):
            options.pop(name, None)
        write = self.launch(*command(self.program_path(), options))
        if how == 'direct':
            return write

        # Read once, buffered: the page cache holds every page
        read = {**options, 'rw': 'read', 'invalidate': 0}
        return f'{write} && {self.launch(*command(self.program_path(), read))}'

    def residency_command(self, variant):
        # What of the files a read sample reads the page cache holds, after
        # the preparation (microbench.suite.residency)
        if SHAPES[variant][0] != 'read':
            return None

        return residency.command(self.launch(), self.stagedir)

    def reader_args(self, variant):
        return (SHAPES[variant][0], self.fio_options(variant))

    def read_sample(self, sample):
        direction = SHAPES[sample.variant][0]
        run = self.reader(sample, *self.reader_args(sample.variant))
        return LimitRun(run, direction, self.block(sample.variant))

    def expected_seconds(self):
        # the preparation writes every file before a read sample
        return self.runtime_s + 300


class LimitsVariantCheck(VariantCheck):
    '''One limit: MiB/s of a sequential variant, IOPS of a random one
    (median, min and max over the samples).'''

    main_figures = {'write': ('write', 'MiB/s'), 'read': ('read', 'MiB/s'),
                    'ops': ('ops', 'IOPS')}

    def figure_key(self):
        if self.variant in RANDOM:
            return 'ops'

        return SHAPES[self.variant][0]

    def judge(self, runs, recs):
        rounds = self.rounds
        self.measures = ('page cache' if self.variant
                         in rounds.page_cache_variants else 'storage')
        if SHAPES[self.variant][0] == 'read':
            self.judge_residency()

        seconds = min(run.run.runtime_ms[SHAPES[self.variant][0]]
                      for run in runs) / 1000
        if seconds < 0.9 * rounds.runtime_s:
            raise SanityError(f'a sample ran {seconds:.3g} s of its '
                              f'{rounds.runtime_s} s runtime: not a '
                              f'sustained limit')

    def data_touched(self, runs):
        if self.measures != 'storage':
            return {}
        direction = SHAPES[self.variant][0]
        options = self.rounds.fio_options(self.variant)
        return {self.figure_key(): memory.touched(
            [data_bytes(run.run, options, direction) for run in runs], 1,
            direction == 'read')}

    def judge_residency(self):
        '''Record what the page cache held of every read sample's files
        before it: an O_DIRECT read is storage whatever it held; the
        page cache's limit says where its files were not resident.'''
        rounds = self.rounds
        found = residency.per_sample(rounds.stagedir, self.variant,
                                     rounds.samples, samples.kept_name)
        direct = bool(rounds.fio_options(self.variant)['direct'])
        residency.judge(self, self.figure_specs()[0][0], found, direct,
                        by_design=self.measures == 'page cache')
