'''Every word a verdict may say, declared once: a figure's verdicts, the
states they fall in, what an acknowledgement may be, an event's causes
(from its records and by experiment), an A/B's verdicts and a bisection's
results, the weather page's statuses and the export's directions.

Each word comes with its meaning (the generated page
``docs/reference/verdicts.md`` is made from it), its effect on the exit
code of ``microbench compare`` and its colour where a page shows it.  The
tables the rest of the suite reads (``nightly.VERDICTS``,
``triage.ACKNOWLEDGEABLE``, ``weather.status.STATUS``, ...) are derived
here, never spelt again; ``tests/verdicts/test_vocabulary.py`` holds
every word the code says to this table.
'''

import collections

#: One word: ``word``; ``meaning`` (one sentence); ``exit`` (the exit
#: code of ``compare`` a figure with it gives: 1 fails the night);
#: ``colour`` (the report's background of its row, ``#rrggbb``)
Word = collections.namedtuple('Word', ['word', 'meaning', 'exit', 'colour'])

#: A figure's verdict: ``state`` (``down``, ``up``, ``moved`` or None: no
#: change), ``new`` (the change began tonight; False: it began before and
#: holds), ``rules`` (who says it: ``nightly``, the nightly rule;
#: ``sides``, the rule of two sides of sessions; ``triage``, what the
#: triage makes of another verdict), ``acknowledgeable`` (an
#: acknowledgement turns it into ``acknowledged``)
Verdict = collections.namedtuple('Verdict', [
    *Word._fields, 'state', 'new', 'rules', 'acknowledgeable'])

NIGHTLY, SIDES, TRIAGE = 'nightly', 'sides', 'triage'

#: Every verdict of a figure, from worst
FIGURE_VERDICTS = (
    Verdict('regression', 'the figure got worse tonight, beyond its '
            'history\'s noise (the night fails)', 1, '#f4b3b3', 'down',
            True, (NIGHTLY, SIDES), True),
    Verdict('changed', 'a figure with no better side (CPU use) moved '
            'tonight', 0, '#f8dc94', 'moved', True, (NIGHTLY, SIDES), True),
    Verdict('degraded', 'worse since an earlier night and still worse '
            '(said once, as a regression, on its first night); or a '
            'figure downstream of an event\'s root', 0, '#f9d6d6', 'down',
            False, (NIGHTLY, TRIAGE), True),
    Verdict('shifted', 'a figure with no better side moved on an earlier '
            'night and holds there', 0, '#f8dc94', 'moved', False,
            (NIGHTLY,), True),
    Verdict('unconfirmed', 'slower on the first run, not on its '
            'confirmation rerun', 0, '#f8dc94', None, False, (TRIAGE,),
            False),
    Verdict('acknowledged', 'a change a person acknowledged (expected, '
            'noise or known); its event says what it acknowledges', 0,
            '#e3e9ec', None, False, (TRIAGE,), False),
    Verdict('inconclusive', 'too little history, or samples that cannot '
            'be judged', 0, '#f8dc94', None, False, (NIGHTLY, SIDES), False),
    Verdict('improvement', 'the figure got better tonight, beyond its '
            'history\'s noise', 0, '#bfe6bf', 'up', True, (NIGHTLY, SIDES),
            True),
    Verdict('improved', 'better since an earlier night and still better',
            0, '#dff2df', 'up', False, (NIGHTLY,), True),
    Verdict('unchanged', 'at its level: within its history\'s noise', 0,
            '', None, False, (NIGHTLY, SIDES), False),
)

_BY_WORD = {verdict.word: verdict for verdict in FIGURE_VERDICTS}

#: The words of a figure's verdicts, from worst
VERDICT_WORDS = tuple(_BY_WORD)

REGRESSION, CHANGED, DEGRADED, SHIFTED, UNCONFIRMED, ACKNOWLEDGED, \
    INCONCLUSIVE, IMPROVEMENT, IMPROVED, UNCHANGED = VERDICT_WORDS


