'''Units of the suite: binary, and said in every figure's name.

Bandwidths are MiB/s (2^20 bytes per second); OSU and fabtests print "MB/s",
meaning 10^6 bytes per second, converted here.  Sizes in options and outputs
carry binary suffixes as fio, IOR, lfs and fabtests write them (``32k``,
``1m``, ``64g``).
'''

import re

KIB, MIB, GIB, TIB = 2**10, 2**20, 2**30, 2**40

#: A tool's "MB/s" (10^6 bytes per second) in MiB/s
MB_S_IN_MIB_S = 1e6 / MIB

_SIZE = re.compile(r'(\d+)([kmgt]?)(i?b)?', re.I)
_MULTIPLE = {'': 1, 'k': KIB, 'm': MIB, 'g': GIB, 't': TIB}

#: unit -> how a figure's name ends
_NAME_SUFFIX = {'MiB/s': 'mib_s', 'GiB/s': 'gib_s', 'us': 'us', 'x': 'x',
                '%': 'percent', 'ops/s': 'ops_s', 'tasks': 'tasks',
                'IOPS': 'iops', 'cores': 'cores',
                'IOPS/core': 'iops_per_core'}

#: The statistics of every figure over its samples
STATISTICS = ('median', 'min', 'max')

#: unit -> +1 where a higher value is faster (a rate), -1 where a lower one
#: is (a time); a unit not here has no speed (a ratio, a share, a count).
#: What a verdict calls better is :data:`microbench.verdicts.rule.BETTER`
FASTER = {'MiB/s': 1, 'GiB/s': 1, 'ops/s': 1, 'IOPS': 1, 'IOPS/core': 1,
          'us': -1}


def size_bytes(size):
    '''Bytes of ``size``: ``47008``, ``32k``, ``1m``, ``64g``, ``1MiB``.

    :raises ValueError: if it is not a size.
    '''
    match = _SIZE.fullmatch(str(size).strip())
    if not match:
        raise ValueError(f'{size!r} is not a size (a number with an '
                         f'optional k, m, g or t suffix)')

    return int(match[1]) * _MULTIPLE[match[2].lower()]


def figure_name(name, stat, unit):
    '''``write``, ``median``, ``MiB/s`` -> ``write_median_mib_s``'''
    return f'{name}_{stat}_{_NAME_SUFFIX[unit]}'


def unit_of_name(figure):
    '''The unit a figure's name says (``write_median_mib_s`` ->
    ``MiB/s``: how :func:`figure_name` ends it), or None.'''
    for unit, suffix in sorted(_NAME_SUFFIX.items(),
                               key=lambda item: -len(item[1])):
        if str(figure).endswith(f'_{suffix}'):
            return unit
    return None


def figure_base(figure, unit, stat='median'):
    '''``write_median_mib_s``, ``MiB/s`` -> ``write``: the inverse of
    :func:`figure_name`; a name not of that form as it is.'''
    tail = f'_{stat}_{_NAME_SUFFIX.get(unit, "")}'
    if unit in _NAME_SUFFIX and figure.endswith(tail):
        return figure[:-len(tail)]
    return figure
