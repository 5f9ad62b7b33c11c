'''The JSON of ``microbench diagnose``: the one module that writes a
diagnosis, reads it back, and finds the diagnoses of a directory (as
:mod:`.ab_json` does for an A/B).

A diagnosis is kept as ``<directory>/<event fingerprint>.json`` (the
directory beside the results storage, ``diagnoses/``): one per event, the
latest experiment's.  Whoever reads one (compare, and through the compare
JSON the report, the weather page and the export) reads it with
:func:`read`, which validates it whole and says in one line naming the file
and the member what is wrong, never a traceback.  The document
(``VERSION`` 1)::

    format: "microbench diagnosis"     version: 1
    event: the event's fingerprint (ev-<12 hex>); system, partition;
        night: the session of its first night
    date: when it was diagnosed; minutes: the diagnosis's wall time
    verdicts: {path, session, kind}: the compare JSON it diagnosed
    cause: the event's cause (microbench.cause.classify.CAUSES); label:
        as people read it ("software (by experiment)", "not reproduced
        (by experiment)"); why: one line
    aa: true where both nights ran the same stack (the A/B is an A/A of
        it: the machine, or nothing, is what changed)
    stacks: {"A": stack, "B": stack}: A the night before's, B tonight's;
        a stack: name, text (what microbench ab was given), night (its
        night's session), env, lock_hash (or null), tools ({tool: {path,
        real, version}})
    checks[]: the checks the A/B ran; left_out[]: the event's checks it
        could not run, each with why
    ab: {id, path, mode, pairs_run, minutes, nodes[], jobs[]}: the A/B
    figures[]: one per member of the event: check, variant, figure, unit,
        direction, before, tonight (the levels of compare), verdict (the
        A/B's, microbench.cause.sequential.VERDICTS, or "not measured"),
        label, ratio (B/A), low, high, median_a, median_b, cause, why

Numbers that are not numbers are null; a file holding NaN or an infinity
is not the writer's.  Members the format does not name are kept and not
checked.
'''

import os
import re

from microbench.cause import classify, docformat, sequential
from microbench.cause.docformat import (fail as _fail, members as _members,
                                        one_of as _one_of, texts as _texts)
from microbench.verdicts import compare_json

FORMAT = 'microbench diagnosis'
VERSION = 1

#: What an A/B figure that the A/B did not measure says
NOT_MEASURED = 'not measured'

#: The verdicts of a diagnosed figure
VERDICTS = (*sequential.VERDICTS, NOT_MEASURED)

#: An event's fingerprint (microbench.verdicts.events.fingerprint)
FINGERPRINT = re.compile(r'ev-[0-9a-f]{12}')

#: The most diagnoses of a directory read (one per event)
MOST_FILES = 10000

#: The largest diagnosis read
LONGEST = 16 << 20

STACK = {'name': 'str', 'text': 'str', 'night': 'str', 'env': 'str?',
         'lock_hash': 'str?', 'tools': 'dict'}

AB = {'id': 'str?', 'path': 'str', 'mode': 'str', 'pairs_run': 'int',
      'minutes': 'num', 'nodes': 'list', 'jobs': 'list'}

FIGURE = {'check': 'str', 'variant': 'str', 'figure': 'str', 'unit': 'str',
          'direction': 'str', 'before': 'num', 'tonight': 'num',
          'verdict': 'str', 'label': 'str', 'ratio': 'num', 'low': 'num',
          'high': 'num', 'median_a': 'num', 'median_b': 'num',
          'cause': 'str', 'why': 'str'}

TOP = {'format': 'str', 'version': 'int', 'event': 'str', 'system': 'str',
       'partition': 'str', 'night': 'str', 'date': 'str', 'minutes': 'num',
       'verdicts': 'dict', 'cause': 'str', 'label': 'str', 'why': 'str',
       'aa': 'bool', 'stacks': 'dict', 'checks': 'list', 'left_out': 'list',
       'ab': 'dict', 'figures': 'list'}

VERDICTS_FILE = {'path': 'str', 'session': 'str', 'kind': 'str'}


FormatError = docformat.FormatError


def label(cause):
    '''A cause as people read it: ``software (by experiment)``, ``not
    reproduced (by experiment)``.'''
    return cause if cause.endswith('(by experiment)') else \
        f'{cause} (by experiment)'


def document(**members):
    '''The diagnosis document of ``members`` (:data:`TOP`'s), validated.'''
    doc = compare_json.plain({'format': FORMAT, 'version': VERSION,
                              **members,
                              'label': label(members['cause'])})
    validate(doc, '<new diagnosis>')
    return doc


def path_of(directory, fingerprint):
    return os.path.join(directory, f'{fingerprint}.json')


