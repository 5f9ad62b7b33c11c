'''The limits files, ``systems/limits/<system>.yaml``: the one module that
reads and writes them (:mod:`microbench.components` says what they hold).

A file is read entry by entry (:func:`read`): a file that is not one, or
an entry that is not one, is one line naming the file and the entry and
what is wrong, and the partitions it concerns get no share of a measured
limit, saying why (``withheld: its limits file is rejected``); nothing
else changes, so a typo never costs a night.  Nothing in the file runs
code (``yaml.safe_load``), and the work is bounded: a file past
:data:`MAX_BYTES` is not read, every number must lie within :data:`SPAN`
(a limit of ``1e400`` or of 500 digits is no limit), and a message
quotes at most :data:`SHOWN` characters of what it read.

Version 2 (:data:`VERSION`) names its format and keeps the partitions
under ``partitions``, each ``measured`` block with the machine it was
measured on; version 1 (a mapping of partitions alone, before machines
were kept) is still read: a facility partition's entry applies as it
did, a bound one's is withheld (its machine is not recorded).
'''

import dataclasses
import datetime
import os
import re

import yaml

from microbench import components, paths
from microbench.components import STATS

FORMAT = 'microbench limits'
VERSION = 2

#: Where the measured limits of every system are kept (the tests point
#: ``MICROBENCH_LIMITS_DIR`` elsewhere)
COMMITTED = os.path.join(paths.SYSTEMS, 'limits')

#: What a version 2 entry's ``measured`` says
MEASURED = ('session', 'date', 'nodes', 'machine', 'command')

#: The largest file read: an entry is about a kilobyte, so room for over
#: a hundred partitions; YAML's pure-Python parser (libyaml's crashes on
#: deep nesting) reads it in about a second on a busy 2-core machine
MAX_BYTES = 128 << 10

#: The least and most a limit or a node fact may be, in its unit: below,
#: a share would overflow; above, no hardware (10^12 MiB/s, IOPS or us)
SPAN = (1e-6, 1e12)

#: Characters of a read value a message quotes
SHOWN = 40

#: A partition's name, as ReFrame allows it
PARTITION = re.compile(r'[\w-]+')

#: What a partition's entry holds
KEYS = ('measured', 'limits', 'node')

#: What a problem costs, said after it
_COST = 'its figures get no share of a measured limit'


class LimitsError(ValueError):
    '''A limits file, or an entry of one, that is not one.'''


@dataclasses.dataclass
class Limits:
    '''A limits file as read: its valid entries and why the rest is not.

    ``entries``: {partition: entry}, validated; ``rejected``:
    {partition: line} of the entries that are not one; ``whole``: the
    line rejecting the whole file, else None; ``other``: lines about the
    file outside any entry (an unknown key); ``version`` as read.'''

    path: str
    version: int = VERSION
    entries: dict = dataclasses.field(default_factory=dict)
    rejected: dict = dataclasses.field(default_factory=dict)
    whole: str = None
    other: list = dataclasses.field(default_factory=list)

    @property
    def problems(self):
        '''Every line of what is wrong with the file.'''
        return ([self.whole] if self.whole else []) + \
            list(self.rejected.values()) + self.other


def directory():
    return os.environ.get('MICROBENCH_LIMITS_DIR', COMMITTED)


def path_of(system):
    return os.path.join(directory(), f'{system}.yaml')


def shown(value):
    '''``value`` as a message quotes it, on one line and short: a text
    or number its repr, cut to :data:`SHOWN` characters; a list or a
    mapping its kind and length (never walked: YAML's aliases can make
    one of billions of leaves from a few lines).'''
    if isinstance(value, (list, dict)):
        kind = 'list' if isinstance(value, list) else 'mapping'
        return f'a {kind} of {len(value)}'
    if isinstance(value, str):
        value = value[:SHOWN]
    said = repr(value)
    return said if len(said) <= SHOWN else said[:SHOWN - 3] + '...'


def _named(key):
    '''A key as a path in a message: itself where it is a plain name,
    else :func:`shown`.'''
    if isinstance(key, str) and re.fullmatch(r'[\w.-]{1,40}', key):
        return key
    return shown(key)


def _number(value):
    '''Whether ``value`` is a number within :data:`SPAN` (not a bool,
    not NaN, not infinite: comparisons with NaN are false).'''
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and SPAN[0] <= value <= SPAN[1])


def _mapping(where, value):
    '''``value`` where it is a mapping ({} for nothing).'''
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise LimitsError(f'{where}: not a mapping ({shown(value)})')
    return value


def _measured(where, measured, version):
    '''The ``measured`` block, its texts (an unquoted date read as one).'''
    out = {}
    for key, value in _mapping(where, measured).items():
        if version >= 2 and key not in MEASURED:
            raise LimitsError(f'{where}: unknown key {shown(key)} (known: '
                              f'{", ".join(MEASURED)})')
        if key not in MEASURED:
            continue
        if isinstance(value, datetime.date) and key == 'date':
            value = value.isoformat()
        if not isinstance(value, str):
            raise LimitsError(f'{where}.{key}: not a text ({shown(value)})')
        out[key] = value
    machine = out.get('machine')
    if machine is not None and not components.IDENTITY.fullmatch(machine):
        raise LimitsError(f'{where}.machine: {shown(machine)} is not 16 hex '
                          f'digits (microbench limits --write writes it)')
    return out


def _stats(where, stats, unit):
    if not isinstance(stats, dict) or set(stats) != {*STATS, 'unit'}:
        raise LimitsError(f'{where}: needs exactly median, min, max and '
                          f'unit')
    if stats['unit'] != unit:
        raise LimitsError(f'{where}: unit {shown(stats["unit"])}, not '
                          f'{unit}')
    if not all(_number(stats[s]) for s in STATS):
        raise LimitsError(f'{where}: median, min and max must be numbers '
                          f'from {SPAN[0]:g} to {SPAN[1]:g}')
    if not stats['min'] <= stats['median'] <= stats['max']:
        raise LimitsError(f'{where}: min <= median <= max does not hold')
    return {**{s: stats[s] for s in STATS}, 'unit': unit}


