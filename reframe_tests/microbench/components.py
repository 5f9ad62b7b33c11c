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
in ``systems/limits/<system>.yaml``::

    default:                      # the partition
      measured:
        session: 5f0c...          # the session that measured them
        date: '2026-11-25'
        nodes: vm
        command: reframe -c reframe_tests -n component_limits ...
      limits:
        storage_write_mib_s: {median: 1520.0, min: 1490.0, max: 1561.0,
                              unit: MiB/s}
        ...

systems/config.py puts each partition's entry in its ``extras.measured``
(:func:`load` validates the file), and every figure with a limit then
carries its share of it (:func:`share`).  A facility's declared ceilings
(the vendor's figures, ``extras.ceilings``) stay beside them: the suite
fails a figure beyond a declared ceiling, and flags one beyond a measured
limit by more than that limit's own spread.

This module imports nothing of ReFrame: the configuration reads it.
'''

import os

import yaml

from microbench import paths
from microbench.units import STATISTICS

#: Where the measured limits of every system are kept (the tests point
#: ``MICROBENCH_LIMITS_DIR`` elsewhere)
COMMITTED = os.path.join(paths.SYSTEMS, 'limits')

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


class LimitsError(ValueError):
    '''A limits file that is not one.'''


def directory():
    return os.environ.get('MICROBENCH_LIMITS_DIR', COMMITTED)


def path_of(system):
    return os.path.join(directory(), f'{system}.yaml')


def _entry(where, entry):
    if not isinstance(entry, dict):
        raise LimitsError(f'{where}: not a mapping')
    unknown = sorted(set(entry) - {'measured', 'limits', 'node'})
    if unknown:
        raise LimitsError(f'{where}: unknown keys {unknown}')
    measured = entry.get('measured', {})
    if not isinstance(measured, dict) or not all(
            isinstance(v, str) for v in measured.values()):
        raise LimitsError(f'{where}.measured: not a mapping of texts')
    for name, stats in (entry.get('limits') or {}).items():
        if name not in LIMITS:
            raise LimitsError(f'{where}.limits: unknown limit {name!r} '
                              f'(known: {", ".join(LIMITS)})')
        _stats(f'{where}.limits.{name}', stats, LIMITS[name][3])
    for name, value in (entry.get('node') or {}).items():
        if name not in NODE or not _number(value):
            raise LimitsError(f'{where}.node.{name}: not a node fact with '
                              f'a positive number')
    return entry


def _number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and value > 0 and value == value and value != float('inf'))


def _stats(where, stats, unit):
    if not isinstance(stats, dict) or set(stats) != {*STATS, 'unit'}:
        raise LimitsError(f'{where}: needs exactly median, min, max and '
                          f'unit')
    if stats['unit'] != unit:
        raise LimitsError(f'{where}: unit {stats["unit"]!r}, not {unit}')
    if not all(_number(stats[s]) for s in STATS):
        raise LimitsError(f'{where}: median, min and max must be positive '
                          f'numbers')
    if not stats['min'] <= stats['median'] <= stats['max']:
        raise LimitsError(f'{where}: min <= median <= max does not hold')


def parse(text, where='limits'):
    '''{partition: entry} of a limits file's ``text``, validated.

    :raises LimitsError: not YAML, or not the shape above.
    '''
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as err:
        raise LimitsError(f'{where}: not YAML ({err})') from None
    if not isinstance(data, dict):
        raise LimitsError(f'{where}: not a mapping of partitions')
    return {str(part): _entry(f'{where}: {part}', entry)
            for part, entry in data.items()}


def load(system):
    '''{partition: entry} of ``system``'s limits file ({} without one).'''
    path = path_of(system)
    if not os.path.exists(path):
        return {}
    with open(path) as fp:
        return parse(fp.read(), path)


def applies(entry, host):
    '''Whether a local machine's entry was measured on ``host`` (the
    local default claims any machine: another one's limits are not its
    own).'''
    return host in (entry.get('measured', {}).get('nodes') or '').split(',')


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
