'''What the property tests of the suite's JSON readers share (compare's,
the A/B's, the diagnosis'): what a writer never writes where a number
goes, every number member of a document, "every number finite", the
mutations a document is put through and the values put into a member.'''

import math

from hypothesis import strategies as st

from mutations import MUTATIONS_OF_ANY, MUTATIONS_OF_JSON

#: What the writers never write where a number goes
NOT_WRITTEN = ('NaN', 'Infinity', '-Infinity', '1e400', '-1e400', '1E999',
               '9' * 400)


def finite(node):
    '''Every number in ``node`` (a JSON value) is finite.'''
    if isinstance(node, dict):
        return all(map(finite, node.values()))
    if isinstance(node, list):
        return all(map(finite, node))
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return math.isfinite(float(node))
    return True


def numbers(node, where=''):
    '''(where, parent, key) of every number member of ``node``.'''
    if isinstance(node, dict):
        items = [(f'{where}.{key}' if where else key, key, value)
                 for key, value in node.items()]
    elif isinstance(node, list):
        items = [(f'{where}[{index}]', index, value)
                 for index, value in enumerate(node)]
    else:
        return
    for name, key, value in items:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            yield name, node, key
        else:
            yield from numbers(value, name)


#: Every mutation a JSON document is put through (tests/helpers/mutations.py)
MUTATIONS = [*MUTATIONS_OF_ANY, *MUTATIONS_OF_JSON]

#: Any JSON value, put into a member in place of its number
VALUES = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8)


def mutated(draw, original, mutation):
    '''``original`` (bytes of a JSON document) put through ``mutation``:
    (how, the bytes).'''
    if mutation in MUTATIONS_OF_JSON:
        return MUTATIONS_OF_JSON[mutation](draw, original, 'json')
    return MUTATIONS_OF_ANY[mutation](draw, original)
