'''The base classes of IOR checks, and what their Darshan witness judges.

Every IOR command of a check comes from :func:`.command.build`: the
measured samples, the Darshan witness's short sample, and what the reader
of every sample is told was asked (:meth:`IorRounds.reader_args`).
'''

from reframe.core.builtins import run_after, variable
from reframe.core.exceptions import SanityError

from microbench import codecs, fields
from microbench.suite import darshan, dxt, memory, mpi, where
from microbench.suite import residency as suite_residency
from microbench.suite.mpi import MpiRounds
from microbench.suite.output import OutputError
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import OFF, Witnessed
from microbench.tools.ior import command, ranks, residency
from microbench.tools.ior.output import (ERRORS, WARNINGS, data_bytes,
                                         read_sample, read_sequence,
                                         unsustained)
from microbench.units import figure_name


def sustained(runs):
    '''Fail if the write phase of a sample ended before its stonewall.'''
    for num, run in enumerate(runs, start=1):
        message = unsustained(run)
        if message:
            raise SanityError(f'sample {num}: {message}')


class IorRounds(Witnessed, MpiRounds):
    '''IOR runs of a pitfall, round-robin (a fixture).

    A variant is a point (:meth:`point`): a shape, a cache defence, nodes
    and tasks per node; by default ``<shape>.<defence>`` on the job's nodes.
    Shapes (IO500's): ``easy``, a file per process and 1 MiB transfers;
    ``hard``, one shared file and interleaved 47008-byte transfers.  Both
    are stonewalled after ``deadline_s`` seconds of writing; the read phase
    reads back what was written.  Subclasses may add defences
    (:meth:`defence_options`).  The Darshan witness runs the same command
    (:func:`.command.build`), shorter, and traces every access (DXT), so
    that it can tell whose data every read got.
    '''

    tool = 'IOR'
    reader = staticmethod(read_sample)
    bindir = 'ior_bindir'
    programs = ('ior',)
    stdout_file = command.STDOUT_FILE
    output_files = (command.SUMMARY_FILE, ranks.RANKS_FILE)
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

    def tools_needed(self):
        return [self.program_path()]

    def expected_seconds(self):
        return 2 * self.deadline_s + 120

    def point(self, variant):
        '''(shape, defence, nodes, tasks per node) of ``variant``.'''
        shape, defence = variant.split('.')
        return shape, defence, self.nodes(), self.tasks_per_node

    def shape_options(self, shape):
        return command.shape_options(shape, self.easy_block_size,
                                     self.hard_segments)

    def defence_options(self, defence):
        '''IOR options of a cache defence.'''
        return command.DEFENCES[defence]

    def buffer_options(self, variant):
        '''IOR options placing the buffer of ``variant``'s tasks
        (:data:`.gpu.BUFFERS`); by default none: host memory.'''
        return ()

    def launch_options(self, variant):
        '''Launcher options of ``variant``'s ranks, besides those that
        spread them; by default none.'''
        return ()

    def ior_commands(self, variant, deadline_s=None, summary=True):
        '''The IOR commands of ``variant``, in order
        (:class:`.command.IorCommand`): a sample's (stonewalled after
        ``deadline_s``, by default :attr:`deadline_s`) or, without
        ``summary``, a witness's.  One command, but three for IO500's read
        after read (:func:`.command.build_reread`).'''
        shape, defence, nodes, per_node = self.point(variant)
        deadline_s = self.deadline_s if deadline_s is None else deadline_s
        if defence == command.REREAD_DEFENCE:
            return command.build_reread(
                self.program_path(), self.shape_options(shape), deadline_s,
                nodes, per_node, summary, self.buffer_options(variant))

        return (command.build(
            self.program_path(), self.shape_options(shape),
            self.defence_options(defence), deadline_s,
            nodes, per_node, summary, self.buffer_options(variant)),)

    def ior_command(self, variant, deadline_s=None, summary=True):
        '''The IOR command of ``variant`` whose read it is about: its one
        command, or the last read of a sequence (:meth:`ior_commands`).'''
        return self.ior_commands(variant, deadline_s, summary)[-1]

    def launched_commands(self, variant, commands, *preload):
        '''``commands`` of ``variant`` as its ranks run them, one after
        the other while each succeeds, each run's standard output to its
        own file where it names one.'''
        return ' && '.join(
            self.ranks(*self.launch_options(variant), *preload, *run.argv,
                       nodes=run.nodes, per_node=run.tasks_per_node)
            + (f' > {run.stdout}' if run.stdout else '')
            for run in commands)

    def variant_command(self, variant):
        return self.launched_commands(variant, self.ior_commands(variant))

    def witness_command(self, variant):
        # The residency witness (:mod:`.residency`): IOR's phases split,
        # fincore on every reading node between them; before the last read
        # of a sequence (:mod:`.reread`)
        return residency.witness_command(
            self, variant, self.ior_commands(variant, self.witness_deadline_s,
                                             summary=False))

    def darshan_argv(self, variant, preload):
        return self.launched_commands(
            variant, self.ior_commands(variant, self.witness_deadline_s,
                                       summary=False), *preload)

    @run_after('init')
    def keep_ranks(self):
        # Every rank's figures are kept with the node figures they made
        # (a line a rank and phase)
        self.keep_files = [*self.keep_files, 'ior-ranks-*.csv']

    def facts(self):
        # Every rank's node, where the ranks span nodes (:mod:`.ranks`)
        out = super().facts()
        if self.nodes() > 1:
            out[ranks.RECORD] = ranks.rank_map_command(self.ranks(),
                                                       self.stagedir)
        return out

    def read_per_node(self, variant, runs, cached=()):
        '''The per-node field's text of ``variant``'s ``runs``
        (:mod:`.ranks`): each write and read figure's value on every node,
        sample by sample (not those ``cached``: a page cache's figure);
        '' where its ranks are not the job's (one node, another point of a
        sweep) or IOR gave no per-rank figures.

        :raises OutputError: the rank map recorded is wrong.'''
        run = self.ior_command(variant)
        if self.nodes() < 2 or not run.asked.rank_file or \
                (run.nodes, run.tasks_per_node) != (self.nodes(),
                                                    self.tasks_per_node):
            return ''
        recorded = self.records.get(ranks.RECORD, [''])[0]
        rank_nodes = ranks.parse_rank_map(recorded, run.asked.tasks)
        found = ranks.node_samples([one.ranks for one in runs], rank_nodes)
        return fields.NODE_FIGURES.encode(
            (codecs.node_key(figure_name(phase, 'median', 'MiB/s'), node),
             values)
            for phase, nodes in sorted(found.items()) if phase not in cached
            for node, values in sorted(nodes.items()))

    def reader_args(self, variant):
        asked = self.ior_command(variant).asked
        return asked.phases, asked

    def read_sample(self, sample):
        runs = self.ior_commands(sample.variant)
        if len(runs) > 1:
            return read_sequence(sample, runs)

        return super().read_sample(sample)

    def reads_other_nodes(self, variant):
        '''Whether ``variant``'s read relies on reading what another node
        wrote (IOR -C).'''
        return any(run.asked.reorder for run in self.ior_commands(variant))


