'''``microbench compare``: did any figure change? (exit 1 on a new
regression).

``--last``: the last session (tonight) against each figure's history of
nights before it (:mod:`.nightly`: change points and a test of the last
nights, one false-alarm budget for the whole night).  ``BEFORE AFTER``:
two sides of sessions, the session as the unit (:mod:`.prepost`).  Either
way, what differs between the sides' records is listed (tool versions,
Spack specs, nodes, kernel, scratch and its mount options, the suite's
commit).
'''

import json
import sys

from microbench.verdicts import figures, nightly, prepost, rule

HELP = 'did any figure change? (exit 1 on a new regression)'

KEY = figures.KEY


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


def _figure(row):
    return (f'{row["system"]}:{row["partition"]} {row["check"]} '
            f'{row["variant"]} {row["figure"]}')


def _table(table, extra):
    head = ('verdict', 'figure', 'before', 'after', 'ratio', 'p',
            extra[0])
    body = []
    for _, row in table.iterrows():
        body.append((row['verdict'], _figure(row),
                     f'{figures.fmt(row["median_before"])} {row["unit"]}',
                     f'{figures.fmt(row["median_after"])} {row["unit"]}',
                     figures.fmt(row['ratio']), figures.fmt(row['p']),
                     extra[1](row)))
    widths = [max(len(line[column]) for line in [head, *body])
              for column in range(len(head))]
    return ['  '.join(cell.ljust(width) for cell, width in
                      zip(line, widths)).rstrip() for line in [head, *body]]


def _points(table):
    lines = []
    for _, row in table.iterrows():
        for point in row['change_points']:
            lines.append(f'change point: {_figure(row)}: from {point["date"]}'
                         f' (session {point["session"]}): '
                         f'{point["mean_before"]:.4g} -> '
                         f'{point["mean_after"]:.4g} {row["unit"]} '
                         f'({point["change_pct"]:+.1f} %, p = '
                         f'{point["p"]:.2g})')
            for name, diff in point['differences'].items():
                lines.append(f'    {name}: {" | ".join(diff["before"]) or "-"}'
                             f'  ->  {" | ".join(diff["after"]) or "-"}')
    return lines


def text(table, diffs, sides, verdicts, about, extra):
    '''The comparison for a terminal.'''
    lines = [f'before: {sides[0]}', f'after:  {sides[1]}', about, '']
    counts = table['verdict'].value_counts()
    lines.append(', '.join(f'{counts.get(verdict, 0)} {verdict}'
                           for verdict in verdicts) + '\n')
    lines += _table(table, extra)
    for _, row in table[table['verdict'] != 'unchanged'].iterrows():
        lines.append(f'{row["verdict"]}: {_figure(row)}: {row["why"]}')
    lines += _points(table)
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


def as_json(table, diffs, sides, test):
    '''The comparison for tools: ``figures[]`` (each figure's verdict and
    numbers, its change points with their night and what differs around
    them) and ``change_points[]`` (all of them, flat).'''
    rows = json.loads(table.drop(columns='change_points')
                      .to_json(orient='records'))
    points = []
    for row, found in zip(rows, table['change_points']):
        row['change_points'] = found
        points += [{**{k: row[k] for k in KEY}, 'unit': row['unit'],
                    **point} for point in found]
    return json.dumps({
        'before': sides[0], 'after': sides[1], **test,
        'figures': rows, 'change_points': points,
        'differences': {k: {'before': v[0], 'after': v[1]}
                        for k, v in diffs.items()},
    }, indent=1, default=str)


def add_arguments(parser):
    parser.add_argument('before', nargs='?', help='session query')
    parser.add_argument('after', nargs='?', help='session query')
    parser.add_argument('--last', action='store_true', help='the last '
                        'session against the history of nights before it')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.add_argument('--budget', type=float, default=nightly.BUDGET,
                        help='--last: the share of unchanged nights that '
                        'may exit 1, for all figures together (default '
                        '%(default)s)')
    parser.add_argument('--alpha', type=float, default=prepost.ALPHA,
                        help='BEFORE AFTER: the family-wise level over all '
                        'figures (default %(default)s)')
    parser.add_argument('--floor', type=float, default=rule.FLOOR,
                        help='the least change worth calling, a fraction '
                        '(default %(default)s)')
    parser.add_argument('--json', help='also write the verdicts as JSON '
                        'here')
    parser.set_defaults(handler=run)


