'''The base classes of fio checks (fio's output: :mod:`.output`).'''

import reframe.utility.sanity as sn
from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench import knobs
from microbench.suite import darshan, memory, records, samples, strace
from microbench.suite.rounds import Rounds
from microbench.suite.skeleton import SCRATCH
from microbench.suite.stats import Samples
from microbench.units import size_bytes
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import Witnessed
from microbench.tools.fio.output import (ERRORS, command, data_bytes, parse,
                                         read_sample, rejects_odirect)


#: fio's random offsets, new in every run, for every random workload the
#: suite runs: fio's default (``randrepeat=1``) seeds them the same way
#: every time, so every sample would replay the same offsets
NEW_OFFSETS = {'randrepeat': 0}


class FioRounds(Witnessed, Rounds):
    '''The fio runs of a pitfall: every variant, round-robin, one fio run
    per sample with JSON output (a fixture of the pitfall's check).

    Subclasses set :attr:`variants` and implement :meth:`fio_options`; they
    may set :attr:`page_cache_variants`, :attr:`overwrite_variants` and a
    witness (:attr:`witness_syscall`, :attr:`witness_expect`).
    '''

    tool = 'fio'
    reader = staticmethod(read_sample)
    bindir = 'fio_bindir'
    programs = ('fio',)
    output_files = ('fio.json',)
    witness_tool = 'strace'
    errors = ERRORS

    #: Directory of the fio binary; empty: on PATH (``dontcache`` needs
    #: fio 3.40 or later).
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    fio_bindir = variable(str, value='')

    #: Seconds each sample runs (fio ``runtime``); the paper used 10.
    #:
    #: :type: :class:`int`
    #: :default: ``10``
    runtime_s = variable(int, value=knobs.FIO_RUNTIME_S)

    #: Seconds of a witness's own short sample (never counted as a sample).
    #:
    #: :type: :class:`int`
    #: :default: ``1``
    witness_runtime_s = variable(int, value=1)

    #: Size of every write (fio ``bs``); the paper used 32 KiB.
    #:
    #: :type: :class:`str`
    #: :default: ``'32k'``
    block_size = variable(str, value='32k')

    #: Variants whose figure is a page cache figure by design: exempt from
    #: storage ceilings and from the no-wrap rule
    page_cache_variants = ()

    #: Variants meant to overwrite their file (the others must not wrap)
    overwrite_variants = ()

    #: A system call the witness counts with strace, or None for no witness
    witness_syscall = None

    #: variant -> whether the witness must see the call succeed (True: at
    #: least once, False: never)
    witness_expect = {}

    def fio_options(self, variant):
        '''fio job options of ``variant`` (without the output options).'''
        raise NotImplementedError

    def tools_needed(self):
        return [self.program_path()]

    def reader_args(self, variant):
        return ('write', self.fio_options(variant))

    def version_command(self):
        return f'{self.program_path()} --version'

    def variant_command(self, variant):
        return self.launch(*command(self.program_path(), {
            **self.fio_options(variant),
            'output-format': 'json', 'output': 'fio.json'
        }))

    def witness_command(self, variant):
        if not self.witness_syscall:
            return None

        return self.launch(*strace.command(self.witness_syscall,
                                           f'strace-{variant}.txt'),
                           *command(self.program_path(), self.witness_options(
                               variant, 'witness.json')))

    def witness_options(self, variant, output):
        '''fio options of ``variant``'s witness: a short sample of its own
        (``witness_runtime_s``), its JSON report in ``output``.'''
        return {**self.fio_options(variant),
                'name': f'{self.unique_name}_witness',
                'runtime': self.witness_runtime_s,
                'output-format': 'json', 'output': output}

    def darshan_argv(self, variant, preload):
        options = {**self.fio_options(variant),
                   'name': f'{self.unique_name}_darshan',
                   'output-format': 'json'}
        # Darshan sees POSIX calls, not Linux AIO (io_submit): its sample
        # writes the same blocks at the same offsets with pwrite()
        if options.get('ioengine') == 'libaio':
            options.update(ioengine='psync', iodepth=1)

        # One Darshan instance per job: fio's threads share one, which lost
        # a thread's writes here (7 % of the bytes of 16 threads)
        options.pop('thread', None)

        # A variant meant to overwrite runs its full runtime, to wrap
        if variant not in self.overwrite_variants:
            options['runtime'] = self.witness_runtime_s

        return self.launch(*preload, *command(self.program_path(), options))

    def expected_seconds(self):
        return self.runtime_s + 60

    def diagnosis(self, failure, variant):
        stderr = (self.witness_text(variant, stderr=True)
                  if 'the witness' in failure
                  else self.last_text(samples.STDERR, variant))
        if rejects_odirect(stderr):
            return (f'; O_DIRECT (direct=1) was rejected by the scratch file '
                    f'system {self.scratch_fstype or "unknown"} at '
                    f'{self.scratch} (mount options '
                    f'{self.scratch_mount_options}): O_DIRECT is '
                    f'Linux-specific and not every file system supports it')

        return super().diagnosis(failure, variant)


