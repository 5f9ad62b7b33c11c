'''fio's jobs, as fio itself reads them: job files and command lines.

- A job file: ``[global]`` and job sections, ``key=value`` or ``key``
  lines, ``;`` and ``#`` comments, ``include FILE`` (no section in an
  included file), ``${VAR}`` from the environment.  A ``[global]`` section
  sets the defaults of the jobs after it.
- A command line (read in :mod:`.fiocommand`): ``--key=value`` words
  (``-key=value`` too); those before the first ``--name`` (or under
  ``--name=global``) are the defaults of every job, those of the job files
  too (fio's ``def_thread``); ``--section`` keeps only the named jobs, of
  the command line and of the files.
- A later option overrides an earlier one, and ``direct`` and ``buffered``
  are one setting: ``--direct=0 ... --buffered=0`` is O_DIRECT.
- Sizes: with ``kb_base=1024`` (the default) ``k``, ``m``, ``g`` are
  binary and ``ki``, ``mi``, ``gi`` decimal, the opposite of the SI and
  IEC prefixes (fio's HOWTO, "int"); with ``kb_base=1000``, as they say.
'''

import math
import os
import re
from dataclasses import dataclass, field

from microbench.audit import bounds, options
from microbench.audit.bounds import excerpt
from microbench.audit.findings import Unreadable, Where
from microbench.audit.fiosettings import Inherited, Settings


def canonical(name):
    '''The option an alias stands for (``readwrite``: ``rw``), as fio's
    own tables say.'''
    return options.fio_canonical().get(name, name)


@dataclass(slots=True)
class Option:
    '''One setting: its name, value (None: given bare), and where.'''

    name: str
    value: str
    where: Where
    #: ``file`` (a job file's line) or ``command line`` (a word)
    origin: str
    #: index of its first word in a command line's options (the words
    #: after the program), and how many words it takes
    word: int = None
    span: int = 1


@dataclass
class Job:
    '''One fio job: its name, the settings it inherits (shared with the
    other jobs, not copied: :mod:`.fiosettings`) and its own.'''

    name: str
    where: Where
    inherited: Inherited = field(default_factory=Inherited)
    #: the job file holding it (None: the command line)
    path: str = None
    #: its own settings: its command-line words, its section's lines
    own: list = field(default_factory=list)

    @property
    def settings(self):
        '''Every setting of the job, the inherited ones first.'''
        return [*self.inherited, *self.own]

    def last(self, *names):
        '''The last setting of any of ``names`` (aliases read as one).'''
        wanted = {canonical(n) for n in names}
        for option in reversed(self.own):
            if canonical(option.name) in wanted:
                return option
        return self.inherited.last(wanted)

    def value(self, name, default=None):
        option = self.last(name)
        if option is None:
            return default
        return option.value if option.value is not None else ''

    def flag(self, name):
        '''A boolean setting: given bare, or to a true value.'''
        option = self.last(name)
        if option is None:
            return False
        return truth(option.value)

    def direct(self):
        '''(O_DIRECT or not, the setting that decides it): ``direct`` and
        ``buffered`` are one setting, the later wins.'''
        option = self.last('direct', 'buffered')
        if option is None:
            return False, None
        on = truth(option.value)
        return (on if option.name == 'direct' else not on), option

    def kb_base(self):
        return 1000 if self.value('kb_base') == '1000' else 1024


def truth(value):
    '''fio's reading of a boolean: bare, 1, true, on, yes.'''
    if value is None or value == '':
        return True
    text = str(value).strip().lower()
    if text in ('1', 'true', 'on', 'yes'):
        return True
    if text in ('0', 'false', 'off', 'no'):
        return False
    number = re.match(r'\d+', text)
    return bool(number and any(int(digit) for digit in number[0]))


_SIZE = re.compile(r'^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]?)(i?)(b?)\s*$', re.I)
_POWERS = {'': 0, 'k': 1, 'm': 2, 'g': 3, 't': 4, 'p': 5, 'e': 6}


