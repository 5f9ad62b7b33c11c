'''libfabric fabtests: command lines, output parser, and the base classes of
fabtests checks.

A sample is a server and a client: on a facility partition the server runs on
the job's first node and the client on the second, connected by the server
node's name; on the local default both run on the node over loopback.  The
provider (``tcp``, ``verbs``, ``cxi``, ...) is a partition property,
``extras.fabric.provider`` (default ``tcp``).  The client runs under GNU
``/usr/bin/time -v`` for its CPU use.  Every wait is bounded: the server gets
``server_start_s`` to come up, the client ``client_timeout_s`` to finish
(``timeout`` on its node), the server 10 s more; whatever is left is killed
when the job ends.

fabtests print sizes with binary suffixes (``32k``), counts with decimal ones
(``10k``), "MB/sec" meaning 10^6 bytes per second, and for a ping-pong
"usec/xfer" as half a round trip (two transfers per iteration).
'''

import os
import re
from dataclasses import dataclass

from reframe.core.builtins import performance_function, variable
from reframe.core.logging import getlogger
from reframe.core.exceptions import SanityError

from microbench import launchers, records
from microbench.checks import NETWORK, Rounds, VariantCheck
from microbench.stats import Samples

#: fabtests' "MB/sec" in MiB/s
MB_S_IN_MIB_S = 1e6 / 2**20

_COLUMNS = ['bytes', 'iters', 'total', 'time', 'MB/sec', 'usec/xfer',
            'Mxfers/sec']
_SIZE = {'': 1, 'k': 2**10, 'm': 2**20, 'g': 2**30}
_TIME_V = {
    'user_s': re.compile(r'^\s*User time \(seconds\): ([\d.]+)', re.M),
    'system_s': re.compile(r'^\s*System time \(seconds\): ([\d.]+)', re.M),
    'cpu_percent': re.compile(r'^\s*Percent of CPU this job got: (\d+)%',
                              re.M),
    'exit_status': re.compile(r'^\s*Exit status: (\d+)', re.M),
}


class FabtestsOutputError(ValueError):
    '''fabtests output cannot be trusted; the message says why.'''


@dataclass(frozen=True)
class FabtestsRun:
    '''One client (or server) run: its result row and, if it ran under
    ``/usr/bin/time -v``, its resource use.'''

    size: int
    iterations: str
    mb_s: float
    usec_per_xfer: float
    #: user_s, system_s, cpu_percent, exit_status (empty without time -v)
    usage: dict

    @property
    def mib_s(self):
        return self.mb_s * MB_S_IN_MIB_S


def _size(text):
    match = re.fullmatch(r'(\d+)([kmg]?)', text)
    if not match:
        raise FabtestsOutputError(f'not a fabtests size: {text!r}')

    return int(match[1]) * _SIZE[match[2]]


def parse(text, source='fabtests output'):
    '''Parse one fabtests run (its only or last result row).

    :raises FabtestsOutputError: on empty, truncated or error output.
    '''
    if not text.strip():
        raise FabtestsOutputError(f'{source} is empty: fabtests printed '
                                  f'nothing')

    lines = text.splitlines()
    header = next((i for i, ln in enumerate(lines)
                   if ln.split() == _COLUMNS), None)
    if header is None:
        last = [ln for ln in lines if ln.strip()][-1].strip()
        raise FabtestsOutputError(f'{source} has no result table: '
                                  f'fabtests said: {last}')

    rows = []
    for line in lines[header + 1:]:
        fields = line.split()
        if len(fields) != len(_COLUMNS) or not fields[0][0].isdigit():
            break

        rows.append(fields)

    if not rows:
        raise FabtestsOutputError(f'{source} has no result row '
                                  f'(truncated?)')

    size, iterations, _, _, mb_s, usec, _ = rows[-1]
    try:
        run = FabtestsRun(_size(size), iterations, float(mb_s), float(usec),
                          _usage(text))
    except ValueError as err:
        raise FabtestsOutputError(f'{source}: malformed result row '
                                  f'{rows[-1]}: {err}') from None

    if run.usage.get('exit_status', 0) != 0:
        raise FabtestsOutputError(f'{source}: exit status '
                                  f'{run.usage["exit_status"]}')

    return run


