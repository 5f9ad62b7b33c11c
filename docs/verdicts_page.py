'''``reference/verdicts.md``: every word a verdict may say, from the one
module that declares them (:mod:`microbench.verdicts.vocabulary`).'''

import math

from page_parts import HEAD, table

from microbench.audit import kinds
from microbench.nodes import links, outliers
from microbench.verdicts import vocabulary


def _rules(word):
    said = {vocabulary.NIGHTLY: 'the nightly rule',
            vocabulary.SIDES: 'two sides of sessions (pre-post)',
            vocabulary.TRIAGE: 'the triage (acknowledgements, events, '
                               'confirmation)'}
    return '; '.join(said[rule] for rule in word.rules)


def _direction(word):
    value = vocabulary.directions().get(word.word)
    if word.word == vocabulary.ACKNOWLEDGED:
        return 'that of the verdict it acknowledges'
    if value is None or math.isnan(value):
        return 'NaN'
    return f'{value:+.0f}' if value else '0'


def verdicts_page():
    status = vocabulary.status_of()
    out = [HEAD, '# Verdicts, statuses and causes\n\n',
           'Every word a verdict of the suite may say, declared once in '
           '`reframe_tests/microbench/verdicts/vocabulary.py`; every table '
           'the suite reads is derived from it.\n\n',
           '## A figure\'s verdict\n\n',
           'From worst.  *exit*: the exit code of `microbench compare` a '
           'figure with it gives; *state*: the direction of its change '
           '(`down`, `up`, `moved`), *new* on the night it began; '
           '*weather*: the status of its tile; *export*: the value of '
           '`microbench_verdict`; *acknowledgeable*: an acknowledgement '
           'turns it into `acknowledged`.\n\n']
    rows = [(f'`{word.word}`', word.meaning, word.exit, word.state or '',
             'yes' if word.new else '', _rules(word),
             status.get(word.word, 'that of the verdict it stands for'),
             _direction(word), 'yes' if word.acknowledgeable else '',
             word.colour)
            for word in vocabulary.FIGURE_VERDICTS]
    out.append(table(('verdict', 'meaning', 'exit', 'state', 'new',
                      'said by', 'weather', 'export', 'acknowledgeable',
                      'colour'), rows))
    out += ['\n## A verdict\'s reasons\n\n',
            'A verdict (`microbench.verdicts.verdict.Verdict`) is made '
            'from statistics; the triage adds reasons to it, each of one '
            'kind, and may change its word.  Its `why` is its reasons, '
            'the latest first; the compare JSON keeps them as '
            '`reasons[]`.\n\n',
            table(('kind', 'what it says'),
                  [(f'`{kind}`', said)
                   for kind, said in vocabulary.REASONS.items()]),
            '\n## Acknowledgement kinds\n\n',
            table(('kind', 'what it does'),
                  [(f'`{kind}`', said)
                   for kind, said in vocabulary.ACK_KINDS.items()]),
            '\n## An event\'s cause, from its records\n\n',
            table(('cause', 'how it is said'),
                  [(f'`{cause}`', said) for cause, said
                   in vocabulary.RECORDED_CAUSES.items()]),
            '\n## An event\'s cause, by experiment (`microbench diagnose`)'
            '\n\n',
            table(('cause', 'meaning'),
                  [(f'`{cause}`', said) for cause, said
                   in vocabulary.EXPERIMENT_CAUSES.items()]),
            '\n## An A/B\'s verdict of a figure (`microbench ab`)\n\n',
            table(('verdict', 'meaning', 'shown as'),
                  [(f'`{word}`', said, f'`{shown}`') for word, (said, shown)
                   in vocabulary.AB_VERDICTS.items()]),
            '\n## A counted figure\'s verdict (`microbench compare --last`,'
            ' its `behaviour` rows; never in the exit code)\n\n',
            table(('verdict', 'meaning', 'shown as'),
                  [(f'`{word}`', said, f'`{shown}`') for word, (said, shown)
                   in vocabulary.BEHAVIOUR.items()]),
            '\n## A node\'s state on a vetting night (`microbench vet`, '
            '`microbench nodes`)\n\n',
            'From the one a night gives a node first (a node slow in one '
            'figure and clean in the others is slow).\n\n',
            table(('state', 'meaning'),
                  [(f'`{word}`', said) for word, said
                   in outliers.NODE_STATES.items()]),
            '\nWhat its earlier vetting nights say of it:\n\n',
            table(('persistence', 'meaning'),
                  [(f'`{word}`', said) for word, said
                   in outliers.PERSISTENCE.items()]),
            '\n## A link search\'s result (`microbench links`)\n\n',
            table(('status', 'meaning'),
                  [(f'`{word}`', said) for word, said
                   in links.STATUSES.items()]),
            '\nEach of its runs:\n\n',
            table(('outcome', 'meaning'),
                  [(f'`{word}`', said) for word, said
                   in links.OUTCOMES.items()]),
            '\n## What `microbench audit` reads an input as\n\n',
            'Its report\'s `kind` (JSON).\n\n',
            table(('kind', 'what it is, and how the audit tells'),
                  [(f'`{word}`', said) for word, said
                   in kinds.INPUT_KINDS.items()]),
            '\n## A bisection\'s result (`microbench bisect`)\n\n',
            table(('result', 'meaning', 'shown as'),
                  [(f'`{word}`', said, f'`{shown}`') for word, (said, shown)
                   in vocabulary.BISECT_RESULTS.items()]),
            '\n## The weather page\'s statuses\n\n',
            'From the one a user must see first.\n\n',
            table(('status', 'meaning', 'edge', 'badge'),
                  [(f'`{name}`', said, edge, badge) for name, (
                      said, _, edge, badge) in vocabulary.STATUSES.items()])]
    return ''.join(out)
