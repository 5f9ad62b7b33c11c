'''The JSON of ``microbench ab``: the one module that writes an A/B result
and reads it back (as :mod:`microbench.verdicts.compare_json` does for
compare).

Whoever reads an A/B (the diagnosis, the report, the bisection's steps)
reads it with :func:`read`, which validates it whole and says in one line
naming the file and the member what is wrong (another version, a member
missing or of the wrong type, a word outside its vocabulary), never a
traceback.  The document (``VERSION`` 1)::

    format: "microbench ab"     version: 1
    mode: "quick" or "full"     system, partition: where it ran
    date: when it ran (or null)
    stacks: {"A": stack, "B": stack}; a stack: name, lock_hash (the
        Spack lock's hash, or null), prefix (the view or tool prefix, or
        null), tools ({tool: version}), session (the results storage
        session of its records, or null)
    checks[]: the checks by name; options[]: the -S options of the night
    order: "ABAB" or "ABBA"; nodes[], jobs[]: where and in which jobs
        (job ids) the rounds ran
    rule: the sequential rule (microbench.cause.sequential.Rule: alpha,
        threshold, min_pairs, cap, last_share, max_reach, interval,
        family)
    pairs_run, rounds_run: the rounds actually run
    exit_code: 1 where a figure is B slower, else 0
    counts: {verdict: figures}
    figures[]: one per figure, worst first: check, variant, figure, unit,
        direction (higher-is-better, lower-is-better, none), verdict
        (microbench.cause.sequential.VERDICTS), label (as people read it:
        "same (within ±12 %)"), why, ratio (B/A), low, high (its
        interval), reach, level (the interval's two-sided level), pairs,
        lost, look (the pairs run when it was decided), median_a,
        median_b, rounds[] ({round, side, samples[]}: every round run, in
        time order)

Numbers that are not numbers are written as null: a file holding ``NaN``,
``Infinity``, ``-Infinity`` or a number beyond a float's range (``1e400``)
is not the writer's and fails validation, naming the member.  Members the
format does not name are kept and not checked (a later version may add
some).
'''

import json
import os

from microbench.cause import docformat, pairs, sequential
from microbench.cause.docformat import (count as _count, fail as _fail,
                                        members as _members, one_of as _one_of,
                                        shown as _shown, texts as _texts)
from microbench.verdicts import compare_json

FORMAT = 'microbench ab'
VERSION = 1

MODES = ('quick', 'full')

#: The members of each part, and what each may be: ``str``, ``num`` (a
#: number or null), ``int``, ``list``, ``dict``, ``?`` where null may be
STACK = {'name': 'str', 'lock_hash': 'str?', 'prefix': 'str?',
         'tools': 'dict', 'session': 'str?'}

RULE = {'alpha': 'num', 'threshold': 'num', 'min_pairs': 'int',
        'cap': 'int', 'last_share': 'num', 'max_reach': 'num',
        'interval': 'str',
        'family': 'str'}

ROUND = {'round': 'int', 'side': 'str', 'samples': 'list'}

FIGURE = {'check': 'str', 'variant': 'str', 'figure': 'str', 'unit': 'str',
          'direction': 'str', 'verdict': 'str', 'label': 'str', 'why': 'str',
          'ratio': 'num', 'low': 'num', 'high': 'num', 'reach': 'num',
          'level': 'num', 'pairs': 'int', 'lost': 'int', 'look': 'int',
          'median_a': 'num', 'median_b': 'num', 'rounds': 'list'}

TOP = {'format': 'str', 'version': 'int', 'mode': 'str', 'system': 'str',
       'partition': 'str', 'date': 'str?', 'stacks': 'dict',
       'checks': 'list', 'options': 'list', 'order': 'str', 'nodes': 'list',
       'jobs': 'list', 'rule': 'dict', 'pairs_run': 'int',
       'rounds_run': 'int', 'exit_code': 'int', 'counts': 'dict',
       'figures': 'list'}

#: The key of a figure, and the members that name it in a message
KEY = ('check', 'variant', 'figure', 'unit', 'direction')


FormatError = docformat.FormatError


def _figure(key, judgement, rounds):
    return {**dict(zip(KEY, key)), **judgement.as_dict(),
            'rounds': [{'round': index, 'side': side,
                        'samples': list(samples)}
                       for index, side, samples in rounds]}