def _usage(text):
    usage = {}
    for key, pattern in _TIME_V.items():
        match = pattern.search(text)
        if match:
            usage[key] = (int(match[1]) if key in ('cpu_percent',
                                                   'exit_status')
                          else float(match[1]))

    return usage


def cpu_count(cpu_list):
    '''Number of CPUs in a Linux CPU list such as ``0-3,8``.'''
    count = 0
    for part in cpu_list.strip().split(','):
        low, _, high = part.partition('-')
        count += int(high or low) - int(low) + 1

    return count


#: awk program expanding a CPU list (0-3,8) into numbers (0 1 2 3 8)
_EXPAND = ("awk -F, '{for (i = 1; i <= NF; i++) {n = split($i, r, \"-\"); "
           "for (c = r[1]; c <= r[n]; c++) printf \"%d \", c}}'")


class FabtestsRounds(Rounds):
    '''fabtests client/server runs of a pitfall, round-robin (a fixture).

    Subclasses set :attr:`program` and :attr:`variants` and implement
    :meth:`program_options`; they may bind processes per variant
    (:meth:`binding`).
    '''

    tool = 'fabtests'
    uses_scratch = False
    valid_systems = NETWORK
    num_tasks = 2
    num_tasks_per_node = 1

    #: The fabtests program, e.g. ``fi_msg_pingpong``
    program = None

    #: Directory of the fabtests binaries; empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    fabtests_bindir = variable(str, value='')

    #: libfabric provider; default: the partition's
    #: ``extras.fabric.provider``, else ``tcp``.
    #:
    #: :type: :class:`str` or :obj:`None`
    #: :default: :obj:`None`
    provider = variable(str, type(None), value=None)

    #: Seconds the server gets to come up before the client starts.
    #:
    #: :type: :class:`int`
    #: :default: ``2``
    server_start_s = variable(int, value=2)

    #: Seconds the client gets to finish before it is killed.
    #:
    #: :type: :class:`int`
    #: :default: ``120``
    client_timeout_s = variable(int, value=120)

    #: Iterations of every sample (fabtests ``-I``); None: fabtests' own.
    #:
    #: :type: :class:`int` or :obj:`None`
    #: :default: :obj:`None`
    iterations = variable(int, type(None), value=None)

    @classmethod
    def launched(cls):
        return (cls.program,)

    def program_options(self, variant):
        '''Options of both sides for one sample of ``variant``.'''
        raise NotImplementedError

    def binding(self, variant):
        '''Launcher options of the server and of the client.'''
        return (), ()

    def binary(self):
        return os.path.join(self.fabtests_bindir, self.program)

    def tools_needed(self):
        return [self.binary(), 'fi_info', '/usr/bin/time']

    def version_command(self):
        return 'fi_info --version | tr -s "\\n" " "'

    def expected_seconds(self):
        return self.server_start_s + self.client_timeout_s + 15

    def fabric(self):
        fabric = self.current_partition.extras.get('fabric', {})
        return {'provider': self.provider or fabric.get('provider', 'tcp'),
                'domain': fabric.get('domain'),
                'address_suffix': fabric.get('address_suffix', '')}

    def flavour(self):
        return launchers.flavour(self.current_partition)

    def _on(self, side, variant=None):
        '''Launch prefix of one side (``server`` or ``client``).'''
        options = self.binding(variant)[side == 'client'] if variant else ()
        if self.flavour() == 'local':
            return ' '.join(options)

        return launchers.on_node(self.flavour(), f'{side}_node', options)

    def _command(self, side, variant):
        fabric = self.fabric()
        argv = [self.binary(), '-p', fabric['provider']]
        if fabric['domain']:
            argv += ['-d', fabric['domain']]

        argv += self.program_options(variant)
        if self.iterations:
            argv += ['-I', str(self.iterations)]

        if side == 'server':
            argv += ['-s', '$server_addr']
        else:
            # timeout kills the program itself, on its node
            argv = ['/usr/bin/time', '-v', 'timeout',
                    str(self.client_timeout_s), *argv, '$server_addr']

        return ' '.join([self._on(side, variant), *argv]).strip()

    def variant_command(self, variant):
        return self._command('client', variant)

    def setup_commands(self):
        if self.flavour() == 'local':
            nodes = ['server_node=$(hostname)', 'client_node=$server_node',
                     'server_addr=127.0.0.1']
        else:
            suffix = self.fabric()['address_suffix']
            listing = launchers.nodes_command(self.current_partition.scheduler.registered_name)
            nodes = [f'nodes=($({listing}))',
                     'server_node=${nodes[0]}',
                     'client_node=${nodes[1]:-${nodes[0]}}',
                     f'server_addr=$server_node{suffix}']

        provider = self.fabric()['provider']
        probe = f'{self._on("server")} fi_info -p {provider}'.strip()
        job_cpus = "$(grep Cpus_allowed_list /proc/self/status | cut -f2)"
        return [
            *nodes,
            f'if ! {probe} >/dev/null 2>&1; then',
            '    ' + records.echo('failed', f'provider {provider} does not '
                                  'exist on $server_node: fi_info found no '
                                  f'such provider: {probe}'),
            '    exit 1',
            'fi',
            f'job_cpus={job_cpus}',
            'set -- $(echo $job_cpus | ' + _EXPAND + ')',
            'server_core=$1',
            'client_core=${2:-$1}',
            records.echo('placement', 'server $server_node, client '
                         '$client_node, address $server_addr, provider '
                         f'{self.fabric()["provider"]}'),
            records.echo('job_cpus', '$job_cpus'),
            records.echo('client_cores', '$(' + self._on('client') +
                         ' getconf _NPROCESSORS_ONLN)'),
            *(records.echo('server_command',
                           f'{v}: {self._command("server", v)}')
              for v in self.variants),
            *self._server_client(),
        ]

    def sample_body(self, variant):
        return [f'server_client "{self._command("server", variant)}" '
                f'"{self._command("client", variant)}"']

    def _server_client(self):
        '''A shell function running one sample: the server ($1) in the
        background, the client ($2) once the server had time to come up.'''
        return [
            '# One sample: server $1 in the background, then client $2;',
            '# every wait bounded, $what says what went wrong',
            'server_client() {',
            '    cmd=$1',
            f'    $cmd > {self.output("server.out")} 2>&1 &',
            '    server=$!',
            f'    sleep {self.server_start_s}',
            '    if ! kill -0 $server 2>/dev/null; then',
            '        wait $server',
            '        rc=$?',
            '        what="the server exited with code $rc before the client '
            'started"',
            '        return $(( rc ? rc : 1 ))',
            '    fi',
            '    cmd=$2',
            f'    $cmd > {self.output("client.out")} 2>&1',
            '    rc=$?',
            '    if [ $rc -eq 124 ]; then',
            f'        what="the client timed out after {self.client_timeout_s}'
            ' s"',
            '    fi',
            '    # The server ends with its client: 10 s, then it is stopped',
            '    for i in $(seq 10); do',
            '        kill -0 $server 2>/dev/null || break',
            '        sleep 1',
            '    done',
            '    kill $server 2>/dev/null',
            '    wait $server',
            '    src=$?',
            '    if [ $rc -eq 0 ] && [ $src -ne 0 ]; then',
            '        cmd=$1',
            '        what="the server exited with code $src"',
            '        rc=$src',
            '    fi',
            '    return $rc',
            '}',
        ]

    def explain(self, failure, variant=None):
        # The last line the failed side printed in its last sample
        side = 'server' if 'the server' in failure else 'client'
        lines = [ln.strip() for ln in
                 self.last_output(f'{side}.out', variant).splitlines()
                 if ln.strip()]
        # What fabtests printed, before /usr/bin/time's report
        said = []
        for line in lines:
            if line.startswith('Command '):
                break

            said.append(line)

        return f'; the {side} said: {said[-1]}' if said else ''

    #: Whether to record the CPU set each side had, per variant
    cpuset_witness = False

    def witness_commands(self, variant):
        if not self.cpuset_witness:
            return []

        probe = 'grep Cpus_allowed_list /proc/self/status | cut -f2'
        server = f'{self._on("server", variant)} {probe}'.strip()
        client = f'{self._on("client", variant)} {probe}'.strip()
        return [records.echo('cpus', f'{variant}: server=$({server}) '
                             f'client=$({client})')]


