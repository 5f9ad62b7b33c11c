'''Reading a tool's output safely, and the checks every parsed value passes.

Every parser of the suite is pure (text in, a run out) and uses these
helpers, so that one kind of bad output is rejected the same way whatever
the tool: bytes that are not UTF-8, a file cut inside a line, JSON with
NaN, infinities or a member given twice, a number that is not finite or
not positive, a phase or a message size missing or given twice, a success
marker missing, an error line of the tool (also behind a rank label such as
``srun --label``'s ``0: ``).  Every rejection is an :class:`OutputError`.
'''

import json
import math
import os
import re

#: A decimal number as tools print them: no NaN, no infinity, no ``1_000``
_NUMBER = re.compile(r'[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?')

#: Control characters no tool prints in its text output (a tab may be)
_CONTROL = re.compile(r'[\x00-\x08\x0b-\x1f\x7f-\x9f]')

#: How any program that crashed says so (C's assert, the shell, MPI's
#: abort and its launcher's bad termination).
#: Every pattern of the suite runs in time linear in the line: one ``.*``
#: at most, and the assertion's first ``: Assertion `` taken atomically
#: (a lookahead and its backreference, Python 3.10's atomic group: a later
#: one cannot end in a ``failed`` the first misses),
#: so a 10 MB line of ``: Assertion `` costs milliseconds, not minutes
CRASHES = re.compile(r'^((?=(.*?: Assertion ))\2.* failed|'
                     r'.*Segmentation fault|.*core dumped|Abort\(|'
                     r'.*MPI_Abort|.*BAD TERMINATION|.*Fatal error in )')

#: The label a launcher puts before every line of a rank: ``0: `` (srun
#: --label), ``[0] `` (MPICH -prepend-rank), ``[1,0]<stderr>:`` (Open MPI
#: --tag-output)
_RANK_LABEL = re.compile(r'^(\s*\d+: |\[\d+\] ?|\[\d+,\d+\]<\w+>: ?)')


class OutputError(ValueError):
    '''A tool's output cannot be trusted; the message says why.

    :attr:`file` names the file the output came from, where known.
    '''

    def __init__(self, message, file=None):
        super().__init__(message)
        self.file = file


def decode(data):
    '''``data`` (bytes) as text; tools print UTF-8 (ASCII, mostly).'''
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as err:
        raise OutputError(f'byte {err.start} is not UTF-8 '
                          f'({data[err.start:err.start + 1]!r}): the output '
                          f'is corrupted or not text') from None


def read(path):
    '''The text of the file at ``path``.'''
    try:
        with open(path, 'rb') as fp:
            data = fp.read()
    except FileNotFoundError:
        raise OutputError('no such file: the tool did not write it',
                          path) from None
    except OSError as err:
        raise OutputError(f'cannot read it: {err.strerror}', path) from None

    try:
        return decode(data)
    except OutputError as err:
        raise OutputError(str(err), path) from None


def lines(text):
    '''The lines of a line-oriented output, split at newlines only.  The
    output must end with a newline (a last line without one was cut, perhaps
    inside a number) and hold no control character but tabs (Python would
    split lines or fields at some of them, turning 12.43 into 12).'''
    if not text.strip():
        raise OutputError('the output is empty')

    if not text.endswith('\n'):
        raise OutputError(f'the last line {text.split(chr(10))[-1][-60:]!r} '
                          f'does not end: the output was cut')

    found = text.split('\n')[:-1]
    for num, line in enumerate(found, start=1):
        control = _CONTROL.search(line)
        if control:
            raise OutputError(f'line {num} holds the control character '
                              f'{control.group()!r}: the output is corrupted')

    return found


def _constant(name):
    raise OutputError(f'the JSON holds {name}, not a number')


def _unique(pairs):
    members = {}
    for key, value in pairs:
        if key in members:
            raise OutputError(f'the JSON member "{key}" is given twice: two '
                              f'runs in one file, or a corrupted one')

        members[key] = value

    return members


def load_json(text):
    '''One JSON document, with no NaN or infinity and no member twice.'''
    if not text.strip():
        raise OutputError('the output is empty')

    try:
        return json.loads(text, parse_constant=_constant,
                          object_pairs_hook=_unique)
    except json.JSONDecodeError as err:
        what = ('more than one JSON document (an appended or stale file?)'
                if err.msg == 'Extra data' else 'not valid JSON (cut short?)')
        raise OutputError(f'{what}: {err}') from None
    except RecursionError:
        raise OutputError('JSON nested too deeply') from None
    except ValueError as err:
        # Python's limit on the digits of an integer read from a string
        raise OutputError(f'the JSON holds a number no tool prints: '
                          f'{err}') from None


