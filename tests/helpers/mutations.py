'''How the parser tests break real outputs: each mutation takes
hypothesis' draw and the output (bytes) and returns (what it did, the
mutated bytes); and the hypothesis profiles they run under.'''

import json
import os
import re

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    'mutations', max_examples=100, deadline=None, derandomize=True,
    database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    'mutations-long', max_examples=1000, deadline=None, derandomize=True,
    database=None, suppress_health_check=[HealthCheck.too_slow])
MUTATIONS = settings.get_profile(
    os.environ.get('MUTATIONS_PROFILE', 'mutations'))


_CONTROL = bytes([*range(0x00, 0x09), 0x0b, 0x0c, *range(0x0e, 0x20)])
_LETTERS = bytes(c for c in b'ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ'
                 if c not in b'eE')
#: Bytes that cannot silently form another valid number
GARBAGE = bytes(range(0x80, 0x100)) + _CONTROL + _LETTERS + \
    b'@#!?*&^%$~|<>;"{}[]'

_NUMBER = re.compile(rb'\d+(\.\d+)?')

#: class -> what may replace a number (``{n}``: the number itself)
REPLACEMENTS = {
    'nonfinite': [b'NaN', b'nan', b'inf', b'-inf', b'Infinity',
                  b'-Infinity'],
    'negative': [b'-{n}', b'-1'],
    'zero': [b'0'],
    'non-number': [b'abc'],
}


def cut(draw, data):
    # A cut to nothing is a test of its own (test_cut_to_nothing)
    at = draw(st.integers(1, len(data) - 1))
    return f'cut at byte {at} ({data[at - 20:at]!r})', data[:at]


def garbage(draw, data):
    at = draw(st.integers(0, len(data) - 1))
    byte = draw(st.sampled_from([b for b in GARBAGE if b != data[at]]))
    new = data[:at] + bytes([byte]) + data[at + 1:]
    return (f'byte {at} {data[at:at + 1]!r} -> {bytes([byte])!r} in '
            f'{new[max(0, at - 30):at + 30]!r}'), new


def non_utf8(draw, data):
    at = draw(st.integers(0, len(data)))
    byte = bytes([draw(st.integers(0x80, 0xff))])
    if at < len(data) and draw(st.booleans()):
        return f'byte {at} -> {byte!r}', data[:at] + byte + data[at + 1:]

    return f'{byte!r} inserted at {at}', data[:at] + byte + data[at:]


def _lines(data):
    return data.splitlines(keepends=True)


def dup_line(draw, data):
    lines = _lines(data)
    i = draw(st.integers(0, len(lines) - 1))
    return (f'line {i} {lines[i]!r} twice',
            b''.join(lines[:i + 1] + lines[i:]))


def drop_line(draw, data):
    lines = _lines(data)
    i = draw(st.integers(0, len(lines) - 1))
    return (f'line {i} {lines[i]!r} dropped',
            b''.join(lines[:i] + lines[i + 1:]))


class Pairs(list):
    '''A JSON object as its (key, value) pairs: order and duplicates kept.'''


def load_pairs(data):
    return json.loads(data, object_pairs_hook=Pairs)


def dump_pairs(node):
    if isinstance(node, Pairs):
        return '{' + ', '.join(f'{json.dumps(k)}: {dump_pairs(v)}'
                               for k, v in node) + '}'

    if isinstance(node, list):
        return '[' + ', '.join(map(dump_pairs, node)) + ']'

    return json.dumps(node)


def _objects(node, depth=0):
    '''(depth, object) of every non-empty object in ``node``.'''
    if isinstance(node, Pairs):
        if node:
            yield depth, node

        for _, value in node:
            yield from _objects(value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value, depth + 1)


def json_prefix(data):
    '''(the lines before a JSON document, the document): fio writes its
    warnings into its output file before its JSON.'''
    if data.lstrip().startswith(b'{'):
        return b'', data

    head, brace, rest = data.partition(b'\n{')
    return head + b'\n', brace.lstrip(b'\n') + rest


def _member(draw, data, kind, change):
    '''``change(draw, object)`` on one object at a drawn depth, in the
    document (json) or one line of it (jsonl).'''
    prefix, data = json_prefix(data) if kind == 'json' else (b'', data)
    lines = _lines(data) if kind == 'jsonl' else [data]
    i = draw(st.integers(0, len(lines) - 1))
    tree = load_pairs(lines[i])
    found = list(_objects(tree))
    depth = draw(st.sampled_from(sorted({d for d, _ in found})))
    obj = draw(st.sampled_from([o for d, o in found if d == depth]))
    what = change(draw, obj)
    lines[i] = dump_pairs(tree).encode() + (b'\n' if kind == 'jsonl' else b'')
    return f'line {i}: {what} at depth {depth}', prefix + b''.join(lines)


def _dup(draw, obj):
    j = draw(st.integers(0, len(obj) - 1))
    obj.insert(j + 1, obj[j])
    return f'member {obj[j][0]!r} twice'


def _drop(draw, obj):
    j = draw(st.integers(0, len(obj) - 1))
    return f'member {obj.pop(j)[0]!r} dropped'


def dup_member(draw, data, kind):
    return _member(draw, data, kind, _dup)


def drop_member(draw, data, kind):
    return _member(draw, data, kind, _drop)


def number(replacements):
    def replace(draw, data):
        matches = list(_NUMBER.finditer(data))
        m = draw(st.sampled_from(matches))
        new = draw(st.sampled_from(replacements)).replace(b'{n}', m[0])
        start, end = m.span()
        return (f'number {m[0]!r} at {start} -> {new!r} in '
                f'{data[max(0, start - 30):end + 10]!r}'), \
            data[:start] + new + data[end:]

    return replace


MUTATIONS_OF_ANY = {
    'cut': cut, 'garbage': garbage, 'non-utf8': non_utf8,
    'dup-line': dup_line, 'drop-line': drop_line,
    **{f'number-{name}': number(r) for name, r in REPLACEMENTS.items()},
}
MUTATIONS_OF_JSON = {'dup-member': dup_member, 'drop-member': drop_member}


def mutate(draw, case, mutation):
    if mutation in MUTATIONS_OF_JSON:
        return MUTATIONS_OF_JSON[mutation](draw, case.data, case.kind)

    return MUTATIONS_OF_ANY[mutation](draw, case.data)
