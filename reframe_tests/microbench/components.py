'''The component limits of a partition: what its hardware can do, measured.

A figure alone does not say whether a machine is healthy: 1.2 GiB/s of
O_DIRECT writes is fine on one device and a fault on another.  The
``component_limits`` checks measure, from one node, what each component
under the suite's figures can do (Kuhn, "Performance Analysis"): the
storage target's best sequential O_DIRECT write and read and its 4 KiB
random O_DIRECT IOPS, the memory (a buffered read of a file already in the
page cache, tmpfs IOPS), the network (OSU bandwidth at large messages and
latency at small ones, from many buffers) and what the node is.

``microbench limits --write`` keeps the medians, with their min and max,
in ``systems/limits/<system>.yaml`` (:mod:`microbench.limitsfile` reads
and validates it)::

    format: microbench limits
    version: 2
    partitions:
      default:                      # the partition
        measured:
          session: 5f0c...          # the session that measured them
          date: '2026-11-25'
          nodes: vm
          machine: 9b1f0c2d4e5a6b7c # the machine (a local partition's)
          command: reframe -c reframe_tests -n component_limits ...
        limits:
          storage_write_mib_s: {median: 1520.0, min: 1490.0,
                                max: 1561.0, unit: MiB/s}
          ...

systems/config.py puts each partition's entry in its ``extras.measured``
(:func:`in_force_here`), and every figure with a limit then carries its
share of it (:func:`share`).  A facility's declared ceilings (the vendor's
figures, ``extras.ceilings``) stay beside them: the suite fails a figure
beyond a declared ceiling, and flags one beyond a measured limit by more
than that limit's own spread.

**Measured limits apply where they were measured.**  A partition whose
jobs run on the machine that runs ReFrame (the ``local`` scheduler: the
local default claims any machine) is *bound* to a machine: its limits
apply only where the keyed hash of ``/etc/machine-id`` is the one the
entry recorded, and the machine still has the cores and memory it had
then.  Elsewhere its figures carry no share but the reason
(:data:`WITHHELD`): ``storage_write_mib_s (withheld: its limits were
measured on another machine)``, and the report and the weather page say
how to measure this machine's own (:func:`fix`).  A facility partition's
entry names its nodes and applies to the partition; its declared limits
apply whatever the file says.

This module imports nothing of ReFrame: the configuration reads it.
'''

import collections
import hashlib
import re

from microbench.units import STATISTICS

#: limit -> (check, variant, figure median name, unit, kind, what it is);
#: ``kind``: ``ceiling`` (a figure may not exceed it) or ``floor``
LIMITS = {
    'storage_write_mib_s': (
        'component_limits', 'write', 'write_median_mib_s', 'MiB/s',
        'ceiling', 'sequential O_DIRECT writes, 1 MiB blocks, deep queue'),
    'storage_read_mib_s': (
        'component_limits', 'read', 'read_median_mib_s', 'MiB/s',
        'ceiling', 'sequential O_DIRECT reads, 1 MiB blocks, deep queue'),
    'storage_randwrite_iops': (
        'component_limits', 'randwrite', 'ops_median_iops', 'IOPS',
        'ceiling', '4 KiB random O_DIRECT writes'),
    'storage_randread_iops': (
        'component_limits', 'randread', 'ops_median_iops', 'IOPS',
        'ceiling', '4 KiB random O_DIRECT reads'),
    'memory_read_mib_s': (
        'component_limits', 'cached_read', 'read_median_mib_s', 'MiB/s',
        'ceiling', 'buffered reads of a file in the page cache'),
    'tmpfs_iops': (
        'component_limits', 'tmpfs', 'ops_median_iops', 'IOPS',
        'ceiling', '4 KiB random writes to tmpfs (/dev/shm)'),
    'network_bandwidth_mib_s': (
        'component_limits_network', 'osu_bw.multiple',
        'bandwidth_median_mib_s',
        'MiB/s', 'ceiling', 'osu_bw at large messages, many buffers'),
    'network_latency_us': (
        'component_limits_network', 'osu_latency.multiple',
        'latency_median_us',
        'us', 'floor', 'osu_latency at small messages, many buffers'),
    'network_line_rate_mib_s': (
        'component_limits_node', 'node', 'line_rate_mib_s', 'MiB/s',
        'ceiling', "the fastest NIC's line rate, read from the system"),
}

