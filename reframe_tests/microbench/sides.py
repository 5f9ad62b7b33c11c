'''The two sides of an A/B experiment, spelt as one text: the rounds
fixture's ``stacks`` variable, which ``microbench ab`` writes
(:mod:`microbench.cause.ab`) and the rounds job reads
(:mod:`microbench.suite.stacked`).

An A/B runs the same checks on two software stacks in one job on the same
nodes: its rounds alternate between the sides, A B B A A B B A ...
(:func:`order`: a drift of the machine linear in time falls on both sides
alike over every four rounds), each side's commands taking its own tool
directories.  The text names each side's stack and where its tools are::

    A:name=apt;prefix=/usr;fio=/usr/bin,B:name=fio-3.40;prefix=/opt/v;
    lock=<sha256>;fio=/opt/v/bin;ior=/opt/v/bin

Sides are separated by ``,``; a side is its label (``A`` or ``B``), ``:``
and items separated by ``;``; an item is ``<key>=<value>``, the key a tool
of :data:`TOOLS` (the directory of its programs: the ``<tool>_bindir`` of
its rounds fixture) or one of :data:`ABOUT` (what identifies the stack).
A value holds no ``,`` or ``;``.  The text is read whole or refused in one
line (:class:`SpecError`); it is bounded (:data:`LONGEST`).  This module
imports nothing of the suite or of ReFrame: both the job's side and the
runner read it.
'''

import dataclasses
import re

#: The sides, in the order a batch starts with
SIDES = ('A', 'B')

#: The tools a stack may give (each rounds fixture's ``<tool>_bindir``)
TOOLS = ('fio', 'ior', 'mdtest', 'osu', 'fabtests', 'elbencho')

#: What identifies a stack besides its tools: its name, the prefix (or
#: Spack view) its tools were found under, the sha256 of its spack.lock,
#: and the Spack environment folder it was installed from
ABOUT = ('name', 'prefix', 'lock', 'env')

#: The longest text read (two stacks of six tools with long paths fit)
LONGEST = 16384

#: What joins two sides, and two items of a side
SIDE_SEPARATOR = ','
ITEM_SEPARATOR = ';'

#: The order of the rounds of a batch: each four rounds, A B B A
PATTERN = ('A', 'B', 'B', 'A')

_SHA256 = re.compile(r'[0-9a-f]{64}')


class SpecError(ValueError):
    '''The stacks text is not one (one line).'''


@dataclasses.dataclass(frozen=True)
class Side:
    '''One side of an A/B: its label (``A``), its stack's name, prefix,
    lock hash and environment ('' where none), and ``dirs``: ((tool,
    directory), ...).'''

    label: str
    name: str
    prefix: str = ''
    lock: str = ''
    env: str = ''
    dirs: tuple = ()

    def dir(self, tool):
        '''The directory of ``tool``'s programs; None where the stack has
        none.'''
        return dict(self.dirs).get(tool)

    def tools(self):
        return [tool for tool, _ in self.dirs]


def _value(text, where):
    if not text:
        raise SpecError(f'{where} is empty')
    if SIDE_SEPARATOR in text or ITEM_SEPARATOR in text:
        raise SpecError(f'{where} {text[:80]!r} holds "{SIDE_SEPARATOR}" or '
                        f'"{ITEM_SEPARATOR}", which separate the sides and '
                        f'their items')
    if any(ord(char) < 32 for char in text):
        raise SpecError(f'{where} {text[:80]!r} holds a control character')
    return text