def member(obj, key, where):
    '''``obj[key]``, where ``obj`` must be a JSON object (list index too).'''
    try:
        return obj[key]
    except (KeyError, IndexError, TypeError):
        raise OutputError(f'{where} has no "{key}": the output is not '
                          f'complete') from None


def number(value, what, positive=True, integer=False):
    '''A finite number from a token or a JSON value: > 0 (``positive``)
    or >= 0 (not), an int where ``integer``.'''
    if isinstance(value, str):
        token = value.strip(' \t')
        if not _NUMBER.fullmatch(token):
            raise OutputError(f'{what} is {value!r:.60}, not a number')

        value = float(token)
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OutputError(f'{what} is {value!r}, not a number')

    try:
        as_float = float(value)
    except OverflowError:
        raise OutputError(f'{what} is an integer of {value.bit_length()} '
                          f'bits, too large for any figure') from None

    if not math.isfinite(as_float):
        raise OutputError(f'{what} is {value}, not a finite number')

    if as_float < 0 or positive and as_float == 0:
        raise OutputError(f'{what} is {as_float:g}: it must be '
                          f'{"positive" if positive else "zero or more"}')

    if integer:
        if isinstance(value, int):
            return value

        if as_float != int(as_float):
            raise OutputError(f'{what} is {as_float:g}, not a whole number')

        return int(as_float)

    return as_float


def once(found, what):
    '''The one item of ``found``, which must hold exactly one.'''
    if len(found) == 1:
        return found[0]

    if not found:
        raise OutputError(f'no {what}: the output is not complete')

    raise OutputError(f'{what} given {len(found)} times where one was asked: '
                      f'more than one run in one file, or a corrupted one')


def unlabelled(line):
    '''``line`` without the rank label a launcher may put before it.'''
    return _RANK_LABEL.sub('', line, count=1)


def error_lines(text, pattern):
    '''The lines of ``text`` in which ``pattern`` (a compiled regex) is
    found, once any rank label is taken off, each from where the pattern
    starts; first first.'''
    found = []
    for line in text.splitlines():
        line = unlabelled(line).strip()
        match = pattern.search(line)
        if match:
            found.append(line[match.start():])

    return found


def reject_errors(text, pattern, tool):
    '''Raise if ``text`` holds an error line of ``tool`` (``pattern``) or a
    crash, whatever its exit status was.'''
    found = error_lines(text, pattern) or error_lines(text, CRASHES)
    if found:
        raise OutputError(f'{tool} printed an error: {found[0]}')


def last_line(text):
    '''The last non-empty line of ``text``, or ''.'''
    found = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return found[-1] if found else ''


def diagnosis(texts, errors, warnings=None):
    '''What a failed tool said, from its outputs ``texts`` (standard error
    last): its first error line (``errors``, a compiled regex), else its
    first warning (``warnings``), else the last line of standard error,
    else of the other outputs; '' if it said nothing.'''
    for pattern in (errors, warnings):
        if pattern is None:
            continue

        for text in texts:
            found = error_lines(text, pattern)
            if found:
                return found[0]

    for text in reversed(texts):
        said = last_line(text)
        if said:
            return said

    return ''


def same_command(said, asked, tool, what='the output is'):
    '''Raise unless ``said``, the argv a tool states it ran, is the
    ``asked`` argv: the same program, then the same words (one the shell
    expands, with a ``$``, may be anything).  ``what`` names what stated
    it (``the output is``, ``the results are``).'''
    if os.path.basename(said[0]) != os.path.basename(asked[0]):
        raise OutputError(f'{what} of {said[0]!r}, not of the asked '
                          f'{asked[0]!r}: another program')

    ran = ' '.join(said[1:])
    if len(said) != len(asked):
        raise OutputError(f'{tool} ran as "{ran}", {len(said) - 1} '
                          f'arguments, not the asked "{" ".join(asked[1:])}" '
                          f'({len(asked) - 1}): {what} of another command')

    for num, (word, wanted) in enumerate(zip(said, asked)):
        if num and '$' not in wanted and word != wanted:
            raise OutputError(f'{tool} ran as "{ran}": its argument {num} is '
                              f'{word!r}, not the asked {wanted!r}: {what} '
                              f'of another command')