#: What a node is (recorded beside the limits, not a limit)
NODE = {'cores': 'cores', 'numa_domains': 'domains',
        'memory_gib': 'GiB'}

#: The statistics kept of a limit: those of every figure
STATS = STATISTICS

#: How a partition's limits are measured again ({partition}:
#: SYSTEM:PARTITION)
MEASURE = ("reframe -c reframe_tests -n '^component_limits' -r --system "
           "{partition}")

#: Where a machine's identity comes from (machine-id(5)), first found
MACHINE_ID = ('/etc/machine-id', '/var/lib/dbus/machine-id')

#: The key of the hash kept of it: machine-id(5) asks that the ID itself
#: never leave the machine, and a file committed to a repository does
MACHINE_KEY = b'microbench component limits'

#: A machine's identity as a limits file keeps it: 16 hex digits
IDENTITY = re.compile(r'[0-9a-f]{16}')

#: How far a machine's memory may be from the one its limits recorded
#: (a kernel update moves MemTotal by megabytes; a resize moves it more)
MEMORY_TOLERANCE = 0.02

#: This machine: its identity (None without a machine-id), its cores and
#: memory as the node check counts them (None where /proc cannot tell)
Machine = collections.namedtuple('Machine', 'identity cores memory_gib')

#: Why a partition's measured limits are withheld, each reason a short
#: text a record can carry (no ``;``, ``=`` or ``|``)
NONE = 'no limits measured on this machine'
ELSEWHERE = 'its limits were measured on another machine'
UNRECORDED = 'the machine that measured its limits is not recorded'
ANONYMOUS = 'this machine has no /etc/machine-id to tie limits to'
RESIZED = ('this machine had other cores or memory when its limits were '
           'measured')
REJECTED = 'its limits file is rejected'

_MEASURE_HERE = ('measure them here: ' + MEASURE + ', then microbench '
                 'limits --partition {partition} --write')

#: reason -> how a partition gets limits of its own ({partition})
WITHHELD = {
    NONE: _MEASURE_HERE,
    ELSEWHERE: _MEASURE_HERE,
    UNRECORDED: _MEASURE_HERE,
    RESIZED: _MEASURE_HERE,
    ANONYMOUS: 'give it one (systemd-machine-id-setup), then '
               + _MEASURE_HERE,
    REJECTED: "the run's first line (microbench: warning: ...) names "
              'the file, the entry and what is wrong: fix it, or '
              + _MEASURE_HERE,
}

#: A ``limit_name`` record of a withheld limit
_WITHHELD_LABEL = re.compile(r'(\w+) \(withheld: ([^()]*)\)')


def bound(partition):
    '''Whether a partition (its configuration, a dict) is bound to the
    machine that runs ReFrame: its jobs run there (the local scheduler),
    so the limits of another machine are not its own.'''
    return partition.get('scheduler') == 'local'


def identity(paths=MACHINE_ID):
    '''This machine's identity: the keyed SHA-256 of its machine-id, 16
    hex digits; None where no file holds one (a container without it,
    ``uninitialized`` on a first boot).'''
    for path in paths:
        try:
            with open(path, 'rb') as fp:
                raw = fp.read(64).strip()
        except OSError:
            continue
        if re.fullmatch(rb'[0-9a-f]{32}', raw):
            return hashlib.sha256(MACHINE_KEY + b'\0' + raw).hexdigest()[:16]
    return None