def size_bytes(text, kb_base=1024):
    '''Bytes of a fio size (None where it is not one: ``50%``, a range).'''
    if text is None:
        return None
    match = _SIZE.match(str(text).split(':')[0].split('-')[0])
    if not match:
        return None
    number, prefix, iec, _ = match.groups()
    power = _POWERS[prefix.lower()]
    if kb_base == 1024:
        base = 1000 if iec else 1024
    else:
        base = 1024 if iec else 1000
    size = float(number) * base ** power
    if not math.isfinite(size) or size >= MAX_SIZE:
        return None
    return int(size)


#: fio holds sizes in 64 bits: a larger one is no size it can run
MAX_SIZE = 2.0**64


_TIME = re.compile(r'^\s*(\d+(?:\.\d+)?)\s*(d|h|m|s|sec|ms|msec|us|usec)?\s*$',
                   re.I)
_SECONDS = {None: 1, 's': 1, 'sec': 1, 'm': 60, 'h': 3600, 'd': 86400,
            'ms': 1e-3, 'msec': 1e-3, 'us': 1e-6, 'usec': 1e-6}


def seconds(text):
    '''Seconds of a fio time (default unit: seconds), None if not one.'''
    if text is None:
        return None
    match = _TIME.match(str(text))
    if not match:
        return None
    unit = match[2].lower() if match[2] else None
    value = float(match[1]) * _SECONDS[unit]
    return value if math.isfinite(value) else None


def is_job_text(stripped):
    '''Whether lines (stripped, none empty) are a fio job file's:
    sections, ``name=value`` lines and comments only.'''
    return any(ln.startswith('[') for ln in stripped) and all(
        _JOB_LINE.match(ln) for ln in stripped)


#: A job file's line: a comment, a section header (or one cut short: no
#: ``]``), ``name=value`` or a bare flag; ``[mpiexec] -n 4 ior ...`` is
#: a command whose launcher a template fills in, not a section
_JOB_LINE = re.compile(r'^([;#]|\[[^\]]*\]\s*([;#].*)?$|\[[^\]]*$|'
                       r'[\w.-]+(=|$))')


#: An ioengine fio loads from a file (``external:/path/engine.so``, or a
#: path): its options are its own, not in fio's tables
EXTERNAL_ENGINE = re.compile(r'^-{0,2}ioengine\s*=\s*(?:external:|\S*/|'
                             r'\S*\.so\b)')


def check_option(name, value, where, external=False):
    '''Raise :class:`Unreadable` where fio itself would reject the option:
    an unknown one (unless an ``external`` engine, whose options fio
    learns from it, is loaded), or one given bare that needs a value.'''
    table = options.fio()
    if external and name not in table:
        return
    if name not in table:
        raise Unreadable(f'{where}: fio has no option {excerpt(name)} (fio '
                         f'would stop: "Bad option")')
    if value is None and table[name] not in options.FIO_VALUELESS:
        raise Unreadable(f'{where}: fio option {excerpt(name)} needs a '
                         f'value (fio would stop: "Option {name} requires '
                         f'an argument")')


def expand_value(value, env, reader=None, where=None):
    '''``${VAR}`` from ``env`` (fio reads the environment); unknown ones
    stay as they are.  What it adds is counted by ``reader``
    (:meth:`~.bounds.Reader.spend`).'''
    if value is None or '${' not in value:
        return value
    out = re.sub(r'\$\{(\w+)\}', lambda m: env.get(m[1], m[0]), value)
    if reader is not None and len(out) > len(value):
        reader.spend(len(out) - len(value), where)
    return out


@dataclass
class JobFile:
    '''A job file read: its path, lines, and the jobs it defines.'''

    path: str
    lines: list
    jobs: list


