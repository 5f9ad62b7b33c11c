'''The JSON of ``microbench bisect``: the one module that writes a
bisection and reads it back (as :mod:`.ab_json` does for an A/B).

Whoever reads a bisection (the report's section, the post-upgrade page)
reads it with :func:`read`, which validates it whole and says in one line
naming the file and the member what is wrong, never a traceback.  The
document (``VERSION`` 1)::

    format: "microbench bisect"     version: 1
    date: when it ran (or null); minutes: its wall time
    mode: "quick" or "full"; system, partition: where its A/Bs ran
    locks: {"A": lock, "B": lock}; a lock: path (as given), sha256, env
        (the installed environment the A/Bs ran, or null), spack (the
        Spack that wrote it)
    checks[], options[]: what each A/B ran; roots[]: what each step
        installs (the packages of the tools the checks run)
    coupling: {rule: "recipes" or "edges", couples: [[p, q], ...]}
    units[]: the changes of their own: name, kinds[]
        (microbench.cause.locks.KINDS), a[], b[] (the versions in each
        lock), root (true or false), brings[] (packages that come with
        it), rebuilds[] (packages rebuilt because of it)
    groups[]: the units that move together, [[name, ...], ...]; k: how
        many; budget: ceil(log2 k) + 1, the A/B steps one cause needs
    full: {source: "run" or "given", path, id (or null), pairs_run,
        minutes}: the A/B of A against B
    moved[]: the figures that moved in it: check, variant, figure, unit,
        direction, verdict (microbench.cause.bisection.MOVES), ratio,
        low, high
    steps[]: step (1, 2, ...), moves[] (indices of groups), status
        (microbench.cause.bisection.STATUSES), said (one line), env,
        lock_hash, ab (the step's A/B JSON), ab_id (each or null),
        pairs_run, minutes, figures[] (one per moved figure: its key's
        members, outcome (microbench.cause.bisection.OUTCOMES), why,
        ratio, low, high, level, pairs)
    ab_steps: the A/Bs run (the full one where run here, and each
        measured step)
    results[]: one per moved figure, in the order of moved: result
        (microbench.cause.bisection.RESULTS), group (the index named, or
        null), evidence (microbench.cause.bisection.EVIDENCE: how it was
        named, "none" where not), packages[] ({name, a, b}: the group's
        versions), candidates[] (indices of the groups left), steps[] (the
        steps that decided it), why
    exit_code: 0 where every moved figure is named, else 1

Numbers that are not numbers are null; a file holding NaN, an infinity or
a number beyond a float's range is not the writer's and fails, naming the
member.  Members the format does not name are kept and not checked.
'''

import re

from microbench.cause import ab_json, bisection, docformat, locks
from microbench.cause.docformat import (count as _count, fail as _fail,
                                        members as _members, one_of as _one_of,
                                        shown as _shown, texts as _texts)

FORMAT = 'microbench bisect'
VERSION = 1

#: Where the A/B of A against B came from
SOURCES = ('run', 'given')

#: How the units that move together were found
COUPLINGS = ('recipes', 'edges')

TOP = {'format': 'str', 'version': 'int', 'date': 'str?', 'minutes': 'num',
       'mode': 'str', 'system': 'str', 'partition': 'str', 'locks': 'dict',
       'checks': 'list', 'options': 'list', 'roots': 'list',
       'coupling': 'dict', 'units': 'list', 'groups': 'list', 'k': 'int',
       'budget': 'int', 'full': 'dict', 'moved': 'list', 'steps': 'list',
       'ab_steps': 'int', 'results': 'list', 'exit_code': 'int'}

LOCK = {'path': 'str', 'sha256': 'str', 'env': 'str?', 'spack': 'str'}

COUPLING = {'rule': 'str', 'couples': 'list'}

UNIT = {'name': 'str', 'kinds': 'list', 'a': 'list', 'b': 'list',
        'root': 'bool', 'brings': 'list', 'rebuilds': 'list'}

FULL = {'source': 'str', 'path': 'str', 'id': 'str?', 'pairs_run': 'int',
        'minutes': 'num'}

KEY = ab_json.KEY

MOVED = {**{name: 'str' for name in KEY}, 'verdict': 'str', 'ratio': 'num',
         'low': 'num', 'high': 'num'}

STEP = {'step': 'int', 'moves': 'list', 'status': 'str', 'said': 'str',
        'env': 'str?', 'lock_hash': 'str?', 'ab': 'str?', 'ab_id': 'str?',
        'pairs_run': 'int', 'minutes': 'num', 'figures': 'list'}

