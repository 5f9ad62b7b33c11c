'''libfabric fabtests: command lines, output parser, and the base classes of
fabtests checks.

A sample is a server and a client (the skeleton's server/client): on a
facility partition the server runs on the job's first node and the client on
the second, connected by the server node's name; where the launcher is
local both run on the node over loopback.  The provider (``tcp``,
``verbs``, ``cxi``, ...) is a partition property, ``extras.fabric.provider``
(default ``tcp``).  The client runs under GNU ``/usr/bin/time -v`` for its
CPU use.  Every wait is bounded: the server gets ``server_start_s`` to come
up, the client ``client_timeout_s`` to finish (``timeout`` on its node), the
server 10 s more; whatever is left is killed when the job ends.

fabtests print sizes with binary suffixes (``32k``), counts with decimal ones
(``10k``), "MB/sec" meaning 10^6 bytes per second, and for a ping-pong
"usec/xfer" as half a round trip (two transfers per iteration).
'''

import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError
from reframe.core.logging import getlogger

from microbench.suite import launchers, output, where
from microbench.suite.output import OutputError, lines, number, once
from microbench.suite.rounds import Rounds
from microbench.suite.stats import Samples
from microbench.units import MB_S_IN_MIB_S, size_bytes
from microbench.suite.variant import VariantCheck

_COLUMNS = ['bytes', 'iters', 'total', 'time', 'MB/sec', 'usec/xfer',
            'Mxfers/sec']
_COUNT = re.compile(r'\d+(\.\d+)?[kmgt]?')

#: What fabtests print when a run went wrong
ERRORS = re.compile(r'^(.*ret=-\d+|\[error\]|.*timeout expired)')

#: /usr/bin/time -v's lines the suite reads: key -> (label, whether it is
#: an integer, whether it must be positive)
_TIME_V = {'user_s': ('User time (seconds)', False, False),
           'system_s': ('System time (seconds)', False, False),
           # a process that exchanged messages used some CPU
           'cpu_percent': ('Percent of CPU this job got', True, True),
           'exit_status': ('Exit status', True, False)}

#: How a probe's output gives the CPUs a process may run on
_CPUS = re.compile(r'^Cpus_allowed_list:\s+(\S+)$')


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

    @property
    def figures(self):
        return {'bandwidth': self.mib_s, 'rtt': 2 * self.usec_per_xfer}


def _result(fields):
    '''A FabtestsRun (without usage) of one result row's seven fields.'''
    size, iterations, total, time, mb_s, usec, mxfers = fields
    for token, what in ((iterations, 'iterations'), (total, 'total')):
        if not _COUNT.fullmatch(token):
            raise OutputError(f'the {what} of a row is {token!r}')

    if not time.endswith('s'):
        raise OutputError(f'the time of a row is {time!r}')

    number(time[:-1], 'the time of a row')
    number(mxfers, 'the Mxfers/sec of a row', positive=False)
    try:
        size = size_bytes(size)
    except ValueError:
        raise OutputError(f'the size of a row is {size!r}') from None

    return FabtestsRun(size, iterations, number(mb_s, 'the MB/sec of a row'),
                       number(usec, 'the usec/xfer of a row'), {})


def _usage(rows, timed):
    '''What ``/usr/bin/time -v`` reported; every line once where
    ``timed``.'''
    usage = {}
    for key, (label, integer, positive) in _TIME_V.items():
        found = [ln.split(':', 1)[1].strip(' \t').rstrip('%') for ln in rows
                 if ln.strip(' \t').startswith(label + ':')]
        if found or timed:
            usage[key] = number(once(found, f'"{label}" line'), label,
                                positive=positive, integer=integer)

    if usage.get('exit_status', 0) != 0:
        raise OutputError(f'exit status {usage["exit_status"]}')

    return usage


def parse(text, size=None, timed=False):
    '''Parse one fabtests run: its row of ``size`` (the last row where
    ``size`` is None), and its ``/usr/bin/time -v`` report (required where
    ``timed``).

    :raises OutputError: on empty, cut or error output, a size missing or
        given twice, or a failed exit status.
    '''
    rows = lines(text)
    output.reject_errors(text, ERRORS, 'fabtests')
    header = once([i for i, ln in enumerate(rows) if ln.split() == _COLUMNS],
                  'result table')
    results = []
    for line in rows[header + 1:]:
        fields = line.split()
        if len(fields) != len(_COLUMNS) or not fields[0][:1].isdigit():
            break

        results.append(_result(fields))

    if not results:
        raise OutputError('no result row (cut short?)')

    if size is None:
        run = results[-1]
    else:
        run = once([r for r in results if r.size == size],
                   f'result row of {size} bytes')

    return FabtestsRun(run.size, run.iterations, run.mb_s, run.usec_per_xfer,
                       _usage(rows, timed))


def read_sample(sample, size):
    '''One fabtests sample: the client's row of ``size`` under ``time -v``,
    and the server's row of ``size``.'''
    client = sample.parse('client.out', parse, size, timed=True)
    sample.parse('server.out', parse, size)
    return client


def cpu_count(cpu_list):
    '''Number of CPUs in a Linux CPU list such as ``0-3,8``.'''
    count = 0
    for part in cpu_list.strip().split(','):
        low, _, high = part.partition('-')
        if not (low.isdigit() and (high or low).isdigit()):
            raise OutputError(f'{cpu_list!r} is not a CPU list')

        count += int(high or low) - int(low) + 1

    return count


def parse_cpusets(text):
    '''(server CPUs, client CPUs) from the CPU-set witness's two lines.'''
    found = [m[1] for m in map(_CPUS.match, lines(text)) if m]
    if len(found) != 2:
        raise OutputError(f'{len(found)} CPU lists, not the server\'s and '
                          f'the client\'s')

    for cpus in found:
        cpu_count(cpus)

    return tuple(found)


