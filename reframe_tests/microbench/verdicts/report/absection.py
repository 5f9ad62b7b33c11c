'''The report's section of an A/B experiment (``microbench report --ab
FILE``): the two stacks, the rule, and per figure B against A with its
interval and verdict, worst first, why under each figure that is not
``same`` (the A/B JSON of :mod:`microbench.cause.ab_json`).'''

import html

from microbench.cause import pairs
from microbench.verdicts import figures, vocabulary

#: A verdict's look in the page (the CSS classes of the page's verdicts)
CLASSES = {word: vocabulary.css_class(word)
           for word in vocabulary.AB_VERDICTS}

HEAD = ('verdict', 'check', 'variant', 'figure', 'A', 'B', 'unit', 'B/A',
        'interval', 'pairs')

NOTE = ('B against A, figure by figure: B/A is the geometric mean of the '
        'ratios of the pairs of rounds (one round of each stack, run one '
        'after the other on the same nodes, A B B A ...), its interval '
        'the sequential rule\'s (microbench ab); A and B are the medians '
        'of each side\'s rounds.  same: the interval lies within the '
        'threshold (or, at the cap, holds 1 and bounds any change by the '
        'percentage said); inconclusive: the cap was reached first')


def _stack(label, stack):
    tools = ', '.join(f'{tool} {version}' for tool, version in
                      sorted(stack['tools'].items()))
    parts = [stack['prefix'] or '', tools,
             f'lock {stack["lock_hash"]}' if stack['lock_hash'] else '']
    said = '; '.join(part for part in parts if part)
    return f'{label}: {stack["name"]}' + (f' ({said})' if said else '')


def _cell(value, kind=''):
    shown = figures.fmt(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        kind = kind or 'num'
    return f'<td class="{kind}">{html.escape(shown)}</td>'


def _row(row):
    interval = ('-' if row['low'] is None or row['high'] is None else
                f'{row["low"]:.3f} .. {row["high"]:.3f}')
    used = f'{row["pairs"]}' + (f' ({row["lost"]} lost)' if row['lost']
                                else '')
    cells = [_cell(row['label'], CLASSES.get(row['verdict'], '')),
             _cell(row['check']), _cell(row['variant']),
             _cell(row['figure']), _cell(row['median_a']),
             _cell(row['median_b']), _cell(row['unit']),
             _cell(row['ratio']), _cell(interval), _cell(used)]
    line = f'<tr>{"".join(cells)}</tr>'
    if row['verdict'] != 'same':
        line += (f'<tr><td class="why" colspan="{len(HEAD)}">'
                 f'{html.escape(row["why"])}</td></tr>')
    return line


def section(doc):
    '''The HTML lines of the section of the A/B document ``doc``.'''
    rule = doc['rule']
    where = ', '.join(doc['nodes']) or 'no node recorded'
    jobs = ', '.join(doc['jobs']) or 'no job id'
    facts = [_stack(label, doc['stacks'][label])
             for label in pairs.SIDES]
    facts.append(f'{doc["mode"]} mode on {doc["system"]}:'
                 f'{doc["partition"]}, nodes {where} (jobs {jobs}): '
                 f'{doc["pairs_run"]} pairs of rounds, {doc["order"]}; '
                 f'the rule: at most {rule["alpha"] * 100:g} % of A/A '
                 f'experiments call a difference, a change named beyond '
                 f'±{rule["threshold"] * 100:g} %, a cap of {rule["cap"]} '
                 f'pairs')
    counts = ', '.join(f'{count} {verdict}' for verdict, count in
                       doc['counts'].items()) or 'no figure'
    head = ''.join(f'<th>{html.escape(name)}</th>' for name in HEAD)
    rows = ''.join(_row(row) for row in doc['figures'])
    return ['<section id="ab"><h2>A/B: B against A</h2>',
            *(f'<p>{html.escape(fact)}</p>' for fact in facts),
            f'<p>{html.escape(counts)}.  {html.escape(NOTE)}</p>',
            f'<div class="scroll"><table><tr>{head}</tr>{rows}</table>'
            '</div></section>']
