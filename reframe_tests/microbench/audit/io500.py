'''An IO500 configuration (``config.ini``) read as the IO500 driver reads
it, and the IOR and mdtest command lines it runs for each phase, which
the audit's IOR and mdtest rules then judge.

The driver (IO500/io500 ``src/phase_*.c`` @ 02091cf2) runs every phase
of its release whose ``run`` is not FALSE (in the phase's section or the
section above it: ``[ior-easy]`` above ``[ior-easy-write]``), with:

- ior-easy: ``-g -k -e -o DATADIR/ior-easy/ior_file_easy -C -Q 1 -t T -b
  B`` (``transferSize`` 2m, ``blockSize`` 9920000m), ``-F`` where
  ``filePerProc`` (TRUE), ``-u`` where ``uniqueDir``; the write ``-w -D
  300``, the read ``-r -R``;
- ior-hard: ``-C -Q 1 -g -k -e -o DATADIR/ior-hard/file -t 47008 -b 47008
  -s SEGMENTS`` (``segmentCount`` 10000000): one shared file;
- the random phases of later releases (``[ior-rnd4K]``, ``[ior-rnd1MB]``,
  ``[ior-rnd4K-easy-read]``): read here as ior-easy's, random (``-z``),
  4 KiB or 1 MiB transfers;
- mdtest-easy: ``-n N -u -L -F -P -N 1 -d DATADIR/mdtest-easy``;
  mdtest-hard: ``-n N -t -w 3901 -e 3901 -P -N 1 -F -d DATADIR/mdtest-hard``
  (its write, then stat and read);
- every command ``-a`` the phase's ``API``, else its section's, else the
  global ``api`` (POSIX), each with the words after it (``POSIX
  --posix.odirect``); ``drop-caches = TRUE`` in ``[global]`` purges the
  caches before each phase, so no read or stat is served by a cache.

The run's node count is not in a configuration: each command is judged
as under ``mpirun`` on nodes unknown.  An ini with a section IO500 does
not know is refused as IO500 refuses it ("unknown section"), naming it.
'''

import re

from microbench.audit.batch import Command
from microbench.audit.findings import Unreadable, Where

#: Every section of the IO500 releases the audit reads (ISC20 to SC24)
SECTIONS = frozenset({
    'global', 'debug', 'timestamp', 'find', 'find-easy', 'find-hard',
    'ior-easy', 'ior-easy-write', 'ior-easy-read', 'ior-hard',
    'ior-hard-write', 'ior-hard-read', 'ior-rnd4k', 'ior-rnd4k-write',
    'ior-rnd4k-read', 'ior-rnd1mb', 'ior-rnd1mb-write', 'ior-rnd1mb-read',
    'ior-rnd-read', 'ior-rnd4k-easy-read', 'mdtest-easy',
    'mdtest-easy-write', 'mdtest-easy-stat', 'mdtest-easy-delete',
    'mdtest-hard', 'mdtest-hard-write', 'mdtest-hard-stat',
    'mdtest-hard-read', 'mdtest-hard-delete', 'mdworkbench',
    'mdworkbench-create', 'mdworkbench-bench', 'mdworkbench-delete'})

#: The sections that only IO500 has (one of them makes an ini IO500's)
OWN = SECTIONS - {'global'}

#: phase -> (its section above, tool, operation, file name)
PHASES = {
    'ior-easy-write': ('ior-easy', 'ior', 'write', 'ior-easy'),
    'ior-easy-read': ('ior-easy', 'ior', 'read', 'ior-easy'),
    'ior-hard-write': ('ior-hard', 'ior', 'write', 'ior-hard'),
    'ior-hard-read': ('ior-hard', 'ior', 'read', 'ior-hard'),
    'ior-rnd4k-write': ('ior-rnd4k', 'ior', 'write', 'ior-rnd4k'),
    'ior-rnd4k-read': ('ior-rnd4k', 'ior', 'read', 'ior-rnd4k'),
    'ior-rnd1mb-write': ('ior-rnd1mb', 'ior', 'write', 'ior-rnd1mb'),
    'ior-rnd1mb-read': ('ior-rnd1mb', 'ior', 'read', 'ior-rnd1mb'),
    'ior-rnd4k-easy-read': ('ior-easy', 'ior', 'read', 'ior-rnd4k-easy'),
    'mdtest-easy-write': ('mdtest-easy', 'mdtest', 'write', 'mdtest-easy'),
    'mdtest-easy-stat': ('mdtest-easy', 'mdtest', 'stat', 'mdtest-easy'),
    'mdtest-hard-write': ('mdtest-hard', 'mdtest', 'write', 'mdtest-hard'),
    'mdtest-hard-stat': ('mdtest-hard', 'mdtest', 'stat', 'mdtest-hard'),
    'mdtest-hard-read': ('mdtest-hard', 'mdtest', 'read', 'mdtest-hard'),
}

