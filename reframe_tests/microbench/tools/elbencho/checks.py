'''The base classes of elbencho checks: the rounds of a pitfall, where
elbencho runs directly or as a service on every node, and the check of one
variant (elbencho's results file: :mod:`.output`, its console:
:mod:`.console`).

On a facility partition with several nodes, elbencho runs as a service on
every node (``--service``, started through the launcher) and the job drives
them all from its first node (``--hosts``); where the launcher is local it
runs directly.
'''

from reframe.core.builtins import run_after, variable
from reframe.core.exceptions import SanityError

from microbench import codecs, fields
from microbench.suite import launchers, memory
from microbench.suite.rounds import Rounds
from microbench.suite.skeleton import SCRATCH
from microbench.units import figure_name, size_bytes
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import Witnessed
from microbench.tools.elbencho import services
from microbench.tools.elbencho.console import read_sample
from microbench.tools.elbencho.output import (ERRORS, PHASES, data_bytes,
                                              direct_witness)


def results_files(json='/dev/null'):
    '''elbencho's options for its result files: its JSON where the suite
    reads it (else none), never its text and CSV files.  Without them
    elbencho 3 appends all three to ``/var/tmp/elbencho_results_<user>/``:
    a file of every run left outside the scratch, and files the Darshan
    witness traces (a scratch below ``/var`` takes ``/var`` out of
    Darshan's excluded directories).'''
    return ('--jsonfile', json, '--resfile', '/dev/null', '--csvfile',
            '/dev/null')


class ElbenchoRounds(Witnessed, Rounds):
    '''elbencho runs of a pitfall, round-robin (a fixture).'''

    tool = 'elbencho'
    reader = staticmethod(read_sample)
    bindir = 'elbencho_bindir'
    programs = ('elbencho',)
    stdout_file = 'elbencho.out'
    output_files = ('elbencho.json',)
    errors = ERRORS

    #: Directory of the elbencho binary; empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    elbencho_bindir = variable(str, value='')

    #: Nodes of the job, each with an elbencho service (one where the
    #: launcher is local, and elbencho runs directly).
    #:
    #: :type: :class:`int`
    #: :default: ``2``
    num_nodes = variable(int, value=2)

    #: I/O threads on every node (``-t``).
    #:
    #: :type: :class:`int`
    #: :default: ``4``
    threads = variable(int, value=4)

    #: Size of the one file the threads of all nodes share (``-s``).
    #:
    #: :type: :class:`str`
    #: :default: ``'32g'``
    file_size = variable(str, value='32g')

    #: Size of every I/O (``-b``).
    #:
    #: :type: :class:`str`
    #: :default: ``'1m'``
    block_size = variable(str, value='1m')

    #: Cores the threads are bound to (``--cores``, e.g. ``0-3``); empty:
    #: not bound.  Recorded with every figure.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    cores = variable(str, value='')

    #: TCP port of the elbencho services.
    #:
    #: :type: :class:`int`
    #: :default: ``1611``
    service_port = variable(int, value=1611)

    def tools_needed(self):
        return [self.program_path()]

    def version_command(self):
        return f'{self.program_path()} --version | head -n 1'

    def expected_seconds(self):
        return 900

    def service_mode(self):
        return self.flavour() != 'local' and self.num_nodes > 1

    def memory_nodes(self):
        return self.num_nodes if self.service_mode() else 1

    def variant_options(self, variant):
        '''elbencho options of ``variant``.'''
        raise NotImplementedError

    @run_after('init')
    def keep_consoles(self):
        # Every sample's console is kept (its table, and with services
        # every node's completion time: the node figures it made)
        self.keep_files = [*self.keep_files, 'elbencho-*.out']

    @run_after('setup')
    def set_nodes(self):
        # One service on every node of the job
        if self.service_mode():
            self.num_tasks = self.num_nodes
            self.num_tasks_per_node = 1

    def direct(self, variant):
        '''Whether ``variant`` claims O_DIRECT (asks ``--direct``).'''
        return '--direct' in self.variant_options(variant)

    def argv(self, variant):
        '''The words of the command of one sample of ``variant``.'''
        hosts = (['--hosts', '$hosts', services.OPTION]
                 if self.service_mode() else [])
        return [self.program_path(), *hosts, *self.options(variant),
                *results_files('elbencho.json'), f'{SCRATCH}/file']

    def variant_command(self, variant):
        return ' '.join(self.argv(variant))

    def asked(self, variant):
        '''What a sample of ``variant`` asked, as
        :func:`~microbench.tools.elbencho.output.parse` takes it.'''
        return {'phases': PHASES, 'block_size': self.block_size,
                'file_size': self.file_size, 'threads': self.threads,
                'hosts': self.num_nodes if self.service_mode() else 1,
                'direct': self.direct(variant),
                'command': self.argv(variant),
                'services': self.service_mode()}

    def reader_args(self, variant):
        return (self.asked(variant),)

    def darshan_argv(self, variant, preload):
        # On this node, not through the services: Darshan is preloaded
        # into elbencho itself
        return ' '.join([*preload, self.program_path(), *self.options(variant),
                         *results_files(), f'{SCRATCH}/file'])

    def options(self, variant):
        argv = ['-w', '-r', '-t', str(self.threads), '-b', self.block_size,
                 '-s', self.file_size, *self.variant_options(variant)]
        if self.cores:
            argv += ['--cores', self.cores]

        return argv

    def read_per_node(self, runs, cached=()):
        '''The per-node field's text of ``runs``: every phase's service
        completion time on every node, sample by sample (:mod:`.services`;
        not the phases ``cached``: a page cache's figure); '' where
        elbencho ran without services.'''
        if not self.service_mode():
            return ''
        found = services.node_samples([run.services for run in runs])
        return fields.NODE_FIGURES.encode(
            (codecs.node_key(figure_name(f'{phase.lower()}_completion',
                                         'median', 'us'), node), values)
            for phase, nodes in sorted(found.items())
            if phase.lower() not in cached
            for node, values in sorted(nodes.items()))

    def nodes_command(self):
        if not self.service_mode():
            return None

        return self.job_nodes_command()

    def service(self):
        if not self.service_mode():
            return None

        start = launchers.on_node(self.flavour(), 'node')
        return (f'{start} {self.program_path()} --service --foreground --port '
                f'{self.service_port}',
                f'{self.program_path()} --hosts "$hosts" --quit',
                self.service_port)


