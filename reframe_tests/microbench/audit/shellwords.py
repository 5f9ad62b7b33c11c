'''Shell words and logical lines in time linear in the text.

:func:`split` gives exactly the words of ``shlex.split(text,
comments=True)`` (POSIX mode: quotes removed, a backslash escaping the
next character outside quotes and only ``\\`` or ``"`` inside double
quotes, a ``#`` ending the word and the line), and raises the same
``ValueError`` on an unbalanced quote or a trailing backslash.  shlex
builds each word one character at a time (``token = token + char`` on
an attribute, which CPython cannot extend in place): a word of 2 MiB took
about a minute.  Here each run of ordinary characters, each quoted string
and each escape is one regular-expression match, and a word is joined
once.  tests/audit/test_audit_properties.py checks the two agree on
generated text.
'''

import re

#: shlex's whitespace in POSIX mode (nothing else separates words)
WHITESPACE = ' \t\r\n'

_PLAIN = '[^ \\t\\r\\n\'"\\\\#]+'
#: One piece of a line: blanks, a comment (to the end of its line), a
#: single-quoted string, a double-quoted one (escapes kept for later), an
#: escaped character, or a run of ordinary characters
_PIECE = re.compile(
    '(?P<space>[ \\t\\r\\n]+)'
    '|(?P<comment>#[^\\n]*\\n?)'
    "|'(?P<single>[^']*)'"
    '|"(?P<double>[^"\\\\]*(?:\\\\[\\s\\S][^"\\\\]*)*)"'
    '|\\\\(?P<escaped>[\\s\\S])'
    f'|(?P<plain>{_PLAIN})')

#: A double-quoted string that does not close, up to where it fails
_OPEN_DOUBLE = re.compile('"[^"\\\\]*(?:\\\\[\\s\\S][^"\\\\]*)*')

#: An escape inside double quotes: only ``\\`` and ``"`` lose the backslash
_DOUBLE_ESCAPE = re.compile('\\\\([\\s\\S])')


def _unescape_double(text):
    return _DOUBLE_ESCAPE.sub(
        lambda m: m[1] if m[1] in '\\"' else m[0], text)


def _failure(text, at):
    '''shlex's message where no piece matches at ``at``.'''
    if text[at] == "'":
        return 'No closing quotation'
    if text[at] == '"':
        end = _OPEN_DOUBLE.match(text, at).end()
        return ('No closing quotation' if end == len(text)
                else 'No escaped character')
    return 'No escaped character'       # a backslash ends the text


def split(text):
    '''The words of ``text``, as ``shlex.split(text, comments=True)``.

    :raises ValueError: on an unbalanced quote (``No closing
        quotation``) or a trailing backslash (``No escaped character``).
    '''
    found, parts, quoted = [], [], False
    at, end = 0, len(text)
    while at < end:
        piece = _PIECE.match(text, at)
        if piece is None:
            raise ValueError(_failure(text, at))
        kind = piece.lastgroup
        if kind in ('space', 'comment'):
            if parts or quoted:
                found.append(''.join(parts))
            parts, quoted = [], False
        elif kind == 'single':
            parts.append(piece['single'])
            quoted = True
        elif kind == 'double':
            parts.append(_unescape_double(piece['double']))
            quoted = True
        else:
            parts.append(piece[kind])
        at = piece.end()
    if parts or quoted:
        found.append(''.join(parts))
    return found


def lines(text):
    '''[(line number, logical line)] of ``text``: backslash continuations
    joined, numbered by their first line.  Each logical line is joined
    once, from its pieces: ten thousand continuations are one join, not
    ten thousand copies of a growing line.'''
    out, pending, start = [], [], None
    for number, line in enumerate(text.splitlines(), start=1):
        if start is None:
            start = number
        if line.endswith('\\') and not line.endswith('\\\\'):
            pending.append(line[:-1])
            pending.append(' ')
            continue
        pending.append(line)
        out.append((start, ''.join(pending)))
        pending, start = [], None
    if pending:
        out.append((start, ''.join(pending)))
    return out
