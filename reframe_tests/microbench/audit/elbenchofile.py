'''elbencho's configuration files (``elbencho -c FILE``) and its argument
lists without the program's name (a container's entrypoint is elbencho),
turned into the elbencho command they are, which the elbencho rules judge.

A configuration file is read as elbencho v3.1-9 reads it (Boost
program_options' config file parser, ``ProgArgs.cpp``): ``name=value``
lines of elbencho's long option names, ``#`` starting a comment anywhere
on a line; a switch (``bool_switch``) is on for ``1``, ``true``, ``yes``
or ``on`` and off for ``0``, ``false``, ``no`` or ``off``.  A name
elbencho does not know is refused, as elbencho refuses it.  The paths
are given on the command line, never in the file.

An argument list is elbencho's when its first word is an option or a
path, its words are elbencho's options, and one of them only elbencho
has (:data:`OWN`): ``--hosts``, ``--service``, ``--quit`` ...
'''

import re

from microbench.audit import options
from microbench.audit.findings import Unreadable

_LINE = re.compile(r'^\s*([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(.*?)\s*$')
ON = ('1', 'true', 'yes', 'on')
OFF = ('0', 'false', 'no', 'off')

#: Options no other benchmark the audit reads has: their presence makes
#: an argument list without a program elbencho's
OWN = frozenset({'--hosts', '--hostsfile', '--service', '--quit',
                 '--foreground', '--netbench', '--preallocfile',
                 '--resfile', '--svcelapsed', '--zones', '--mkdirs',
                 '--blockvarpct', '--nolive', '--nosvcshare', '--infloop',
                 '--rotatehosts', '--dirsharing'})


def _lines(text):
    '''(line number, name, value) of every option line; None where a
    line that is not blank or a comment is not ``name=value``.'''
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split('#', 1)[0]
        if not line.strip():
            continue
        match = _LINE.match(line)
        if not match:
            return None
        found.append((number, match[1], match[2].strip()))
    return found


def is_config(text):
    '''Whether ``text`` is an elbencho configuration file: every line that
    is not a comment ``name=value``, two of them at least, most of the
    names elbencho's (one it does not know is then refused by
    :func:`argv_of`, as elbencho refuses it).'''
    found = _lines(text)
    if not found or len(found) < 2:
        return False
    table = options.getopt_table('elbencho')
    known = sum(f'--{name}' in table for _, name, _ in found)
    return known >= 2 and 2 * known > len(found)


def argv_of(name, text):
    '''The elbencho command of configuration file ``name``.

    :raises Unreadable: a value a switch does not take.'''
    table = options.getopt_table('elbencho')
    argv = ['elbencho']
    for number, option, value in _lines(text) or ():
        if f'--{option}' not in table:
            raise Unreadable(f'{name}:{number}: elbencho has no option '
                             f'{option!r} (elbencho would stop: '
                             f'"unrecognised option")')
        takes_value = table[f'--{option}'][0]
        if takes_value:
            argv.append(f'--{option}={value}')
        elif value.lower() in ON:
            argv.append(f'--{option}')
        elif value.lower() not in OFF:
            raise Unreadable(f'{name}:{number}: elbencho\'s switch '
                             f'{option} takes 1 or 0, not {value!r} '
                             f'(elbencho would stop)')
    return argv


def is_argument_list(words):
    '''Whether ``words`` (no program first) are elbencho's arguments.'''
    if not words or not words[0].startswith(('-', '/')):
        return False
    table = options.getopt_table('elbencho')
    longs = {word.split('=', 1)[0] for word in words
             if word.startswith('--')}
    return bool(longs & OWN) and longs <= set(table)
