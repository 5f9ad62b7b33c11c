'''An A/B result (:mod:`.ab_json`'s document) for a terminal: what ran,
the rule, and a table of the figures as compare prints its verdicts
(worst first), then why each figure that is not ``same`` is what it is.'''


def _stack(side, stack):
    '''One line naming a stack and what identifies it.'''
    parts = [f'lock {stack["lock_hash"]}' if stack['lock_hash'] else '',
             stack['prefix'] or '',
             ', '.join(f'{tool} {version}' for tool, version in
                       sorted(stack['tools'].items())),
             f'session {stack["session"]}' if stack['session'] else '']
    said = '; '.join(part for part in parts if part)
    return f'{side}: {stack["name"]}' + (f' ({said})' if said else '')


def _figure(row):
    return f'{row["check"]} {row["variant"]} {row["figure"]}'.replace(
        '  ', ' ')


def _interval(row):
    if row['low'] is None or row['high'] is None:
        return '-'
    return f'[{row["low"]:.3f}, {row["high"]:.3f}]'


def _level(value, unit):
    '''A side's level as compare shows a figure: four significant
    digits and its unit.'''
    return '-' if value is None else f'{value:.4g} {unit}'


def _table(rows):
    head = ('verdict', 'figure', 'A', 'B', 'B/A', 'interval', 'pairs')
    body = [(row['label'], _figure(row),
             _level(row['median_a'], row['unit']),
             _level(row['median_b'], row['unit']),
             '-' if row['ratio'] is None else f'{row["ratio"]:.3f}',
             _interval(row),
             f'{row["pairs"]}' + (f' ({row["lost"]} lost)' if row['lost']
                                  else ''))
            for row in rows]
    widths = [max(len(line[column]) for line in [head, *body])
              for column in range(len(head))]
    return ['  '.join(cell.ljust(width) for cell, width in
                      zip(line, widths)).rstrip() for line in [head, *body]]


def _pct(fraction):
    return f'{fraction * 100:.3g} %'


def _at_cap(rule):
    if rule['min_pairs'] == rule['cap']:
        return 'all of it at the one look'
    return f'{_pct(rule["last_share"])} of it at the cap'


def _rule(rule, figures_judged):
    share = rule['alpha'] / max(figures_judged, 1)
    return (f'rule: B/A the geometric mean of the pairs\' ratios (two '
            f'rounds adjacent in time), its interval {rule["interval"]}; '
            f'a look after every pair from {rule["min_pairs"]} to '
            f'{rule["cap"]}; at most {_pct(rule["alpha"])} of A/A '
            f'experiments call a difference (union bound: {share:.2g} per '
            f'figure, {_at_cap(rule)}); a '
            f'change named beyond ±{_pct(rule["threshold"])}')


def text(doc):
    '''The A/B for a terminal (``doc``: the A/B document).'''
    rows = doc['figures']
    where = ', '.join(doc['nodes']) or 'no node recorded'
    jobs = ', '.join(doc['jobs']) or 'no job id'
    lines = [_stack('A', doc['stacks']['A']),
             _stack('B', doc['stacks']['B']),
             f'checks: {", ".join(doc["checks"]) or "-"}'
             + (f' ({" ".join(doc["options"])})' if doc['options'] else ''),
             f'{doc["mode"]} mode on {doc["system"]}:{doc["partition"]}, '
             f'nodes {where} (jobs {jobs}): {doc["pairs_run"]} pairs of '
             f'rounds ({doc["rounds_run"]} rounds, {doc["order"]})'
             + (f', {doc["date"]}' if doc['date'] else ''),
             _rule(doc['rule'], len(rows)), '',
             ', '.join(f'{count} {verdict}' for verdict, count in
                       doc['counts'].items()) or 'no figure', '']
    lines += _table(rows)
    for row in rows:
        if row['verdict'] != 'same':
            lines.append(f'{row["label"]}: {_figure(row)}: {row["why"]}')
    return '\n'.join(lines) + '\n'
