'''A script's variables: the values it sets as it runs, and their
expansion in a command (``$NAME``, ``${NAME}``, ``${NAME:-default}``),
both in time and memory linear in the script.'''

import bisect
import re
import shlex
from collections.abc import Mapping

from microbench.audit import shellwords

#: A variable: ``${NAME``, an array's ``[@]``, ``[*]`` or ``[0]``, then
#: ``}`` or ``:-default}`` (read by :func:`expand`), or ``$NAME``
_VAR = re.compile(r'\$(?:\{(\w+)(\[(?:[@*]|\d{1,6})\])?(:-)?|(\w+))')
#: An array's elements quoted whole (``"${ARGS[@]}"``): each its own word
_QUOTED_ARRAY = re.compile(r'"(\$\{\w+\[[@*]\]\})"')


class Environment:
    '''A script's variables as it runs, every value each took: a command
    keeps the values set before it (:meth:`view`) without a copy of them
    all (copies made a script of N assignments and N commands hold N x N
    values).'''

    def __init__(self, initial=None):
        self.version = 0
        self._history = {}       # name -> ([version], [value])
        for name, value in (initial or {}).items():
            self.set(name, value)

    def set(self, name, value):
        self.version += 1
        versions, values = self._history.setdefault(name, ([], []))
        versions.append(self.version)
        values.append(value)

    def view(self):
        '''The variables as they are now, unchanged by later settings.'''
        return View(self._history, self.version)


class View(Mapping):
    '''The variables of an :class:`Environment` at one version.'''

    def __init__(self, history, version):
        self._history = history
        self._version = version

    def __getitem__(self, name):
        versions, values = self._history.get(name, ((), ()))
        at = bisect.bisect_right(versions, self._version) - 1
        if at < 0:
            raise KeyError(name)
        return values[at]

    def __iter__(self):
        return (name for name in self._history if name in self)

    def __len__(self):
        return sum(1 for _ in self)


def expand(text, env, reader=None, where=None):
    '''``$NAME``, ``${NAME}`` and ``${NAME:-default}`` from ``env``;
    unknown ones stay as written.  Linear in the text: the ``}`` closing a
    default is looked for once, not from every ``${`` (a line of many
    unclosed ``${A:-`` scanned to its end from each).  What it adds is
    counted by ``reader`` (:meth:`~.bounds.Reader.spend`).'''
    if '$' not in text:
        return text
    if '[' in text:
        text = _QUOTED_ARRAY.sub(r'\1', text)
    out, at, close = [], 0, -1
    for match in _VAR.finditer(text):
        if match.start() < at:
            continue                     # inside a default already read
        name, end, default = match[1] or match[4], match.end(), None
        if match[1] is not None and match[3]:
            if close < end:
                close = text.find('}', end)
                close = len(text) if close < 0 else close
            if close == len(text):
                continue                 # no closing brace: as written
            default, end = text[end:close], close + 1
        elif match[1] is not None:
            if not text.startswith('}', end):
                continue
            end += 1
        value = env[name] if name in env else (
            default if default is not None else text[match.start():end])
        if match[2] and match[2][1].isdigit() and name in env:
            value = _element(value, int(match[2][1:-1]))
        out.append(text[at:match.start()])
        out.append(value)
        at = end
    out.append(text[at:])
    expanded = ''.join(out)
    if reader is not None and len(expanded) > len(text):
        reader.spend(len(expanded) - len(text), where)
    return expanded


def _element(value, index):
    '''Element ``index`` of an array kept as its quoted elements (a plain
    variable is its own element 0).'''
    try:
        elements = shellwords.split(value)
    except ValueError:
        return ''
    return shlex.quote(elements[index]) if index < len(elements) else ''
