'''The rounds fixture: one job measures every variant of a pitfall.

Its job runs sample 1 of every variant, then sample 2, and so on, on the
same nodes, so that drift of the machine during the job hits every variant
alike (the paper's method).  The job is the shell skeleton ``rounds.sh``
beside this file (lock, trap and cleanup, records, the round-robin loop,
server and client, services, witnesses); a subclass says only what differs
per tool: the programs it needs, the command of every variant, and how to
read one sample's output (:meth:`Rounds.read_sample`).

While the job runs, each poll of ReFrame prints what it says it waits for
(the benchmark lock: whose, since when) and each sample as it ends, with
its figures (:mod:`.progress`, :meth:`Rounds.run_complete`).  Its checks
read its records and samples through :class:`.collected.Collected`.  With
``stacks`` set, the job is an A/B experiment of two software stacks
(:mod:`.stacked`).
'''

import os
import shutil

import reframe as rfm
from reframe.core.backends import getlauncher
from reframe.core.builtins import run_after, run_before, sanity_function
from reframe.core.builtins import variable

from microbench.suite import (launchers, memory, progress, required,
                              samples, skeleton, stacked)
from microbench import settings, sides
from microbench.suite.collected import Collected
from microbench.suite.kept import Kept
from microbench.suite.recorded import Recorded

#: The shell skeleton of every rounds job
SKELETON = skeleton.SKELETON


