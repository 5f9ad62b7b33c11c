'''JSON as the suite's formats write and read it (the compare JSON of
:mod:`.compare_json`, and through it the A/B's, the diagnosis' and the
bisection's): a number the writers never write (``NaN``, an infinity, a
number beyond a float's range) read as :class:`NotWritten` so that a
validator can name the member; values made plain for ``json``; one short
line of any value for a message.'''

import json
import math

import numpy as np


class NotWritten:
    '''A number the writer never writes (``NaN``, ``Infinity``,
    ``-Infinity``, ``1e400``), as the reader found it: :func:`validate`
    rejects the document, naming the member.'''

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text if len(self.text) <= 30 else \
            f'{self.text[:12]}...{self.text[-12:]} ({len(self.text)} ' \
            f'characters)'


def _constant(text):
    return NotWritten(text)


def _float(text):
    value = float(text)
    return value if math.isfinite(value) else NotWritten(text)


def _int(text):
    # beyond a float's range: no figure of the writer's
    return int(text) if len(text.lstrip('-')) <= 308 else NotWritten(text)


def not_written(doc):
    '''(where, value) of the first :class:`NotWritten` in ``doc``, its
    members named as ``figures[3].ratio``; None where there is none.'''
    pending = [('', doc)]
    while pending:
        where, node = pending.pop()
        if isinstance(node, NotWritten):
            return where or '(the document)', node
        if isinstance(node, dict):
            children = [(f'{where}.{shown(key, 40)}' if where
                         else shown(key, 40), value)
                        for key, value in node.items()]
        elif isinstance(node, list):
            children = [(f'{where}[{index}]', value)
                        for index, value in enumerate(node)]
        else:
            continue
        pending.extend(reversed(children))
    return None


def plain(value):
    '''``value`` as JSON holds it: numpy and pandas scalars as Python's,
    NaN as None, containers walked.'''
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, 'isoformat'):
        return value.isoformat()
    if value != value:         # pandas' NA and NaT
        return None
    return str(value)


def shown(value, longest=60):
    '''``value`` as one short line of a message: control characters
    escaped, at most ``longest`` characters.'''
    text = repr(value)[1:-1] if isinstance(value, str) else repr(value)
    return text if len(text) <= longest else f'{text[:longest - 3]}...'


def load(fp):
    '''The JSON document of ``fp``, what the writer never writes (NaN, an
    infinity, a number beyond a float's range) as :class:`NotWritten`, for
    :func:`not_written` to name (the A/B format reads the same way:
    :mod:`microbench.cause.ab_json`).

    :raises ValueError: not JSON.
    :raises RecursionError: nested too deep.
    '''
    return json.load(fp, parse_constant=_constant, parse_float=_float,
                     parse_int=_int)