def verdict(word):
    '''The :data:`Verdict` of ``word`` (KeyError: not a verdict).'''
    return _BY_WORD[word]


def said_by(rule):
    '''The words the rule ``rule`` (:data:`NIGHTLY`, :data:`SIDES`,
    :data:`TRIAGE`) says, from worst.'''
    return tuple(v.word for v in FIGURE_VERDICTS if rule in v.rules)


def states():
    '''``{state: (its verdict on the night it began, while it holds)}``.'''
    out = {}
    for state in ('down', 'up', 'moved'):
        new = [v.word for v in FIGURE_VERDICTS if v.state == state and v.new]
        held = [v.word for v in FIGURE_VERDICTS
                if v.state == state and not v.new]
        out[state] = (new[0], held[0])
    return out


#: Verdicts of a change that holds (it began on a night): those with a
#: state, and ``acknowledged``
CHANGES = tuple(v.word for v in FIGURE_VERDICTS
                if v.state or v.word == ACKNOWLEDGED)

#: Verdicts an acknowledgement turns into ``acknowledged``
ACKNOWLEDGEABLE = tuple(v.word for v in FIGURE_VERDICTS if v.acknowledgeable)

#: The verdicts that fail the night
FAILING = tuple(v.word for v in FIGURE_VERDICTS if v.exit)

#: What a verdict's reasons may be (:class:`microbench.verdicts.verdict.
#: Verdict`), in the order a verdict gains them -> what each says
REASONS = {
    'statistics': 'the rule\'s test of the figure\'s history or sides',
    'acknowledgement': 'an acknowledgement in force, or the level it '
                       'accepted',
    'event': 'the event the figure joins (found on an earlier night)',
    'downstream': 'downstream of a component limit\'s change',
    'confirmation': 'what the confirmation rerun found',
    'behaviour': 'a counted figure whose count changed',
}

#: A counted figure's verdict (:mod:`.behaviour`), from worst -> (meaning,
#: the figure verdict whose colour it shows); never in the exit code
BEHAVIOUR = {
    'behaviour change': ('a counted figure (the disk\'s bytes or requests '
                         'per byte a sample moved) moved tonight beyond '
                         'the range of its nights before', CHANGED),
    'same behaviour': ('a counted figure within the range of its nights '
                       'before', UNCHANGED),
    'inconclusive': ('too few nights before to judge a counted figure',
                     INCONCLUSIVE),
}

#: Its words, from worst
BEHAVIOUR_WORDS = tuple(BEHAVIOUR)

#: A row's CSS class in the report: ``fail`` (a failed check) besides
#: the verdicts
FAIL_COLOUR = '#f4b3b3'

#: What each kind of acknowledgement does
ACK_KINDS = {
    'expected': 'accept the new level from that night',
    'noise': 'a false alarm: that night leaves the figure\'s history',
    'known': 'a real problem tracked elsewhere: acknowledged while it '
             'holds',
}

#: An event's cause, read from the records of the nights around it ->
#: how it is said
RECORDED_CAUSES = {
    'software': 'the suite or software changed',
    'machine': 'the machine changed',
    'software and machine': 'the suite or software and the machine '
                            'changed',
    'nothing recorded': 'nothing recorded changed',
}

#: What an experiment (an A/B, a diagnosis) says when it cannot tell: the
#: same word as a figure's ``inconclusive``
UNDECIDED = INCONCLUSIVE

#: An event's cause found by experiment (``microbench diagnose``): the
#: night-before stack and tonight's, interleaved
EXPERIMENT_CAUSES = {
    'software (by experiment)': 'only tonight\'s stack is slow: the '
                                'software',
    'machine (by experiment)': 'both stacks are slow: the machine, or '
                               'what both stacks share',
    'not reproduced': 'neither stack is slow now',
    'inconclusive': 'the A/B could not tell',
}

#: The cause found when neither stack is slow now
NOT_REPRODUCED = 'not reproduced'

