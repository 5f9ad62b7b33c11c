'''IOR: command lines, summary parser, and the base classes of IOR checks.

Every sample is one IOR run that writes and then reads.  Its summary goes to
a JSON file (``-O summaryFormat=JSON -O summaryFile=...``): on standard output
IOR mixes stonewall and warning lines into its JSON.  Bandwidth is IOR's
aggregate (``bwMeanMIB``, MiB/s) over all tasks.  A stonewall (``-D``, with
``stoneWallingWearOut`` so that every task writes as much) makes a write
phase last ``deadline_s`` seconds: a phase that ended before its stonewall
wrote all its blocks too soon, and its figure is not sustained.
'''

import json
import os
import re
from dataclasses import dataclass

from reframe.core.builtins import run_after, variable
from reframe.core.exceptions import SanityError

from microbench import launchers
from microbench.checks import SCRATCH, SHARED_SCRATCH, Rounds, VariantCheck

_ERROR = re.compile(r'^(ERROR\b|Error invalid argument|.*: FAILED in ).*$',
                    re.M)
_WARNING = re.compile(r'^WARNING: .*$', re.M)


class IorOutputError(ValueError):
    '''IOR's output cannot be trusted; the message says why.'''


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


def errors(text):
    '''The error lines IOR (or mdtest) printed, first one first.'''
    return [m.group(0).strip() for m in _ERROR.finditer(text)]


def diagnosis(stdout, stderr):
    '''What IOR or mdtest said about a failure: its first error line, else
    its first warning, else the last line it printed on stderr.'''
    found = errors(stdout) or [m.group(0) for m in _WARNING.finditer(stdout)][:1]
    if not found:
        found = [ln for ln in stderr.splitlines() if ln.strip()][-1:]

    return found[0].strip() if found else ''


def _get(obj, key, where):
    try:
        return obj[key]
    except (KeyError, TypeError, IndexError):
        raise IorOutputError(f'{where} has no "{key}": not a complete IOR '
                             f'JSON summary') from None


def parse_summary(text, source='IOR summary'):
    '''Parse the JSON summary file of one IOR run.

    :raises IorOutputError: on empty, truncated or incomplete summaries.
    '''
    if not text.strip():
        raise IorOutputError(f'{source} is empty: IOR wrote no summary')

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise IorOutputError(f'{source} is not valid JSON (truncated?): '
                             f'{err}') from None

    test = _get(_get(data, 'tests', source), 0, f'{source} "tests"')
    params = _get(test, 'Parameters', f'{source} test')
    summary = _get(data, 'summary', source)
    if not summary:
        raise IorOutputError(f'{source} has no summary entries: no phase '
                             f'completed')

    mib_s, seconds, stonewall = {}, {}, {}
    for entry in summary:
        op = _get(entry, 'operation', f'{source} summary')
        bandwidth = _get(entry, 'bwMeanMIB', f'{source} {op}')
        time = _get(entry, 'MeanTime', f'{source} {op}')
        try:
            mib_s[op], seconds[op] = float(bandwidth), float(time)
        except (TypeError, ValueError):
            raise IorOutputError(f'{source} {op}: bandwidth or time is not '
                                 f'a number') from None

        stonewall[op] = entry.get('StoneWallTime')

    return IorRun(str(_get(data, 'Version', source)),
                  str(_get(data, 'Command line', source)),
                  int(_get(params, 'nodes', f'{source} Parameters')),
                  int(_get(summary[0], 'numTasks', f'{source} summary')),
                  int(params.get('deadlineForStonewall', 0)),
                  mib_s, seconds, stonewall)


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


class MpiRounds(Rounds):
    '''Rounds of an MPI storage benchmark on ``num_nodes`` nodes with
    ``tasks_per_node`` ranks each (one node on the local default), on a
    scratch every node shares.'''

    valid_systems = SHARED_SCRATCH

    #: Nodes of the job (one on the local default).
    #:
    #: :type: :class:`int`
    #: :default: ``2``
    num_nodes = variable(int, value=2)

    #: MPI ranks on every node.
    #:
    #: :type: :class:`int`
    #: :default: ``2``
    tasks_per_node = variable(int, value=2)

    def version_command(self):
        return launchers.MPI_VERSION

    def flavour(self):
        return launchers.flavour(self.current_partition)

    def nodes(self):
        return 1 if self.flavour() == 'local' else self.num_nodes

    def ranks(self, *argv, nodes=None, per_node=None):
        '''A command line starting the ranks of one sample.'''
        return ' '.join([launchers.spread(self.flavour(), nodes or self.nodes(),
                                          per_node or self.tasks_per_node),
                         *argv])

    def explain(self, failure, variant=None):
        said = diagnosis(self.last_output(self.stdout_file, variant),
                         self.stderr_of(variant))
        return f'; {self.tool} said: {said}' if said else ''

    @run_after('setup')
    def set_tasks(self):
        self.num_tasks = self.nodes() * self.tasks_per_node
        self.num_tasks_per_node = self.tasks_per_node


