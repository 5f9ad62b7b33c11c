'''``microbench limits``: a partition's measured component limits, and
their entry in ``systems/limits/<system>.yaml`` as a reviewable diff.

The limits are the figures of the ``component_limits`` checks
(:data:`microbench.components.LIMITS`) in the latest session of the
partition that has each: its median, min and max.  Beside them, the
ceilings and floors the system file declares (the vendor's figures, where
a facility gives them).  ``--write`` applies the diff; the next run on the
partition holds every figure against them (systems/config.py).

A partition bound to a machine (the local default:
:func:`microbench.components.bound`) gets the identity of the machine
this runs on, and only where its limits were measured here (their
session's node is this host): a results storage copied from another
machine cannot lend it its limits.  The file is rewritten whole (version
2, :mod:`microbench.limitsfile`), so a file or another partition's entry
that is not one stops it, naming it: nothing is written; the
partition's own rejected entry is replaced, saying so.
'''

import datetime
import importlib.util
import os
import socket
import sys

from microbench import components, limitsfile, paths
from microbench.verdicts import figures, reviewed
from microbench.verdicts.figures import fmt

HELP = "a partition's measured component limits, as a diff"


def add_arguments(parser):
    parser.add_argument('sessions', nargs='*', help='session queries '
                        '(default: all; the latest session of each limit '
                        'counts)')
    parser.add_argument('--partition', required=True,
                        help='SYSTEM:PARTITION')
    parser.add_argument('--write', action='store_true', help='apply the '
                        'diff')
    parser.set_defaults(handler=run)


def _rounded(value):
    '''``value`` to four significant digits (an int where it is one).'''
    value = float(f'{float(value):.4g}')
    return int(value) if value.is_integer() else value


def _stat(rows, session, figure):
    found = rows[(rows['session'] == session) & (rows['figure'] == figure)]
    return float(found['value'].iloc[-1]) if len(found) else None


def measured(frame):
    '''(limits, node facts, the rows they came from) of one partition's
    ``frame``: {limit: {median, min, max, unit}}, {fact: value}.'''
    found, used = {}, []
    for name, (check, variant, figure, unit, *_) in \
            components.LIMITS.items():
        rows = frame[(frame['check'] == check)
                     & (frame['variant'] == variant)]
        last = rows[rows['figure'] == figure]
        if last.empty:
            continue
        row = last.iloc[-1]
        median = float(row['value'])
        stats = {'median': median, 'unit': unit}
        for stat in ('min', 'max'):
            value = _stat(rows, row['session'],
                          figure.replace('_median_', f'_{stat}_'))
            stats[stat] = median if value is None else value
        found[name] = {s: _rounded(stats[s]) for s in components.STATS}
        found[name]['unit'] = unit
        used.append(row)

    node = {}
    for fact in components.NODE:
        rows = frame[(frame['check'] == 'component_limits_node')
                     & (frame['figure'] == fact)]
        if len(rows):
            node[fact] = _rounded(rows['value'].iloc[-1])
            used.append(rows.iloc[-1])

    return found, node, used


def configured(system, partition):
    '''The configuration of ``partition`` in the system file
    (systems/<system>.py; None without one).'''
    path = os.path.join(paths.SYSTEMS, f'{system}.py')
    if not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location(f'_system_{system}', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for part in module.system['partitions']:
        if part['name'] == partition:
            return part
    return None


def declared(part):
    '''{limit: value} of the ceilings and floors the system file
    declares for ``part`` (:func:`configured`; {} without one).'''
    extras = (part or {}).get('extras', {})
    return {**extras.get('ceilings', {}), **extras.get('floors', {})}


def machine(used, partition):
    '''The identity of this machine, for a bound partition's entry.

    :raises ValueError: the limits were measured on another host, or
        this machine has no machine-id.'''
    host = socket.gethostname()
    nodes = sorted({str(row['node']) for row in used} - {host})
    if nodes:
        raise ValueError(f'the limits of {partition} in this results '
                         f'storage were measured on {", ".join(nodes)}, '
                         f'this is {host}: a local partition keeps the '
                         f'limits of the machine it runs on; write them '
                         f'on the machine that measured them, or measure '
                         f'here: '
                         f'{components.MEASURE.format(partition=partition)}')
    found = components.identity()
    if found is None:
        raise ValueError(f'{partition}: {components.ANONYMOUS} '
                         f'({", ".join(components.MACHINE_ID)}): its '
                         f'limits would apply nowhere; give it one '
                         f'(systemd-machine-id-setup)')
    return found


def entry(found, node, used, partition, identity=None):
    '''The partition's entry of its system's limits file (``identity``:
    the machine of a bound partition).'''
    last = max(used, key=lambda row: row['start'])
    when = datetime.datetime.fromtimestamp(last['start'],
                                           datetime.timezone.utc)
    measured = {'session': str(last['session']),
                'date': when.strftime('%Y-%m-%d'),
                'nodes': str(last['node'])}
    if identity:
        measured['machine'] = identity
    measured['command'] = components.MEASURE.format(partition=partition)
    return {'measured': measured, 'limits': found, 'node': node}


def kept(system, part):
    '''{partition: entry} of ``system``'s file, which a rewrite keeps
    in their order (``part``'s replaced in its place).

    :raises ValueError: the file, or another partition's entry, is not
        one (rewriting it would lose it).'''
    old = limitsfile.load(system)
    lost = [old.whole] if old.whole else []
    lost += [line for name, line in old.rejected.items() if name != part]
    lost += old.other
    if lost:
        raise ValueError(f'{lost[0]}; --write would lose it: fix it first '
                         f'(nothing written)')
    if part in old.rejected:
        print(f'microbench limits: {part}: replaces its rejected entry '
              f'({old.rejected[part]})', file=sys.stderr)
    return dict(old.entries)


def table(found, node, vendor):
    lines = [f'{"limit":26} {"median":>10} {"min":>10} {"max":>10} '
             f'{"unit":6} {"declared":>9}  what']
    for name, stats in found.items():
        what = components.LIMITS[name][5]
        lines.append(f'{name:26} {fmt(stats["median"]):>10} '
                     f'{fmt(stats["min"]):>10} {fmt(stats["max"]):>10} '
                     f'{stats["unit"]:6} {fmt(vendor.get(name)):>9}  '
                     f'{what}')
    lines += [f'{fact:26} {fmt(value):>10} {components.NODE[fact]}'
              for fact, value in node.items()]
    return '\n'.join(lines)


def run(args):
    system, _, part = args.partition.partition(':')
    if not part:
        raise ValueError(f'--partition {args.partition!r}: not '
                         f'SYSTEM:PARTITION')
    frame = figures.load_many(args.sessions or [figures.ALL], args.db,
                              args.partition)
    found, node, used = measured(frame)
    if not found:
        again = components.MEASURE.format(partition=args.partition)
        raise ValueError(f'no component_limits figures of {args.partition} '
                         f'in the results storage: measure them first, '
                         f'{again}')

    config = configured(system, part)
    print(table(found, node, declared(config)))
    others = kept(system, part)
    identity = (machine(used, args.partition)
                if config and components.bound(config) else None)
    target = limitsfile.path_of(system)
    new = limitsfile.text(system, {**others, part: entry(
        found, node, used, args.partition, identity)})
    reviewed.show(target, new, args.write, f'the next run on '
                  f'{args.partition} holds every figure against these '
                  f'limits')
    return 0
