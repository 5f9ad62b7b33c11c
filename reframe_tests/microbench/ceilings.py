'''Physical ceilings of a partition.

A partition may declare, in its ``extras``, the ceilings of the storage target
its checks write to, as seen from one node::

    'extras': {'ceilings': {'storage_write_mib_s': 1907,
                            'storage_read_mib_s': 5722}}

A storage figure above its ceiling is not a fast system: it is a cache effect
or a broken measurement.
'''


def ceiling(partition, name):
    '''The ceiling ``name`` of ``partition`` (a ReFrame partition), or None.'''
    return partition.extras.get('ceilings', {}).get(name)


def violation(samples, limit, name, where):
    '''A message if any sample exceeds ``limit``, else None.'''
    if limit is None or samples.max <= limit:
        return None

    return (f'{samples.max:.6g} {samples.unit} exceeds the {name} ceiling of '
            f'{where} ({limit:.6g} {samples.unit}): a cache effect or a '
            f'broken measurement, not storage bandwidth')
