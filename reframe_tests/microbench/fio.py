'''fio: command line, JSON output parser, and the base class of fio checks.

Every sample is one fio run with ``--output-format=json``; bandwidth is the
bytes the jobs wrote divided by the longest job runtime (what fio reports as
the group's aggregate), in MiB/s.
'''

import json
import os
import re
from dataclasses import dataclass

from reframe.core.builtins import performance_function, variable
from reframe.core.exceptions import SanityError

from microbench import strace
from microbench.checks import SCRATCH, Rounds, VariantCheck
from microbench.stats import Samples

MIB = 2**20

#: What fio prints when the file system rejects O_DIRECT (EINVAL on open)
_ODIRECT_REJECTED = re.compile(r'does not support (direct=1|O_DIRECT)')


class FioOutputError(ValueError):
    '''fio's output cannot be trusted; the message says why.'''


@dataclass(frozen=True)
class FioRun:
    '''One fio run, as its JSON output reports it.'''

    version: str
    jobs: tuple
    #: bytes moved and longest job runtime (ms), per direction
    io_bytes: dict
    runtime_ms: dict

    def mib_s(self, direction='write'):
        return (self.io_bytes[direction] / MIB
                / (self.runtime_ms[direction] / 1000))


def command(executable, options):
    '''The argv of a fio run; ``options`` maps option names to values
    (:obj:`None` for a flag without value).'''
    return [executable, *(f'--{name}' if value is None
                          else f'--{name}={value}'
                          for name, value in options.items())]


def _field(obj, key, kind, where):
    try:
        value = obj[key]
    except (KeyError, TypeError):
        raise FioOutputError(f'{where} has no "{key}": not complete '
                             f'fio JSON output') from None

    if not isinstance(value, kind) or isinstance(value, bool):
        raise FioOutputError(f'{where}: "{key}" is {value!r}, '
                             f'not a {kind.__name__}')

    return value


def parse(text, source='fio output', direction='write'):
    '''Parse the JSON output of one fio run.

    :raises FioOutputError: on empty, truncated, non-JSON or error output,
        or if nothing was moved in ``direction``.
    '''
    if not text.strip():
        raise FioOutputError(f'{source} is empty: fio wrote nothing')

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise FioOutputError(f'{source} is not valid JSON (truncated, or '
                             f'not --output-format=json): {err}') from None

    version = _field(data, 'fio version', str, source)
    jobs = _field(data, 'jobs', list, source)
    if not jobs:
        raise FioOutputError(f'{source} lists no jobs')

    io_bytes, runtime_ms, names = 0, 0, []
    for job in jobs:
        name = _field(job, 'jobname', str, f'{source}: a job')
        where = f'{source}: job {name!r}'
        error = _field(job, 'error', int, where)
        if error:
            raise FioOutputError(f'{where} failed with error {error} '
                                 f'({os.strerror(error)})')

        stats = _field(job, direction, dict, where)
        io_bytes += _field(stats, 'io_bytes', int, f'{where} {direction}')
        runtime_ms = max(runtime_ms,
                         _field(stats, 'runtime', int, f'{where} {direction}'))
        names.append(name)

    if io_bytes <= 0 or runtime_ms <= 0:
        done = 'written' if direction == 'write' else 'read'
        raise FioOutputError(f'{source}: nothing was {done} '
                             f'({io_bytes} bytes in {runtime_ms} ms)')

    return FioRun(version, tuple(names), {direction: io_bytes},
                  {direction: runtime_ms})


def rejects_odirect(stderr):
    '''Whether fio's stderr says the file system rejected O_DIRECT.'''
    return bool(_ODIRECT_REJECTED.search(stderr))


