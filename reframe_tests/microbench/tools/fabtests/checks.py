'''libfabric fabtests: command lines and the base classes of fabtests checks
(their output: :mod:`.output`).

A sample is a server and a client (the skeleton's server/client): on a
facility partition the server runs on the job's first node and the client on
the second, connected by the server node's name; where the launcher is
local both run on the node over loopback.  The provider (``tcp``,
``verbs``, ``cxi``, ...) is a partition property, ``extras.fabric.provider``
(default ``tcp``).  The client runs under GNU ``/usr/bin/time -v`` for its
CPU use.  Every wait is bounded: the server gets ``server_start_s`` to come
up, the client ``client_timeout_s`` to finish (``timeout`` on its node), the
server 10 s more; whatever is left is killed when the job ends.
'''

import re

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError
from reframe.core.logging import getlogger

from microbench.suite import launchers, where
from microbench.suite.output import number
from microbench.suite.rounds import Rounds
from microbench.suite.stats import Samples
from microbench.suite.variant import VariantCheck
from microbench.tools.fabtests.output import (cpu_count,
                                              parse_cpusets, read_sample)


#: What a fabtests program prints where its provider refuses the
#: completion method it asked (libfabric 1.17's tcp: ``fi_cq_open():
#: common/shared.c:684, ret=-22 (Invalid argument)`` for ``-c yield``)
CQ_REFUSED = ('fi_cq_open()', 'fi_cntr_open()')


def cq_accepted(client):
    '''A shell command that succeeds unless what ``client`` printed says
    that its completion queue or counter was refused.'''
    patterns = ' '.join(f"-e '{said}'" for said in CQ_REFUSED)
    return f'! {{ {client} 2>&1 | grep -q -F {patterns}; }}'


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

    def tools_needed(self):
        return [self.program_path(), 'fi_info', '/usr/bin/time']

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

    def options(self, variant):
        '''The options of both sides of ``variant``: provider, domain, the
        program's options, iterations (what the reader holds the client's
        timed command to).'''
        fabric = self.fabric()
        argv = ['-p', fabric['provider']]
        if fabric['domain']:
            argv += ['-d', fabric['domain']]

        argv += self.program_options(variant)
        if self.iterations:
            argv += ['-I', str(self.iterations)]
        return argv

    def side_command(self, side, variant):
        argv = [self.program_path(), *self.options(variant)]

        if side == 'server':
            argv += ['-s', '$server_addr']
        else:
            # timeout kills the program itself, on its node
            argv = ['/usr/bin/time', '-v', 'timeout',
                    str(self.client_timeout_s), *argv, '$server_addr']

        return ' '.join([self.on(side, variant), *argv]).strip()

    def variant_command(self, variant):
        return self.side_command('client', variant)

    def cq_probe(self, variant):
        '''(command, reason): the client of ``variant`` against a port no
        server listens on (1).  It opens its completion queue before it
        connects: if the provider refuses the variant's completion method
        there, the variant is unsupported; any other end (the connection
        refused) is not the probe's business.'''
        fabric = self.fabric()
        argv = [self.program_path(), '-p', fabric['provider']]
        if fabric['domain']:
            argv += ['-d', fabric['domain']]

        client = ' '.join([self.on('client', variant), 'timeout', '10',
                           *argv, *self.program_options(variant), '-P', '1',
                           '$server_addr']).strip()
        return (cq_accepted(client),
                f'provider {fabric["provider"]} refuses this completion '
                f'method: the client\'s fi_cq_open() failed')

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

    def reader_args(self, variant):
        return (self.message_size, self.program, self.options(variant))

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
        measured = [run.usage['cpu_percent'] for run in runs
                    if run.usage['cpu_percent'] is not None]
        if len(measured) < len(runs):
            self.note = (f'/usr/bin/time could not measure the client\'s CPU '
                         f'use in {len(runs) - len(measured)} of {len(runs)} '
                         f'samples (it printed ?%: the run was too short)')
        if not measured:
            del self.perf_variables['client_cpu_percent']
            return

        cpu = Samples(measured, '%')
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
