'''How a script's lines run, beyond one command a line: here-documents
(a file the script writes, read as text, never as commands), test
expressions (``[[ ... ]]``, ``[ ... ]``: no command in them), an
``exit`` at the top level (nothing after it runs), and its shell
functions that run the command they are given (``myrun "ior -w ..."``
whose body runs ``$mpirun $1``): a call is read as the command the
function runs.  Each in time linear in the script.'''

import re

#: A here-document's start: ``<< EOF``, ``<<-'EOF'`` (not ``<<<``)
_HEREDOC = re.compile(r'(?<!<)<<(-?)\s*([\'"]?)(\w+)\2')
#: The file a line writes (``> file``, not ``2>&1``)
_TARGET = re.compile(r'(?<![\w<>&])>>?\s*([^\s;&|<>]+)')
#: A test expression, where no command runs
CONDITION = re.compile(r'\[\[.*?\]\]|(?<!\S)\[\s.*?\s\](?!\S)')
#: A shell function's name and parentheses: ``function name``, ``name()``
#: (what follows is checked apart: two blank runs side by side in one
#: expression were quadratic on a line of blanks)
_FUNCTION = re.compile(r'^\s*(?:function\s+([\w.-]+)(?:\s*\(\s*\))?|'
                       r'([\w.-]+)\s*\(\s*\))')
#: An ``exit`` that ends the script
_EXIT = re.compile(r'^exit(\s+\d+)?\s*;?$')
#: The arguments a function's body passes on (``$1``, ``"$@"``,
#: ``${@:2}``: from the second on)
_ARGUMENTS = re.compile(r'"?\$(?:\{?[1-9]\}?|@|\*|\{[@*]\}|'
                        r'\{[@*]:[1-9]\d?\})"?')
#: ``shift`` and how many it drops
_SHIFT = re.compile(r'^shift(?:\s+([1-9]))?\s*;?$')
#: Words that start no benchmark in a function's body
_NOT_RUNNERS = ('echo', 'printf', 'local', 'return', 'shift', 'test', '[',
                '[[', 'declare', 'export', 'set', 'cd', 'mkdir', 'rm', 'cp')


#: ``set -e`` (``set -euo pipefail``, ``set -o errexit``) and ``set +e``
_SET_E = re.compile(r'^set\s+(?:([-+])\w*e\w*\b|([-+])o\s+errexit\b)')


def errexit(stripped):
    '''True where a line turns ``set -e`` on, False where ``set +e``
    turns it off, else None.'''
    match = _SET_E.match(stripped)
    if match is None:
        return None
    return (match[1] or match[2]) == '-'


#: What :func:`parts` reads a line as: quoted strings, escapes, command
#: substitutions' bounds, separators, and runs of anything else
_TOKEN = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"|\\.|\$\(|`|\(|\)|"
                    r"&&|\|\||;|\||[^'\"\\$`()&|;]+|.", re.DOTALL)


def parts(line):
    '''The commands of a line, split at ``&&``, ``||``, ``;`` and ``|``
    where the shell splits it: not inside quotes, nor inside a command
    substitution (``R=$(fio ... | grep iops)`` is one command, whose
    own parts are its substitution's).  Linear in the line.'''
    out, start, depth, backtick = [], 0, 0, False
    for match in _TOKEN.finditer(line):
        token = match[0]
        if token == '`':
            backtick = not backtick
        elif backtick:
            continue
        elif token == '$(' or (token == '(' and depth):
            depth += 1
        elif token == ')' and depth:
            depth -= 1
        elif not depth and token in ('&&', '||', ';', '|'):
            out.append(line[start:match.start()])
            start = match.end()
    out.append(line[start:])
    return out


#: A group's opening: ``{ cmd; }``, ``( cmd )`` (not ``((`` arithmetic)
_GROUP_OPEN = re.compile(r'^(?:\{\s+|\((?!\())\s*')
#: A group's closing, with the redirects or nothing after it (``} >> log
#: 2>&1``, ``) 2>&1``)
_GROUP_CLOSE = re.compile(r'^[})](?:\s+|$)(?:\d*[<>&].*)?$')


def ungrouped(part):
    '''A part of a line without the braces or parentheses that group it
    with others (``{ time -p srun osu_bw ; } >> out``: ``time -p srun
    osu_bw``); a group's closing alone is no command ('').'''
    if _GROUP_CLOSE.match(part):
        return ''
    part = _GROUP_OPEN.sub('', part)
    if re.search(r'\s\)$', part) and part.count(')') > part.count('('):
        part = part[:-1].rstrip()      # ( cd dir && ior ... ), not a case's
    return part                        # pattern (ior) ... ;;)


