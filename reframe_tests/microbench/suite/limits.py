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

#: limit -> (extras key, what it bounds, what a figure beyond it is)
LIMITS = {
    'storage_write_mib_s': ('ceilings', 'storage write',
                            'a cache effect or a broken measurement, not '
                            'storage bandwidth'),
    'storage_read_mib_s': ('ceilings', 'storage read',
                           'a cache effect or a broken measurement, not '
                           'storage bandwidth'),
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
