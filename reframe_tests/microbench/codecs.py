'''The codecs of the record fields (:mod:`microbench.fields`): how a
field's value is written into its text and read back.

A plain field is its text (:data:`PLAIN`).  A packed field holds one value
per figure (or per setting), ``<name>=<value>`` pairs joined by ``;``
(:class:`Pairs`), each value by its own codec (:class:`Text`,
:class:`Numbers`).  This module imports nothing of ReFrame.
'''

#: The separators of a packed field: between pairs, within a pair, and
#: within a pair of the older spelling (``cold_start``, ``too_spread``)
ITEM, PAIR, OLD_PAIR = ';', '=', ': '

#: Between a figure and the node it was read on, in the name of a pair of
#: a per-node field (``write_mib_s@mbnode2``: :func:`node_key`)
AT = '@'


class Plain:
    '''The codec of a field that is its own text.'''

    def encode(self, value):
        return '' if value is None else str(value)

    def decode(self, text):
        return '' if text is None else str(text)

    read = decode


class Text:
    '''A value that is a text: not empty, no ``;``, no space at its
    ends.'''

    def encode(self, value):
        text = str(value)
        if not text.strip():
            raise ValueError('an empty value')
        if ITEM in text:
            raise ValueError(f'{text!r} holds {ITEM!r}')
        if text != text.strip():
            raise ValueError(f'{text!r} has a space at an end')
        return text

    def decode(self, text):
        text = text.strip()
        if not text:
            raise ValueError('an empty value')
        return text


class Numbers:
    '''A value that is one or more numbers, comma-separated, each written
    in ``spec`` (a format spec: ``.6g``).'''

    def __init__(self, spec, many=True):
        self.spec, self.many = spec, many

    def encode(self, value):
        try:
            values = list(value) if self.many else [value]
            text = ','.join(format(float(v), self.spec) for v in values)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f'{value!r} is not '
                             + ('numbers' if self.many else 'a number')) \
                from None
        if not values:
            raise ValueError('no number')
        return text

    def decode(self, text):
        try:
            values = tuple(float(v) for v in text.split(','))
        except ValueError:
            raise ValueError(f'{text.strip()!r} is not '
                             + ('numbers' if self.many else 'a number')
                             + ' (comma-separated)' * self.many) from None
        if not self.many and len(values) > 1:
            raise ValueError(f'{text.strip()!r} is not one number')
        return values if self.many else values[0]


class Pairs:
    '''The codec of a field that packs one value per figure,
    ``<figure>=<value>`` joined by ``;`` (each value by its own codec,
    ``value``); ``old``: it also reads ``<figure>: <value>``.'''

    def __init__(self, field, value, old=False):
        self.field, self.value, self.old = field, value, old

    def _fail(self, what):
        return ValueError(f'{self.field}: {what}')

    def encode(self, pairs):
        '''The field's text of ``pairs`` (a dict or ``(figure, value)``
        pairs, in their order; a value of None left out).

        :raises ValueError: a figure named twice, a name or a value the
            text could not give back.'''
        out, seen = [], set()
        items = pairs.items() if hasattr(pairs, 'items') else pairs
        for name, value in items:
            if value is None:
                continue
            name = str(name)
            bad = [s for s in (ITEM, PAIR, OLD_PAIR)[:2 + self.old]
                   if s in name]
            if bad or not name.strip() or name != name.strip():
                raise self._fail(f'{name!r} cannot name a figure: ' + (
                    f'it holds {bad[0]!r}' if bad else 'empty, or a space '
                    'at an end'))
            if name in seen:
                raise self._fail(f'{name} named twice')
            seen.add(name)
            try:
                out.append(f'{name}{PAIR}{self.value.encode(value)}')
            except ValueError as err:
                raise self._fail(f'{name}: {err}') from None
        return ITEM.join(out)

    def _item(self, item):
        '''(figure, value) of one pair.'''
        cuts = [(at, sep) for sep in (PAIR, OLD_PAIR)[:1 + self.old]
                for at in [item.find(sep)] if at >= 0]
        if not cuts:
            raise self._fail(f'{item.strip()!r} is not <figure>{PAIR}<value>')
        at, sep = min(cuts)
        name = item[:at].strip()
        if not name:
            raise self._fail(f'{item.strip()!r} names no figure')
        try:
            return name, self.value.decode(item[at + len(sep):])
        except ValueError as err:
            raise self._fail(f'{name}: {err}') from None

    def decode(self, text):
        '''``{figure: value}`` of the field's text ('' or None: none).

        :raises ValueError: not a text, a pair that is not one, a figure
            named twice: the field and what is wrong said.'''
        if text is None:
            return {}
        if not isinstance(text, str):
            raise self._fail(f'{type(text).__name__} {text!r} is not a text')
        out = {}
        for item in text.split(ITEM):
            if item.strip():
                name, value = self._item(item)
                if name in out:
                    raise self._fail(f'{name} named twice')
                out[name] = value
        return out

    def read(self, text):
        '''``{figure: value}`` of every pair of the field's text that
        decodes (the last of a figure named twice); anything else, and a
        value that is not a text, left out: a reader of records never
        fails on one.'''
        out = {}
        for item in (text.split(ITEM) if isinstance(text, str) else ()):
            try:
                name, value = self._item(item)
            except ValueError:
                continue
            out[name] = value
        return out


def node_key(figure, node):
    '''The name of ``figure`` read on ``node`` in a per-node field
    (``write_mib_s@mbnode2``).

    :raises ValueError: a figure or node name holding :data:`AT`.'''
    figure, node = str(figure), str(node)
    if AT in figure or AT in node or not figure or not node:
        raise ValueError(f'{figure!r} on {node!r} cannot be a per-node name '
                         f'(neither may be empty or hold {AT!r})')
    return f'{figure}{AT}{node}'


def split_node_key(name):
    '''``(figure, node)`` of a per-node name (:func:`node_key`).

    :raises ValueError: a name that is not ``<figure>@<node>``.'''
    figure, at, node = str(name).rpartition(AT)
    if not at or not figure or not node or AT in figure:
        raise ValueError(f'{name!r} is not <figure>{AT}<node>')
    return figure, node


#: The codec of a plain field
PLAIN = Plain()
