'''The audit's caps, in one place, and the reading of files within them.

``microbench audit`` runs on what anyone hands it, on a login node: it
must never hang, fill the memory or flood the terminal.  Its work is
linear in its input, and these caps bound what an input can make it
read, expand or write (docs/operators/audit.md, "Bounds"; measured by
bench/audit_bounds.py):

- a file is read to :data:`MAX_FILE_BYTES` at most, and an input with
  everything it includes or names to :data:`MAX_INPUT_BYTES`; past either,
  the input is refused in one line (a command line, a job file or a
  batch script is a few KiB);
- only regular files are read, besides the input itself, which may also
  be a pipe (standard input, ``<(...)``): a device (``/dev/zero``), a
  FIFO or a directory is refused before it is read, so nothing blocks;
- ``include`` nests :data:`MAX_INCLUDE_DEPTH` deep and an input reads
  :data:`MAX_FILES` files besides itself; an include cycle is refused;
- a script's loops nest :data:`MAX_LOOP_DEPTH` deep, a sweep of loop
  variables is judged for its first :data:`MAX_SWEEP` configurations, and
  variables and sweeps add :data:`MAX_EXPANSION_BYTES` of commands to an
  input at most;
- a fio input's realistic forms: while its jobs times its bytes stay
  within :data:`WHOLE_REWRITE_BYTES`, each job's realistic form is the
  whole input rewritten; past that, each job's own section (or words);
- the first :data:`MAX_INVOCATIONS` invocations of an input are judged,
  the others counted in a ``not judged`` line; a command of more than
  :data:`MAX_OPTIONS` options is refused;
- text quoted from the input in a message is cut to
  :data:`EXCERPT_CHARS`, and an invocation's line in a report to
  :data:`LINE_CHARS`.
'''

import errno
import os
import stat

from microbench.audit.findings import Unreadable

MIB = 2**20

#: The bytes read of one file (an input, an include, a job file it names)
MAX_FILE_BYTES = 4 * MIB
#: The bytes read for one input: itself, its includes and job files
MAX_INPUT_BYTES = 8 * MIB
#: The files one input reads besides itself (includes, job files)
MAX_FILES = 64
#: How deep ``include`` nests
MAX_INCLUDE_DEPTH = 8
#: How deep a script's loops nest
MAX_LOOP_DEPTH = 32
#: The configurations of one sweep (a command using loop variables)
#: that are judged
MAX_SWEEP = 256
#: The bytes of commands variables and sweeps may add to one input
MAX_EXPANSION_BYTES = 1 * MIB
#: jobs x bytes of a fio input up to which every job's realistic form is
#: the whole input rewritten
WHOLE_REWRITE_BYTES = 1 * MIB
#: The invocations of one input judged (fio itself runs 4096 jobs at most)
MAX_INVOCATIONS = 10000
#: Commands of one input a report lists as not read (the rest counted)
MAX_NOT_READ = 20
#: The options of one command read (a flag of a group is one)
MAX_OPTIONS = 2**20
#: The characters of the input quoted in a message
EXCERPT_CHARS = 80
#: The characters of an invocation's line shown in a report
LINE_CHARS = 400
#: The digits of an integer read from the input (past them: not a number
#: the audit reads; Python refuses 4300)
MAX_DIGITS = 30


def excerpt(text, limit=EXCERPT_CHARS):
    '''``text`` quoted (``repr``: one line) and cut to ``limit``
    characters, with its length where cut.'''
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f'{text[:limit]!r}... ({len(text)} characters)'


def clipped(text, limit=LINE_CHARS):
    '''``text`` cut to ``limit`` characters, saying so.'''
    if text is None or len(text) <= limit:
        return text
    return f'{text[:limit]} ... ({len(text)} characters)'


def integer(text):
    '''The integer ``text`` spells (``int()``'s reading), None where it is
    not one or has more than :data:`MAX_DIGITS` digits.'''
    text = str(text).strip()
    if len(text) > MAX_DIGITS + 1:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def size_text(size):
    '''A byte count as people read it.'''
    return (f'{size / MIB:.1f} MiB' if size >= MIB else
            f'{size} bytes')


_KINDS = ((stat.S_ISDIR, 'a directory'), (stat.S_ISCHR, 'a character device'),
          (stat.S_ISBLK, 'a block device'), (stat.S_ISSOCK, 'a socket'),
          (stat.S_ISFIFO, 'a FIFO (named pipe)'))


def _kind(mode):
    for test, said in _KINDS:
        if test(mode):
            return said
    return 'not a regular file'


def _open(path, name, pipes):
    '''A descriptor of ``path``, opened without blocking (a FIFO with no
    writer would wait for ever) and checked: a regular file within
    :data:`MAX_FILE_BYTES`, or a pipe where ``pipes``.

    :raises FileNotFoundError: where there is no such file.
    :raises Unreadable: for anything else that cannot be read.
    '''
    if '\0' in path:                      # no file has such a name
        raise FileNotFoundError(errno.ENOENT, 'No such file', path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise Unreadable(f'{name}: cannot read it: {err.strerror}') from None
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode):
        if info.st_size > MAX_FILE_BYTES:
            os.close(fd)
            raise Unreadable(_too_large(name, info.st_size))
    elif not (pipes and stat.S_ISFIFO(info.st_mode)):
        os.close(fd)
        raise Unreadable(f'{name}: {_kind(info.st_mode)}, not a regular '
                         f'file: the audit reads command lines, job files '
                         f'and scripts from files')
    os.set_blocking(fd, True)
    return fd