#: The phases every release runs (the others: where their section is)
CORE = ('ior-easy-write', 'mdtest-easy-write', 'ior-hard-write',
        'mdtest-hard-write', 'ior-easy-read', 'mdtest-easy-stat',
        'ior-hard-read', 'mdtest-hard-stat', 'mdtest-hard-read')

_SECTION = re.compile(r'^\s*\[\s*([0-9A-Za-z_-]+)\s*\]\s*([#;].*)?$')
_OPTION = re.compile(r'^\s*([0-9A-Za-z_.-]+)\s*=\s*(.*?)\s*$')
_COMMENT = re.compile(r'^\s*([#;].*)?$')


def is_config(text):
    '''Whether ``text`` is an IO500 configuration: a section only IO500
    has.'''
    return any(match and match[1].lower() in OWN for match in map(
        _SECTION.match, text.splitlines()))


def parse(name, text):
    '''{section: {option: (value, line)}} and {section: its line}, as
    IO500 reads them (names without case).'''
    sections, lines, current = {}, {}, None
    for number, line in enumerate(text.splitlines(), 1):
        section = _SECTION.match(line)
        if section:
            current = section[1].lower()
            if current not in SECTIONS:
                raise Unreadable(f'{name}:{number}: IO500 knows no section '
                                 f'[{section[1]}] (it stops: "unknown '
                                 f'section")')
            sections.setdefault(current, {})
            lines.setdefault(current, number)
            continue
        if _COMMENT.match(line):
            continue
        option = _OPTION.match(line)
        if not option or current is None:
            raise Unreadable(f'{name}:{number}: not an option of a section '
                             f'of an IO500 configuration: {line.strip()!r}')
        value = option[2]
        for mark in (' #', ' ;'):
            value = value.split(mark)[0].strip()
        sections[current][option[1].lower()] = (value, number)
    return sections, lines


def _value(sections, section, key, default=''):
    value = sections.get(section, {}).get(key.lower(), ('', None))[0]
    return value if value != '' else default


def _true(value):
    return value.strip().upper() in ('TRUE', '1', 'YES')


def _runs(sections, phase, parent):
    for section in (phase, parent):
        value = _value(sections, section, 'run')
        if value and not _true(value):
            return False
    return True


def api_words(sections, phase, parent):
    '''``-a`` and the words of the phase's API.'''
    api = (_value(sections, phase, 'API') or _value(sections, parent, 'API')
           or _value(sections, 'global', 'api', 'POSIX'))
    return ['-a', *api.split()]


def phase_words(sections, phase):
    '''The words of ``phase``'s command (under ``mpirun``).'''
    parent, tool, operation, stem = PHASES[phase]
    datadir = _value(sections, 'global', 'datadir', './datafiles')
    if tool == 'mdtest':
        count = _value(sections, parent, 'n', '1000000')
        words = ['mpirun', 'mdtest', '-n', count, '-P', '-N', '1', '-F',
                 '-d', f'{datadir}/{stem}']
        words += ['-u', '-L'] if parent == 'mdtest-easy' else [
            '-t', '-w', '3901', '-e', '3901']
        words += {'write': ['-C'], 'stat': ['-T'], 'read': ['-E']}[
            operation]
        return words + api_words(sections, phase, parent)
    words = ['mpirun', 'ior', '-C', '-Q', '1', '-g', '-k', '-e']
    if parent == 'ior-hard':
        words += ['-o', f'{datadir}/{stem}/file', '-t', '47008', '-b',
                  '47008', '-s', _value(sections, parent, 'segmentCount',
                                        '10000000')]
    else:
        transfer = {'ior-rnd4k': '4k', 'ior-rnd1mb': '1m'}.get(
            parent, _value(sections, parent, 'transferSize', '2m'))
        if phase == 'ior-rnd4k-easy-read':
            transfer = '4k'
        words += ['-o', f'{datadir}/{stem}/ior_file_easy', '-t', transfer,
                  '-b', _value(sections, parent, 'blockSize', '9920000m')]
        if _true(_value(sections, parent, 'filePerProc', 'TRUE')):
            words.append('-F')
        if _true(_value(sections, parent, 'uniqueDir', 'FALSE')):
            words.append('-u')
        if parent != 'ior-easy' or phase == 'ior-rnd4k-easy-read':
            words.append('-z')
    words += ['-w', '-D', '300'] if operation == 'write' else ['-r', '-R']
    return words + api_words(sections, phase, parent)


def commands(name, text):
    '''The commands of every phase the configuration runs, each where its
    section is (or the first line); and whether caches are dropped before
    each phase.'''
    sections, lines = parse(name, text)
    dropped = _true(_value(sections, 'global', 'drop-caches', 'FALSE'))
    found = []
    for phase, (parent, _, _, _) in PHASES.items():
        if phase not in CORE and phase not in sections and \
                parent not in sections:
            continue
        if not _runs(sections, phase, parent):
            continue
        words = phase_words(sections, phase)
        line = lines.get(phase) or lines.get(parent) or 1
        where = Where(name, line, f'[{phase}] {" ".join(words[1:])}')
        found.append((phase, Command(where, words, 1, None, {})))
    return found, dropped