def judge_witness(rounds, variant, frame, logs):
    '''Hold the Darshan witness of ``variant`` of IOR ``rounds`` to what
    its command asked: every access the transfer size, every writing rank
    fsynced where ``-e`` was asked.  Return (what it saw of the reads,
    ``{origin: bytes read}``, :func:`microbench.suite.dxt.read_origins`).

    :raises SanityError: where a claim does not hold.
    :raises OutputError: where the witness read nothing.
    '''
    asked = rounds.ior_command(variant).asked
    sizes = darshan.access_sizes(frame)
    if set(sizes) != {asked.transfer}:
        raise SanityError(f'Darshan saw accesses of {sizes} bytes '
                          f'(size: count), not every access of the '
                          f'{asked.transfer}-byte transfer size')

    if asked.fsync:
        writers = frame[frame['POSIX_WRITES'] > 0].groupby('rank')
        unsynced = [r for r, f in writers if f['POSIX_FSYNCS'].sum() == 0]
        if unsynced:
            raise SanityError(f'fsync (-e) asked, but Darshan saw no '
                              f'fsync by ranks {unsynced}')

    origins = dxt.read_origins(logs, rounds.scratch)
    read = sum(origins.values())
    if not read:
        raise OutputError('Darshan saw no byte read')

    said = 'reads got data written by ' + ', '.join(
        f'{o} {100 * b / read:.1f} %' for o, b in origins.items() if b)
    return said, origins