def with_limits(table, frame):
    '''``table`` (one row per figure) with the :data:`figures.LIMIT`
    columns of each figure's latest row in ``frame``: the limit in force
    when it was measured and its share of it.'''
    latest = (frame.sort_values('start', kind='stable')
              .drop_duplicates(KEY, keep='last')[[*KEY, *figures.LIMIT]])
    return table.drop(columns=figures.LIMIT, errors='ignore').merge(
        latest, on=KEY, how='left')


def last(args):
    '''The nightly verdicts: (table, differences, sides, exit code, how
    it was tested, the table's extra column).'''
    frame = figures.load(figures.ALL, args.db, args.partition)
    order = (frame.drop_duplicates('session').sort_values('start')
             ['session'].tolist())
    if len(order) < 2:
        raise figures.ResultsError(f'--last needs at least two sessions, '
                                   f'the results storage has {len(order)}')
    got = nightly.judge_last(frame, args.budget, args.floor)
    if got.figures.empty:
        raise figures.ResultsError(f'the last session {order[-1]} has no '
                                   f'figure with samples')
    diffs = differences(frame[frame['session'] == order[-2]],
                        frame[frame['session'] == order[-1]])
    sides = (f'each figure\'s history before the last session (up to '
             f'{nightly.CAP} nights, {len(order) - 1} stored)',
             f'the last session {order[-1]}')
    test = {'test': 'night as the unit: Otava change points and a '
                    'single-night prediction interval',
            'budget': args.budget, 'figures_judged': got.judged,
            'last_nights_level': got.level, 'otava_max_p': got.max_p}
    about = (f'{got.judged} figures judged: one budget of {args.budget:.0%}'
             f' unchanged nights exiting 1 (per figure: last nights '
             f'{got.level:.2g}, Otava {got.max_p:.2g}); a change sets the '
             f'exit code on the night it is found')
    extra = ('since', lambda row: row['since_date'] or
             f'{row["nights"]} nights')
    return (with_limits(got.figures, frame), diffs, sides, got.exit_code,
            test, about, extra)


def pre_post(args):
    '''Two sides of sessions, as :func:`last`.'''
    if not args.before or not args.after:
        raise figures.ResultsError('compare needs BEFORE and AFTER, or '
                                   '--last')
    before = figures.load_many([args.before], args.db, args.partition)
    after = figures.load_many([args.after], args.db, args.partition)
    everything = figures.load(figures.ALL, args.db, args.partition)
    table, level = prepost.compare(before, after, args.alpha, args.floor,
                                   everything)
    if table.empty:
        raise figures.ResultsError('the two sides have no figure with '
                                   'samples in common')
    test = {'test': 'session as the unit: Welch t on the sessions\' '
                    'summaries (log), or one session against a prediction '
                    'interval', 'alpha': args.alpha, 'level': level}
    about = (f'{len(table)} figures: family-wise level {args.alpha} '
             f'({level:.2g} per figure), the session as the unit')
    extra = ('sessions', lambda row: f'{row["sessions_before"]} / '
                                     f'{row["sessions_after"]}')
    table = with_limits(rule.worst_first(table, rule.VERDICTS, KEY), after)
    regression = (table['verdict'] == 'regression').any()
    return (table, differences(before, after), (args.before, args.after),
            int(regression), test, about, extra)


def run(args):
    table, diffs, sides, code, test, about, extra = (
        last(args) if args.last else pre_post(args))
    verdicts = nightly.VERDICTS if args.last else rule.VERDICTS
    sys.stdout.write(text(table, diffs, sides, verdicts, about, extra))
    if args.json:
        with open(args.json, 'w') as fp:
            fp.write(as_json(table, diffs, sides, test))
    return code
