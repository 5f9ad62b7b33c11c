'''The JSON of ``microbench compare --json``: the one module that writes it
and reads it back.

The report, the weather page, the export and the confirmation rerun read
a night's verdicts from this file; each reads it with :func:`read`, which
validates it whole and says in one line what is wrong (an older or newer
version, a member missing or of the wrong type), never a traceback.  The
document (``VERSION`` 7; version 6 had no ``nodes`` member, and is read
as if it were empty; version 5 had no ``behaviour`` member, and is
read as if it were empty; version 4 had no ``reasons`` member of a
figure, and is read as if its ``why`` were its one reason; version 3 had
no ``diagnosis`` member of an event, version 2 no ``cold_start`` member of
a figure, version 1 no ``format`` member)::

    format: "microbench compare"     version: 7
    kind: "nightly" (compare --last) or "pre-post" (compare BEFORE AFTER)
    session: the session judged: tonight's nightly run; the latest of the
        after side
    sessions: every session of that night (the nightly run and its
        confirmation rerun), or of the after side
    before, after: the two sides in words
    test: how it was judged (the test, its budget or level)
    exit_code, counts ({verdict: figures})
    figures[]: one per figure: system, partition, environ, check, variant,
        figure, unit, verdict (:data:`VERDICTS`), label (the verdict as
        people read it: ``regression (confirmed)``, ``acknowledged (noise:
        ...)``), why (its reasons as one line), reasons[] ({kind, text},
        the latest first; kinds: :data:`vocabulary.REASONS`),
        median_before, median_after, ratio, p, since_session,
        since_date, change_points[], ack (the acknowledgement in force, or
        null), verdict_unacknowledged, event (its fingerprint, or null),
        role (root, downstream, member, or null), downstream_of ({limit,
        change_pct} or null), confirmation (or null), the figure's
        limit (limit_name, limit_value, share_of_limit), and cold_start:
        ``round 1 x2.4 slower`` where the latest run's round 1 lay outside
        its other rounds, else '' (microbench/suite/coldstart.py)
    events[]: what began on one night in one partition (:mod:`.events`);
        each with its ``diagnosis``, the cause found by experiment
        (``microbench diagnose``: :data:`DIAGNOSIS`), or null
    change_points[]: every figure's change points, flat
    differences: {field: {before, after}} of what ran
    behaviour[]: the counted figures' verdicts (:mod:`.behaviour`: its
        ``ROW``; empty but for ``compare --last``)
    nodes[]: the newest vetting night of each partition judged
        (``microbench vet``, :mod:`microbench.nodes.vetting`): partition,
        tag, date (its first session's start), asked[] (its nodes),
        slow[], failed ({node: why}), nodes[] (node, state, persistence,
        drain: the suggested command, never run, or null, lines[]: the
        node's figures as people read them, figures[]: {figure, state,
        ratio to the peers' median});
        empty but for ``compare --last``
    acks: {files, in_force, warnings}
    confirmation: {night, by, checks, samples, settings_changed (the
        machine settings that differ between the run and its rerun)} or
        null

Numbers that are not numbers (NaN) are written as null: the file is JSON
any tool reads.  So a file holding ``NaN``, ``Infinity``, ``-Infinity`` or
a number beyond a float's range (``1e400``) is not the writer's: it fails
validation, naming the member.
'''

import json
import os

from microbench.cause import classify
from microbench.nodes import outliers
from microbench.verdicts import vocabulary
from microbench.verdicts.jsontext import NotWritten, load, not_written, \
    plain
from microbench.verdicts.jsontext import shown as _shown
from microbench.verdicts.verdict import Verdict

#: Read here by the other formats (ab_json, diagnosis_json, docformat)
__all__ = ['NotWritten', 'load', 'not_written', 'plain']

FORMAT = 'microbench compare'
VERSION = 7

#: The older versions read (a figure's ``reasons`` made from its ``why``)
READ_TOO = (4, 5, 6)

KINDS = ('nightly', 'pre-post')

#: Every verdict a figure may have, from worst: the nightly verdicts
#: (:mod:`.nightly`) and those of two sides (:mod:`.rule`)
VERDICTS = vocabulary.VERDICT_WORDS

#: Roles of a figure in its event
ROLES = ('root', 'downstream', 'member')

