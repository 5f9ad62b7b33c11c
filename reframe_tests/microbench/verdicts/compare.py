'''``microbench compare``: two sides of the results storage, figure by
figure (exit 1 on a regression).

A side is a set of sessions (:mod:`.figures`): two session queries, or
``--last``, the last session against the ``--window`` sessions before it.
Each figure with samples (every ``*_median_*`` figure and every gap, whose
samples are its ratios per round) is judged by :func:`.rule.judge` on the
pooled samples of each side.  Its band is the reference the after side was
checked against, where that is a value (a facility partition, or a
baseline); else the band of the before side's sessions (:func:`.rule.band`);
else, with one session before, the floor.  Figures without samples of their
own (min, max: their samples are the median's; scalars) are not judged.
'''

import json
import sys

import pandas as pd

from microbench.verdicts import figures, rule

HELP = 'did any figure change? (exit 1 on a regression)'

KEY = figures.KEY

#: The columns of a comparison: the figure, its verdict, the numbers
COLUMNS = [*KEY, 'unit', 'verdict', 'median_before', 'median_after', 'ratio',
           'ci_low', 'ci_high', 'p', 'band_low', 'band_high', 'band_from',
           'n_before', 'n_after', 'sessions_before', 'sessions_after', 'why']


def direction_only(ref, lower, upper, unit):
    '''Whether a reference only says on which side of 1 a gap lies.'''
    return unit == 'x' and ref == 1.0 and (lower, upper) in ((0, None),
                                                             (None, 0))


def gap_direction(ref, lower, upper, unit):
    '''True if a gap's reference keeps it above 1, False below, else
    None.'''
    if unit != 'x' or not ref:
        return None
    if lower is not None and ref * (1 + lower) >= 1:
        return True
    if upper is not None and ref * (1 + upper) <= 1:
        return False
    return None


def cache_figure(row):
    '''Whether a figure measures a cache (by design, or demoted at run
    time): checked from below only.'''
    return (row['measures'] in ('page cache', 'client cache')
            or '_cache_' in row['figure'])


def reference_band(rows):
    '''``(lower, upper, where)`` of the last row's reference, if it is a
    value; else None.'''
    last = rows.iloc[-1]
    ref, lower, upper = last['ref'], last['lower'], last['upper']
    if not ref or direction_only(ref, lower, upper, last['unit']):
        return None

    lower = None if pd.isna(lower) else float(lower)
    upper = None if pd.isna(upper) else float(upper)
    return lower, upper, 'reference'


def session_band(rows, floor, margin):
    '''``(lower, upper, where)`` from the sessions of ``rows`` (open above
    for a cache figure, as a baseline makes it).'''
    values = figures.session_values(rows)
    one_sided = cache_figure(rows.iloc[-1])
    if len(values) < 2:
        return -floor, None if one_sided else floor, 'floor'

    _, lower, upper = rule.band(values, floor, margin, one_sided)
    return lower, upper, f'{len(values)} sessions before'


def compare(before, after, alpha=rule.ALPHA, floor=rule.FLOOR,
            margin=rule.MARGIN):
    '''One row per figure with samples on both sides: its verdict.'''
    before, after = figures.with_samples(before), figures.with_samples(after)
    groups_before = dict(iter(before.groupby(KEY, sort=False)))
    rows = []
    for key, mine in after.groupby(KEY, sort=True):
        theirs = groups_before.get(key)
        if theirs is None:
            continue

        band = (reference_band(mine)
                or session_band(theirs, floor, margin))
        unit = mine['unit'].iloc[-1]
        out = rule.judge(figures.pooled(theirs), figures.pooled(mine),
                         band[0], band[1], rule.BETTER.get(unit, 0), alpha)
        rows.append({**dict(zip(KEY, key)), 'unit': unit,
                     'sessions_before': theirs['session'].nunique(),
                     'sessions_after': mine['session'].nunique(),
                     'band_from': band[2], **out})

    table = pd.DataFrame(rows, columns=COLUMNS)
    order = {v: i for i, v in enumerate(rule.VERDICTS)}
    return table.sort_values(by=['verdict', *KEY],
                             key=lambda c: c.map(order) if c.name ==
                             'verdict' else c, kind='stable')


def differences(before, after):
    '''{field: (values before, values after)} of what ran, where the
    sides differ.'''
    out = {}
    for name in figures.CONTEXT:
        lhs = sorted(set(before[name]) - {''})
        rhs = sorted(set(after[name]) - {''})
        if lhs != rhs:
            out[name] = (lhs, rhs)

    return out