class IorRounds(MpiRounds):
    '''IOR runs of a pitfall, round-robin (a fixture).

    A variant is ``<shape>.<defence>``.  Shapes (IO500's): ``easy``, a file
    per process and 1 MiB transfers; ``hard``, one shared file and
    interleaved 47008-byte transfers.  Both are stonewalled after
    ``deadline_s`` seconds of writing; the read phase reads back what was
    written.  Subclasses say which options each defence adds
    (:meth:`defence_options`).
    '''

    tool = 'IOR'
    programs = ('ior',)
    stdout_file = 'ior.out'
    output_files = ('ior.json',)

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

    def ior(self):
        return os.path.join(self.ior_bindir, 'ior')

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

    def variant_command(self, variant):
        shape, defence = variant.split('.')
        return self.ranks(
            self.ior(), '-w', '-r', '-o', f'{SCRATCH}/testfile',
            *self.shape_options(shape), '-D', str(self.deadline_s),
            '-O', 'stoneWallingWearOut=1', *self.defence_options(defence),
            '-O', 'summaryFormat=JSON', '-O', 'summaryFile=ior.json'
        )

    def runs(self, variant):
        '''The IOR runs of every sample of ``variant``; a
        :class:`SanityError` says what is wrong with one.'''
        runs = []
        for num in range(1, self.samples + 1):
            try:
                found = errors(self.read_file(self.output('ior.out', variant,
                                                          num)))
                if found:
                    raise SanityError(f'IOR printed an error in sample '
                                      f'{num} of {variant}: {found[0]}')

                with open(os.path.join(self.stagedir, self.output(
                        'ior.json', variant, num))) as fp:
                    run = parse_summary(fp.read(), f'IOR summary of sample '
                                        f'{num} of {variant}')
            except (OSError, IorOutputError) as err:
                raise SanityError(str(err)) from None

            message = unsustained(run)
            if message:
                raise SanityError(f'sample {num} of {variant}: {message}')

            runs.append(run)

        return runs


class IorVariantCheck(VariantCheck):
    '''One variant of an IOR pitfall: write and read bandwidth (MiB/s,
    aggregate over the tasks), median, min and max over the samples.

    Subclasses say which variants measure the page cache by design
    (:meth:`cache_figures`) and which rely on reading another node's data
    (:meth:`reads_other_nodes`): with one node that cannot work, and their
    read figure is reported as a cache figure, ``read_cache_*``, with no
    storage reference, saying why.
    '''

    valid_systems = SHARED_SCRATCH
    main_figures = {'ior': [('read', 'MiB/s'), ('write', 'MiB/s')]}
    cache_prone = ('read',)

    def cache_figures(self):
        '''Figures of this variant that measure the page cache by design.'''
        return ()

    def reads_other_nodes(self):
        '''Whether this variant's read relies on reading what another node
        wrote (IOR -C).'''
        return False

    def validate_samples(self, recs):
        runs = self.rounds.runs(self.variant)
        for op in ('write', 'read'):
            self.record_figure([run.mib_s[op] for run in runs], op)

        self.tool_version = (f'IOR {runs[0].version}; '
                             f'{self.rounds.tool_version}')
        nodes = runs[0].nodes
        cached = list(self.cache_figures())
        if self.reads_other_nodes() and nodes == 1 and 'read' not in cached:
            self.note = (f'all {runs[0].tasks} tasks ran on one node: a task '
                         f'reordering (-C) reads back what the same node '
                         f'wrote, from its page cache, so the read figure '
                         f'is a cache figure, not storage')
            self.demote_to_cache('read')
            cached.append('read')

        self.measures = 'page cache' if 'read' in cached else 'storage'
        self.check_ceilings(nodes, cached)