#: The members every figure has, and what each may be: ``str``, ``num``
#: (a number or null), ``list``, ``dict?`` (an object or null), ``str?``
FIGURE = {'system': 'str', 'partition': 'str', 'environ': 'str',
          'check': 'str', 'variant': 'str', 'figure': 'str', 'unit': 'str',
          'verdict': 'str', 'label': 'str', 'why': 'str',
          'median_before': 'num', 'median_after': 'num', 'ratio': 'num',
          'p': 'num', 'since_session': 'str?', 'since_date': 'str?',
          'change_points': 'list', 'ack': 'dict?',
          'verdict_unacknowledged': 'str', 'event': 'str?', 'role': 'str?',
          'downstream_of': 'dict?', 'confirmation': 'dict?',
          'cold_start': 'str', 'reasons': 'list'}

#: A reason of a figure's verdict (:class:`.verdict.Verdict`)
REASON = {'kind': 'str', 'text': 'str'}

POINT = {'session': 'str', 'date': 'str?', 'mean_before': 'num',
         'mean_after': 'num', 'change_pct': 'num', 'p': 'num',
         'differences': 'dict?'}

EVENT = {'fingerprint': 'str', 'system': 'str', 'partition': 'str',
         'night': 'str', 'date': 'str?', 'verdict': 'str', 'new': 'bool',
         'cause': 'str', 'differences': 'dict?', 'root': 'list',
         'members': 'list', 'diagnosis': 'dict?'}

#: An event's diagnosis (:meth:`microbench.cause.diagnosis_json.Diagnosis.
#: summary`): its cause (:data:`microbench.cause.classify.CAUSES`) and
#: label, why, when, the diagnosis file, whether the A/B was an A/A, the
#: two stacks' names and every member's A/B figure
DIAGNOSIS = {'cause': 'str', 'label': 'str', 'why': 'str', 'date': 'str?',
             'path': 'str', 'aa': 'bool', 'stacks': 'dict',
             'figures': 'list'}

DIAGNOSED_FIGURE = {'check': 'str', 'variant': 'str', 'figure': 'str',
                    'verdict': 'str', 'label': 'str', 'ratio': 'num',
                    'low': 'num', 'high': 'num', 'cause': 'str'}

TOP = {'format': 'str', 'version': 'int', 'kind': 'str', 'session': 'str',
       'sessions': 'list', 'before': 'str', 'after': 'str', 'test': 'dict?',
       'exit_code': 'int', 'counts': 'dict?', 'figures': 'list',
       'events': 'list', 'change_points': 'list', 'differences': 'dict?',
       'acks': 'dict?', 'confirmation': 'dict?', 'behaviour': 'list',
       'nodes': 'list'}

#: A partition's vetting night (:func:`microbench.nodes.vetting.summary`)
NODES = {'partition': 'str', 'tag': 'str', 'date': 'str?', 'asked': 'list',
         'slow': 'list', 'failed': 'dict', 'nodes': 'list'}

#: A node of a vetting night
NODE = {'node': 'str', 'state': 'str', 'persistence': 'str',
        'drain': 'str?', 'lines': 'list', 'figures': 'list'}

#: A figure of a node of a vetting night
NODE_FIGURE = {'figure': 'str', 'state': 'str', 'ratio': 'num'}

#: A counted figure's verdict (:data:`microbench.verdicts.behaviour.ROW`,
#: spelt here: this module is the format's one reader)
BEHAVIOUR = {**{name: 'str' for name in ('system', 'partition', 'environ',
                                         'check', 'variant', 'figure')},
             'verdict': 'str', 'why': 'str', 'tonight': 'num',
             'samples': 'list', 'before_median': 'num', 'before_low': 'num',
             'before_high': 'num', 'nights': 'int'}

#: The key of a figure (:data:`microbench.verdicts.figures.KEY`)
KEY = ('system', 'partition', 'environ', 'check', 'variant', 'figure')


class FormatError(ValueError):
    '''Not the JSON of microbench compare of this version.'''



