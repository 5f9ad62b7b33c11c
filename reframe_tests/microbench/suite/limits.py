'''Physical limits of a partition: a figure beyond one is not a fast system.

A partition declares, in its ``extras``, the most one node can move to its
storage target or over its NIC, and the least time its network can answer
in::

    'extras': {'ceilings': {'storage_write_mib_s': 1907,
                            'storage_read_mib_s': 5722,
                            'network_bandwidth_mib_s': 11921},
               'floors': {'network_latency_us': 0.6,
                          'network_rtt_us': 1.2}}

A storage figure above its ceiling is a cache effect or a broken
measurement; a network figure above the NIC's line rate, or a latency below
what the wire allows, is a shared-memory path or a broken measurement.
'''

import collections

from microbench import components, fields
from microbench.units import figure_name

#: A median figure's share of its limit in force: the figure's name, the
#: limit's name and source, its value, the share in %, whether it is
#: beyond the limit's spread, whether the figure measures a cache (value
#: and share None where the measured limit is withheld: the source says
#: why)
Share = collections.namedtuple(
    'Share', 'figure limit value share beyond cached')

#: limit -> (extras key, what it bounds, what a figure beyond it is)
LIMITS = {
    'storage_write_mib_s': ('ceilings', 'storage write',
                            'a cache effect or a broken measurement, not '
                            'storage bandwidth'),
    'storage_read_mib_s': ('ceilings', 'storage read',
                           'a cache effect or a broken measurement, not '
                           'storage bandwidth'),
    'storage_randread_iops': ('ceilings', 'storage random read',
                              'a cache effect or a broken measurement, not '
                              'storage IOPS'),
    'network_bandwidth_mib_s': ('ceilings', 'network bandwidth',
                                'a shared-memory path or a broken '
                                'measurement, not the network'),
    'network_latency_us': ('floors', 'network latency',
                           'a shared-memory path or a broken measurement, '
                           'not the network'),
    'network_rtt_us': ('floors', 'network round-trip',
                       'a shared-memory path or a broken measurement, not '
                       'the network'),
}


def limit(partition, name):
    '''The limit ``name`` of ``partition`` (a ReFrame partition), or None.'''
    return partition.extras.get(LIMITS[name][0], {}).get(name)


def violation(samples, partition, name, per_node=False):
    '''A message if a sample is beyond limit ``name`` of ``partition``
    (``samples`` already per node where ``per_node``), else None.'''
    value = limit(partition, name)
    kind, bounds, beyond = LIMITS[name]
    if value is None:
        return None

    what = bounds + (' (per node)' if per_node else '')
    unit = samples.unit
    if kind == 'ceilings' and samples.max > value:
        return (f'{samples.max:.6g} {unit} exceeds the {what} ceiling of '
                f'{partition.fullname} ({value:.6g} {unit}): {beyond}')

    if kind == 'floors' and samples.min < value:
        return (f'{samples.min:.6g} {unit} is below the {what} floor of '
                f'{partition.fullname} ({value:.6g} {unit}): {beyond}')

    return None


def in_force(partition, name):
    '''(value, stats, kind, source) of limit ``name`` of ``partition``:
    the measured one (``extras.measured``, :mod:`microbench.components`)
    first, else the declared one; None where it has neither.'''
    measured = partition.extras.get('measured', {}).get('limits', {})
    if name in measured:
        stats = measured[name]
        return (stats['median'], stats, components.LIMITS[name][4],
                'measured')

    declared = limit(partition, name) if name in LIMITS else None
    if declared is None:
        return None

    kind = LIMITS[name][0][:-1]
    stats = {'median': declared, 'min': declared, 'max': declared}
    return declared, stats, kind, 'declared'


def withheld(partition):
    '''Why ``partition``'s measured limits are not in force here
    (systems/config.py: :func:`microbench.components.in_force_here`), or
    None.'''
    return partition.extras.get('measured', {}).get('withheld')


def shares(check, per_node):
    '''[:class:`Share`] of every figure of ``check`` (a variant check)
    that has a limit in force: a figure :attr:`cached` that reads is held
    against the memory ceiling, any other against its own limit
    (``per_node(limit)``: divided by the check's nodes).  A figure whose
    measured limit is withheld, and none declared, has a Share without a
    value or a share: its limit's name says why.'''
    found = []
    why = withheld(check.current_partition)
    for name, limit_name in check.limits.items():
        if name not in check.figures:
            continue

        cached = name in check.cached
        if cached and limit_name == 'storage_read_mib_s':
            limit_name = 'memory_read_mib_s'
        samples = check.figures[name]
        held = in_force(check.current_partition, limit_name)
        if held is None:
            if why and limit_name in components.LIMITS:
                found.append(Share(reported(check, name, samples.unit),
                                   components.withheld_label(limit_name,
                                                             why),
                                   None, None, False, cached))
            continue

        value, stats, kind, source = held
        median = samples.median / (check.nodes if per_node(limit_name)
                                   else 1)
        share = components.share(median, value, kind)
        found.append(Share(reported(check, name, samples.unit),
                           fields.limit_label(limit_name, source), value,
                           share,
                           components.beyond(share, stats, kind), cached))

    return found


def record(check, found):
    '''Set the record fields ``limit_name``, ``limit_value`` and
    ``share_of_limit`` of ``check`` (their codecs:
    :mod:`microbench.fields`) from ``found``, its :class:`Share` s (a
    withheld one in ``limit_name`` only).'''
    check.limit_name = fields.LIMIT_NAME.encode(
        (s.figure, s.limit) for s in found)
    check.limit_value = fields.LIMIT_VALUE.encode(
        (s.figure, s.value) for s in found)
    check.share_of_limit = fields.SHARE_OF_LIMIT.encode(
        (s.figure, s.share) for s in found)


def reported(check, name, unit):
    '''The median figure of ``name`` as ``check`` reports it: renamed
    ``<name>_cache_*`` where the check demoted it, else its own name (a
    variant that is a cache figure by design keeps it).'''
    demoted = figure_name(f'{name}_cache', 'median', unit)
    if demoted in check.perf_variables:
        return demoted

    return figure_name(name, 'median', unit)


def beyond_note(figure, limit_name, share, cached):
    '''What a figure beyond its limit means.'''
    if cached:
        what = 'a cache figure, as its variant says'
    elif limit_name.startswith('network'):
        what = ('too good to be true: a shared-memory path or a broken '
                'measurement, not the network')
    else:
        what = ('too good to be true: a cache effect or a broken '
                'measurement, not storage')
    return (f'{figure} is {share:.0f} % of {limit_name}, beyond it by more '
            f'than its spread: {what}')
