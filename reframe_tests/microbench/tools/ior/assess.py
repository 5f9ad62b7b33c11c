'''The scaling sweep assessed against the storage under it.

Nolte et al. (GWDG): a peak means something as a share of what the
storage can do ("peak 37.14 GiB/s, so 91 % of peak achieved"), and a
storage expert expects the saturation point from the drives: processes
times threads ``n x t = k x d``, for ``d`` drives and a factor ``k`` per
drive type (HDD 1-2, SSD 4-8, metadata targets 16 and more).

A partition declares its storage target in ``extras.storage_target``::

    'storage_target': {'drives': {'count': 46, 'type': 'ssd'},
                       'aggregate_write_mib_s': 38031,
                       'aggregate_read_mib_s': 40960}

The peak's limit is the declared aggregate; else the partition's measured
one-node limit (microbench/components.py) times the nodes of the sweep:
the most those clients could move, not the file system's.
'''

from microbench.suite import limits

#: drive type -> (least, most) I/O processes per drive that saturate it
#: (most None: no known bound)
PER_DRIVE = {'hdd': (1, 2), 'ssd': (4, 8), 'nvme': (4, 8),
             'metadata': (16, None)}


def target(partition):
    return partition.extras.get('storage_target', {})


def peak_limit(partition, op, nodes):
    '''(limit name, value in MiB/s, kind of source) of the peak of ``op``
    (``write``, ``read``) on ``nodes`` nodes, or None.'''
    declared = target(partition).get(f'aggregate_{op}_mib_s')
    if declared:
        return f'storage_aggregate_{op}_mib_s (declared)', declared

    held = limits.in_force(partition, f'storage_{op}_mib_s')
    if held is None:
        return None

    value, _, _, source = held
    return (f'storage_{op}_mib_s ({source}, one node) x {nodes} nodes',
            value * nodes)


def expected_tasks(partition):
    '''(least, most or None, what it says) of the tasks that should
    saturate the partition's drives, or None where it declares none.'''
    drives = target(partition).get('drives')
    if not drives:
        return None

    count, kind = drives['count'], drives['type'].lower()
    if kind not in PER_DRIVE:
        raise ValueError(f'{partition.fullname}: drive type {kind!r} is '
                         f'not one of {", ".join(PER_DRIVE)}')
    low, high = PER_DRIVE[kind]
    span = f'{count * low}..{count * high}' if high else f'{count * low}+'
    return (count * low, count * high if high else None,
            f'n x t = k x d: {count} {kind} drives x {low}'
            f'{f"-{high}" if high else "+"} per drive = {span} tasks')


def saturation_note(op, tasks, expected, largest):
    '''How far the saturation point of ``op`` at ``tasks`` is from the
    ``expected`` (:func:`expected_tasks`); ``largest``: the sweep's
    largest point.'''
    low, high, said = expected
    if tasks >= largest and tasks < low:
        where = (f'still growing at the sweep\'s largest point ({largest} '
                 f'tasks): sweep further')
    elif tasks < low:
        where = (f'{low / tasks:.3g}x fewer tasks than the least expected: '
                 f'a client, network or software limit comes first')
    elif high and tasks > high:
        where = f'{tasks / high:.3g}x more tasks than the most expected'
    else:
        where = 'within the expected span'
    return f'{op} saturates at {tasks} tasks; {said}: {where}'
