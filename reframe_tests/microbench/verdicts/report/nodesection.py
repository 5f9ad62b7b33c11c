'''The report's node map: the newest vetting night of each partition
(``microbench vet``; the compare JSON's ``nodes``), one row per node, its
state against its peers of the same night, how long it has been so, its
figures that are not clean and the drain suggested (never run).'''

import html

from microbench.nodes import outliers, vetting
from microbench.verdicts import vocabulary

#: A node state's look in the page (the CSS classes of the verdicts)
CLASSES = {outliers.SLOW: vocabulary.css_class(vocabulary.REGRESSION),
           outliers.FAILED: vocabulary.css_class(vocabulary.REGRESSION),
           outliers.FAST: vocabulary.css_class(vocabulary.IMPROVEMENT)}

HEAD = ('node', 'state', 'since', 'figures against the peers',
        'suggested (not run)')

NOTE = ('Every node of the partition ran the single-node checks on its own '
        'the same night (microbench vet), one after another; each node\'s '
        'figure is set against the median and MAD of its peers of that '
        'night, so that the machine\'s nightly drift falls on all nodes '
        'alike (microbench/nodes/outliers.py says the rule).  A failed node '
        'gave no figure: it is named as failed, never as slow.')


def _row(item):
    kind = CLASSES.get(item['state'], '')
    cells = [item['node'], item['state'], item['persistence'],
             '; '.join(item['lines']) or '-', item['drain'] or '-']
    return '<tr>' + ''.join(
        f'<td class="{kind if index < 2 else ""}">{html.escape(str(cell))}'
        f'</td>' for index, cell in enumerate(cells)) + '</tr>'


def section(nights):
    '''The HTML lines of the node map of ``nights`` (the compare JSON's
    ``nodes``).'''
    out = ['<section id="nodes"><h2>Nodes: each against its peers</h2>',
           f'<p>{html.escape(NOTE)}</p>']
    head = ''.join(f'<th>{html.escape(name)}</th>' for name in HEAD)
    for night in nights:
        out.append(f'<h3>{html.escape(night["partition"])}: '
                   f'{html.escape(vetting.night_name(night["tag"]))} '
                   f'({html.escape(str(night["date"] or "?")[:16])}), '
                   f'{len(night["asked"])} nodes, {len(night["slow"])} '
                   f'slow, {len(night["failed"])} failed</h3>')
        rows = [_row(item) for item in night['nodes']]
        rows += [_row({'node': node, 'state': outliers.FAILED,
                       'persistence': outliers.FAILED, 'lines': [why],
                       'drain': None})
                 for node, why in night['failed'].items()]
        out.append(f'<div class="scroll"><table><tr>{head}</tr>'
                   f'{"".join(rows)}</table></div>')
    out.append('</section>')
    return out