def _proc(path, pattern, read):
    '''``read`` of what ``pattern`` finds in ``path``, None where it
    cannot be read or holds nothing of it.'''
    try:
        with open(path, encoding='utf-8', errors='replace') as fp:
            found = re.findall(pattern, fp.read(1 << 20), re.MULTILINE)
    except OSError:
        return None
    return read(found) if found else None


def this_machine():
    ''':class:`Machine` of the machine running this: its cores and memory
    read as the node check reads them (``/proc/cpuinfo``'s processors,
    ``/proc/meminfo``'s MemTotal in GiB).'''
    return Machine(
        identity(),
        _proc('/proc/cpuinfo', r'^processor\s*:', len),
        _proc('/proc/meminfo', r'^MemTotal:\s+(\d+) kB',
              lambda kib: int(kib[0]) * 1024 / 2**30))


def elsewhere(entry, here):
    '''Why a bound partition's ``entry`` (validated) is not this
    machine's (``here``: :class:`Machine`), or None where it is.'''
    machine = entry.get('measured', {}).get('machine')
    if not machine:
        return UNRECORDED
    if here.identity is None:
        return ANONYMOUS
    if machine != here.identity:
        return ELSEWHERE
    node = entry.get('node') or {}
    if here.cores and node.get('cores') and node['cores'] != here.cores:
        return RESIZED
    memory = node.get('memory_gib')
    if here.memory_gib and memory and \
            abs(memory / here.memory_gib - 1) > MEMORY_TOLERANCE:
        return RESIZED
    return None


def in_force_here(found, partition, is_bound, here):
    '''What ``partition``'s ``extras.measured`` holds (systems/config.py):
    its entry of ``found`` (:class:`microbench.limitsfile.Limits`) where
    it applies; ``{'withheld': reason}`` where it does not, or the file
    or entry is rejected, or a bound partition has none; None where a
    facility partition has none (its declared limits, if any, apply).'''
    if found.whole or partition in found.rejected:
        return {'withheld': REJECTED}
    entry = found.entries.get(partition)
    if entry is None:
        return {'withheld': NONE} if is_bound else None
    if not is_bound:
        return entry
    reason = elsewhere(entry, here)
    return {'withheld': reason} if reason else entry


def withheld_label(limit, reason):
    '''The ``limit_name`` record of ``limit`` withheld for ``reason``.'''
    return f'{limit} (withheld: {reason})'


def withheld_reason(label):
    '''The reason of a withheld ``limit_name`` record, else None.'''
    match = _WITHHELD_LABEL.fullmatch(str(label or ''))
    return match[2] if match else None


def fix(reason, partition):
    '''How ``partition`` (SYSTEM:PARTITION) gets limits of its own after
    ``reason``; None for a reason this version does not know.'''
    said = WITHHELD.get(reason)
    return said.format(partition=partition) if said else None


def withheld_text(system, partition, reason, count=None):
    '''What a partition's withheld limits mean, and how it gets its own
    (``count``: its figures without a share), as the report and the
    weather page say it.'''
    where = f'{system}:{partition}'
    many = f' ({count} figure{"s" if count != 1 else ""})' \
        if count else ''
    how = fix(reason, where)
    return (f'No share of a measured limit on {where}{many}: {reason}'
            + (f'; {how}' if how else ''))


def share(value, limit, kind):
    '''A figure's share of its limit, in %: a ceiling's ``value / limit``,
    a floor's ``limit / value`` (a latency at its floor is 100 %).'''
    return 100 * (value / limit if kind == 'ceiling' else limit / value)


def beyond(share_percent, stats, kind):
    '''Whether a share is beyond its limit by more than the limit's own
    spread (its max over its median, for a ceiling; its median over its
    min, for a floor): the "too good to be true" alarm.'''
    spread = (stats['max'] / stats['median'] if kind == 'ceiling'
              else stats['median'] / stats['min'])
    return share_percent > 100 * spread