def text(table, diffs, sides, alpha=rule.ALPHA):
    '''The comparison for a terminal.'''
    lines = [f'before: {sides[0]}', f'after:  {sides[1]}', '']
    counts = table['verdict'].value_counts()
    lines.append(', '.join(f'{counts.get(verdict, 0)} {verdict}'
                           for verdict in rule.VERDICTS) + '\n')
    head = ('verdict', 'figure', 'before', 'after', 'ratio', 'interval',
            'p', 'band')
    body = []
    for _, row in table.iterrows():
        shown = {name: figures.fmt(row[name]) for name in (
            'median_before', 'median_after', 'ratio', 'ci_low', 'ci_high',
            'p', 'band_low', 'band_high')}
        body.append((
            row['verdict'],
            f'{row["system"]}:{row["partition"]} {row["check"]} '
            f'{row["variant"]} {row["figure"]}',
            f'{shown["median_before"]} {row["unit"]}',
            f'{shown["median_after"]} {row["unit"]}',
            shown['ratio'],
            f'{shown["ci_low"]}..{shown["ci_high"]}',
            shown['p'],
            f'{shown["band_low"]}..{shown["band_high"]} '
            f'({row["band_from"]})',
        ))

    widths = [max(len(line[column]) for line in [head, *body])
              for column in range(len(head))]
    for line in [head, *body]:
        lines.append('  '.join(cell.ljust(width)
                               for cell, width in zip(line, widths))
                     .rstrip())

    few = table['why'].str.startswith('too few samples')
    for _, row in table[(table['verdict'] != 'unchanged') & ~few].iterrows():
        lines.append(f'{row["verdict"]}: {row["check"]} {row["variant"]} '
                     f'{row["figure"]}: {row["why"]}')
    if few.any():
        lines.append(f'inconclusive: {few.sum()} figure(s) with too few '
                     f'samples for a rank test to reach p < {alpha} (3 '
                     f'against 3 cannot: more sessions on a side, or '
                     f'-S samples=N)')

    lines.append('')
    if diffs:
        lines.append('what differs between the sides:')
        for name, (lhs, rhs) in diffs.items():
            lines.append(f'  {name}: {" | ".join(lhs) or "-"}  ->  '
                         f'{" | ".join(rhs) or "-"}')
    else:
        lines.append('what ran is the same on both sides (versions, specs, '
                     'nodes, kernel, scratch and its mount options, the '
                     "suite's commit)")

    return '\n'.join(lines) + '\n'


def as_json(table, diffs, sides, alpha):
    '''The comparison for tools.'''
    return json.dumps({
        'before': sides[0], 'after': sides[1], 'alpha': alpha,
        'test': 'Mann-Whitney U, two-sided; ratio interval: bootstrap '
                'percentile',
        'figures': json.loads(table.to_json(orient='records')),
        'differences': {k: {'before': v[0], 'after': v[1]}
                        for k, v in diffs.items()},
    }, indent=1)


def add_arguments(parser):
    parser.add_argument('before', nargs='?', help='session query')
    parser.add_argument('after', nargs='?', help='session query')
    parser.add_argument('--last', action='store_true', help='the last '
                        'session against the --window sessions before it')
    parser.add_argument('--window', type=int, default=7, help='sessions '
                        'before the last one (default %(default)s)')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.add_argument('--alpha', type=float, default=rule.ALPHA,
                        help='significance level (default %(default)s)')
    parser.add_argument('--json', help='also write the verdicts as JSON '
                        'here')
    rule.add_band_arguments(parser)
    parser.set_defaults(handler=run)


def sides(args):
    '''(before, after, their descriptions)'''
    if not args.last:
        if not args.before or not args.after:
            raise figures.ResultsError('compare needs BEFORE and AFTER, or '
                                       '--last')
        return (figures.load_many([args.before], args.db, args.partition),
                figures.load_many([args.after], args.db, args.partition),
                (args.before, args.after))

    frame = figures.load(figures.ALL, args.db, args.partition)
    order = (frame.drop_duplicates('session').sort_values('start')
             ['session'].tolist())
    if len(order) < 2:
        raise figures.ResultsError(f'--last needs at least two sessions, '
                                   f'the results storage has {len(order)}')
    last, window = order[-1], order[-1 - args.window:-1]
    return (frame[frame['session'].isin(window)],
            frame[frame['session'] == last],
            (f'{len(window)} session(s) before the last '
             f'({window[0]} .. {window[-1]})', f'the last session {last}'))


def run(args):
    before, after, names = sides(args)
    table = compare(before, after, args.alpha, args.floor, args.margin)
    if table.empty:
        raise figures.ResultsError('the two sides have no figure with '
                                   'samples in common')
    diffs = differences(before, after)
    sys.stdout.write(text(table, diffs, names, args.alpha))
    if args.json:
        with open(args.json, 'w') as fp:
            fp.write(as_json(table, diffs, names, args.alpha))

    return 1 if (table['verdict'] == 'regression').any() else 0
