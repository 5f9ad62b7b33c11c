'''IOR: command lines, summary parser, and the base classes of IOR checks.

Every sample is one IOR run that writes and then reads.  Its summary goes to
a JSON file (``-O summaryFormat=JSON -O summaryFile=...``): on standard output
IOR mixes stonewall and warning lines into its JSON.  Bandwidth is IOR's
aggregate (``bwMeanMIB``, MiB/s) over all tasks.  A stonewall (``-D``, with
``stoneWallingWearOut`` so that every task writes as much) makes a write
phase last ``deadline_s`` seconds: a phase that ended before its stonewall
wrote all its blocks too soon, and its figure is not sustained.
'''

import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench.suite import darshan, mpi, samples, where
from microbench.suite.mpi import MpiRounds
from microbench.suite.output import (OutputError, load_json, member,
                                     number, once)
from microbench.suite.rounds import SCRATCH
from microbench.units import size_bytes
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import Witnessed

#: What IOR prints when it fails, and its warnings
ERRORS = re.compile(r'^(ERROR\b|Error invalid argument)')
WARNINGS = re.compile(r'^WARNING: ')

#: The phases of every IOR sample
PHASES = ('write', 'read')


@dataclass(frozen=True)
class IorRun:
    '''One IOR run, as its JSON summary reports it.'''

    version: str
    command: str
    nodes: int
    tasks: int
    deadline_s: int
    #: operation ('write', 'read') -> aggregate bandwidth, MiB/s
    mib_s: dict
    #: operation -> seconds of the phase
    seconds: dict
    #: operation -> seconds until the stonewall stopped it (or None)
    stonewall_s: dict

    @property
    def figures(self):
        return dict(self.mib_s)


def _text(obj, key, where):
    value = member(obj, key, where)
    if not isinstance(value, str):
        raise OutputError(f'{where} "{key}" is {value!r}, not text')

    return value


def _phase(summary, op):
    '''(bandwidth, seconds, stonewall seconds or None, tasks) of the one
    summary entry of operation ``op``.'''
    entry = once([e for e in summary if isinstance(e, dict)
                  and e.get('operation') == op], f'"{op}" summary entry')
    where = f'the {op} summary'
    stonewall = entry.get('StoneWallTime')
    return (number(member(entry, 'bwMeanMIB', where), f'{where} bwMeanMIB'),
            number(member(entry, 'MeanTime', where), f'{where} MeanTime'),
            None if stonewall is None else number(
                stonewall, f'{where} StoneWallTime', positive=False),
            number(member(entry, 'numTasks', where), f'{where} numTasks',
                   integer=True))


def parse_summary(text, phases=PHASES):
    '''Parse the JSON summary file of one IOR run, which must hold every
    phase of ``phases``, once.

    :raises OutputError: on empty, cut, incomplete or corrupted summaries.
    '''
    data = load_json(text)
    _text(data, 'Finished', 'the summary')       # IOR's success marker
    test = member(member(data, 'tests', 'the summary'), 0, 'its "tests"')
    params = member(test, 'Parameters', 'the test')
    summary = member(data, 'summary', 'the summary')
    if not isinstance(summary, list):
        raise OutputError(f'the summary entries are {summary!r}')

    found = {op: _phase(summary, op) for op in phases}
    tasks = {entry[3] for entry in found.values()}
    if len(tasks) != 1:
        raise OutputError(f'the phases ran on {sorted(tasks)} tasks')

    return IorRun(
        _text(data, 'Version', 'the summary'),
        _text(data, 'Command line', 'the summary'),
        number(member(params, 'nodes', 'the Parameters'), 'nodes',
               integer=True),
        tasks.pop(),
        number(params.get('deadlineForStonewall', 0), 'deadlineForStonewall',
               positive=False, integer=True),
        {op: entry[0] for op, entry in found.items()},
        {op: entry[1] for op, entry in found.items()},
        {op: entry[2] for op, entry in found.items()},
    )


def unsustained(run, operation='write'):
    '''A message if a stonewalled phase ended before its stonewall.'''
    if not run.deadline_s or operation not in run.seconds:
        return None

    stopped = run.stonewall_s.get(operation)
    if stopped is not None and stopped >= 0.99 * run.deadline_s:
        return None

    return (f'the {operation} phase ended after {run.seconds[operation]:.3g} '
            f's, before its {run.deadline_s} s stonewall: the blocks are too '
            f'small to keep every task writing, so the figure is not '
            f'sustained (raise the block size or segments)')


def read_sample(sample, phases=PHASES):
    '''One IOR sample: no error on its standard output or error, and its
    JSON summary with every phase.'''
    sample.reject_errors(ERRORS, 'IOR', ('ior.out', samples.STDERR))
    return sample.parse('ior.json', parse_summary, phases)


def sustained(runs):
    '''Fail if the write phase of a sample ended before its stonewall.'''
    for num, run in enumerate(runs, start=1):
        message = unsustained(run)
        if message:
            raise SanityError(f'sample {num}: {message}')


