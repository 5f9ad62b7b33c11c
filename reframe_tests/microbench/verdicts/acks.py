'''Acknowledgements: a facility's word on a change the verdicts found, as
reviewable data: the one module that reads the files (their YAML through
the bounded reader of :mod:`.acks_yaml`; ``microbench ack``, :mod:`.ack_add`,
appends to them).

One YAML file per system, ``reframe_tests/references/acks/<system>.yaml``
(``MICROBENCH_ACKS_DIR`` moves the folder), committed and reviewed like
the references; ``microbench ack`` adds an entry as a diff::

    format: microbench acknowledgements
    version: 1
    acks:
    - partition: nvme
      check: fio_cache_flags          # a name or a pattern (*, ?, [...])
      variant: direct                 # the same
      figure: write_median_mib_s      # the same
      night: 5f0c2a4e-...             # the session the change began on,
                                      # or its date (YYYY-MM-DD) where it
                                      # is the partition's only night then
      date: '2026-11-20 02:30'        # that night's start (for people)
      kind: expected                  # expected, noise or known
      reason: NVMe firmware 2.1 (a new write cache policy)
      link: https://tickets.example.org/4711      # optional
      expires: '2027-03-01'           # optional: in force until that day

The kinds (:data:`KINDS`): ``expected`` accepts the new level from that
night (the figure's nights before it are carried to the new level; a new
change after it is called as any other); ``noise`` says the night was a
false alarm (it leaves the figure's history; on that night the verdict is
``acknowledged``); ``known`` says the change is real and tracked elsewhere
(the verdict is ``acknowledged`` while that change holds).  An entry
whose ``expires`` day has passed is out of force: its verdict comes back.

Every member is a text (a list or a mapping is not one); ``night`` is a
session's UUID or a day, ``expires`` a day, both written YYYY-MM-DD (a
real day: ``2027-02-30``, ``20270301`` or ``2027-W09-1`` are not, quoted
or not), so days compare as text; ``reason``, ``date`` and ``link`` are
one line (their line breaks are spaces); no member holds a control
character.

A file that is not one (not YAML, an anchor or alias, nesting deeper than
:data:`.acks_yaml.MAX_DEPTH`, more than :data:`.acks_yaml.MAX_BYTES`, not
UTF-8), an entry that is not one (a member missing, unknown, given twice
or not valid), or an entry that names a partition, figure or night the
results storage does not have is one line each (:func:`load`,
:func:`check`): the entry (or the file) is left out and nothing else
changes (an acknowledgement that cannot apply never silences a verdict,
and a broken one never costs the night its verdict).
'''

import dataclasses
import datetime
import fnmatch
import os
import re

from microbench import paths
from microbench.verdicts import acks_yaml, vocabulary

FORMAT = 'microbench acknowledgements'
VERSION = 1

#: What each kind of acknowledgement does
KINDS = vocabulary.ACK_KINDS

#: The members of an entry: required, then optional
REQUIRED = ('partition', 'check', 'variant', 'figure', 'night', 'kind',
            'reason')
OPTIONAL = ('date', 'link', 'expires')


class AckError(ValueError):
    '''An acknowledgements file or entry that is not one.'''


@dataclasses.dataclass(frozen=True)
class Ack:
    '''One entry of a system's file; ``index`` counts from 1.'''

    system: str
    partition: str
    check: str
    variant: str
    figure: str
    night: str
    kind: str
    reason: str
    date: str = ''
    link: str = ''
    expires: str = ''
    index: int = 0
    path: str = ''

    def where(self):
        '''``acks/local.yaml #3``: where the entry is.'''
        if not self.index:
            return 'the new entry'
        name = os.path.relpath(self.path, paths.ROOT)
        return f'{self.path if name.startswith("..") else name} #{self.index}'

    def names(self):
        return (f'{self.system}:{self.partition} {self.check} '
                f'{self.variant} {self.figure}')

    def matches(self, system, partition, check, variant, figure):
        '''Whether the entry names this figure (its patterns match).'''
        return (system == self.system and partition == self.partition
                and fnmatch.fnmatchcase(check, self.check)
                and fnmatch.fnmatchcase(variant, self.variant)
                and fnmatch.fnmatchcase(figure, self.figure))

    def expired(self, day):
        '''Whether the entry is out of force on ``day`` (YYYY-MM-DD): both
        days are written YYYY-MM-DD (the entry's is checked so), whose
        order as text is their order as days.'''
        return bool(self.expires) and str(day)[:10] > self.expires

    def words(self):
        '''``noise: a lone bad night``: the kind and the reason.'''
        return f'{self.kind}: {self.reason}'

    def as_json(self):
        '''What the compare JSON says of it.'''
        return {'kind': self.kind, 'reason': self.reason, 'link': self.link,
                'expires': self.expires, 'night': self.night,
                'date': self.date, 'entry': self.where()}


