'''The report's section of a bisection (``microbench report --bisect
FILE``): the chain from figure to package.  Per figure that moved between
lock A and lock B, its B/A, the package(s) named with both versions (or
what could not be decided), and each step: the units it moved, what it
came to, and what it said of each figure (the bisection JSON of
:mod:`microbench.cause.bisect_json`).'''

import html

from microbench.cause import bisecttext
from microbench.verdicts import vocabulary

#: A result's look in the page (the CSS classes of the page's verdicts)
CLASSES = {word: vocabulary.css_class(word)
           for word in vocabulary.BISECT_RESULTS}

HEAD = ('figure', 'moved', 'B/A', 'interval', 'package', 'A', 'B', 'how')

STEP_HEAD = ('step', 'A with, at B\'s versions', 'came to', 'minutes',
             'what it said')

NOTE = ('The units are the packages that changed of their own between the '
        'two locks, grouped where they must move together; each step is '
        'lock A with some groups at B\'s versions, installed by the pinned '
        'Spack, and an A/B of A against it.  A step reproduces a figure '
        'where its interval lies on B\'s side of the midpoint of 1 and '
        'the full A/B\'s ratio; one cause is named in at most '
        'ceil(log2 k) + 1 A/B steps (microbench bisect).')


def _cell(text, kind=''):
    return f'<td class="{kind}">{html.escape(str(text))}</td>'


def _interval(row):
    return ('-' if row['low'] is None or row['high'] is None else
            f'{row["low"]:.3f} .. {row["high"]:.3f}')


def _result_rows(doc):
    rows = []
    for moved, result in zip(doc['moved'], doc['results']):
        kind = CLASSES.get(result['result'], '')
        head = [_cell(bisecttext.figure(moved)), _cell(moved['verdict']),
                _cell(bisecttext.ratio(moved), 'num'),
                _cell(_interval(moved))]
        if result['packages']:
            for number, package in enumerate(result['packages']):
                cells = (head if number == 0 else
                         [_cell('') for _ in head])
                rows.append('<tr>' + ''.join(cells) + _cell(
                    package['name'], kind) + _cell(package['a'])
                    + _cell(package['b']) + _cell(
                        result['evidence'] if number == 0 else '')
                    + '</tr>')
        else:
            rows.append('<tr>' + ''.join(head) + _cell(
                'not decided', kind) + _cell('-') + _cell('-')
                + _cell('-') + '</tr>')
        rows.append(f'<tr><td class="why" colspan="{len(HEAD)}">'
                    f'{html.escape(result["why"])}</td></tr>')
    return rows


def _step_rows(doc):
    rows = []
    for step in doc['steps']:
        said = '; '.join(f'{bisecttext.figure(row)}: {row["outcome"]} '
                         f'(B/A {bisecttext.ratio(row)})'
                         for row in step['figures']) or step['said']
        rows.append('<tr>' + _cell(step['step'], 'num')
                    + _cell(bisecttext.spelt(doc, step['moves']))
                    + _cell(step['status']) + _cell(
                        f'{step["minutes"]:.1f}', 'num') + _cell(said)
                    + '</tr>')
    return rows


def section(doc):
    '''The HTML lines of the section of the bisection document ``doc``.'''
    locks = doc['locks']
    facts = [f'{side}: {locks[side]["path"]} (lock '
             f'{locks[side]["sha256"][:12]})' for side in ('A', 'B')]
    facts.append(f'{len(doc["units"])} units in k = {doc["k"]} groups; '
                 f'{doc["ab_steps"]} A/B steps of the budget of '
                 f'{doc["budget"]}; {doc["mode"]} mode on {doc["system"]}:'
                 f'{doc["partition"]}, {doc["minutes"]:.1f} min; checks '
                 f'{", ".join(doc["checks"])}')
    head = ''.join(f'<th>{html.escape(name)}</th>' for name in HEAD)
    steps = ''.join(f'<th>{html.escape(name)}</th>' for name in STEP_HEAD)
    if not doc['moved']:
        facts.append('Nothing moved between A and B: nothing to bisect.')
    return ['<section id="bisect"><h2>Bisection: the package that did '
            'it</h2>',
            *(f'<p>{html.escape(fact)}</p>' for fact in facts),
            f'<p>{html.escape(NOTE)}</p>',
            f'<div class="scroll"><table><tr>{head}</tr>'
            f'{"".join(_result_rows(doc))}</table></div>',
            f'<div class="scroll"><table><tr>{steps}</tr>'
            f'{"".join(_step_rows(doc))}</table></div></section>']