def write(directory, doc):
    '''Write ``doc`` to its file of ``directory`` (made if missing) whole:
    to a file beside it, then renamed over it; its path.'''
    os.makedirs(directory, exist_ok=True)
    return docformat.write_whole(path_of(directory, doc['event']), doc)


def validate(doc, path):
    '''Raise :class:`FormatError` (one line, naming ``path`` and the
    member) unless ``doc`` is a diagnosis of this version.'''
    docformat.head(doc, path, FORMAT, VERSION)
    _members(doc, TOP, path, '')
    if not FINGERPRINT.fullmatch(doc['event']):
        _fail(path, 'event', doc['event'], 'not an event\'s fingerprint '
              '(ev-<12 hexadecimal digits>)')
    _one_of(doc['cause'], classify.CAUSES, path, 'cause')
    if doc['label'] != label(doc['cause']):
        _fail(path, 'label', doc['label'], f'not {label(doc["cause"])!r} '
              f'(the label of its cause)')
    _members(doc['verdicts'], VERDICTS_FILE, path, 'verdicts')
    _one_of(doc['verdicts']['kind'], compare_json.KINDS, path,
            'verdicts.kind')
    for side in ('A', 'B'):
        if side not in doc['stacks']:
            raise FormatError(f'{path}: stacks has no stack {side!r}')
        _members(doc['stacks'][side], STACK, path, f'stacks.{side}')
    _texts(doc['checks'], path, 'checks')
    for index, item in enumerate(doc['left_out']):
        _members(item, {'check': 'str', 'why': 'str'}, path,
                 f'left_out[{index}]')
    _members(doc['ab'], AB, path, 'ab')
    for name in ('nodes', 'jobs'):
        _texts(doc['ab'][name], path, f'ab.{name}')
    for index, row in enumerate(doc['figures']):
        member = f'figures[{index}]'
        _members(row, FIGURE, path, member)
        _one_of(row['verdict'], VERDICTS, path, f'{member}.verdict')
        _one_of(row['cause'], classify.CAUSES, path, f'{member}.cause')
        _one_of(row['direction'], tuple(sequential.DIRECTIONS), path,
                f'{member}.direction')


class Diagnosis:
    '''A diagnosis read back: its members as attributes, and ``path``.'''

    def __init__(self, doc, path):
        self.doc, self.path = doc, path
        for name in TOP:
            setattr(self, name, doc[name])

    def summary(self):
        '''What an event of the compare JSON carries of it
        (:data:`microbench.verdicts.compare_json.DIAGNOSIS`).'''
        return {'cause': self.cause, 'label': self.label, 'why': self.why,
                'date': self.date, 'path': self.path, 'aa': self.aa,
                'stacks': {side: self.stacks[side]['name']
                           for side in ('A', 'B')},
                'figures': [{name: row[name] for name in (
                    'check', 'variant', 'figure', 'verdict', 'label',
                    'ratio', 'low', 'high', 'cause')}
                    for row in self.figures]}


def read(path):
    '''The diagnosis at ``path``, validated.

    :raises FormatError: it is not one of this version (one line).
    :raises OSError: it cannot be read.'''
    doc = docformat.load(path, FORMAT, LONGEST)
    validate(doc, path)
    return Diagnosis(doc, path)


def in_directory(directory, fingerprints):
    '''``({fingerprint: Diagnosis}, [warnings])`` of the diagnoses of
    ``directory`` of the events ``fingerprints``: a file that is not one,
    or one naming another event than its file, is one warning line and
    left out; no directory, none.'''
    found, warnings = {}, []
    if not directory or not os.path.isdir(directory):
        return found, warnings
    for fingerprint in sorted(set(fingerprints))[:MOST_FILES]:
        path = path_of(directory, fingerprint)
        if not os.path.exists(path):
            continue
        try:
            diagnosis = read(path)
        except (FormatError, OSError) as err:
            warnings.append(f'{" ".join(str(err).split())[:300]}: left out')
            continue
        if diagnosis.event != fingerprint:
            warnings.append(f'{path}: the diagnosis of {diagnosis.event}, '
                            f'not of the event its file names: left out')
            continue
        found[fingerprint] = diagnosis
    return found, warnings


def attach(events, directory):
    '''Give each of ``events`` (the compare JSON's, in place) its
    ``diagnosis`` (:meth:`Diagnosis.summary`, or None); the warnings.'''
    found, warnings = in_directory(
        directory, [event['fingerprint'] for event in events])
    for event in events:
        diagnosis = found.get(event['fingerprint'])
        event['diagnosis'] = diagnosis.summary() if diagnosis else None
    return warnings
