'''elbencho: command lines, result parser, and the base classes of elbencho
checks.

Every sample is one elbencho run that writes, then reads, ``threads`` threads
on one file per host.  Its results go to a JSON Lines file (``--jsonfile``:
one object per phase, every value a string); the figure of a phase is its
"last done" throughput, when the last thread finished, in MiB/s.  elbencho
appends to that file, so two objects of one phase mean two runs.  On a
facility partition with several nodes, elbencho runs as a service on every
node (``--service``, started through the launcher) and the job drives them
all from its first node (``--hosts``); where the launcher is local it runs
directly.
'''

import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench.suite import launchers, samples
from microbench.suite.output import (OutputError, lines, load_json,
                                     member, number)
from microbench.suite.rounds import SCRATCH, Rounds
from microbench.units import MIB, size_bytes
from microbench.suite.variant import VariantCheck
from microbench.suite.witnessed import Witnessed

#: What elbencho prints when it fails (after a time stamp, or a service's
#: host banner)
ERRORS = re.compile(r'\bERROR: |^.*phase error: ')

#: The phases of every sample
PHASES = ('WRITE', 'READ')


@dataclass(frozen=True)
class ElbenchoRun:
    '''One elbencho run, as its JSON Lines results report it.'''

    version: str
    direct: bool
    hosts: int
    #: phase ('WRITE', 'READ') -> last-done throughput, MiB/s
    mib_s: dict

    @property
    def figures(self):
        return {phase.lower(): value for phase, value in self.mib_s.items()}


def _phase(line):
    '''(phase name, its config, MiB/s) of one line of results.'''
    phase = load_json(line)
    name = member(phase, 'phase_type', 'a phase')
    config = member(phase, 'config', f'phase {name}')
    last = member(phase, 'last_done', f'phase {name}')
    where = f'the {name} phase'
    rate = number(member(last, 'bytes/s', where), f'{where} bytes/s')
    moved = number(member(last, 'bytes', where), f'{where} bytes')
    elapsed = number(member(last, 'elapsed_time_ms', where),
                     f'{where} elapsed_time_ms', positive=False)
    # elbencho truncates the elapsed time to whole milliseconds
    if abs(moved / rate * 1000 - elapsed) > 1 + 0.005 * elapsed:
        raise OutputError(f'{where}: {rate:g} bytes/s is not {moved:g} '
                          f'bytes in {elapsed:g} ms: the results are '
                          f'corrupted')

    return name, config, rate / MIB


def parse(text, phases=PHASES):
    '''Parse the ``--jsonfile`` results of one elbencho run: every phase of
    ``phases``, once.

    :raises OutputError: on empty, cut or corrupted results, a phase
        missing (a time limit ends a run early) or given twice (an appended
        results file).
    '''
    found = {}
    for num, line in enumerate(lines(text), start=1):
        if not line.strip():
            continue

        try:
            name, *rest = _phase(line)
        except OutputError as err:
            raise OutputError(f'line {num}: {err}') from None

        if name in found:
            raise OutputError(f'the {name} phase appears twice: results of '
                              f'more than one run in one file')

        found[name] = rest

    missing = [p for p in phases if p not in found]
    if missing:
        raise OutputError(f'no {" and ".join(missing)} phase: the run ended '
                          f'early (a time limit?) or failed')

    config = found[phases[0]][0]
    where = 'the configuration'
    direct = member(config, 'direct_io', where)
    if direct not in ('true', 'false'):
        raise OutputError(f'direct_io is {direct!r}')

    return ElbenchoRun(
        str(member(config, 'version', where)), direct == 'true',
        number(member(config, 'hosts', where), 'hosts', integer=True),
        {phase: found[phase][1] for phase in phases}
    )


def read_sample(sample):
    '''One elbencho sample: its results, and no error on its standard
    output or error.'''
    sample.reject_errors(ERRORS, 'elbencho', ('elbencho.out', samples.STDERR))
    return sample.parse('elbencho.json', parse)


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

    #: Size of every file, one per node (``-s``).
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

    def elbencho(self):
        return self.program_path('elbencho')

    def tools_needed(self):
        return [self.elbencho()]

    def version_command(self):
        return f'{self.elbencho()} --version | head -n 1'

    def expected_seconds(self):
        return 900

    def service_mode(self):
        return self.flavour() != 'local' and self.num_nodes > 1

    def variant_options(self, variant):
        '''elbencho options of ``variant``.'''
        raise NotImplementedError

    def variant_command(self, variant):
        argv = [self.elbencho()]
        if self.service_mode():
            argv += ['--hosts', '$hosts']

        return ' '.join([*argv, *self.options(variant), '--jsonfile',
                         'elbencho.json', f'{SCRATCH}/file'])

    def darshan_argv(self, variant, preload):
        # On this node, not through the services: Darshan is preloaded
        # into elbencho itself
        return ' '.join([*preload, self.elbencho(), *self.options(variant),
                         f'{SCRATCH}/file'])

    def options(self, variant):
        argv = ['-w', '-r', '-t', str(self.threads), '-b', self.block_size,
                 '-s', self.file_size, *self.variant_options(variant)]
        if self.cores:
            argv += ['--cores', self.cores]

        return argv

    def nodes_command(self):
        if not self.service_mode():
            return None

        return self.job_nodes_command()

    def service(self):
        if not self.service_mode():
            return None

        start = launchers.on_node(self.flavour(), 'node')
        return (f'{start} {self.elbencho()} --service --foreground --port '
                f'{self.service_port}',
                f'{self.elbencho()} --hosts "$hosts" --quit',
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
        self.witness = (f'threads bound to cores {cores}' if cores
                        else 'threads not bound')
        self.cached.update(self.cache_figures())
        self.measures = 'page cache' if self.cached else 'storage'
        self.nodes = runs[0].hosts

    def judge_darshan(self, frame, logs):
        size = size_bytes(self.rounds.file_size)
        for phase, name in (('write', 'POSIX_BYTES_WRITTEN'),
                            ('read', 'POSIX_BYTES_READ')):
            moved = int(frame[name].sum())
            if moved != size:
                raise SanityError(f'Darshan saw the {phase} phase move '
                                  f'{moved} bytes, not the {size} bytes of '
                                  f'the file')