def _side(text):
    label, colon, items = text.partition(':')
    if not colon or label not in SIDES:
        raise SpecError(f'stacks: {text[:60]!r} is not <side>:<items> with '
                        f'a side of {", ".join(SIDES)}')
    found = {}
    for item in items.split(ITEM_SEPARATOR):
        key, equals, value = item.partition('=')
        if not equals:
            raise SpecError(f'stacks: side {label}: {item[:60]!r} is not '
                            f'<key>=<value>')
        if key not in TOOLS and key not in ABOUT:
            raise SpecError(f'stacks: side {label}: {key[:40]!r} is neither '
                            f'a tool ({", ".join(TOOLS)}) nor one of '
                            f'{", ".join(ABOUT)}')
        if key in found:
            raise SpecError(f'stacks: side {label}: {key} is given twice')
        found[key] = _value(value, f'stacks: side {label}: {key}')
    if 'name' not in found:
        raise SpecError(f'stacks: side {label} has no name')
    if 'lock' in found and not _SHA256.fullmatch(found['lock']):
        raise SpecError(f'stacks: side {label}: lock {found["lock"][:70]!r} '
                        f'is not a sha256 (64 hexadecimal digits)')
    dirs = tuple((tool, found[tool]) for tool in TOOLS if tool in found)
    if not dirs:
        raise SpecError(f'stacks: side {label} names no tool directory')
    return Side(label, **{key: found.get(key, '') for key in ABOUT},
                dirs=dirs)


def parse(text):
    '''``{label: Side}`` of both sides of a stacks text, in
    :data:`SIDES` order.

    :raises SpecError: it is not one (one line naming the side and item).
    '''
    if not isinstance(text, str):
        raise SpecError(f'stacks: {text!r:.60} is not a text')
    if len(text) > LONGEST:
        raise SpecError(f'stacks: {len(text)} characters, more than the '
                        f'{LONGEST} read')
    sides = [_side(part) for part in text.split(SIDE_SEPARATOR)]
    labels = [side.label for side in sides]
    if sorted(labels) != sorted(SIDES):
        raise SpecError(f'stacks: sides {", ".join(labels)}; an A/B has '
                        f'exactly the sides {" and ".join(SIDES)}')
    by_label = {side.label: side for side in sides}
    return {label: by_label[label] for label in SIDES}


def spell(sides):
    '''The stacks text of ``sides`` (``{label: Side}``): what
    :func:`parse` reads back.

    :raises SpecError: a value it cannot hold.
    '''
    parts = []
    for label in SIDES:
        side = sides[label]
        items = [(key, getattr(side, key)) for key in ABOUT
                 if getattr(side, key)] + list(side.dirs)
        for key, value in items:
            _value(value, f'stacks: side {label}: {key}')
        parts.append(f'{label}:' + ITEM_SEPARATOR.join(
            f'{key}={value}' for key, value in items))
    text = SIDE_SEPARATOR.join(parts)
    parse(text)
    return text


def order(per_side):
    '''The side of every round of a batch that runs ``per_side`` rounds of
    each side: A B B A A B B A ... (twice ``per_side`` rounds).'''
    return [PATTERN[index % len(PATTERN)] for index in range(2 * per_side)]


def indices(per_side, first=1):
    '''``{label: [round index, ...]}``: where each side's rounds 1, 2, ...
    of a batch fall in time, the batch's first round numbered ``first``.'''
    out = {label: [] for label in SIDES}
    for index, label in enumerate(order(per_side)):
        out[label].append(first + index)
    return out


def key(variant, label):
    '''The name of ``variant`` on side ``label`` in the job (its records,
    its commands): ``direct@A``.'''
    return f'{variant}@{label}'


def split_key(name):
    '''``(variant, label)`` of a job's variant name; label '' where it
    names no side.'''
    variant, at, label = name.rpartition('@')
    if at and label in SIDES:
        return variant, label
    return name, ''


def identity(side, tool, version):
    '''What the ``stack`` record field says of ``side`` for a check of
    ``tool`` whose programs reported ``version``: ``A: apt; prefix /usr;
    fio /usr/bin (fio-3.33); lock none``.'''
    parts = [f'{side.label}: {side.name}']
    if side.prefix:
        parts.append(f'prefix {side.prefix}')
    if side.env:
        parts.append(f'environment {side.env}')
    parts.append(f'{tool} {side.dir(tool)} ({version or "no version"})')
    parts.append(f'lock {side.lock or "none"}')
    return '; '.join(parts)


def label_of(record):
    '''The side a ``stack`` record names (``A``), or '' for none.'''
    label = (record or '').partition(':')[0]
    return label if label in SIDES else ''