def read_job_file(path, text, defaults=(), sections=(), env=None,
                  reader=None, location=None):
    '''The jobs of job file ``path`` (its ``text``), each with the
    ``defaults`` (command-line settings) first; only ``sections`` where
    given.  ``reader(path)`` reads an included file (a
    :class:`~.bounds.Reader`); ``location`` is where the file is (default:
    ``path`` as the reader resolves it), the directory of its includes.

    :raises Unreadable: on a truncated or malformed file, an unknown
        option, a file that defines no job, an include missing, nested too
        deep or in a cycle.
    '''
    env = env if env is not None else {}
    jobs, inherited, current = [], Settings(canonical, defaults), None
    lines = text.splitlines()
    external = any(EXTERNAL_ENGINE.match(line.strip()) for line in lines) \
        or any(EXTERNAL_ENGINE.match(f'{o.name}={o.value}')
               for o in defaults)
    if location is None and reader is not None:
        location = reader.resolve(path)
    for number, raw, origin_path in _with_includes(path, location, lines,
                                                   reader):
        line = raw.strip()
        where = Where(origin_path, number, raw)
        if not line or line[0] in ';#':
            continue
        if line.startswith('['):
            comment = _INLINE_COMMENT.search(line)    # [job1]  # a note
            if comment:
                line = line[:comment.start()].strip()
            if not line.endswith(']') or len(line) < 3:
                raise Unreadable(f'{where}: a section header cut short '
                                 f'({excerpt(line)}): a truncated job '
                                 f'file?')
            if origin_path != path:
                raise Unreadable(f'{where}: a section in an included file '
                                 f'(fio allows none)')
            name = line[1:-1].strip()
            if current is not None and current.name != 'global':
                jobs.append(current)
            current = Job(name, where, Inherited() if name == 'global'
                          else inherited.inherited(), path)
            continue
        if current is None:
            raise Unreadable(f'{where}: an option before any section: not '
                             f'a fio job file')
        option = _file_option(line, where, env, reader, external)
        current.own.append(option)
        if current.name == 'global':
            inherited.append(option)
    if current is not None and current.name != 'global':
        jobs.append(current)
    if not jobs:
        raise Unreadable(f'{path}: no job section (only [global], or '
                         f'empty): fio would run nothing')
    if sections:
        jobs = [job for job in jobs if job.name in sections]
    return JobFile(path, lines, jobs)


#: An inline comment: ``;`` or ``#`` after a blank (``numjobs=4 ; four``)
_INLINE_COMMENT = re.compile(r'(?<=\s)[;#]')


def _file_option(line, where, env, reader, external=False):
    '''The :class:`Option` of a job file's (stripped) line.'''
    comment = _INLINE_COMMENT.search(line)
    if comment:
        line = line[:comment.start()].strip()
    key, eq, value = line.partition('=')
    key = key.strip()
    value = expand_value(value.strip(), env, reader, where) if eq else None
    if eq and value == '':
        raise Unreadable(f'{where}: {excerpt(key)}= has no value: a '
                         f'truncated job file?')
    check_option(key, value, where, external)
    return Option(key, value, where, 'file')


def _with_includes(path, location, lines, reader, chain=()):
    '''(line number, line, file) of a job file's lines, each ``include``
    replaced by the lines of the file it names (relative to the including
    file's directory, as fio reads it).  ``chain``: the real paths of the
    files including this one.'''
    here = os.path.realpath(location) if location else path
    chain = (*chain, here)
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not (stripped.startswith('include ') and reader is not None):
            yield number, raw, path
            continue
        name = stripped[len('include '):].strip()
        target = name if os.path.isabs(name) else os.path.join(
            os.path.dirname(path), name)
        found = name if os.path.isabs(name) else os.path.join(
            os.path.dirname(location or path), name)
        if len(chain) > bounds.MAX_INCLUDE_DEPTH:
            raise Unreadable(f'{path}:{number}: includes nested more than '
                             f'{bounds.MAX_INCLUDE_DEPTH} deep, what the '
                             f'audit reads')
        if os.path.realpath(found) in chain:
            raise Unreadable(f'{path}:{number}: include {excerpt(name)}: an '
                             f'include cycle (the file includes itself, '
                             f'through {len(chain)} file'
                             f'{"s" if len(chain) > 1 else ""})')
        try:
            text = reader(found)
        except FileNotFoundError:
            raise Unreadable(f'{path}:{number}: include {excerpt(name)}: no '
                             f'such file') from None
        except Unreadable as err:
            raise Unreadable(f'{path}:{number}: include {err}') from None
        yield from _with_includes(target, found, text.splitlines(), reader,
                                  chain)