def document(kind, session, sessions, sides, test, exit_code, figures,
             events=(), differences=None, acks=None, confirmation=None,
             behaviour=(), nodes=()):
    '''The compare document (a dict), validated.

    :arg figures: one dict per figure (:data:`FIGURE`'s members and any
        others).
    :arg differences: ``{field: (before, after)}``.
    '''
    rows = [plain(Verdict(dict(row)).row) for row in figures]
    points = [{**{k: row[k] for k in KEY}, 'unit': row['unit'], **point}
              for row in rows for point in row.get('change_points') or ()]
    counts = {}
    for row in rows:
        counts[row['verdict']] = counts.get(row['verdict'], 0) + 1
    out = plain({
        'format': FORMAT, 'version': VERSION, 'kind': kind,
        'session': session, 'sessions': list(sessions),
        'before': sides[0], 'after': sides[1], 'test': test,
        'exit_code': int(exit_code),
        'counts': {v: counts[v] for v in VERDICTS if v in counts},
        'figures': rows, 'events': list(events), 'change_points': points,
        'differences': {name: {'before': lhs, 'after': rhs}
                        for name, (lhs, rhs) in (differences or {}).items()},
        'acks': acks, 'confirmation': confirmation,
        'behaviour': list(behaviour), 'nodes': list(nodes)})
    validate(out, '<new compare document>')
    return out


def dumps(doc):
    '''The text of a compare document.'''
    return json.dumps(doc, indent=1, allow_nan=False) + '\n'


def write(path, doc):
    '''Write ``doc`` to ``path`` (whole, then renamed).'''
    tmp = f'{path}.tmp{os.getpid()}'
    with open(tmp, 'w', encoding='utf-8') as out:
        out.write(dumps(doc))
    os.replace(tmp, path)


#: What each kind of member is, in words
WORDS = {'str': 'a text', 'num': 'a number or null', 'list': 'a list',
         'dict': 'an object', 'bool': 'true or false', 'int': 'an integer'}


def kind_ok(value, kind):
    '''Whether ``value`` is a member of ``kind`` (:data:`WORDS`; ``?``:
    or null).'''
    if kind.endswith('?') and value is None:
        return True
    kind = kind.rstrip('?')
    if kind == 'num':
        return value is None or (isinstance(value, (int, float))
                                 and not isinstance(value, bool))
    types = {'str': str, 'list': list, 'dict': dict, 'bool': bool,
             'int': int}
    return isinstance(value, types[kind]) and not (
        kind == 'int' and isinstance(value, bool))


def _members(item, spec, where):
    if not isinstance(item, dict):
        raise FormatError(f'{where}: not an object')
    for name, kind in spec.items():
        if name not in item:
            raise FormatError(f'{where}: no member {name!r}')
        if not kind_ok(item[name], kind):
            raise FormatError(f'{where}: {name} is {item[name]!r:.60}, not '
                              f'{WORDS[kind.rstrip("?")]}'
                              + (' or null' if kind.endswith('?') else ''))


def _one_of(value, allowed, said):
    '''Raise :class:`FormatError` (``said``, the value, what it may be)
    unless ``value`` is one of ``allowed``.'''
    if value not in allowed:
        raise FormatError(f'{said} \'{_shown(value)}\' is not one of '
                          f'{", ".join(allowed)}')


def _name(item):
    return ' '.join(_shown(item.get(k, '?'), 30) for k in KEY[1:])