class FabtestsVariantCheck(VariantCheck):
    '''One variant of a fabtests pitfall, from its rounds fixture: the
    client's result and CPU use in every sample.'''

    valid_systems = NETWORK

    def client_figure(self, run):
        '''The main figure of one client run.'''
        raise NotImplementedError

    def validate_samples(self, recs):
        runs = self.client_runs()
        self.record_figure([self.client_figure(r) for r in runs])
        self.cpu = self.client_cpu(runs)

    @performance_function('%')
    def client_cpu_percent(self):
        return self.cpu.median

    def client_runs(self):
        '''The parsed client outputs of every sample of this variant.'''
        rounds, runs = self.rounds, []
        for num in range(1, rounds.samples + 1):
            for side in ('client', 'server'):
                path = os.path.join(rounds.stagedir, rounds.output(
                    f'{side}.out', self.variant, num))
                try:
                    with open(path) as fp:
                        run = parse(fp.read(), f'{side} output of sample '
                                    f'{num}')
                except (OSError, FabtestsOutputError) as err:
                    raise SanityError(str(err)) from None

                if side == 'client':
                    runs.append(run)

        self.tool_version = ' '.join(rounds.records.get('version', []))
        placement = rounds.records.get('placement', [''])[0]
        self.node = placement
        return runs

    def oversubscription(self, busy):
        '''A note, also logged, when the busy-polling processes of a sample
        leave no core of their node free.'''
        recs = self.rounds.records
        server, client = re.match(r'server (\S+), client (\S+),',
                                  recs['placement'][0]).groups()
        cores = int(recs['client_cores'][0])
        pollers = (1 if server != client else 2) if busy else 0
        if not pollers or pollers < cores:
            return ''

        note = (f'{pollers} busy-polling processes on the {cores} cores of '
                f'{client}: no core is left for the provider or the kernel, '
                f'so polling loses here and this is not the paper\'s effect')
        getlogger().warning(f'{self.display_name}: {note}')
        return note

    def check_cpusets(self, recs):
        '''Compare the CPU sets the witness saw with the variant's claim:
        ``bound``, one core per process (fewer CPUs than the job has);
        ``unbound``, all the job's CPUs.  Returns what it saw.'''
        job = self.rounds.records['job_cpus'][0]
        sides = dict(kv.split('=') for kv in recs['cpus'][0].split())
        seen = (f'server CPUs {sides["server"]}, client CPUs '
                f'{sides["client"]} (job CPUs {job})')
        if cpu_count(job) < 2:
            raise SanityError(f'the job has one CPU ({job}): binding cannot '
                              f'change anything, so the pitfall cannot show')

        for side, cpus in sides.items():
            bound = cpu_count(cpus) < cpu_count(job)
            if bound != (self.variant == 'bound'):
                raise SanityError(
                    f'the binding of variant {self.variant!r} did not take '
                    f'effect: the {side} had CPUs {cpus} of the job\'s {job}'
                )

        return seen

    def client_cpu(self, runs):
        '''The client's CPU use in % of one core, over the samples.'''
        try:
            return Samples([run.usage['cpu_percent'] for run in runs], '%')
        except KeyError:
            raise SanityError('no CPU use in the client output: did it run '
                              'under /usr/bin/time -v?') from None
