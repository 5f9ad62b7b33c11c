'''Acknowledgements: a facility's word on a change the verdicts found, as
reviewable data (the one module that writes and reads the files).

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

A file that is not one, an entry that is not one, or an entry that names
a partition, figure or night the results storage does not have is one
line each (:func:`load`, :func:`check`): the entry is left out and
nothing else changes (an acknowledgement that cannot apply never silences
a verdict).
'''

import dataclasses
import datetime
import fnmatch
import os

import yaml

from microbench import paths

FORMAT = 'microbench acknowledgements'
VERSION = 1

#: What each kind of acknowledgement does
KINDS = {
    'expected': 'accept the new level from that night',
    'noise': 'a false alarm: that night leaves the figure\'s history',
    'known': 'a real problem tracked elsewhere: acknowledged while it '
             'holds',
}

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
        '''Whether the entry is out of force on ``day`` (YYYY-MM-DD).'''
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


def _day(value, where, name):
    '''A YAML date or a YYYY-MM-DD text, as that text.'''
    if isinstance(value, datetime.date):
        return value.strftime('%Y-%m-%d')
    text = str(value)
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise AckError(f'{where}: {name} {text!r} is not a date '
                       f'(YYYY-MM-DD)') from None
    return text


def _entry(item, system, path, index):
    where = f'{path} #{index}' if index else path
    if not isinstance(item, dict):
        raise AckError(f'{where}: not a mapping')
    unknown = sorted(set(map(str, item)) - {*REQUIRED, *OPTIONAL})
    if unknown:
        raise AckError(f'{where}: unknown member(s) {", ".join(unknown)} '
                       f'(known: {", ".join((*REQUIRED, *OPTIONAL))})')
    missing = [name for name in REQUIRED if item.get(name) in (None, '')]
    if missing:
        raise AckError(f'{where}: no {", ".join(missing)}')
    if item['kind'] not in KINDS:
        raise AckError(f'{where}: kind {item["kind"]!r} is not one of '
                       f'{", ".join(KINDS)}')
    night = item['night']
    if isinstance(night, datetime.date):
        night = night.strftime('%Y-%m-%d')
    values = {name: str(item.get(name) or '') for name in
              (*REQUIRED, *OPTIONAL)}
    values['night'] = str(night)
    if item.get('expires'):
        values['expires'] = _day(item['expires'], where, 'expires')
    return Ack(system=system, index=index, path=path, **values)


def new(system, values):
    '''An entry of ``system``'s file from ``values`` (its members; empty
    ones left out), not yet written.

    :raises AckError: it is not one (one line).
    '''
    return _entry({name: value for name, value in values.items()
                   if value not in (None, '')}, system, 'the new entry', 0)


def parse(text, system, path):
    '''``(acks, problems)`` of a file's ``text``: every valid entry, and
    one line for each problem (a file that is not one: no entry).'''
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        where = getattr(err, 'problem_mark', None)
        line = f' at line {where.line + 1}' if where else ''
        return [], [f'{path}: not YAML{line} '
                    f'({getattr(err, "problem", None) or err}): no '
                    f'acknowledgement of it applies']
    if data is None:
        return [], []
    if not isinstance(data, dict) or data.get('format') != FORMAT:
        return [], [f'{path}: not an acknowledgements file (it must say '
                     f'format: {FORMAT}): no acknowledgement of it applies']
    if data.get('version') != VERSION:
        return [], [f'{path}: acknowledgements version '
                    f'{data.get("version")!r}, this microbench reads '
                    f'version {VERSION}: no acknowledgement of it applies']
    items = data.get('acks') or []
    if not isinstance(items, list):
        return [], [f'{path}: acks is not a list: no acknowledgement of '
                    f'it applies']
    out, problems = [], []
    for index, item in enumerate(items, 1):
        try:
            out.append(_entry(item, system, path, index))
        except AckError as err:
            problems.append(f'{err}: left out')
    return out, problems


def load(system):
    '''``(acks, problems)`` of ``system``'s file (none without one).'''
    path = path_of(system)
    if not os.path.exists(path):
        return [], []
    try:
        with open(path, encoding='utf-8') as fp:
            text = fp.read()
    except (OSError, UnicodeDecodeError) as err:
        return [], [f'{path}: cannot be read ({err}): no acknowledgement '
                    f'of it applies']
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


# -- writing -------------------------------------------------------------

HEAD = (f'# Acknowledged changes of {{system}}: reviewed like the references'
        f' (microbench ack ... --write adds one)\n'
        f'format: {FORMAT}\nversion: {VERSION}\nacks:\n')


def entry(values):
    '''The YAML lines of one entry (``values``: its members, in
    :data:`REQUIRED` and :data:`OPTIONAL` order, empty ones left out).'''
    ordered = {name: values[name] for name in (*REQUIRED[:5], 'date',
                                               *REQUIRED[5:], 'link',
                                               'expires')
               if values.get(name) not in (None, '')}
    text = yaml.safe_dump([ordered], sort_keys=False, width=72,
                          allow_unicode=True)
    return text


def appended(text, system, values):
    '''The text of ``system``'s file (``text``, empty if none) with one
    more entry; checked to read back as it was written.

    :raises AckError: the result is not a valid file, or the entry is
        not one.
    '''
    if not text.strip():
        text = HEAD.format(system=system)
    body = text if text.endswith('\n') else text + '\n'
    data = yaml.safe_load(body) or {}
    if isinstance(data, dict) and data.get('acks') == []:
        # ``acks: []`` written by hand: a block list goes after the key
        body = body.replace('acks: []', 'acks:', 1)
    new = body + entry(values)
    found, problems = parse(new, system, path_of(system))
    if problems:
        raise AckError(problems[0])
    if not found or found[-1].night != str(values['night']):
        raise AckError(f'{path_of(system)}: the new entry does not read '
                       f'back as the file\'s last (is acks the last key?)')
    return new