def validate(doc, path):
    '''Raise :class:`FormatError` (one line, naming ``path``) unless
    ``doc`` is a compare document of this version.'''
    if not isinstance(doc, dict):
        raise FormatError(f'{path}: not the JSON of microbench compare (not '
                          f'an object)')
    found = not_written(doc)
    if found is not None:
        where, value = found
        raise FormatError(f'{path}: {where[:120]} is {value!r}: microbench '
                          f'compare writes null where there is no number, '
                          f'never NaN, an infinity or a number beyond a '
                          f'float\'s range')
    if doc.get('format') != FORMAT:
        if 'format' not in doc and isinstance(doc.get('figures'), list) \
                and 'before' in doc and 'after' in doc:
            raise FormatError(
                f'{path}: the JSON of an older microbench compare (version '
                f'1, no format member): make it again with microbench '
                f'compare --json (this microbench reads version {VERSION})')
        raise FormatError(f'{path}: not the JSON of microbench compare (no '
                          f'format: {FORMAT!r} member)')
    if doc.get('version') in READ_TOO and isinstance(doc.get('figures'),
                                                     list):
        _upgrade(doc)
    if doc.get('version') != VERSION:
        said = _shown(doc.get('version'))
        raise FormatError(f'{path}: the JSON of microbench compare version '
                          f'{said}; this microbench reads version {VERSION}: '
                          f'make it again with microbench compare --json')
    _members(doc, TOP, path)
    if doc['kind'] not in KINDS:
        raise FormatError(f'{path}: kind \'{_shown(doc["kind"])}\' is not '
                          f'one of {", ".join(KINDS)}')
    for index, row in enumerate(doc['figures']):
        where = f'{path}: figures[{index}]'
        _members(row, FIGURE, where)
        _one_of(row['verdict'], VERDICTS, f'{where} ({_name(row)}): verdict')
        if row['role'] is not None:
            _one_of(row['role'], ROLES, f'{where} ({_name(row)}): role')
        for number, point in enumerate(row['change_points']):
            _members(point, POINT, f'{where}.change_points[{number}]')
        for number, reason in enumerate(row['reasons']):
            _members(reason, REASON, f'{where}.reasons[{number}]')
            _one_of(reason['kind'], vocabulary.REASONS,
                    f'{where}.reasons[{number}]: kind')
    for index, row in enumerate(doc['behaviour']):
        _members(row, BEHAVIOUR, f'{path}: behaviour[{index}]')
        _one_of(row['verdict'], vocabulary.BEHAVIOUR,
                f'{path}: behaviour[{index}]: verdict')
    for index, night in enumerate(doc['nodes']):
        _members(night, NODES, f'{path}: nodes[{index}]')
        for number, node in enumerate(night['nodes']):
            where = f'{path}: nodes[{index}].nodes[{number}]'
            _members(node, NODE, where)
            _one_of(node['state'], tuple(outliers.NODE_STATES),
                    f'{where}: state')
            for place, row in enumerate(node['figures']):
                _members(row, NODE_FIGURE, f'{where}.figures[{place}]')
    for index, event in enumerate(doc['events']):
        _members(event, EVENT, f'{path}: events[{index}]')
        if event['diagnosis'] is not None:
            _diagnosis(event['diagnosis'],
                       f'{path}: events[{index}].diagnosis')
    for index, point in enumerate(doc['change_points']):
        _members(point, POINT, f'{path}: change_points[{index}]')


def _upgrade(doc):
    '''A document of a version of :data:`READ_TOO` as this version says
    it (in place): each figure's ``why`` its one reason.'''
    for row in doc['figures']:
        if isinstance(row, dict) and isinstance(row.get('why'), str):
            row.setdefault('reasons', [{'kind': 'statistics',
                                        'text': row['why']}])
    doc.setdefault('behaviour', [])
    doc.setdefault('nodes', [])
    doc['version'] = VERSION


def _diagnosis(found, where):
    _members(found, DIAGNOSIS, where)
    if found['cause'] not in classify.CAUSES:
        raise FormatError(f'{where}: cause \'{_shown(found["cause"])}\' is '
                          f'not one of {", ".join(classify.CAUSES)}')
    for number, row in enumerate(found['figures']):
        _members(row, DIAGNOSED_FIGURE, f'{where}.figures[{number}]')


class Verdicts:
    '''A compare document read back: its members as attributes
    (``session``, ``sessions``, ``kind``, ``figures``, ``events``,
    ``change_points``, ``exit_code``, ``acks``, ``confirmation``), and
    ``path``.'''

    def __init__(self, doc, path):
        self.doc, self.path = doc, path
        for name in TOP:
            setattr(self, name, doc[name])

    def judges(self, session):
        '''Whether these are the verdicts of the night of ``session`` (its
        first run or its confirmation).'''
        return session == self.session or session in self.sessions

    def by_key(self):
        '''``{figure key: its verdict}``.'''
        return {tuple(row[k] for k in KEY): row for row in self.figures}



def read(path):
    '''The compare document at ``path``, validated.

    :raises FormatError: it is not one of this version (one line).
    :raises OSError: it cannot be read.
    '''
    with open(path, encoding='utf-8') as fp:
        try:
            doc = load(fp)
        except (ValueError, RecursionError) as err:
            raise FormatError(f'{path}: not JSON ({str(err)[:200]})') \
                from None
    validate(doc, path)
    return Verdicts(doc, path)