def local_share(origins):
    '''The share of the bytes read that did not come from another node
    (0 where every read got another node's data).'''
    return 1 - origins['other node'] / sum(origins.values())


def witness_logs(rounds, variant, recs):
    '''(frame, logs) of the Darshan witness of ``variant``, or a string
    saying why it did not run (as :func:`microbench.suite.witnessed.judge`
    records it).'''
    if not rounds.darshan_wanted():
        return f'not run: darshan={OFF}'

    if 'darshan_missing' in recs:
        return f'not run: {recs["darshan_missing"][0]}'

    if 'darshan' not in recs:
        return 'not run'

    log_dir = rounds.darshan_log_dir(variant)
    logs = darshan.read_logs(log_dir)
    frame = darshan.files(logs, rounds.scratch)
    if frame.empty:
        raise OutputError(f'no process touched a file of the scratch '
                          f'directory {rounds.scratch}')

    return frame, logs


class IorVariantCheck(VariantCheck):
    '''One variant of an IOR pitfall: write and read bandwidth (MiB/s,
    aggregate over the tasks), median, min and max over the samples.

    Subclasses say which variants measure the page cache by design
    (:meth:`cache_figures`); a variant whose command reorders tasks (IOR
    ``-C``) relies on reading another node's data: with one node that
    cannot work, and its read figure is reported as a cache figure,
    ``read_cache_*``, with no storage reference, saying why.
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
        return self.rounds.reads_other_nodes(self.variant)

    def judge(self, runs, recs):
        sustained(runs)
        self.tool_version = (f'IOR {runs[0].version}; '
                             f'{self.rounds.tool_version}')
        self.nodes = runs[0].nodes
        self.cached.update(self.cache_figures())
        shared = mpi.shared_cache(self.rounds, self.nodes, runs[0].tasks)
        reads = self.read_figures()
        if self.reads_other_nodes() and shared:
            for read in reads:
                if read not in self.cached:
                    self.note = '; '.join(filter(None, [self.note, (
                        f'{shared}: a task reordering (-C) reads back what '
                        f'the same kernel wrote, from its page cache, so '
                        f'the {read} figure is a cache figure, not '
                        f'storage')]))
                    self.demote_to_cache(read)

        self.measures = ('page cache' if self.cached & set(reads)
                         else 'storage')
        self.node_figures = self.rounds.read_per_node(self.variant, runs,
                                                      self.cached)
        self.shared_cache = shared
        self.resident = residency.seen(self.rounds, self.variant, self,
                                       shared)
        # The residency witness looks before the last read
        suite_residency.judge(self, self.rounds.ior_command(
            self.variant).figure, self.resident,
            residency.direct(self.asked()))

    def read_figures(self):
        '''The names of this variant's read figures (``read``; and
        ``reread`` for IO500's read after read).'''
        return [name for name, _ in self.figure_specs() if name != 'write']

    def asked(self):
        return self.rounds.ior_command(self.variant).asked

    def data_touched(self, runs):
        return {op: memory.touched([data_bytes(run, op) for run in runs],
                                   self.nodes, op != 'write')
                for op in runs[0].xsize_mib}

    def judge_darshan(self, frame, logs):
        said, origins = judge_witness(self.rounds, self.variant, frame, logs)
        self.darshan_witness += '; ' + said
        agreement = residency.agreement(self.resident, origins,
                                        self.asked(), self.shared_cache)
        if agreement:
            raise SanityError(agreement)

        local = local_share(origins)
        if not self.reads_other_nodes() or not local:
            return

        self.demote_seen('read', f'Darshan saw {100 * local:.1f} % of the '
                         f'bytes read come from data written on the reading '
                         f'node, not another', 'the read figure is a cache '
                         'figure, not storage')
        self.measures = 'page cache'