class ElbenchoVariantCheck(VariantCheck):
    '''One variant of an elbencho pitfall: write and read throughput (MiB/s,
    all threads of all hosts), median, min and max over the samples.'''

    main_figures = {'elbencho': [('write', 'MiB/s'), ('read', 'MiB/s')]}
    limits = {'write': 'storage_write_mib_s', 'read': 'storage_read_mib_s'}

    def cache_figures(self):
        '''Figures of this variant that measure the page cache by design.'''
        return ()

    def judge(self, runs, recs):
        cores = self.rounds.cores
        self.tool_version = f'elbencho {runs[0].version}'
        # The variant's claim, O_DIRECT or buffered, as its results say it
        direct = direct_witness(runs, self.rounds.direct(self.variant))
        bound = (f'threads bound to cores {cores}' if cores
                 else 'threads not bound')
        self.witness = f'{direct}; {bound}'
        self.cached.update(self.cache_figures())
        self.measures = 'page cache' if self.cached else 'storage'
        self.nodes = runs[0].hosts
        self.node_figures = self.rounds.read_per_node(runs, self.cached)

    def data_touched(self, runs):
        return {phase: memory.touched([data_bytes(run) for run in runs],
                                      self.nodes, phase == 'read')
                for phase in ('write', 'read')}

    def judge_darshan(self, frame, logs):
        size = size_bytes(self.rounds.file_size)
        for phase, name in (('write', 'POSIX_BYTES_WRITTEN'),
                            ('read', 'POSIX_BYTES_READ')):
            moved = int(frame[name].sum())
            if moved != size:
                raise SanityError(f'Darshan saw the {phase} phase move '
                                  f'{moved} bytes, not the {size} bytes of '
                                  f'the file')
