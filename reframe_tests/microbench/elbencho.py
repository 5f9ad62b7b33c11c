'''elbencho: command lines, result parser, and the base classes of elbencho
checks.

Every sample is one elbencho run that writes, then reads, ``threads`` threads
on one file per host.  Its results go to a JSON Lines file (``--jsonfile``:
one object per phase, every value a string); the figure of a phase is its
"last done" throughput, when the last thread finished, in MiB/s.  On a
facility partition with several nodes, elbencho runs as a service on every
node (``--service``, started through the launcher) and the job drives them
all from its first node (``--hosts``); on the local default it runs directly.
'''

import json
import os
import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench import launchers, records
from microbench.checks import SCRATCH, Rounds, VariantCheck

MIB = 2**20
_ERROR = re.compile(r'(ERROR: .*|Preparation phase error: .*|'
                    r'.*phase error: .*)$', re.M)


class ElbenchoOutputError(ValueError):
    '''elbencho's results cannot be trusted; the message says why.'''


@dataclass(frozen=True)
class ElbenchoRun:
    '''One elbencho run, as its JSON Lines results report it.'''

    version: str
    direct: bool
    hosts: int
    threads: int
    #: phase ('WRITE', 'READ') -> last-done throughput, MiB/s
    mib_s: dict
    #: phase -> CPU use of the last done, %
    cpu_percent: dict


def errors(text):
    '''The error lines elbencho printed, first one first.'''
    return [m.group(1).strip() for m in _ERROR.finditer(text)]


def parse(text, source='elbencho results', phases=('WRITE', 'READ')):
    '''Parse the ``--jsonfile`` results of one elbencho run.

    :raises ElbenchoOutputError: on empty, truncated or incomplete results,
        or if a phase is missing (a time limit ends a run early).
    '''
    if not text.strip():
        raise ElbenchoOutputError(f'{source} are empty: elbencho wrote no '
                                  f'results')

    found = {}
    for num, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue

        try:
            phase = json.loads(line)
            name = phase['phase_type']
            config, last = phase['config'], phase['last_done']
            found[name] = (config, float(last['bytes/s']) / MIB,
                           float(last['cpu%']))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
            raise ElbenchoOutputError(f'{source}, line {num}: not a complete '
                                      f'elbencho phase ({err})') from None

    missing = [p for p in phases if p not in found]
    if missing:
        raise ElbenchoOutputError(f'{source} have no {" and ".join(missing)} '
                                  f'phase: the run ended early (a time '
                                  f'limit?) or failed')

    config = found[phases[0]][0]
    try:
        return ElbenchoRun(config['version'], config['direct_io'] == 'true',
                           int(config['hosts']), int(config['threads']),
                           {p: found[p][1] for p in phases},
                           {p: found[p][2] for p in phases})
    except (KeyError, ValueError) as err:
        raise ElbenchoOutputError(f'{source}: incomplete configuration '
                                  f'({err})') from None


class ElbenchoRounds(Rounds):
    '''elbencho runs of a pitfall, round-robin (a fixture).'''

    tool = 'elbencho'
    programs = ('elbencho',)
    stdout_file = 'elbencho.out'
    output_files = ('elbencho.json',)

    #: Directory of the elbencho binary; empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    elbencho_bindir = variable(str, value='')

    #: Nodes of the job, each with an elbencho service (one on the local
    #: default, where elbencho runs directly).
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
        return os.path.join(self.elbencho_bindir, 'elbencho')

    def tools_needed(self):
        return [self.elbencho()]

    def version_command(self):
        return f'{self.elbencho()} --version | head -n 1'

    def expected_seconds(self):
        return 900

    def flavour(self):
        return launchers.flavour(self.current_partition)

    def service_mode(self):
        return self.flavour() != 'local' and self.num_nodes > 1

    def variant_options(self, variant):
        '''elbencho options of ``variant``.'''
        raise NotImplementedError

    def variant_command(self, variant):
        argv = [self.elbencho()]
        if self.service_mode():
            argv += ['--hosts', '$hosts']

        argv += ['-w', '-r', '-t', str(self.threads), '-b', self.block_size,
                 '-s', self.file_size, *self.variant_options(variant)]
        if self.cores:
            argv += ['--cores', self.cores]

        return ' '.join([*argv, '--jsonfile', 'elbencho.json',
                         f'{SCRATCH}/file'])

    def setup_commands(self):
        binding = (f'threads bound to cores {self.cores}' if self.cores
                   else 'threads not bound')
        lines = [records.echo('binding', binding)]
        if not self.service_mode():
            return lines

        # A service on every node, driven from here; all stopped at exit
        scheduler = self.current_partition.scheduler.registered_name
        port = self.service_port
        start = launchers.on_node(self.flavour(), 'node')
        return lines + [
            f'nodes=($({launchers.nodes_command(scheduler)}))',
            'hosts=""',
            'for node in "${nodes[@]}"; do',
            f'    {start} {self.elbencho()} --service --foreground '
            f'--port {port} > service-$node.log 2>&1 &',
            f'    hosts="$hosts${{hosts:+,}}$node:{port}"',
            'done',
            records.echo('services', '$hosts'),
            f'trap \'{self.elbencho()} --hosts "$hosts" --quit >/dev/null '
            '2>&1; cleanup\' EXIT',
        ]

    def explain(self, failure, variant=None):
        found = (errors(self.stderr_of(variant))
                 + errors(self.last_output(self.stdout_file, variant)))

        return f'; elbencho said: {found[0]}' if found else ''


class ElbenchoVariantCheck(VariantCheck):
    '''One variant of an elbencho pitfall: write and read throughput (MiB/s,
    all threads of all hosts), median, min and max over the samples.'''

    main_figures = {'elbencho': [('write', 'MiB/s'), ('read', 'MiB/s')]}

    def cache_figures(self):
        '''Figures of this variant that measure the page cache by design.'''
        return ()

    def validate_samples(self, recs):
        rounds, runs = self.rounds, []
        for num in range(1, rounds.samples + 1):
            path = os.path.join(rounds.stagedir, rounds.output(
                'elbencho.json', self.variant, num))
            try:
                with open(path) as fp:
                    runs.append(parse(fp.read(), f'elbencho results of '
                                      f'sample {num}'))
            except (OSError, ElbenchoOutputError) as err:
                raise SanityError(str(err)) from None

        for name, _ in self.figure_specs():
            self.record_figure([run.mib_s[name.upper()] for run in runs],
                               name)

        self.tool_version = f'elbencho {runs[0].version}'
        self.witness = rounds.records.get('binding', [''])[0]
        self.measures = ('page cache' if self.cache_figures() else 'storage')
        self.check_ceilings(runs[0].hosts, self.cache_figures())
