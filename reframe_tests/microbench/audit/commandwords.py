'''A command's words as its program gets them from the shell
(:mod:`.batch`): command substitutions and a template's placeholders as
one word each, ``eval``'s arguments read again as a command line, the
shell's redirects and a final ``&`` taken off, and a remote runner's
command (``ssh HOST "cd dir; ior ... > log"``) read as
the shell there reads it.'''

import re

from microbench.audit import shellflow, words
from microbench.audit.findings import Unreadable


def substituted(text):
    '''A command's text with each command substitution one word the
    shell fills in (``<date>``, ``<arithmetic>``; ``$(which ior)`` the
    program's name) and a template's placeholders (``{{ size }}``) as
    ``<size>``.'''
    text = _SPACED.sub(lambda m: '<' + '_'.join(m[1].split()) + '>',
                       _TEMPLATE.sub(r'<\1>', _inline_code(text)))
    return _OUTPUT.sub(_output_word, text)


def _inline_code(text):
    '''A command a document gives as one inline code span (a line
    `` `srun ... ior ...` `` copied from a README) without its backticks:
    no shell runs a whole line's output as a command.'''
    stripped = text.strip()
    if len(stripped) > 2 and stripped[0] == stripped[-1] == '`' and \
            '`' not in stripped[1:-1]:
        return stripped[1:-1]
    return text


#: A documentation's placeholder of several words (``-t <threads per
#: node>``): one word, its blanks as ``_`` (a redirect, ``<in >out``,
#: has a blank after ``<`` or before ``>``)
_SPACED = re.compile(r'<([A-Za-z][^<>\n]*?\s[^<>\n]*?[A-Za-z0-9])>')


def program_words(split):
    '''A command's words without the shell's redirects, a remote
    runner's command read as the remote shell reads it, ``eval``'s
    command as the shell reads it.'''
    return _remote_command(_without_redirects(_shell_c(_evaluated(split))))


def _shell_c(split):
    '''A shell given a command string to run (``bash -c "fio ..."``,
    ``docker exec c sh -c '...'``, ``srun bash -c "..."``): the words
    before it, then the string's command as that shell reads it (its
    first part that is not one of the shell's own steps).'''
    at = words.shell_string(split)
    if at is None:
        return split
    text = next((part for part in shellflow.parts(split[at])
                 if part.split() and part.split()[0] not in _SETUP),
                split[at])
    try:
        return split[:at - 2] + _without_redirects(words.split(text))
    except Unreadable:
        return split


def _evaluated(split):
    '''``eval ARGS``: bash joins its arguments with spaces and runs the
    result as a command line (``CMD="srun osu_bw > log"; eval "$CMD"``),
    its quotes and redirects read again.'''
    if not split or split[0] != 'eval':
        return split
    try:
        return words.split(' '.join(split[1:]))
    except Unreadable:
        return split[1:]


#: A word that redirects (``>``, ``2>&1``, ``>out``, ``&>log``, ``<in``)
#: and whether the file is the next word
_REDIRECT = re.compile(r'^(\d*|&)(>>?|<)(&\d+|&-)?(.*)$')


#: A placeholder of a documentation's command (``<your_dir>/bin/ior``)
_PLACEHOLDER = re.compile(r'<[^<>\s]+>')


#: A template engine's placeholder (Jinja's ``{{ name }}``): a word the
#: input leaves to its template, as ``<name>``
_TEMPLATE = re.compile(r'\{\{\s*([^{}]*?)\s*\}\}')


#: A command's output in a word (``test_`date +%s```, ``$(hostname)``),
#: or an arithmetic expansion's value (``$(( 2**$n ))``)
_OUTPUT = re.compile(r'`([^`]*)`|\$\(([^()]*)\)|\$\(\(([^()]*)\)\)')


def _output_word(match):
    '''A command substitution as one word the shell fills in at run time:
    ``<date>`` (an arithmetic expansion: ``<arithmetic>``); the program a
    lookup finds is that program (``$(which ior)``, ``$(command -v
    fio)``: its path, read as its name).'''
    if match[3] is not None:
        return '<arithmetic>'
    inner = (match[1] if match[1] is not None else match[2]).split()
    if len(inner) == 2 and inner[0] in ('which', 'type') or \
            len(inner) == 3 and inner[:2] == ['command', '-v']:
        return inner[-1]
    return f'<{inner[0].rsplit("/", 1)[-1] if inner else "output"}>'


def _remote_command(split):
    '''The words of a command run on another node (``ssh HOST "ior -w
    ... > log &"``): the remote command read as the shell there reads it,
    without its redirects.'''
    at = words.remote(split)
    if at is None:
        return split
    text = ' '.join(split[at:])
    # ssh HOST "cd dir; sudo ./fio-3.3 job.fio": the command after the
    # shell's own steps
    text = next((part for part in shellflow.parts(text) if part.split()
                 and part.split()[0] not in _SETUP), text)
    try:
        inner = words.split(text)
    except Unreadable:
        return split
    return split[:at] + _without_redirects(inner)


#: The shell's own steps before a remote command (``cd dir; ...``)
_SETUP = ('cd', 'export', 'source', '.', 'module', 'ml', 'ulimit', 'set',
          'umask', 'mkdir', 'rm', 'echo', 'sleep', 'sync', 'hostname',
          'date', 'pwd')


def _without_redirects(split):
    '''The words without redirections and a final ``&``: they are the
    shell's, not the program's.'''
    out, skip = [], False
    for word in split:
        if skip:
            skip = False
            continue
        redirect = _REDIRECT.match(word)
        if redirect and not _PLACEHOLDER.match(word):
            skip = not redirect[3] and not redirect[4]
            continue
        out.append(word)
    if out and out[-1] == '&':
        out.pop()
    return out