STEP_FIGURE = {**{name: 'str' for name in KEY}, 'outcome': 'str',
               'why': 'str', 'ratio': 'num', 'low': 'num', 'high': 'num',
               'level': 'num', 'pairs': 'int'}

RESULT = {'result': 'str', 'group': 'int?', 'evidence': 'str',
          'packages': 'list',
          'candidates': 'list', 'steps': 'list', 'why': 'str'}

PACKAGE = {'name': 'str', 'a': 'str', 'b': 'str'}

_SHA256 = re.compile(r'[0-9a-f]{64}')


FormatError = docformat.FormatError


def dumps(doc):
    '''The text of a bisection document.'''
    return ab_json.dumps(doc)


def write(path, doc):
    '''Write ``doc`` to ``path`` whole (a reader never sees half).'''
    validate(doc, '<new bisection document>')
    ab_json.write(path, doc)


def _indices(items, top, path, member, what):
    '''Each of ``items`` an integer from 0 (or 1) below ``top``.'''
    for index, item in enumerate(items):
        low = 1 if what == 'step' else 0
        if isinstance(item, bool) or not isinstance(item, int) or \
                not low <= item < top:
            _fail(path, f'{member}[{index}]', item,
                  f'not a {what} ({low} to {top - 1})')


def _positive(value, path, member):
    if value is not None and not value > 0:
        _fail(path, member, value, 'not a positive number')


def _head(doc, path):
    _members(doc, TOP, path, '')
    _one_of(doc['mode'], ab_json.MODES, path, 'mode')
    for name in ('checks', 'options', 'roots'):
        _texts(doc[name], path, name)
    for name in ('k', 'budget', 'ab_steps'):
        _count(doc[name], path, name)
    if doc['minutes'] is None or doc['minutes'] < 0:
        _fail(path, 'minutes', doc['minutes'], 'not a duration')
    for side in ('A', 'B'):
        if side not in doc['locks']:
            raise FormatError(f'{path}: locks has no lock {side!r}')
        lock = doc['locks'][side]
        _members(lock, LOCK, path, f'locks.{side}')
        if not _SHA256.fullmatch(lock['sha256']):
            _fail(path, f'locks.{side}.sha256', lock['sha256'],
                  'not a sha256')
    _members(doc['coupling'], COUPLING, path, 'coupling')
    _one_of(doc['coupling']['rule'], COUPLINGS, path, 'coupling.rule')
    for index, pair in enumerate(doc['coupling']['couples']):
        if not (isinstance(pair, list) and len(pair) == 2 and all(
                isinstance(name, str) for name in pair)):
            _fail(path, f'coupling.couples[{index}]', pair,
                  'not a pair of names')


def _units(doc, path):
    names = []
    for index, unit in enumerate(doc['units']):
        member = f'units[{index}]'
        _members(unit, UNIT, path, member)
        for name in ('a', 'b', 'brings', 'rebuilds'):
            _texts(unit[name], path, f'{member}.{name}')
        for number, kind in enumerate(unit['kinds']):
            _one_of(kind, locks.KINDS, path, f'{member}.kinds[{number}]')
        names.append(unit['name'])
    grouped = []
    for index, group in enumerate(doc['groups']):
        if not isinstance(group, list) or not group:
            _fail(path, f'groups[{index}]', group, 'not a list of names')
        _texts(group, path, f'groups[{index}]')
        grouped += group
    if sorted(grouped) != sorted(names) or len(set(names)) != len(names):
        raise FormatError(f'{path}: groups hold '
                          f'{_shown(sorted(grouped), 120)}, not each of the '
                          f'units once ({_shown(sorted(names), 120)})')
    if doc['k'] != len(doc['groups']):
        _fail(path, 'k', doc['k'], f'not the {len(doc["groups"])} groups')
    if doc['k'] and doc['budget'] != bisection.budget(doc['k']):
        _fail(path, 'budget', doc['budget'],
              f'not ceil(log2 {doc["k"]}) + 1')


def _figure_key(row, path, member):
    _one_of(row['direction'], ('higher-is-better', 'lower-is-better',
                               'none'), path, f'{member}.direction')