class FioLogRounds(FioRounds):
    '''The paper's durable log workload (section II-E): one shared file,
    ``libaio`` with ``iodepth`` writes in flight, O_DIRECT and O_SYNC, for
    ``runtime_s``.  Subclasses add the size and their knob.'''

    #: Writes in flight (libaio ``iodepth``; paper: 16).
    #:
    #: :type: :class:`int`
    #: :default: ``16``
    iodepth = variable(int, value=16)

    def log_options(self):
        return {'name': self.__class__.__name__,
                'filename': f'{SCRATCH}/shared.log',
                'rw': 'write', 'ioengine': 'libaio',
                'iodepth': self.iodepth, 'direct': 1, 'sync': 1,
                'bs': self.block_size, 'runtime': self.runtime_s}


class FioVariantCheck(VariantCheck):
    '''One variant of a fio pitfall, from its rounds fixture.

    Figures: the write bandwidth (median, min, max over the samples, MiB/s)
    and the overwrite factor, bytes written over the final size of the
    files (> 1 when fio wrapped around at the end of a file and wrote it
    again).  A figure fails sanity if the run did not last its runtime, if a
    storage figure wrapped (or a variant meant to overwrite did not), if a
    storage figure is above the partition's ceiling, or if the witness did
    not see what the variant claims.
    '''

    main_figures = {'fio': ('write', 'MiB/s')}
    scalar_figures = {'overwrite_factor': 'x'}
    limits = {'write': 'storage_write_mib_s'}

    def judge(self, runs, recs):
        rounds = self.rounds
        said = sorted({note for run in runs for note in run.notes})
        if said:
            self.note = '; '.join(filter(None, [
                self.note, f'fio warned: {" / ".join(said)}']))

        if self.variant in rounds.page_cache_variants:
            self.measures = 'page cache'
            self.cached.add('write')
        else:
            self.measures = 'storage'

        factors = []
        for run, line in zip(runs, recs['sample']):
            num, file_bytes = records.sample_facts(line)
            seconds = run.runtime_ms['write'] / 1000
            if seconds < 0.9 * rounds.runtime_s:
                raise SanityError(
                    f'sample {num} wrote for {seconds:.3g} s of the '
                    f'{rounds.runtime_s} s runtime: fio reached the end of '
                    f'its {file_bytes} bytes of files first, so the files are '
                    f'too small for the runtime and the figure is not '
                    f'sustained'
                )

            if not file_bytes:
                raise SanityError(f'sample {num} left no file in the scratch '
                                  f'directory: its overwrite factor cannot '
                                  f'be measured')

            factors.append(run.io_bytes['write'] / file_bytes)

        overwrite = Samples(factors, 'x')
        self.scalars['overwrite_factor'] = overwrite.median
        self._check_overwrite(overwrite)
        self._check_witness(recs)

    def data_touched(self, runs):
        options = self.rounds.fio_options(self.variant)
        return {'write': memory.touched(
            [data_bytes(run, options) for run in runs], 1, False)}

    def _check_overwrite(self, overwrite):
        if self.variant in self.rounds.overwrite_variants:
            if overwrite.min <= 1:
                raise SanityError(
                    f'this variant must overwrite its file, but fio wrote '
                    f'only {overwrite.min:.3g}x its size: the file is too '
                    f'large for the runtime, so the pitfall was not exercised'
                )
        elif self.measures == 'storage' and overwrite.max > 1:
            raise SanityError(
                f'fio wrapped around and overwrote its files '
                f'({overwrite.max:.3g}x their size): the files are too '
                f'small for the runtime, so this is an overwrite figure, '
                f'not a baseline'
            )

    def judge_darshan(self, frame, logs):
        rounds = self.rounds
        run = parse(rounds.witness_text(self.variant, kind='darshan'))
        total = frame[list(darshan.SUMMED)].sum()
        written = int(total['POSIX_BYTES_WRITTEN'])
        if abs(written - run.io_bytes['write']) > 0.01 * run.io_bytes['write']:
            raise SanityError(f'Darshan saw {written} bytes written, fio '
                              f'reported {run.io_bytes["write"]}')

        block = size_bytes(rounds.block_size)
        sizes = darshan.access_sizes(frame)
        if set(sizes) != {block} or sizes[block] != total['POSIX_WRITES']:
            raise SanityError(f'Darshan saw accesses of {sizes} bytes '
                              f'(size: count), not every write of the '
                              f'{block}-byte block size')

        if rounds.fio_options(self.variant).get('direct') == 1:
            for name in ('POSIX_FILE_NOT_ALIGNED', 'POSIX_MEM_NOT_ALIGNED'):
                if total[name]:
                    raise SanityError(f'O_DIRECT, but Darshan counted '
                                      f'{total[name]} {name}')

        factor = max(darshan.overwrite_factors(frame).values())
        self.scalars['darshan_overwrite_factor'] = factor
        self.perf_variables['darshan_overwrite_factor'] = (
            sn.make_performance_function(self._scalar, 'x',
                                         'darshan_overwrite_factor'))
        wraps = self.variant in rounds.overwrite_variants
        if self.measures == 'page cache' and not wraps:
            return     # may wrap: its files are sized for storage rates

        if (factor > 1) != wraps:
            raise SanityError(
                f'Darshan saw a file written {factor:.3g}x its size: the '
                f'variant {"must" if wraps else "must not"} overwrite it')

        if (factor > 1) != (self.scalars['overwrite_factor'] > 1):
            raise SanityError(
                f'Darshan saw a file written {factor:.3g}x its size, fio\'s '
                f'samples {self.scalars["overwrite_factor"]:.3g}x: they '
                f'disagree')

        unsequential = total['POSIX_WRITES'] - total['POSIX_SEQ_WRITES']
        if not wraps and unsequential > len(frame):
            raise SanityError(f'Darshan saw {unsequential} writes that were '
                              f'not sequential, in {len(frame)} files')

    def _check_witness(self, recs):
        syscall = self.rounds.witness_syscall
        if not syscall:
            return

        if 'witness_missing' in recs:
            self.witness = f'not run: {recs["witness_missing"][0]} not found'
            return

        summary = self.rounds.read_witness(
            self.variant, f'strace-{self.variant}.txt',
            lambda text: strace.parse_summary(text, syscall), self
        )
        calls = summary.get(syscall, strace.Calls(0, 0))
        failed = f' ({calls.errors} failed)' if calls.errors else ''
        self.witness = (f'{calls.succeeded} {syscall}() calls{failed} in '
                        f'{recs["witness"][0]}')
        expected = self.rounds.witness_expect[self.variant]
        if expected != (calls.succeeded > 0):
            raise SanityError(
                f'witness: strace saw {calls.succeeded} successful '
                f'{syscall}() calls{failed} but variant {self.variant!r} '
                f'claims {"at least one" if expected else "none"}'
            )