#: An A/B's verdict of a figure, B against A, from worst, with the
#: figure verdict whose colour it shows; ``continue`` is never final
AB_VERDICTS = {
    'B slower': ('B is slower than A beyond the rule\'s interval',
                 REGRESSION),
    'B higher': ('a figure with no better side is higher on B', CHANGED),
    'B lower': ('a figure with no better side is lower on B', CHANGED),
    'inconclusive': ('undecided at the cap', INCONCLUSIVE),
    'continue': ('undecided: more rounds (never a final verdict)',
                 INCONCLUSIVE),
    'B faster': ('B is faster than A beyond the rule\'s interval',
                 IMPROVEMENT),
    'same': ('the interval lies within the band of no change', UNCHANGED),
}

#: A bisection's result -> (meaning, the figure verdict whose colour it
#: shows)
BISECT_RESULTS = {
    'named': ('the package(s) whose change reproduces the drop',
              REGRESSION),
    'not decided': ('no step reproduced it, or a step could not be '
                    'built', INCONCLUSIVE),
}

#: A user's status on the weather page, from the one a user must see
#: first -> (meaning, the state of the verdicts it shows, its tile's
#: edge colour, its badge's colour)
STATUSES = {
    'degraded': ('slower since a night', 'down', '#c62828', '#fbd5d5'),
    'changed': ('moved (a figure with no better side)', 'moved', '#f9a825',
                '#fbeab5'),
    'unknown': ('too little history, or not measured', None, '#f9a825',
                '#fbeab5'),
    'improved': ('faster since a night', 'up', '#2e7d32', '#d5f0d5'),
    'normal': ('at its level (an unconfirmed change, a night acknowledged '
               'as noise)', None, '#90a4ae', '#e3e9ec'),
}


def status_of():
    '''``{figure verdict: weather status}`` (``unconfirmed`` and
    ``acknowledged`` are read from the verdict they stand for).'''
    by_state = {state: name for name, (_, state, *_) in STATUSES.items()
                if state}
    out = {UNCHANGED: 'normal', INCONCLUSIVE: 'unknown'}
    out.update({v.word: by_state[v.state] for v in FIGURE_VERDICTS
                if v.state})
    return out


#: A state -> the sign of ``microbench_verdict`` in the export
_SIGNS = {'down': -1.0, 'up': 1.0}


def directions():
    '''``{figure verdict: the value of the export's microbench_verdict}``:
    -1 worse, +1 better, 0 at its level (an unconfirmed change is at its
    level); any other (moved, inconclusive) is NaN; an acknowledged one
    is that of the verdict it acknowledges.'''
    out = {UNCHANGED: 0.0, UNCONFIRMED: 0.0}
    out.update({v.word: _SIGNS[v.state] for v in FIGURE_VERDICTS
                if v.state in _SIGNS})
    return out


def css():
    '''The report's CSS rules of the verdict classes.'''
    groups = {}
    for word in FIGURE_VERDICTS:
        if word.colour:
            groups.setdefault(word.colour, []).append(f'.{word.word}')
    groups.setdefault(FAIL_COLOUR, []).append('.fail')
    return ''.join(f'{",".join(names)}{{background:{colour}}}'
                   for colour, names in groups.items())


def status_css():
    '''The weather page's CSS rules of the statuses (a tile's edge, a
    badge).'''
    edges = ''.join(f'li.{name}{{border-left-color:{edge}}}'
                    for name, (_, _, edge, _) in STATUSES.items())
    badges = ''.join(f'.badge.{name}{{background:{badge}}}'
                     for name, (_, _, _, badge) in STATUSES.items())
    return edges + badges


def css_class(word):
    '''The report's CSS class of a figure verdict, an A/B verdict or a
    bisection's result (empty: no colour).'''
    word = {**{w: f for w, (_, f) in BEHAVIOUR.items()},
            **{w: f for w, (_, f) in AB_VERDICTS.items()},
            **{w: f for w, (_, f) in BISECT_RESULTS.items()}}.get(word, word)
    return word if word in _BY_WORD and _BY_WORD[word].colour else ''