def entry(where, value, version=VERSION):
    '''A partition's entry, validated: only what it may hold.

    :raises LimitsError: it is not one (one line, naming ``where``).'''
    value = _mapping(where, value)
    for key in value:
        if key not in KEYS:
            raise LimitsError(f'{where}: unknown key {shown(key)} (known: '
                              f'{", ".join(KEYS)})')
    out = {'measured': _measured(f'{where}.measured',
                                 value.get('measured'), version),
           'limits': {}, 'node': {}}
    for name, stats in _mapping(f'{where}.limits',
                                value.get('limits')).items():
        if name not in components.LIMITS:
            raise LimitsError(f'{where}.limits: unknown limit {shown(name)} '
                              f'(known: {", ".join(components.LIMITS)})')
        out['limits'][name] = _stats(f'{where}.limits.{name}', stats,
                                     components.LIMITS[name][3])
    for name, fact in _mapping(f'{where}.node', value.get('node')).items():
        if name not in components.NODE or not _number(fact):
            raise LimitsError(f'{where}.node.{_named(name)}: not a node '
                              f'fact ({", ".join(components.NODE)}) with '
                              f'a number from {SPAN[0]:g} to {SPAN[1]:g}')
        out['node'][name] = fact
    return out


def _yaml(text):
    '''The data of ``text``, or the line saying why it is not YAML.'''
    try:
        return yaml.safe_load(text), None
    except yaml.YAMLError as err:
        mark = getattr(err, 'problem_mark', None)
        line = f' at line {mark.line + 1}' if mark else ''
        problem = getattr(err, 'problem', None) or str(err)
        return None, f'not YAML{line} ({" ".join(problem.split())[:200]})'
    except (RecursionError, ValueError, TypeError, OverflowError) as err:
        # nested past Python's stack, an integer past its digits limit
        return None, f'not a limits file ({type(err).__name__})'


def _partitions(found, data):
    '''The version and partitions of ``data``, or None where the file
    is not a limits file (``found.whole`` then says why); an empty file
    has none.'''
    if data is None:
        return {}
    if not isinstance(data, dict):
        found.whole = 'not a mapping'
        return None
    if 'format' not in data and not {'version', 'partitions'} & set(data):
        found.version = 1
        return data
    if data.get('format') != FORMAT:
        found.whole = f'not a limits file (it must say format: {FORMAT})'
        return None
    version = data.get('version')
    if type(version) is not int or version != VERSION:
        found.whole = (f'limits version {shown(version)}, this microbench '
                       f'reads version {VERSION} (and 1, without format)')
        return None
    found.version = version
    for key in data:
        if key not in ('format', 'version', 'partitions'):
            found.other.append(f'{found.path}: unknown key {shown(key)} '
                               f'(known: format, version, partitions): '
                               f'left out')
    partitions = data.get('partitions')
    if partitions is not None and not isinstance(partitions, dict):
        found.whole = f'partitions: not a mapping ({shown(partitions)})'
        return None
    return partitions or {}


def read(text, path='limits'):
    ''':class:`Limits` of a limits file's ``text`` (``path`` names it).'''
    found = Limits(path)
    if len(text) > MAX_BYTES:
        found.whole = f'{path}: larger than {MAX_BYTES} bytes: {_COST}'
        return found
    data, said = _yaml(text)
    partitions = _partitions(found, data) if said is None else None
    if said or partitions is None:
        found.whole = f'{path}: {said or found.whole}: {_COST}'
        return found
    for name, value in partitions.items():
        if not isinstance(name, str) or not PARTITION.fullmatch(name):
            line = f'{path}: partition {shown(name)} is not a name'
            found.rejected[str(name)[:SHOWN]] = f'{line}: left out'
            continue
        try:
            found.entries[name] = entry(name, value, found.version)
        except LimitsError as err:
            found.rejected[name] = f'{path}: {err}: {_COST}'
    return found


def parse(text, where='limits'):
    '''{partition: entry} of a limits file's ``text``, every entry valid.

    :raises LimitsError: the first line of what is wrong.'''
    found = read(text, where)
    if found.problems:
        raise LimitsError(found.problems[0])
    return found.entries


def load(system):
    ''':class:`Limits` of ``system``'s file (none without one).'''
    path = path_of(system)
    name = os.path.relpath(path, paths.ROOT)
    name = path if name.startswith('..') else name
    try:
        with open(path, 'rb') as fp:
            data = fp.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return Limits(name)
    except OSError as err:
        return Limits(name, whole=f'{name}: cannot be read '
                                  f'({err.strerror}): {_COST}')
    if len(data) > MAX_BYTES:
        return Limits(name, whole=f'{name}: larger than {MAX_BYTES} '
                                  f'bytes: {_COST}')
    try:
        return read(data.decode('utf-8'), name)
    except UnicodeDecodeError as err:
        return Limits(name, whole=f'{name}: not UTF-8 (byte {err.start}): '
                                  f'{_COST}')


def text(system, entries):
    '''The limits file of ``system`` holding ``entries`` ({partition:
    entry}), version :data:`VERSION`.'''
    head = (f'# Measured component limits of {system}: microbench limits '
            f'--partition {system}:<partition> --write\n'
            f'# (microbench/components.py says what each one is)\n')
    return head + yaml.safe_dump(
        {'format': FORMAT, 'version': VERSION, 'partitions': entries},
        sort_keys=False, width=4096)
