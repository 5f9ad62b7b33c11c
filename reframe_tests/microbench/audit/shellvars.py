'''A script's variables: the values it sets as it runs, and their
expansion in a command (``$NAME``, ``${NAME}``, ``${NAME:-default}``,
``${!NAME}``: the variable NAME names), both in time and memory linear
in the script.'''

import bisect
import re
import shlex
from collections.abc import Mapping

from microbench.audit import shellwords

#: A variable: ``${NAME``, an array's ``[@]``, ``[*]`` or ``[0]``, then
#: ``}`` or ``:-default}`` (read by :func:`expand`), or ``$NAME``; the
#: ``!`` of an indirect one (``${!NAME}``) apart
_VAR = re.compile(r'\$(?:\{(!?)(\w+)(\[(?:[@*]|\d{1,6})\])?(:-)?|(\w+))')
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
        #: variables a loop sets from its own variable, kept as written
        #: (:func:`.shellloops.derive`)
        self.derived = set()
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
        braced, name, end, default = (match[2] is not None,
                                      match[2] or match[5], match.end(),
                                      None)
        if braced and match[4]:
            if close < end:
                close = text.find('}', end)
                close = len(text) if close < 0 else close
            if close == len(text):
                continue                 # no closing brace: as written
            default, end = text[end:close], close + 1
        elif braced:
            if not text.startswith('}', end):
                continue
            end += 1
        if match[1]:
            name = _indirect(name, env, bool(match[3]))
        value = env[name] if name in env else (
            default if default is not None else text[match.start():end])
        if match[3] and match[3][1].isdigit() and name in env:
            value = _element(value, int(match[3][1:-1]))
        out.append(text[at:match.start()])
        out.append(value)
        at = end
    out.append(text[at:])
    expanded = ''.join(out)
    if reader is not None and len(expanded) > len(text):
        reader.spend(len(expanded) - len(text), where)
    return expanded


#: The longest value an indirect expansion expands to find a name in (a
#: name is short: a long value is not expanded for each use of it)
_NAME_CHARS = 256


def _indirect(name, env, subscripted):
    '''The variable ``${!NAME}`` names: the value of NAME where it is a
    variable's name, else none (an array's indices, ``${!NAME[@]}``, and
    the unknown stay as written).'''
    target = env[name] if name in env and not subscripted else None
    if target and '$' in target and len(target) <= _NAME_CHARS:
        target = expand(target, env)    # cmd="${TEST}_CMD" in a loop
    return target if target and re.fullmatch(r'[A-Za-z_]\w*', target) \
        else '!' + name            # no variable has that name


def _element(value, index):
    '''Element ``index`` of an array kept as its quoted elements (a plain
    variable is its own element 0).'''
    try:
        elements = shellwords.split(value)
    except ValueError:
        return ''
    return shlex.quote(elements[index]) if index < len(elements) else ''