class FioRounds(Rounds):
    '''The fio runs of a pitfall: every variant, round-robin, one fio run
    per sample with JSON output (a fixture of the pitfall's check).

    Subclasses set :attr:`variants` and implement :meth:`fio_options`; they
    may set :attr:`page_cache_variants`, :attr:`overwrite_variants` and a
    witness (:attr:`witness_syscall`, :attr:`witness_expect`).
    '''

    tool = 'fio'
    programs = ('fio',)
    output_files = ('fio.json',)

    #: The fio executable: a name on PATH or a path.
    #:
    #: :type: :class:`str`
    #: :default: ``'fio'``
    fio = variable(str, value='fio')

    #: Seconds each sample runs (fio ``runtime``); the paper used 10.
    #:
    #: :type: :class:`int`
    #: :default: ``10``
    runtime_s = variable(int, value=10)

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

    #: variant -> whether the witness must see the call (True: at least
    #: once, False: never)
    witness_expect = {}

    def fio_options(self, variant):
        '''fio job options of ``variant`` (without the output options).'''
        raise NotImplementedError

    def tools_needed(self):
        return [self.fio]

    def version_command(self):
        return f'{self.fio} --version'

    def variant_command(self, variant):
        return self.launch(*command(self.fio, {
            **self.fio_options(variant),
            'output-format': 'json', 'output': 'fio.json'
        }))

    def expected_seconds(self):
        return self.runtime_s + 60

    def witness_commands(self, variant):
        if not self.witness_syscall:
            return []

        options = {**self.fio_options(variant),
                   'name': f'{self.unique_name}_witness',
                   'runtime': self.witness_runtime_s,
                   'output-format': 'json', 'output': 'witness.json'}
        return strace.witness_commands(
            self, variant, command(self.fio, options),
            self.witness_syscall, f'strace-{variant}.txt'
        ) + self.clean_scratch()

    def sample_record(self):
        # Bytes of the files left in the scratch directory
        return (" file_bytes=$(find $scratch -type f -printf '%s\\n' | "
                "awk '{s += $1} END {printf \"%.0f\", s}')")

    def explain(self, failure, variant=None):
        stderr = self.stderr_of(variant)
        if rejects_odirect(stderr):
            return (f'; O_DIRECT (direct=1) was rejected by the scratch file '
                    f'system {self.scratch_fstype or "unknown"} at '
                    f'{self.scratch} (mount options '
                    f'{self.scratch_mount_options}): O_DIRECT is '
                    f'Linux-specific and not every file system supports it')

        lines = [ln for ln in stderr.splitlines() if ln.strip()]
        return f'; fio said: {lines[-1]}' if lines else ''


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

    def validate_samples(self, recs):
        rounds = self.rounds
        self.measures = ('page cache' if self.variant in rounds.page_cache_variants
                         else 'storage')
        runs, factors = [], []
        for line in recs['sample']:
            num, file_bytes = line.split(' file_bytes=')
            path = os.path.join(rounds.stagedir,
                                rounds.output('fio.json', self.variant, num))
            try:
                with open(path) as fp:
                    run = parse(fp.read(), f'fio output of sample {num}')
            except (OSError, FioOutputError) as err:
                raise SanityError(str(err)) from None

            file_bytes = int(file_bytes)
            seconds = run.runtime_ms['write'] / 1000
            if seconds < 0.9 * rounds.runtime_s:
                raise SanityError(
                    f'sample {num} wrote for {seconds:.3g} s of the '
                    f'{rounds.runtime_s} s runtime: fio reached the end of '
                    f'its {file_bytes} bytes of files first, so the files are '
                    f'too small for the runtime and the figure is not '
                    f'sustained'
                )

            runs.append(run.mib_s('write'))
            factors.append(run.io_bytes['write'] / file_bytes
                           if file_bytes else float('inf'))

        self.record_figure(runs)
        self.overwrite = Samples(factors, 'x')
        self._check_overwrite()
        self.check_ceilings(
            cached=('write',) if self.measures == 'page cache' else ()
        )
        self._check_witness(recs)

    def _check_overwrite(self):
        if self.variant in self.rounds.overwrite_variants:
            if self.overwrite.min <= 1:
                raise SanityError(
                    f'this variant must overwrite its file, but fio wrote '
                    f'only {self.overwrite.min:.3g}x its size: the file is too '
                    f'large for the runtime, so the pitfall was not exercised'
                )
        elif self.measures == 'storage' and self.overwrite.max > 1:
            raise SanityError(
                f'fio wrapped around and overwrote its files '
                f'({self.overwrite.max:.3g}x their size): the files are too '
                f'small for the runtime, so this is an overwrite figure, '
                f'not a baseline'
            )

    def _check_witness(self, recs):
        syscall = self.rounds.witness_syscall
        if not syscall:
            return

        if 'witness_missing' in recs:
            self.witness = f'not run: {recs["witness_missing"][0]} not found'
            return

        path = os.path.join(self.rounds.stagedir, f'strace-{self.variant}.txt')
        try:
            with open(path) as fp:
                calls = strace.parse_summary(fp.read()).get(syscall, 0)
        except (OSError, strace.StraceOutputError) as err:
            raise SanityError(f'witness: {err}') from None

        self.witness = f'{calls} {syscall}() calls in {recs["witness"][0]}'
        expected = self.rounds.witness_expect[self.variant]
        if expected and calls == 0 or not expected and calls > 0:
            raise SanityError(
                f'witness: strace saw {calls} {syscall}() calls but variant '
                f'{self.variant!r} claims {"at least one" if expected else "none"}'
            )

    @performance_function('x')
    def overwrite_factor(self):
        return self.overwrite.median
