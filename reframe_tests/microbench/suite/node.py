'''What a node is: its cores, NUMA domains, memory and NICs, read from the
system by the job (one line per fact, :data:`FACTS`) and parsed here.

A NIC's line rate is ``/sys/class/net/<nic>/speed`` (Mb/s; -1 or an
error where the driver does not know it: virtio, loopback) and an
InfiniBand port's ``/sys/class/infiniband/<hca>/ports/<n>/rate``
(``100 Gb/sec (4X EDR)``).  A virtual NIC's speed (veth, bridges: their
device is under ``/sys/devices/virtual``) is a number the kernel makes up
(veth says 10000): it bounds nothing, and :func:`line_rate` says so.
'''

import re

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_after, sanity_function
from reframe.core.exceptions import SanityError

from microbench import components
from microbench.suite.output import OutputError
from microbench.suite.recorded import Recorded, copy_shared
from microbench.units import MIB

#: fact -> the bash command printing it on one line, on the node that
#: ran the job's script (no ``$``: a fact is expanded when the job
#: declares it; no ``|``: the commands are the check's ``command_line``,
#: a field of the '|'-separated perflog, so they join lines with
#: ``paste`` over a process substitution)
FACTS = {
    'node_cpus': 'grep -c ^processor /proc/cpuinfo',
    'node_numa': "paste -sd, <(ls -d /sys/devices/system/node/node[0-9]*)",
    'node_memory': 'grep ^MemTotal: /proc/meminfo',
    'node_nic_speeds': "paste -sd';' <(grep -H . /sys/class/net/*/speed "
                       "2>&1)",
    'node_virtual_nics': 'paste -sd, <(ls /sys/devices/virtual/net)',
    'node_ib_rates': "paste -sd';' <(grep -H . "
                     "/sys/class/infiniband/*/ports/*/rate 2>/dev/null)",
    'node_fi_providers': "paste -sd, <(sed -n 's/:$//p' <(fi_info -l "
                         "2>/dev/null))",
}

#: ``grep -H``'s line of a NIC's speed, or its error where there is none
_SPEED = re.compile(r'/sys/class/net/(?P<name>[^/]+)/speed:(?P<speed>-?\d+)')
_NO_SPEED = re.compile(r'grep: /sys/class/net/(?P<name>[^/]+)/speed: .+')
_IB = re.compile(r'/sys/class/infiniband/(?P<port>[^/]+/ports/[^/]+)/rate:'
                 r'(?P<gbit>\d+(?:\.\d+)?) Gb/sec(?: .*)?')


def count(text, what):
    '''A positive count printed alone (cores, NUMA domains).'''
    if not re.fullmatch(r'\d+', text.strip()) or int(text) < 1:
        raise OutputError(f'{what}: {text!r} is not a positive count')
    return int(text)


def numa_domains(text):
    '''How many NUMA domains the ``node_numa`` fact lists (its
    ``/sys/devices/system/node/node<N>`` directories, comma-separated).'''
    found = text.strip().split(',')
    if not all(re.fullmatch(r'/sys/devices/system/node/node\d+', item)
               for item in found):
        raise OutputError(f'NUMA domains: {text!r} is not a list of '
                          f'/sys/devices/system/node/node<N>')
    return len(found)


#: The most memory a node's MemTotal may say, in kB: 1 PiB (a cap: the
#: largest nodes hold tens of TiB; a count of more digits is no machine's)
MOST_MEMORY_KB = 2 ** 40


def memory_gib(text):
    '''GiB of ``/proc/meminfo``'s ``MemTotal:  24684084 kB`` line, at most
    :data:`MOST_MEMORY_KB`.'''
    match = re.fullmatch(r'MemTotal:\s+(\d{1,16}) kB', text.strip())
    if not match or not int(match[1]):
        raise OutputError(f'memory: {text.strip()[:60]!r} is not '
                          f'/proc/meminfo\'s MemTotal line')
    if int(match[1]) > MOST_MEMORY_KB:
        raise OutputError(f'memory: MemTotal says {match[1]} kB, more than '
                          f'the {MOST_MEMORY_KB} kB (1 PiB) any node has')
    return int(match[1]) * 1024 / 2**30


