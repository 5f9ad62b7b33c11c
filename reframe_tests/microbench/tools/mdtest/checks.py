'''The base classes of mdtest checks: the rounds of a pitfall (its shapes
and strides) and the check of one variant, which judges from what mdtest
printed whether a stride took a task's stat and read to another node
(mdtest's output: :mod:`.output`).
'''

import re

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench import knobs
from microbench.suite import mpi, where
from microbench.suite.mpi import MpiRounds
from microbench.suite.skeleton import SCRATCH
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import Witnessed
from microbench.tools.mdtest.output import (ERRORS, OPERATIONS, WARNINGS,
                                            read_sample)

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
    (``-N 1``, which mdtest multiplies by the tasks of a node when they are
    placed node by node on several: a task stats the files another node
    created, so no client cache can answer; mdtest reads at twice the
    stride, on two nodes the node's own files again, which
    :meth:`MdtestVariantCheck.judge_stride` reports as a cache figure).
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

    def tools_needed(self):
        return [self.program_path()]

    def expected_seconds(self):
        return 600

    def argv(self, variant, items):
        '''The words of mdtest's command line of ``variant``.'''
        return [self.program_path(), *self.options(variant, items)]

    def variant_command(self, variant):
        return self.ranks(*self.argv(variant, self.items))

    def asked(self, variant):
        '''What a sample of ``variant`` asked, as
        :func:`~microbench.tools.mdtest.output.parse` takes it.'''
        return {'operations': tuple(OPERATIONS.values()),
                'items': self.items, 'tasks': self.num_tasks,
                'nodes': self.nodes(), 'iterations': 1,
                'command': self.argv(variant, self.items)}

    def reader_args(self, variant):
        return (self.asked(variant),)

    def darshan_argv(self, variant, preload):
        return self.ranks(*preload, self.program_path(),
                          *self.options(variant, self.witness_items))

    def options(self, variant, items):
        shape, stride = variant.split('.')
        options = ['-F', '-n', str(items), '-d', f'{SCRATCH}/mdtest']
        if shape == 'easy':
            options += ['-u']
        else:
            options += ['-w', '3901', '-e', '3901']

        # mdtest 4 multiplies the stride by the tasks of a node when they
        # are placed node by node ("set to 1 to avoid client cache"): -N
        # <tasks per node> would shift by all the tasks of two nodes, every
        # task back to its own files (microbench.knobs, which the audit
        # shares)
        return [*options, *knobs.MDTEST_STRIDES[stride]]


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
        elif strided:
            self.judge_stride(runs)

    def judge_stride(self, runs):
        '''Demote a rate whose files the stride, as mdtest applied it, took
        from the task's own node: mdtest stats the files ``stride`` ranks
        on, reads those twice as far, and multiplies ``-N`` by the tasks of
        a node when they are placed node by node.'''
        for name, times in (('stat', 1), ('read', 2)):
            same = [run for run in runs
                    if not run.other_node(times * run.stride)]
            if same:
                run = same[0]
                shift = times * run.stride
                self.demote_seen(
                    name, f'mdtest shifted ranks by {run.stride} of '
                    f'{run.tasks}: task 0 {name}s the files of task '
                    f'{shift % run.tasks}, on its own node (Nodemap '
                    f'{run.nodemap})', f'the {name} rate is a client cache '
                    f'figure')

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
