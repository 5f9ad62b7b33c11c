'''A script's bash arrays: ``ARGS=(--rw=write --bs=4k)``, on one line or
several, ``ARGS+=(--direct=1)``, and their use in a command
(``fio "${ARGS[@]}"``, ``${CMD[*]}``, ``${CMD[0]}``: expanded by
:func:`.shellvars.expand`).  An array is kept as its elements, each
quoted as the shell would need it, so that splitting the expanded command
gives each element as one word.'''

import re
import shlex

from microbench.audit import shellvars, shellwords
from microbench.audit.findings import Unreadable

#: An array's assignment: ``NAME=(``, ``NAME+=(``, ``local NAME=(``,
#: ``declare -a NAME=(``, then its elements
_START = re.compile(r'^(?:local\s+|declare\s+-a\s+)?(\w+)(\+?)=\((.*)$',
                    re.DOTALL)


def gather(stripped, lines):
    '''The whole assignment of an array that starts on ``stripped`` and
    goes on over the next of ``lines`` (an iterator of (number, line))
    until its ``)``; the line itself where it is no such start.'''
    if not _START.match(stripped) or stripped.rstrip().endswith(')'):
        return stripped
    parts = [_without_comment(stripped)]
    for _, line in lines:
        line = _without_comment(line.strip())
        if line:
            parts.append(line)
        if line.endswith(')'):
            break
    return ' '.join(parts)


#: A line's pieces: quoted strings, escapes, a comment (``#`` at a word's
#: start), anything else
_PIECE = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"|\\.|(?:^|(?<=\s))#.*|"
                    r"[^'\"\\#]+|.", re.DOTALL)


def _without_comment(line):
    '''The line without its comment (not a ``#`` inside quotes or a
    word).'''
    for match in _PIECE.finditer(line):
        if match[0].startswith('#') and (match.start() == 0 or
                                         line[match.start() - 1].isspace()):
            return line[:match.start()].rstrip()
    return line


def assign(part, env, scope, reader=None, where=None):
    '''Set the array a part assigns (in ``env``, its elements expanded
    from ``scope``); True where the part is such an assignment.'''
    match = _START.match(part)
    if match is None or not part.rstrip().endswith(')'):
        return False
    inner = match[3].rstrip()[:-1]
    try:
        elements = shellwords.split(shellvars.expand(inner, scope, reader,
                                                     where))
    except (ValueError, Unreadable):
        return False
    value = ' '.join(shlex.quote(element) for element in elements)
    if match[2]:
        value = f'{scope.get(match[1], "")} {value}'.strip()
    env.set(match[1], value)
    return True