def _moved(doc, path):
    _members(doc['full'], FULL, path, 'full')
    _one_of(doc['full']['source'], SOURCES, path, 'full.source')
    _count(doc['full']['pairs_run'], path, 'full.pairs_run')
    for index, row in enumerate(doc['moved']):
        member = f'moved[{index}]'
        _members(row, MOVED, path, member)
        _figure_key(row, path, member)
        _one_of(row['verdict'], bisection.MOVES, path, f'{member}.verdict')
        for name in ('ratio', 'low', 'high'):
            _positive(row[name], path, f'{member}.{name}')
        if row['ratio'] is None:
            _fail(path, f'{member}.ratio', None, 'not a number')


def _steps(doc, path):
    measured = 0
    for index, step in enumerate(doc['steps']):
        member = f'steps[{index}]'
        _members(step, STEP, path, member)
        if step['step'] != index + 1:
            _fail(path, f'{member}.step', step['step'],
                  f'not {index + 1}')
        _one_of(step['status'], bisection.STATUSES, path,
                f'{member}.status')
        measured += step['status'] == bisection.MEASURED
        _indices(step['moves'], doc['k'], path, f'{member}.moves', 'group')
        if not step['moves'] or len(set(step['moves'])) != len(
                step['moves']) or len(step['moves']) >= doc['k']:
            _fail(path, f'{member}.moves', step['moves'],
                  'not a proper subset of the groups')
        _count(step['pairs_run'], path, f'{member}.pairs_run')
        if len(step['figures']) > len(doc['moved']):
            raise FormatError(f'{path}: {member}.figures holds more figures '
                              f'than moved')
        for number, row in enumerate(step['figures']):
            here = f'{member}.figures[{number}]'
            _members(row, STEP_FIGURE, path, here)
            _figure_key(row, path, here)
            _one_of(row['outcome'], bisection.OUTCOMES, path,
                    f'{here}.outcome')
            _count(row['pairs'], path, f'{here}.pairs')
            for name in ('ratio', 'low', 'high', 'level'):
                _positive(row[name], path, f'{here}.{name}')
    wanted = measured + (doc['full']['source'] == 'run')
    if doc['ab_steps'] != wanted:
        _fail(path, 'ab_steps', doc['ab_steps'],
              f'not the {wanted} A/Bs its full A/B and steps ran')


def _results(doc, path):
    if len(doc['results']) != len(doc['moved']):
        raise FormatError(f'{path}: {len(doc["results"])} results for '
                          f'{len(doc["moved"])} moved figures')
    named = True
    for index, row in enumerate(doc['results']):
        member = f'results[{index}]'
        _members(row, RESULT, path, member)
        _one_of(row['result'], bisection.RESULTS, path, f'{member}.result')
        _one_of(row['evidence'], bisection.EVIDENCE, path,
                f'{member}.evidence')
        if (row['evidence'] == bisection.NO_EVIDENCE) != (
                row['result'] != bisection.NAMED):
            _fail(path, f'{member}.evidence', row['evidence'],
                  f'not the evidence of a figure {row["result"]}')
        _indices(row['candidates'], doc['k'], path,
                 f'{member}.candidates', 'group')
        _indices(row['steps'], len(doc['steps']) + 1, path,
                 f'{member}.steps', 'step')
        for number, package in enumerate(row['packages']):
            _members(package, PACKAGE, path, f'{member}.packages[{number}]')
        if row['result'] == bisection.NAMED:
            if row['group'] is None or row['candidates'] != [row['group']]:
                _fail(path, f'{member}.group', row['group'],
                      'not the one candidate of a named figure')
        else:
            named = False
        if row['group'] is not None:
            _indices([row['group']], doc['k'], path, f'{member}.group',
                     'group')
    _one_of(doc['exit_code'], (0, 1), path, 'exit_code')
    if doc['exit_code'] != int(not named):
        _fail(path, 'exit_code', doc['exit_code'],
              'not 0 where every moved figure is named, else 1')


def validate(doc, path):
    '''Raise :class:`FormatError` (one line, naming ``path`` and the
    member) unless ``doc`` is a bisection document of this version.'''
    docformat.head(doc, path, FORMAT, VERSION)
    _head(doc, path)
    _units(doc, path)
    _moved(doc, path)
    _steps(doc, path)
    _results(doc, path)


def read(path):
    '''The bisection document at ``path``, validated (a dict).

    :raises FormatError: it is not one of this version (one line).
    :raises OSError: it cannot be read.'''
    doc = docformat.load(path, FORMAT)
    validate(doc, path)
    return doc