class Rounds(rfm.RunOnlyRegressionTest, Recorded, Kept, Collected,
             special=True):
    '''Every variant of a pitfall in one job, round-robin (a fixture).

    Subclasses set :attr:`tool`, :attr:`programs` and :attr:`variants`, and
    implement :meth:`tools_needed`, :meth:`variant_command` and
    :meth:`read_sample`; they may add a server, a preparation, a witness or
    a probe per variant, preflight commands and a service on every node.
    The partition's launcher goes into every command (:meth:`launch`);
    ReFrame's own launcher line only calls the skeleton.

    ``special=True``: the one pipeline method it extends is
    :meth:`run_complete`, ReFrame's poll of the running job, to print the
    job's progress (ReFrame has no hook while a job runs).
    '''

    #: Root of the scratch directories; default: the partition's
    #: ``extras.scratch``, else the test's stage directory.  Each job makes
    #: a private directory below it and removes it on exit, pass or fail.
    #:
    #: :type: :class:`str` or :obj:`None`
    #: :default: :obj:`None`
    scratch_dir = variable(str, type(None), value=None)

    #: The two software stacks of an A/B experiment (``microbench ab``
    #: sets it; microbench/sides.py spells it:
    #: ``A:name=...;fio=DIR,B:name=...;fio=DIR``): the job runs every
    #: variant on both, its rounds alternating A B B A ... (``samples``
    #: rounds of each; microbench/suite/stacked.py).  Empty: one stack,
    #: the tool's directory variable's.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    stacks = variable(str, value='')

    #: The values of the pitfall's knob, in the order of every round
    variants = ()

    #: The benchmark programs the rounds launch (what Spack must provide)
    programs = ()

    #: Whether the benchmark writes to a scratch directory
    uses_scratch = True

    #: The file a sample's standard output goes to (None: the job's), and
    #: the files the tool writes itself; each is kept per sample
    #: (:func:`microbench.suite.samples.kept_name`)
    stdout_file = None
    output_files = ()

    #: A program every witness needs (its absence is recorded, not fatal)
    witness_tool = None

    #: The name of the tool's variable naming the directory of its
    #: programs (``<tool>_bindir``; empty: found on ``PATH``), or None
    bindir = None

    #: The tool's function reading one sample, called with the sample and
    #: :meth:`reader_args` (:meth:`read_sample`)
    reader = None

    #: The lines the tool prints when something went wrong, and its
    #: warnings (compiled regexes, or None): what :meth:`diagnosis` quotes
    errors = None
    warnings = None

    valid_systems = ['*']
    valid_prog_environs = ['*']
    executable = 'rounds_run'

    @classmethod
    def launched(cls):
        '''The benchmark programs the rounds launch.'''
        return cls.programs

    def tools_needed(self):
        '''Executables that must be on the node, or the check is skipped.'''
        raise NotImplementedError

    def version_command(self):
        '''A shell command printing the tool's version, or None.'''
        return None

    def variant_command(self, variant):
        '''The command line of one sample of ``variant``.'''
        raise NotImplementedError

    def server_command(self, variant):
        '''A server started before every sample of ``variant``, or None.'''
        return None

    def prepare_command(self, variant):
        '''A command run before every sample of ``variant``, or None.'''
        return None

    def residency_command(self, variant):
        '''A command run before every sample of ``variant``, after its
        preparation, printing what of the files the sample will read the
        page cache holds (:mod:`microbench.suite.residency`), or None.'''
        return None

    def witness_command(self, variant):
        '''The witness of ``variant`` on a short sample of its own, or None.'''
        return None

    def darshan_command(self, variant):
        '''The Darshan witness of ``variant`` on a short sample of its own
        (:class:`microbench.suite.witnessed.Witnessed`), or None.'''
        return None

    def darshan_settings(self):
        '''The skeleton's ``darshan_flavour`` and ``darshan_candidates``.'''
        return {'darshan_flavour': '', 'darshan_candidates': ''}

    def probe(self, variant):
        '''(command, reason): the variant is unsupported unless the command
        succeeds; or None.'''
        return None

    def preflight(self):
        '''[(command, reason)]: commands that must succeed before any
        sample, or the job fails saying the reason.'''
        return []

    def service(self):
        '''(command on ``$node``, stop command, port) of a service on every
        node, or None.'''
        return None

    def facts(self):
        '''{name: command}: recorded under name, what the command printed
        before the rounds.'''
        return {}

    def memory_nodes(self):
        '''How many nodes the benchmark runs on: the job records the
        memory of each (:mod:`.memory`).'''
        return 1

    def recorded_facts(self):
        ''':meth:`facts`, and the memory and the machine's settings of
        every node the benchmark runs on (:func:`.memory.command`,
        :func:`microbench.settings.command`).'''
        nodes = self.memory_nodes()
        start = launchers.spread(self.flavour(), nodes, 1) if nodes > 1 \
            else ''
        scratch = skeleton.SCRATCH if self.uses_scratch else ''
        return {**self.facts(),
                memory.RECORD: memory.command(self.flavour, nodes),
                settings.RECORD: settings.command(start, self.stagedir,
                                                  scratch)}

    def nodes_command(self):
        '''A shell command printing the job's nodes, or None (this node).'''
        return None

    def flavour(self):
        '''The launcher flavour of the partition: how it binds a process
        and starts one on a node (:mod:`.launchers`).'''
        return launchers.flavour(self.current_partition)

    def scheduler(self):
        '''The name of the partition's job scheduler (``slurm``,
        ``local``, ...).'''
        return self.current_partition.json()['scheduler']

    def job_nodes_command(self, required=True):
        '''The shell command printing the job's nodes, one per line
        (:data:`.launchers.NODES`); '' where the scheduler has none and
        ``required`` is false.'''
        if required or self.scheduler() in launchers.NODES:
            return launchers.nodes_command(self.scheduler())
        return ''

    def address_suffix(self):
        '''What turns a node's name into the server's address.'''
        return ''

    def program_path(self, program=None):
        '''Where the tool's ``program`` is (default: the one program it
        launches, :meth:`launched`): in the directory its :attr:`bindir`
        variable names, else found on ``PATH``.  Every tool's program is
        found here, and only here.'''
        if program is None:
            (program,) = self.launched()
        return os.path.join(getattr(self, self.bindir) if self.bindir
                            else '', program)

    def reader_args(self, variant):
        '''What :attr:`reader` needs besides a sample of ``variant``: what
        was asked (program, sizes, phases, operations), which the reader
        checks the output says back.'''
        return ()

    def read_sample(self, sample):
        '''The run of one :class:`~microbench.suite.samples.Sample`: parsed and
        validated, with its ``figures``.'''
        return self.reader(sample, *self.reader_args(sample.variant))

    def expected_seconds(self):
        '''Upper bound of the seconds one sample takes.'''
        return 300

    @run_after('init')
    def name_the_forgotten(self):
        # what a subclass must set, named where it is forgotten
        required.check(self, Rounds)

    @run_after('init')
    def keep_residency(self):
        # What the residency witnesses saw is kept with the figures it
        # judged (a few lines of fincore's per file)
        self.keep_files = [*self.keep_files, 'witness-*.txt',
                           'residency-*.txt']

    @run_after('setup')
    def resolve_scratch(self):
        if self.scratch_dir is None:
            self.scratch_dir = self.current_partition.extras.get(
                'scratch', os.path.join(self.stagedir, 'scratch')
            )

    @run_before('run')
    def limit_time(self):
        '''Every sample of every variant at :meth:`expected_seconds`, and
        five minutes more; ``-S time_limit=...`` (or ``-S
        CHECK_rounds.time_limit=...``) wins.  Set before the run: the
        variants of a sweep are known only once it is set up.'''
        if self.time_limit is None:
            rounds = self.samples + self.warmup_rounds
            self.time_limit = (len(stacked.job_variants(self)) * rounds
                               * self.expected_seconds() + 300)

    def launcher(self):
        '''The partition's launcher of the benchmark's processes.'''
        return self._launcher

    def launch(self, *argv, options=()):
        '''A command line as the partition's launcher runs it, with extra
        launcher ``options``.'''
        launcher = self.launcher()
        saved = launcher.options
        launcher.options = [*saved, *options]
        try:
            prefix = launcher.run_command(self.job)
        finally:
            launcher.options = saved

        return ' '.join([prefix, *argv]).strip()

    @run_before('run')
    def write_rounds(self):
        self._launcher = self.job.launcher
        self.job.launcher = getlauncher('local')()
        # ReFrame gives the job its tasks only when it writes the script;
        # the launch lines need them now
        self.job.num_tasks = self.num_tasks
        self.job.num_tasks_per_node = self.num_tasks_per_node
        for script in skeleton.STAGED:
            shutil.copy(script, self.stagedir)
        if self.stacks:
            # Each side's files are kept in its own directory
            self.keep_files = [*self.keep_files, *stacked.labels(self)]
            self.prerun_cmds = skeleton.job_lines(stacked.inputs(self))
        else:
            self.prerun_cmds = skeleton.job_lines(skeleton.inputs_of(self))
        self.progress = progress.Follower(
            os.path.join(self.stagedir, progress.FILE))

    def run_complete(self):
        '''Whether the job has ended (ReFrame's poll), and on the console
        what the job said since the last poll: the lock it waits for, each
        sample as it ends (:mod:`.progress`).'''
        done = super().run_complete()
        if not self.is_dry_run() and getattr(self, 'progress', None):
            self.tell_progress()
        return done

    def tell_progress(self):
        '''Print the job's new progress lines through ReFrame's logger;
        whatever goes wrong is one line, never the run's end.'''
        try:
            for event in self.progress.events():
                tag, text = progress.words(event, self.sample_words)
                self.logger.info(progress.console_line(
                    tag, self.display_name, text))
        except Exception as err:
            self.progress = None
            self.logger.warning(
                f'{self.display_name}: no more progress lines: '
                f'{type(err).__name__}: {err}')

    def sample_words(self, variant, number):
        '''The figures of sample ``number`` of ``variant`` (in an A/B, of
        a side: ``direct@A``) in words, read as its check will read them
        (a sample that does not read says so: its check says why).'''
        try:
            variant, label = sides.split_key(variant)
            rounds = self.of_side(label) if label else self
            run = rounds.read_sample(samples.Sample(rounds.stagedir, variant,
                                                    number))
            return progress.figure_words(
                run.figures, progress.units_of(type(self), variant))
        except Exception as err:
            why = ' '.join(str(err).split())[:200]
            return f'its output does not read ({why}): its check says why'

    @sanity_function
    def collect(self):
        self.collect_records()
        return True