def directory():
    return os.environ.get('MICROBENCH_ACKS_DIR', paths.ACKS)


def path_of(system):
    return os.path.join(directory(), f'{system}.yaml')


#: A session's UUID (ReFrame's ``session_info.uuid``)
UUID = re.compile('[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}')

#: A day as the files write it (ASCII digits: ``\\d`` takes any script's)
DAY = re.compile('[0-9]{4}-[0-9]{2}-[0-9]{2}')

#: C0 and C1 control characters (a line break, an escape sequence)
CONTROL = re.compile('[\x00-\x1f\x7f-\x9f]')

#: Members whose text is for people: its whitespace runs are one space
PROSE = ('reason', 'date', 'link')


def is_day(text):
    '''Whether ``text`` is a day written YYYY-MM-DD (a real one): the one
    form compared, as text, with other days.'''
    if not DAY.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _day(text, where, name):
    if not is_day(text):
        raise AckError(f'{where}: {name} {acks_yaml.quoted(text)} is not a '
                       f'date (YYYY-MM-DD)')
    return text


def _night(text, where):
    if not UUID.fullmatch(text) and not is_day(text):
        raise AckError(f'{where}: night {acks_yaml.quoted(text)} is neither '
                       f'a session (its UUID) nor a date (YYYY-MM-DD)')
    return text


def _texts(item, where):
    '''The members of ``item`` as texts (an absent or empty one: '').'''
    values = {}
    for name in (*REQUIRED, *OPTIONAL):
        value = item.get(name)
        if value is not None and not isinstance(value, str):
            raise AckError(f'{where}: {name} is {acks_yaml.shape(value)}, '
                           f'not a text')
        text = value or ''
        if name in PROSE:
            text = acks_yaml.one_line(text)
        if CONTROL.search(text):
            raise AckError(f'{where}: {name} {acks_yaml.quoted(text)} holds '
                           f'a control character')
        values[name] = text.strip()
    return values


def _listed(names):
    '''Unknown members' names as a line lists them: the first 5.'''
    shown = ', '.join(map(acks_yaml.quoted, names[:5]))
    return shown + (f' and {len(names) - 5} more' if len(names) > 5 else '')


def _entry(item, system, path, index):
    line = getattr(item, 'line', None)
    where = (f'{path} #{index}' + (f' (line {line})' if line else '')
             if index else path)
    if not isinstance(item, dict):
        raise AckError(f'{where}: {acks_yaml.shape(item)}, not a mapping of '
                       f'members')
    if getattr(item, 'odd', None):
        raise AckError(f'{where}: a member named by a list or a mapping '
                       f'(line {item.odd[0]})')
    if getattr(item, 'twice', None):
        name, at = item.twice[0]
        raise AckError(f'{where}: {acks_yaml.quoted(name)} given twice '
                       f'(again at line {at})')
    unknown = sorted(set(item) - {*REQUIRED, *OPTIONAL})
    if unknown:
        raise AckError(f'{where}: unknown member(s) {_listed(unknown)} '
                       f'(known: {", ".join((*REQUIRED, *OPTIONAL))})')
    values = _texts(item, where)
    missing = [name for name in REQUIRED if not values[name]]
    if missing:
        raise AckError(f'{where}: no {", ".join(missing)}')
    if values['kind'] not in KINDS:
        raise AckError(f'{where}: kind {acks_yaml.quoted(values["kind"])} is '
                       f'not one of {", ".join(KINDS)}')
    _night(values['night'], where)
    if values['expires']:
        _day(values['expires'], where, 'expires')
    return Ack(system=system, index=index, path=path, **values)


def new(system, values):
    '''An entry of ``system``'s file from ``values`` (its members, texts;
    empty ones left out), not yet written.

    :raises AckError: it is not one (one line).
    '''
    return _entry({name: str(value) for name, value in values.items()
                   if value not in (None, '')}, system, 'the new entry', 0)