def nics(speeds, virtual):
    '''[{name, speed (Mb/s, or None where unknown), virtual}] of the
    ``node_nic_speeds`` and ``node_virtual_nics`` facts.'''
    virtual = set(filter(None, virtual.strip().split(',')))
    found = []
    for item in filter(None, (i.strip() for i in speeds.split(';'))):
        match = _SPEED.fullmatch(item) or _NO_SPEED.fullmatch(item)
        if not match:
            raise OutputError(f'NIC speeds: {item!r} is not a NIC\'s '
                              f'/sys/class/net/<nic>/speed')
        speed = int(match['speed']) if 'speed' in match.re.groupindex \
            else -1
        found.append({'name': match['name'],
                      'speed': speed if speed > 0 else None,
                      'virtual': match['name'] in virtual})
    return found


def ib_ports(text):
    '''{port: Gb/s} of the ``node_ib_rates`` fact (``/sys/class/
    infiniband/mlx5_0/ports/1/rate:100 Gb/sec (4X EDR)``).'''
    found = {}
    for item in filter(None, (i.strip() for i in text.split(';'))):
        match = _IB.fullmatch(item)
        if not match:
            raise OutputError(f'InfiniBand ports: {item!r} is not a '
                              f'port\'s rate')
        found[match['port']] = float(match['gbit'])
    return found


def line_rate(nic_list, ports):
    '''(MiB/s of the fastest physical link, or None; what it means).'''
    rates = {f'InfiniBand {port}': gbit * 1e9 / 8 / MIB
             for port, gbit in ports.items()}
    rates.update({nic['name']: nic['speed'] * 1e6 / 8 / MIB
                  for nic in nic_list
                  if nic['speed'] and not nic['virtual']})
    virtual = sorted(f'{n["name"]} {n["speed"]} Mb/s' for n in nic_list
                     if n['virtual'] and n['speed'])
    said = (f'; virtual NICs ({", ".join(virtual)}) are memory copies: '
            f'their speed is a number the kernel reports, not a line rate'
            if virtual else '')
    if not rates:
        unknown = sorted(n['name'] for n in nic_list
                         if not n['virtual'] and not n['speed'])
        return None, (f'no physical link reports its rate (speed unknown: '
                      f'{", ".join(unknown) or "none"}){said}')

    name = max(rates, key=rates.get)
    return rates[name], f'line rate of {name}{said}'


class NodeCheck(rfm.RunOnlyRegressionTest, Recorded):
    '''What the node of a rounds fixture is (its :data:`FACTS`, recorded
    by its job): cores, NUMA domains, memory, the line rate of its fastest
    physical link and the fabric providers ``fi_info`` lists.  Subclasses
    set ``rounds = fixture(..., scope='environment')`` of a rounds class
    whose :meth:`facts` are :data:`FACTS`.'''

    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    executable = 'true'
    variant = 'node'
    measures = 'node'

    @run_after('init')
    def declare_figures(self):
        self.scalars = {}
        self.perf_variables = {
            name: sn.make_performance_function(self._scalar, unit, name)
            for name, unit in (*components.NODE.items(),
                               ('line_rate_mib_s', 'MiB/s'))
        }

    def _scalar(self, name):
        return self.scalars[name]

    def fact(self, name):
        values = self.rounds.records.get(name)
        if not values:
            raise SanityError(f'the job recorded no {name} (its command: '
                              f'{FACTS[name]})')
        return values[0]

    @sanity_function
    def read_facts(self):
        copy_shared(self, self.rounds)
        self.command_line = ' ; '.join(f'{name}: {FACTS[name]}'
                                       for name in FACTS)
        try:
            self.scalars['cores'] = count(self.fact('node_cpus'), 'cores')
            self.scalars['numa_domains'] = numa_domains(
                self.fact('node_numa'))
            self.scalars['memory_gib'] = memory_gib(self.fact('node_memory'))
            rate, said = line_rate(
                nics(self.fact('node_nic_speeds'),
                     self.fact('node_virtual_nics')),
                ib_ports(self.fact('node_ib_rates')))
        except OutputError as err:
            raise SanityError(f'{self.display_name}: {err}') from None

        providers = self.fact('node_fi_providers') or 'none (no fi_info)'
        self.note = f'{said}; fabric providers: {providers}'
        if rate is None:
            del self.perf_variables['line_rate_mib_s']
        else:
            self.scalars['line_rate_mib_s'] = rate
        self.sample_values = ' '.join(f'{k}={v:.6g}'
                                      for k, v in self.scalars.items())
        return True
