'''mdtest: command lines, output parser, and the base classes of mdtest
checks.

Every sample is one mdtest run (files only, ``-F``) in a directory below the
scratch directory; its rates are the "SUMMARY rate" table (operations per
second, mean over the run's one iteration).  An error is an ``ERROR`` or
``FAILED in`` line, whatever the exit code (mdtest goes on through thousands
of warnings first).
'''

import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench.suite import mpi, where
from microbench.suite.mpi import MpiRounds
from microbench.suite.output import (OutputError, lines, number, once,
                                     reject_errors)
from microbench.suite.rounds import SCRATCH
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import Witnessed

_LAUNCHED = re.compile(r'^mdtest-(?P<version>\S+) was launched with '
                       r'(?P<tasks>\S+) total task\(s\) on (?P<nodes>\S+) '
                       r'node\(s\)')
_ROW = re.compile(r'^\s+(?P<op>(File|Directory|Tree) \w+)\s+(?P<values>.*)$')

#: What mdtest prints when it fails, and its warnings
ERRORS = re.compile(r'^(ERROR\b|.*: FAILED in )')
WARNINGS = re.compile(r'^WARNING: ')

#: mdtest's operation names -> the suite's figure names
OPERATIONS = {'File creation': 'create', 'File stat': 'stat',
              'File read': 'read', 'File removal': 'remove'}


@dataclass(frozen=True)
class MdtestRun:
    '''One mdtest run, as it printed it.'''

    version: str
    tasks: int
    nodes: int
    #: figure name (create, stat, read, remove) -> mean rate, ops/s
    rates: dict

    @property
    def figures(self):
        return dict(self.rates)


def _summary_rows(rows):
    '''The rows of the one "SUMMARY rate" table, up to its end.'''
    starts = [i for i, ln in enumerate(rows) if ln.startswith('SUMMARY rate')]
    start = once(starts, '"SUMMARY rate" table')
    table = []
    for line in rows[start + 1:]:
        if line.startswith(('SUMMARY', '-- finished at')):
            return table

        table.append(line)

    raise OutputError('the "SUMMARY rate" table has no end: no "-- finished '
                      'at" line, the run did not finish')


def _rate(table, operation):
    '''The mean rate of ``operation``; its max, min, mean and standard
    deviation must be numbers, min <= mean <= max.'''
    rows = [m for m in map(_ROW.match, table) if m and m['op'] == operation]
    row = once(rows, f'"{operation}" row')
    values = row['values'].split()
    if len(values) != 4:
        raise OutputError(f'the "{operation}" row has {len(values)} values, '
                          f'not max, min, mean and standard deviation')

    high, low, mean = (number(v, f'{operation} rate') for v in values[:3])
    number(values[3], f'{operation} standard deviation', positive=False)
    if not low <= mean <= high:
        raise OutputError(f'the "{operation}" mean {mean:g} is not between '
                          f'its min {low:g} and max {high:g}')

    return mean


def parse(text):
    '''Parse the output of one mdtest run.

    :raises OutputError: on empty, cut, error or incomplete output.
    '''
    rows = lines(text)
    reject_errors(text, ERRORS, 'mdtest')
    launched = once([m for m in map(_LAUNCHED.match, rows) if m],
                    '"mdtest-... was launched" line')
    table = _summary_rows(rows)
    if not any(ln.startswith('-- finished at') for ln in rows):
        raise OutputError('no "-- finished at" line: the run did not finish')

    return MdtestRun(
        launched['version'],
        number(launched['tasks'], 'the tasks', integer=True),
        number(launched['nodes'], 'the nodes', integer=True),
        {name: _rate(table, op) for op, name in OPERATIONS.items()}
    )


def read_sample(sample):
    '''One mdtest sample: its standard output, and no error on its
    standard error.'''
    sample.reject_errors(ERRORS, 'mdtest')
    return sample.parse('mdtest.out', parse)


#: The opens of every item of a task: its create and its read
OPENS_PER_ITEM = 2

#: The rank that created an mdtest file, from its name
_CREATOR = re.compile(r'\.mdtest\.(\d+)\.\d+$')