def document(experiment, series, mode, system, partition, stacks, checks,
             options, order, nodes, jobs, date=None):
    '''The A/B document (a dict) of ``experiment`` (a judged
    :class:`.sequential.Experiment`) and the rounds it judged, validated.

    :arg series: ``{figure key: rounds}`` as the experiment was given.
    :arg stacks: ``{'A': stack, 'B': stack}``, each with :data:`STACK`'s
        members.
    '''
    rank = {verdict: place for place, verdict in
            enumerate(sequential.VERDICTS)}
    keys = sorted(experiment.judgements, key=lambda key: (
        rank[experiment.judgements[key].verdict], tuple(map(str, key))))
    rows = [_figure(key, experiment.judgements[key], series[key])
            for key in keys]
    counts = {}
    for row in rows:
        counts[row['verdict']] = counts.get(row['verdict'], 0) + 1
    rounds = max((len(series[key]) for key in keys), default=0)
    out = compare_json.plain({
        'format': FORMAT, 'version': VERSION, 'mode': mode,
        'system': system, 'partition': partition, 'date': date,
        'stacks': {side: {name: stacks[side].get(
            name, {} if name == 'tools' else None) for name in STACK}
            for side in pairs.SIDES},
        'checks': list(checks), 'options': list(options), 'order': order,
        'nodes': list(nodes), 'jobs': list(jobs),
        'rule': experiment.rule.describe(),
        'pairs_run': experiment.pairs_run, 'rounds_run': rounds,
        'exit_code': int('B slower' in counts),
        'counts': {verdict: counts[verdict] for verdict in
                   sequential.VERDICTS if verdict in counts},
        'figures': rows})
    validate(out, '<new A/B document>')
    return out


def dumps(doc):
    '''The text of an A/B document.'''
    return json.dumps(doc, indent=1, allow_nan=False,
                      ensure_ascii=False) + '\n'


def write(path, doc):
    '''Write ``doc`` to ``path`` whole: to a file beside it, then renamed
    over it (a reader never sees half of one).'''
    text = dumps(doc)
    tmp = f'{path}.tmp{os.getpid()}'
    try:
        with open(tmp, 'w', encoding='utf-8') as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _top(doc, path):
    _members(doc, TOP, path, '')
    _one_of(doc['mode'], MODES, path, 'mode')
    _one_of(doc['order'], pairs.ORDERS, path, 'order')
    for name in ('checks', 'options', 'nodes', 'jobs'):
        _texts(doc[name], path, name)
    for name in ('pairs_run', 'rounds_run'):
        _count(doc[name], path, name)
    _one_of(doc['exit_code'], (0, 1), path, 'exit_code')
    for side in pairs.SIDES:
        if side not in doc['stacks']:
            raise FormatError(f'{path}: stacks has no stack {side!r}')
        stack = doc['stacks'][side]
        _members(stack, STACK, path, f'stacks.{side}')
        for tool, version in stack['tools'].items():
            if not isinstance(version, str):
                _fail(path, f'stacks.{side}.tools.{_shown(tool, 40)}',
                      version, 'not a text')
    _members(doc['rule'], RULE, path, 'rule')
    numbers = {name: doc['rule'][name] for name in RULE
               if name not in ('interval', 'family')}
    try:
        sequential.Rule(**numbers)
    except ValueError as err:
        raise FormatError(f'{path}: rule: {str(err)[:200]}') from None
    for verdict, count in doc['counts'].items():
        _one_of(verdict, sequential.VERDICTS, path, 'a key of counts')
        _count(count, path, f'counts.{verdict}')


def _figure_checked(row, path, member, cap):
    _members(row, FIGURE, path, member)
    _one_of(row['direction'], tuple(sequential.DIRECTIONS), path,
            f'{member}.direction')
    _one_of(row['verdict'], sequential.VERDICTS, path, f'{member}.verdict')
    for name in ('pairs', 'lost', 'look'):
        _count(row[name], path, f'{member}.{name}')
    if len(row['rounds']) > 2 * cap + 1:
        raise FormatError(f'{path}: {member}.rounds holds '
                          f'{len(row["rounds"])} rounds, more than the cap '
                          f'of {cap} pairs runs')
    for index, found in enumerate(row['rounds']):
        here = f'{member}.rounds[{index}]'
        _members(found, ROUND, path, here)
        _one_of(found['side'], pairs.SIDES, path, f'{here}.side')
        for number, sample in enumerate(found['samples']):
            if not compare_json.kind_ok(sample, 'num'):
                _fail(path, f'{here}.samples[{number}]', sample,
                      'not a number or null')


def validate(doc, path):
    '''Raise :class:`FormatError` (one line, naming ``path`` and the
    member) unless ``doc`` is an A/B document of this version.'''
    docformat.head(doc, path, FORMAT, VERSION)
    _top(doc, path)
    for index, row in enumerate(doc['figures']):
        _figure_checked(row, path, f'figures[{index}]', doc['rule']['cap'])


class Result:
    '''An A/B document read back: its members as attributes (``stacks``,
    ``figures``, ``counts``, ``pairs_run``, ...), and ``path``.'''

    def __init__(self, doc, path):
        self.doc, self.path = doc, path
        for name in TOP:
            setattr(self, name, doc[name])

    def by_key(self):
        '''``{figure key (check, variant, figure, unit, direction): its
        figure}``.'''
        return {tuple(row[k] for k in KEY): row for row in self.figures}


def read(path):
    '''The A/B document at ``path``, validated.

    :raises FormatError: it is not one of this version (one line).
    :raises OSError: it cannot be read.
    '''
    doc = docformat.load(path, FORMAT)
    validate(doc, path)
    return Result(doc, path)