class IorRounds(Witnessed, MpiRounds):
    '''IOR runs of a pitfall, round-robin (a fixture).

    A variant is ``<shape>.<defence>``.  Shapes (IO500's): ``easy``, a file
    per process and 1 MiB transfers; ``hard``, one shared file and
    interleaved 47008-byte transfers.  Both are stonewalled after
    ``deadline_s`` seconds of writing; the read phase reads back what was
    written.  Subclasses say which options each defence adds
    (:meth:`defence_options`).  The Darshan witness traces every access
    (DXT), so that it can tell whose data every read got.
    '''

    tool = 'IOR'
    reader = staticmethod(read_sample)
    bindir = 'ior_bindir'
    programs = ('ior',)
    stdout_file = 'ior.out'
    output_files = ('ior.json',)
    errors = ERRORS
    warnings = WARNINGS
    darshan_mpi = True
    darshan_traced = True

    #: Directory of the IOR binaries; empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    ior_bindir = variable(str, value='')

    #: Seconds every write phase lasts (IOR ``-D``, the stonewall).
    #:
    #: :type: :class:`int`
    #: :default: ``30``
    deadline_s = variable(int, value=30)

    #: Block of every task in the easy shape (IOR ``-b``): more than the
    #: deadline can fill.
    #:
    #: :type: :class:`str`
    #: :default: ``'64g'``
    easy_block_size = variable(str, value='64g')

    #: Segments of every task in the hard shape (IOR ``-s``): more than the
    #: deadline can fill.
    #:
    #: :type: :class:`int`
    #: :default: ``10000000``
    hard_segments = variable(int, value=10000000)

    #: Seconds of the write phase of the Darshan witness's own sample.
    #:
    #: :type: :class:`int`
    #: :default: ``1``
    witness_deadline_s = variable(int, value=1)

    def ior(self):
        return self.program_path('ior')

    def tools_needed(self):
        return [self.ior()]

    def expected_seconds(self):
        return 2 * self.deadline_s + 120

    def shape_options(self, shape):
        if shape == 'easy':
            return ['-F', '-t', '1m', '-b', self.easy_block_size, '-s', '1']

        return ['-t', '47008', '-b', '47008', '-s', str(self.hard_segments)]

    def defence_options(self, defence):
        '''IOR options of a cache defence.'''
        raise NotImplementedError

    def ior_argv(self, variant, deadline_s):
        shape, defence = variant.split('.')
        return [self.ior(), '-w', '-r', '-o', f'{SCRATCH}/testfile',
                *self.shape_options(shape), '-D', str(deadline_s),
                '-O', 'stoneWallingWearOut=1', *self.defence_options(defence)]

    def variant_command(self, variant):
        return self.ranks(*self.ior_argv(variant, self.deadline_s),
                          '-O', 'summaryFormat=JSON',
                          '-O', 'summaryFile=ior.json')

    def darshan_argv(self, variant, preload):
        return self.ranks(*preload,
                          *self.ior_argv(variant, self.witness_deadline_s))

    def transfer_size(self, variant):
        options = self.shape_options(variant.split('.')[0])
        return size_bytes(options[options.index('-t') + 1])


class IorVariantCheck(VariantCheck):
    '''One variant of an IOR pitfall: write and read bandwidth (MiB/s,
    aggregate over the tasks), median, min and max over the samples.

    Subclasses say which variants measure the page cache by design
    (:meth:`cache_figures`) and which rely on reading another node's data
    (:meth:`reads_other_nodes`): with one node that cannot work, and their
    read figure is reported as a cache figure, ``read_cache_*``, with no
    storage reference, saying why.
    '''

    valid_systems = where.SHARED_SCRATCH
    main_figures = {'ior': [('read', 'MiB/s'), ('write', 'MiB/s')]}
    cache_prone = ('read',)
    limits = {'write': 'storage_write_mib_s', 'read': 'storage_read_mib_s'}

    def cache_figures(self):
        '''Figures of this variant that measure the page cache by design.'''
        return ()

    def reads_other_nodes(self):
        '''Whether this variant's read relies on reading what another node
        wrote (IOR -C).'''
        return False

    def judge(self, runs, recs):
        sustained(runs)
        self.tool_version = (f'IOR {runs[0].version}; '
                             f'{self.rounds.tool_version}')
        self.nodes = runs[0].nodes
        self.cached.update(self.cache_figures())
        shared = mpi.shared_cache(self.rounds, self.nodes, runs[0].tasks)
        if self.reads_other_nodes() and shared and 'read' not in self.cached:
            self.note = (f'{shared}: a task reordering (-C) reads back what '
                         f'the same kernel wrote, from its page cache, so '
                         f'the read figure is a cache figure, not storage')
            self.demote_to_cache('read')

        self.measures = 'page cache' if 'read' in self.cached else 'storage'

    def judge_darshan(self, frame, logs):
        size = self.rounds.transfer_size(self.variant)
        sizes = darshan.access_sizes(frame)
        if set(sizes) != {size}:
            raise SanityError(f'Darshan saw accesses of {sizes} bytes '
                              f'(size: count), not every access of the '
                              f'{size}-byte transfer size')

        if '-e' in self.rounds.defence_options(self.variant.split('.')[1]):
            writers = frame[frame['POSIX_WRITES'] > 0].groupby('rank')
            unsynced = [r for r, f in writers if f['POSIX_FSYNCS'].sum() == 0]
            if unsynced:
                raise SanityError(f'fsync (-e) asked, but Darshan saw no '
                                  f'fsync by ranks {unsynced}')

        origins = darshan.read_origins(logs, self.rounds.scratch)
        read = sum(origins.values())
        if not read:
            raise OutputError('Darshan saw no byte read')

        self.darshan_witness += '; reads got data written by ' + ', '.join(
            f'{o} {100 * b / read:.1f} %' for o, b in origins.items() if b)
        local = 1 - origins['other node'] / read
        if not self.reads_other_nodes() or not local:
            return

        self.demote_seen('read', f'Darshan saw {100 * local:.1f} % of the '
                         f'bytes read come from data written on the reading '
                         f'node, not another', 'the read figure is a cache '
                         'figure, not storage')
        self.measures = 'page cache'
