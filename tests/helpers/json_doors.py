'''What the property tests of the suite's JSON readers share (compare's,
the A/B's, the diagnosis'): what a writer never writes where a number
goes, every number member of a document, and "every number finite".'''

import math

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