def heredoc(line):
    '''(its terminator, whether tabs are stripped, the file it writes or
    None) of a line that starts a here-document, else None.'''
    match = _HEREDOC.search(line)
    if match is None:
        return None
    rest = line[:match.start()] + ' ' + line[match.end():]
    target = _TARGET.search(rest)
    return match[3], match[1] == '-', target[1] if target else None


def without_conditions(line):
    '''The line without its test expressions.'''
    return CONDITION.sub(' ', line) if '[' in line else line


def is_exit(stripped):
    '''Whether a line is an ``exit`` on its own.'''
    return _EXIT.match(stripped) is not None


def function_head(stripped):
    '''(the name, whether its ``{`` is on the line) of a function's head,
    else None.'''
    match = _FUNCTION.match(stripped)
    if match is None:
        return None
    rest = stripped[match.end():].strip()
    if rest not in ('', '{'):
        return None
    return match[1] or match[2], rest == '{'


def one_line_function(stripped):
    '''(its name, its body) of a function on one line (``name() { body;
    }``), else None.'''
    match = _FUNCTION.match(stripped)
    if match is None:
        return None
    rest = stripped[match.end():].strip()
    if not rest.startswith('{') or rest[1:2] not in (' ', '\t'):
        return None
    rest = rest.rstrip(';').rstrip()
    if not rest.endswith('}'):
        return None
    body = rest[1:-1].strip().rstrip(';').rstrip()
    return (match[1] or match[2], body) if body else None


class Functions:
    '''The script's functions that run what they are given: name ->
    the command their body runs, its arguments as ``$1``, ``$@``.'''

    def __init__(self):
        self.runners = {}
        self._body = None         # (name, {variable: value}) while inside
        self._assigned = {}
        self._shift = 0

    def enter(self, name):
        self._body = name
        self._assigned = {}
        self._shift = 0

    def leave(self):
        self._body = None
        self._assigned = {}
        self._shift = 0

    @property
    def inside(self):
        return self._body is not None

    def _locals(self, text):
        '''``text`` with the body's variables set so far in place.'''
        if not self._assigned:
            return text

        def value(match):
            name = match[1] or match[2]
            return self._assigned.get(name, match[0])
        return re.sub(r'\$\{(\w+)\}|\$([A-Za-z_]\w*)', value, text)

    def _shifted(self, text):
        '''``text`` with its arguments as the call gives them, after the
        ``shift`` read so far (``$1`` after one shift is the second).'''
        if not self._shift:
            return text

        def moved(match):
            inner = match[0].strip('"').strip('$').strip('{}')
            if inner[0] in '@*':
                start = int(inner[2:]) if ':' in inner else 1
                return f'"${{@:{start + self._shift}}}"'
            return f'${{{int(inner) + self._shift}}}'
        return _ARGUMENTS.sub(moved, text)

    def read(self, stripped):
        '''Note a line of the body being read: an assignment, a
        ``shift``, or a command that runs the function's arguments; True
        for that command (it runs when the function is called, with
        them, not where it is defined).'''
        if self._body is None or self._body in self.runners:
            return False
        shift = _SHIFT.match(stripped)
        if shift:
            self._shift += int(shift[1] or 1)
            return False
        assignment = re.match(r'^(?:local\s+)?(\w+)=(.*)$', stripped)
        if assignment:
            value = assignment[2].strip()
            if len(value) > 1 and value[0] == value[-1] and value[0] in '"\'':
                value = value[1:-1]
            self._assigned[assignment[1]] = self._locals(
                self._shifted(value))
            return False
        if stripped.startswith('eval '):
            stripped = stripped[len('eval '):].strip()     # eval $CMD
        first = stripped.split(None, 1)[0] if stripped.split() else ''
        variable = re.fullmatch(r'\$\{?(\w+)\}?', first)
        if variable and variable[1] in self._assigned and _ARGUMENTS.search(
                self._assigned[variable[1]]):
            tail = self._locals(self._shifted(stripped[len(first):]))
            self.runners[self._body] = self._assigned[variable[1]] + tail
            return True
        if first not in _NOT_RUNNERS and _ARGUMENTS.search(stripped):
            self.runners[self._body] = self._locals(self._shifted(stripped))
            return True
        return False

    def call(self, arguments):
        '''The command a call runs (``arguments``: the call's words, the
        function's name first), or None where the function runs none.'''
        template = self.runners.get(arguments[0]) if arguments else None
        if template is None:
            return None
        given = arguments[1:]

        def argument(match):
            text = match[0].strip('"')
            inner = text.strip('$').strip('{}')
            if inner[0] in '@*':
                start = int(inner[2:]) if ':' in inner else 1
                return ' '.join(given[start - 1:])
            index = int(inner)
            return given[index - 1] if index <= len(given) else ''
        return _ARGUMENTS.sub(argument, template)