class MdtestRounds(Witnessed, MpiRounds):
    '''mdtest runs of a pitfall, round-robin (a fixture).

    A variant is ``<shape>.<stride>``.  Shapes (IO500's): ``easy``, empty
    files in a directory of every task's own (``-u``); ``hard``, 3901-byte
    files written and read back, all in one shared directory.  Stride:
    ``none`` (each task stats, reads and removes its own files) or ``node``
    (``-N <tasks per node>``: the files another node created, so no client
    cache can answer).
    '''

    tool = 'mdtest'
    reader = staticmethod(read_sample)
    bindir = 'mdtest_bindir'
    programs = ('mdtest',)
    stdout_file = 'mdtest.out'
    errors = ERRORS
    warnings = WARNINGS
    darshan_mpi = True

    #: Directory of the mdtest binary; empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    mdtest_bindir = variable(str, value='')

    #: Files every task creates, stats, reads and removes (``-n``).
    #:
    #: :type: :class:`int`
    #: :default: ``10000``
    items = variable(int, value=10000)

    #: Files every task handles in the Darshan witness's own sample.
    #:
    #: :type: :class:`int`
    #: :default: ``100``
    witness_items = variable(int, value=100)

    def mdtest(self):
        return self.program_path('mdtest')

    def tools_needed(self):
        return [self.mdtest()]

    def expected_seconds(self):
        return 600

    def variant_command(self, variant):
        return self.ranks(self.mdtest(), *self.options(variant, self.items))

    def darshan_argv(self, variant, preload):
        return self.ranks(*preload, self.mdtest(),
                          *self.options(variant, self.witness_items))

    def options(self, variant, items):
        shape, stride = variant.split('.')
        options = ['-F', '-n', str(items), '-d', f'{SCRATCH}/mdtest']
        if shape == 'easy':
            options += ['-u']
        else:
            options += ['-w', '3901', '-e', '3901']

        if stride == 'node':
            options += ['-N', str(self.tasks_per_node)]

        return options


class MdtestVariantCheck(VariantCheck):
    '''One variant of an mdtest pitfall: file create, stat, read and remove
    rates (ops/s), median, min and max over the samples.  Without a stride
    a task stats and reads its own files: those rates come from its client's
    cache.  With a stride but every task on one node, so do they: they are
    then reported as ``stat_cache``/``read_cache``, saying why.'''

    valid_systems = where.SHARED_SCRATCH
    main_figures = {'mdtest': [('create', 'ops/s'), ('stat', 'ops/s'),
                               ('read', 'ops/s'), ('remove', 'ops/s')]}
    cache_prone = ('stat', 'read')

    def judge(self, runs, recs):
        self.tool_version = (f'mdtest {runs[0].version}; '
                             f'{self.rounds.tool_version}')
        strided = self.variant.endswith('.node')
        self.measures = 'storage' if strided else 'client cache'
        shared = mpi.shared_cache(self.rounds, runs[0].nodes, runs[0].tasks)
        if strided and shared:
            self.note = (f'{shared}: the stride (-N) hands a task files the '
                         f'same kernel created, so stat and read rates come '
                         f'from its client cache')
            self.measures = 'client cache'
            for name in self.cache_prone:
                self.demote_to_cache(name)

    def judge_darshan(self, frame, logs):
        items = self.rounds.witness_items
        per_rank = frame.groupby('rank').agg(opens=('POSIX_OPENS', 'sum'),
                                             stats=('POSIX_STATS', 'sum'))
        for rank, row in per_rank.iterrows():
            if row.opens != OPENS_PER_ITEM * items or (
                    row.stats and row.stats != items):
                raise SanityError(
                    f'Darshan saw rank {rank} open {row.opens} times and stat '
                    f'{row.stats} times, for {items} items per task '
                    f'({OPENS_PER_ITEM} opens each, one stat)')

        if not per_rank['stats'].any():
            self.darshan_witness += ('; stat() unseen: Darshan 3.4 wraps '
                                     'glibc\'s __xstat, which glibc 2.33 and '
                                     'later no longer call')

        readers = frame[frame['POSIX_READS'] > 0]
        if readers.empty:
            return

        creators = readers['file'].str.extract(_CREATOR)[0].astype(int)
        other = (creators != readers['rank']).mean()
        self.darshan_witness += (f'; {100 * other:.1f} % of the files read '
                                 f'were created by another task')
        if not self.variant.endswith('.node') or other == 1:
            return

        self.demote_seen('read', f'Darshan saw {100 * (1 - other):.1f} % of '
                         f'the files read by the task that created them '
                         f'(mdtest reads at twice the stride -N)',
                         'the read rate is a client cache figure')