def _document(text, path):
    '''The entries (a list) of a file's ``text``, and one line for each
    problem of its head.

    :raises AckError: no entry of it can be read (one line).
    '''
    try:
        data = acks_yaml.load(text)
    except acks_yaml.ReadError as err:
        raise AckError(f'{path}: {err}') from None
    if data is None:
        return [], []
    if not isinstance(data, dict) or data.get('format') != FORMAT:
        raise AckError(f'{path}: not an acknowledgements file (it must say '
                       f'format: {FORMAT})')
    if data.odd:
        raise AckError(f'{path}: line {data.odd[0]}: a member named by a '
                       f'list or a mapping')
    if data.twice:
        name, at = data.twice[0]
        raise AckError(f'{path}: line {at}: {acks_yaml.quoted(name)} given '
                       f'twice')
    version = data.get('version')
    if version != str(VERSION):
        said = acks_yaml.shape(version)
        raise AckError(f'{path}: acknowledgements version {said}, this '
                       f'microbench reads version {VERSION}')
    items = data.get('acks')
    if items is not None and not isinstance(items, list):
        raise AckError(f'{path}: acks is {acks_yaml.shape(items)}, not a '
                       f'list')
    unknown = sorted(set(data) - {'format', 'version', 'acks'})
    said = [f'{path}: unknown member(s) {_listed(unknown)} (known: '
            f'format, version, acks): ignored'] if unknown else []
    return items or [], said


def parse(text, system, path):
    '''``(acks, problems)`` of a file's ``text``: every valid entry, and
    one line for each problem (a file that is not one: no entry).'''
    try:
        items, problems = _document(text, path)
    except AckError as err:
        return [], [f'{err}: no acknowledgement of it applies']
    out = []
    for index, item in enumerate(items, 1):
        try:
            out.append(_entry(item, system, path, index))
        except AckError as err:
            problems.append(f'{err}: left out')
    return out, problems


def read(path):
    '''The text of the file at ``path`` ('' where there is none).

    :raises AckError: it cannot be read as text (one line).
    '''
    try:
        text = acks_yaml.read_file(path)
    except acks_yaml.ReadError as err:
        raise AckError(f'{path}: {err}') from None
    return text or ''


def load(system):
    '''``(acks, problems)`` of ``system``'s file (none without one).'''
    path = path_of(system)
    try:
        text = read(path)
    except AckError as err:
        return [], [f'{err}: no acknowledgement of it applies']
    return parse(text, system, path)


def load_all(systems):
    '''``(acks, problems)`` of the files of every system of ``systems``.'''
    acks, problems = [], []
    for system in sorted(set(systems)):
        found, said = load(system)
        acks += found
        problems += said
    return acks, problems


def resolve(ack, nights):
    '''``ack`` with its night a session of ``nights`` (``[(session,
    'YYYY-MM-DD HH:MM')]`` of its partition, oldest first).

    :raises AckError: the night is not there, or its date has several.
    '''
    sessions = [s for s, _ in nights]
    if ack.night in sessions:
        date = dict(nights)[ack.night]
        return dataclasses.replace(ack, date=ack.date or date)
    on_day = [(s, d) for s, d in nights if d[:10] == ack.night]
    if len(on_day) == 1:
        return dataclasses.replace(ack, night=on_day[0][0],
                                   date=ack.date or on_day[0][1])
    if on_day:
        raise AckError(f'{ack.where()}: night {ack.night} holds '
                       f'{len(on_day)} sessions of {ack.system}:'
                       f'{ack.partition}: name the session '
                       f'({", ".join(s for s, _ in on_day)}): left out')
    raise AckError(f'{ack.where()}: night {ack.night} is not a night of '
                   f'{ack.system}:{ack.partition} in the results storage: '
                   f'left out')


def check(found, nights, keys, day):
    '''The acknowledgements of ``found`` that apply, and one line for each
    that does not: its partition has no nights, its night is not one, no
    figure matches it, or it expired before ``day``.

    :arg nights: ``{(system, partition): [(session, date)]}``.
    :arg keys: every figure key (system, partition, environ, check,
        variant, figure) of the results storage.
    '''
    out, problems = [], []
    for ack in found:
        mine = nights.get((ack.system, ack.partition))
        if not mine:
            problems.append(f'{ack.where()}: partition {ack.system}:'
                            f'{ack.partition} has no nights in the results '
                            f'storage: left out')
            continue
        try:
            ack = resolve(ack, mine)
        except AckError as err:
            problems.append(str(err))
            continue
        if not any(ack.matches(system, part, check_, variant, figure)
                   for system, part, _, check_, variant, figure in keys):
            problems.append(f'{ack.where()}: no figure of the results '
                            f'storage is {ack.names()}: left out')
            continue
        if ack.expired(day):
            problems.append(f'{ack.where()} ({ack.names()}, {ack.kind}) '
                            f'expired on {ack.expires}: its verdict is '
                            f'back')
            continue
        out.append(ack)
    return out, problems