def _too_large(name, size):
    return (f'{name}: {size_text(size)}, larger than the '
            f'{size_text(MAX_FILE_BYTES)} the audit reads of a file (a '
            f'command line, job file or script is a few KiB)')


def read_capped(fp, name):
    '''At most :data:`MAX_FILE_BYTES` of ``fp``; one byte more is a file
    too large (a pipe, or a file that grew while read).'''
    data = fp.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Unreadable(f'{name}: more than {size_text(MAX_FILE_BYTES)}, '
                         f'what the audit reads of a file')
    return data


def read_input(name):
    '''The bytes of an input file: a regular file or a pipe.

    :raises Unreadable: for a missing, unreadable, non-regular or too
        large file.
    '''
    try:
        fd = _open(name, name, pipes=True)
    except FileNotFoundError:
        raise Unreadable(f'{name}: no such file') from None
    with os.fdopen(fd, 'rb') as fp:
        try:
            return read_capped(fp, name)
        except OSError as err:
            raise Unreadable(f'{name}: cannot read it: '
                             f'{err.strerror}') from None


class Reader:
    '''What one input reads and expands, within the caps: the files it
    includes or names (relative to ``directory``, the input's), counted
    against :data:`MAX_FILES`, their bytes with the input's own against
    :data:`MAX_INPUT_BYTES`, and the commands its variables and loops add
    against :data:`MAX_EXPANSION_BYTES`.  Calling it gives a file's
    text.'''

    def __init__(self, directory='.'):
        self.directory = directory
        self.files = 0
        self.bytes = 0
        self.expanded = 0
        self.missing = set()      # paths looked for and not there

    def spend(self, size, where):
        '''Count ``size`` bytes of commands added by expansion.'''
        self.expanded += size
        if self.expanded > MAX_EXPANSION_BYTES:
            raise Unreadable(f'{where}: its variables, loops, functions '
                             f'and tests expand to more than '
                             f'{size_text(MAX_EXPANSION_BYTES)} of commands, '
                             f'what the audit expands for one input')

    def resolve(self, path):
        '''The path of ``path`` as the input names it.'''
        return path if os.path.isabs(path) else os.path.join(
            self.directory, path)

    def count(self, name, size):
        '''Count ``size`` more bytes read for the input.'''
        self.bytes += size
        if self.bytes > MAX_INPUT_BYTES:
            raise Unreadable(f'{name}: the input and the files it includes '
                             f'or names pass {size_text(MAX_INPUT_BYTES)}, '
                             f'what the audit reads for one input')

    def __call__(self, path):
        '''The text of the file ``path``.

        :raises FileNotFoundError: where there is no such file.
        :raises Unreadable: a file past a cap, not a regular file, not
            text.
        '''
        if path in self.missing:        # looked for again (a sweep): not
            raise FileNotFoundError(errno.ENOENT, 'No such file', path)
        self.files += 1
        if self.files > MAX_FILES:
            raise Unreadable(f'{path}: the input reads more than '
                             f'{MAX_FILES} files (includes and job files), '
                             f'what the audit reads for one input')
        try:
            fd = _open(self.resolve(path), path, pipes=False)
        except FileNotFoundError:
            self.missing.add(path)
            raise
        with os.fdopen(fd, 'rb') as fp:
            try:
                data = read_capped(fp, path)
            except OSError as err:
                raise Unreadable(f'{path}: cannot read it: '
                                 f'{err.strerror}') from None
        self.count(path, len(data))
        return decode(data, path)


def decode(data, name):
    '''Text of an input's bytes.

    :raises Unreadable: for a binary file.
    '''
    if b'\0' in data:
        raise Unreadable(f'{name}: a binary file (NUL bytes), not a command '
                         f'line, job file or script')
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as err:
        raise Unreadable(f'{name}: a binary file (not UTF-8 at byte '
                         f'{err.start})') from None


def judged(items, judge, what):
    '''The invocations ``judge(item)`` gives for each of ``items``, up to
    :data:`MAX_INVOCATIONS`; the items past them are not judged, and the
    last invocation says how many (``what``: what an item is).'''
    out = []
    items = list(items)
    for index, item in enumerate(items):
        if len(out) >= MAX_INVOCATIONS:
            out[-1].not_judged.append(
                f'{len(items) - index} more {what}: the audit judges the '
                f'first {MAX_INVOCATIONS} invocations of an input')
            break
        out += judge(item)
    return out


def options_read(count, where):
    '''Raise :class:`Unreadable` past :data:`MAX_OPTIONS` options in one
    command.'''
    if count > MAX_OPTIONS:
        raise Unreadable(f'{where}: more than {MAX_OPTIONS} options in one '
                         f'command, what the audit reads (a benchmark '
                         f'takes tens)')