class FabtestsRounds(Rounds):
    '''fabtests client/server runs of a pitfall, round-robin (a fixture).

    Subclasses set :attr:`program` and :attr:`variants`, a
    ``message_size`` variable, and implement :meth:`program_options`; they
    may bind processes per variant (:meth:`binding`) and see the binding
    (:attr:`cpuset_witness`).
    '''

    tool = 'fabtests'
    reader = staticmethod(read_sample)
    bindir = 'fabtests_bindir'
    uses_scratch = False
    output_files = ('server.out', 'client.out')
    valid_systems = where.NETWORK
    num_tasks = 2
    num_tasks_per_node = 1

    #: The fabtests program, e.g. ``fi_msg_pingpong``
    program = None

    #: Whether to record the CPU set each side had, per variant
    cpuset_witness = False

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
        return self.program_path(self.program)

    def tools_needed(self):
        return [self.binary(), 'fi_info', '/usr/bin/time']

    def version_command(self):
        return 'fi_info --version'

    def expected_seconds(self):
        return self.server_start_s + self.client_timeout_s + 15

    def fabric(self):
        fabric = self.current_partition.extras.get('fabric', {})
        return {'provider': self.provider or fabric.get('provider', 'tcp'),
                'domain': fabric.get('domain'),
                'address_suffix': fabric.get('address_suffix', '')}

    def nodes_command(self):
        if self.flavour() == 'local':
            return None

        return self.job_nodes_command()

    def address_suffix(self):
        return self.fabric()['address_suffix']

    def on(self, side, variant=None):
        '''Launch prefix of one side (``server`` or ``client``).'''
        options = self.binding(variant)[side == 'client'] if variant else ()
        if self.flavour() == 'local':
            return ' '.join(options)

        return launchers.on_node(self.flavour(), f'{side}_node', options)

    def side_command(self, side, variant):
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

        return ' '.join([self.on(side, variant), *argv]).strip()

    def variant_command(self, variant):
        return self.side_command('client', variant)

    def server_command(self, variant):
        return self.side_command('server', variant)

    def preflight(self):
        provider = self.fabric()['provider']
        probe = f'{self.on("server")} fi_info -p {provider}'.strip()
        return [(probe, f'provider {provider} does not exist on $server_node: '
                        f'fi_info found no such provider')]

    def facts(self):
        return {'client_cores':
                f'{self.on("client")} getconf _NPROCESSORS_ONLN'.strip()}

    def witness_command(self, variant):
        if not self.cpuset_witness:
            return None

        probe = 'grep Cpus_allowed_list /proc/self/status'
        return '; '.join(f'{self.on(side, variant)} {probe}'.strip()
                         for side in ('server', 'client'))

    def reader_args(self):
        return (self.message_size,)

    def diagnosis(self, failure, variant):
        # What the failed side printed in its last sample, before
        # /usr/bin/time's report
        side = 'server' if 'the server' in failure else 'client'
        said = []
        for line in self.last_text(f'{side}.out', variant).splitlines():
            if line.strip().startswith('Command '):
                break

            said += [line.strip()] if line.strip() else []

        return f'; the {side} said: {said[-1]}' if said else ''


class FabtestsVariantCheck(VariantCheck):
    '''One variant of a fabtests pitfall, from its rounds fixture: the
    client's result and CPU use in every sample.'''

    valid_systems = where.NETWORK
    scalar_figures = {'client_cpu_percent': '%'}
    limits = {'bandwidth': 'network_bandwidth_mib_s',
              'rtt': 'network_rtt_us'}

    def judge(self, runs, recs):
        rounds = self.rounds
        self.node = (f'{rounds.records["placement"][0]}, provider '
                     f'{rounds.fabric()["provider"]}')
        cpu = Samples([run.usage['cpu_percent'] for run in runs], '%')
        self.scalars['client_cpu_percent'] = cpu.median

    def oversubscription(self, busy):
        '''A note, also logged, when the busy-polling processes of a sample
        leave no core of their node free.'''
        recs = self.rounds.records
        server, client = re.match(r'server (\S+), client (\S+),',
                                  recs['placement'][0]).groups()
        cores = number(recs['client_cores'][0], 'the client\'s cores',
                       integer=True)
        pollers = (1 if server != client else 2) if busy else 0
        if not pollers or pollers < cores:
            return ''

        note = (f'{pollers} busy-polling processes on the {cores} cores of '
                f'{client}: no core is left for the provider or the kernel, '
                f'so polling loses here and this is not the paper\'s effect')
        getlogger().warning(f'{self.display_name}: {note}')
        return note

    def check_cpusets(self):
        '''Compare the CPU sets the witness saw with the variant's claim:
        ``bound``, one core per process (fewer CPUs than the job has);
        ``unbound``, all the job's CPUs.  Returns what it saw.'''
        job = self.rounds.records['job_cpus'][0]
        server, client = self.rounds.read_witness(
            self.variant, f'witness-{self.variant}.txt', parse_cpusets, self
        )
        seen = (f'server CPUs {server}, client CPUs {client} (job CPUs '
                f'{job})')
        if cpu_count(job) < 2:
            raise SanityError(f'the job has one CPU ({job}): binding cannot '
                              f'change anything, so the pitfall cannot show')

        for side, cpus in (('server', server), ('client', client)):
            bound = cpu_count(cpus) < cpu_count(job)
            if bound != (self.variant == 'bound'):
                raise SanityError(
                    f'the binding of variant {self.variant!r} did not take '
                    f'effect: the {side} had CPUs {cpus} of the job\'s {job}'
                )

        return seen
