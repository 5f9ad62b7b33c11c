'''``microbench limits``: a partition's measured component limits, and
their entry in ``systems/limits/<system>.yaml`` as a reviewable diff.

The limits are the figures of the ``component_limits`` checks
(:data:`microbench.components.LIMITS`) in the latest session of the
partition that has each: its median, min and max.  Beside them, the
ceilings and floors the system file declares (the vendor's figures, where
a facility gives them).  ``--write`` applies the diff; the next run on the
partition holds every figure against them (systems/config.py).
'''

import datetime
import importlib.util
import os

import yaml

from microbench import components, paths
from microbench.verdicts import figures, reviewed
from microbench.verdicts.figures import fmt

HELP = "a partition's measured component limits, as a diff"

#: How a partition's limits are measured again
MEASURE = ("reframe -c reframe_tests -n '^component_limits' -r --system "
           "{partition}")


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


def declared(system, partition):
    '''{limit: value} of the ceilings and floors the system file
    declares for ``partition`` (systems/<system>.py; {} without one).'''
    path = os.path.join(paths.SYSTEMS, f'{system}.py')
    if not os.path.exists(path):
        return {}
    spec = importlib.util.spec_from_file_location(f'_system_{system}', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for part in module.system['partitions']:
        if part['name'] == partition:
            extras = part.get('extras', {})
            return {**extras.get('ceilings', {}), **extras.get('floors', {})}
    return {}


def entry(found, node, used, partition):
    '''The partition's entry of its system's limits file.'''
    last = max(used, key=lambda row: row['start'])
    when = datetime.datetime.fromtimestamp(last['start'],
                                           datetime.timezone.utc)
    return {'measured': {'session': str(last['session']),
                         'date': when.strftime('%Y-%m-%d'),
                         'nodes': str(last['node']),
                         'command': MEASURE.format(partition=partition)},
            'limits': found, 'node': node}


def text(system, part, new_entry):
    '''The limits file of ``system`` with ``part``'s entry set.'''
    old = components.load(system)
    old[part] = new_entry
    head = (f'# Measured component limits of {system}: microbench limits '
            f'--partition {system}:<partition> --write\n'
            f'# (microbench/components.py says what each one is)\n')
    return head + yaml.safe_dump(old, sort_keys=False, width=72)


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
        raise ValueError(f'no component_limits figures of {args.partition} '
                         f'in the results storage: measure them first, '
                         f'{MEASURE.format(partition=args.partition)}')

    print(table(found, node, declared(system, part)))
    target = components.path_of(system)
    new = text(system, part, entry(found, node, used, args.partition))
    reviewed.show(target, new, args.write, f'the next run on '
                  f'{args.partition} holds every figure against these '
                  f'limits')
    return 0
