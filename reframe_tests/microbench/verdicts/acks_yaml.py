'''The bounded reader of the acknowledgements files (:mod:`.acks`): their
bytes to plain data, or one line that says what is wrong and where.

An acknowledgements file is reviewed data a person edits by hand, read
by every ``compare --last``: a typo in it must cost one entry, never the
night.  So the YAML is read from the parser's events, not through PyYAML's
constructors:

- every scalar is its text as written: no implicit types, so an
  unquoted ``expires: 2027-13-01`` is the text ``2027-13-01`` (which the
  entry's check says is no date) where PyYAML's timestamp constructor
  raises ``month must be in 1..12`` out of ``safe_load``, and
  ``20270301`` or ``2027-W09-1`` are texts the check refuses rather than
  a number or a date compared as text; explicit tags are not read
  either (the text is kept); a plain ``~``, ``null`` or empty value is
  no value;
- anchors and aliases are refused (an entry is written out in full):
  an alias that expands (a billion laughs) never grows;
- nesting is capped at :data:`MAX_DEPTH` (a valid file needs 3: the
  file, its list of entries, an entry): the parsers' work on deep flow
  nesting grows with the square of the depth, so the reader stops at
  the cap, after a few events;
- the file is capped at :data:`MAX_BYTES`, read as UTF-8 (a byte that is
  not names its line), and must be a regular file (a FIFO or a device
  never blocks or streams the reader);
- a mapping keeps what a plain dict would lose: a member given twice
  (YAML's last-one-wins would drop the first silently) and a member
  named by a list or a mapping.

Work is linear in the file's size: one pass over its events.  Whatever
the parser raises on the bytes it was given is a :class:`ReadError` (one
line), never a traceback.
'''

import os
import stat

import yaml

#: The largest acknowledgements file read: about 3700 entries of the
#: committed example's size (a facility acknowledges a few a month; ``ack
#: --event`` writes one per member of an event)
MAX_BYTES = 1 << 20

#: The deepest nesting of lists and mappings read
MAX_DEPTH = 8

#: The parser of the events: libyaml's where PyYAML was built with it (30
#: times faster), else PyYAML's own
PARSER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)

#: The plain scalars that are no value
NULLS = ('', '~', 'null', 'Null', 'NULL')


class ReadError(ValueError):
    '''What is wrong with a file, in one line (without the file's name).'''


class Mapping(dict):
    '''A YAML mapping, with the line it begins on (from 1), the members
    given twice (``[(name, line)]``) and the lines of members named by a
    list or a mapping (left out of the dict).'''

    def __init__(self, line):
        super().__init__()
        self.line = line
        self.twice = []
        self.odd = []


class Sequence(list):
    '''A YAML sequence, with the line it begins on (from 1).'''

    def __init__(self, line):
        super().__init__()
        self.line = line


#: Characters of a read text a line quotes
SHOWN = 60


def quoted(text):
    '''``text`` as a line quotes it: its first :data:`SHOWN` characters,
    escaped (a line break or an escape sequence is shown, not done).'''
    text = str(text)
    return repr(text[:SHOWN]) + ('...' if len(text) > SHOWN else '')


def shape(value):
    '''What ``value`` is, in words, for a line that says it is wrong.'''
    if isinstance(value, dict):
        return 'a mapping'
    if isinstance(value, list):
        return 'a list'
    return 'empty' if value is None else quoted(value)


def one_line(text):
    '''``text`` with its whitespace runs (line breaks too) as one space.'''
    return ' '.join(str(text).split())


def read_file(path):
    '''The text of the file at ``path``, or None where there is none.

    :raises ReadError: it is not a regular file, is larger than
        :data:`MAX_BYTES`, cannot be read or is not UTF-8.
    '''
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ReadError(f'cannot be read ({_why(err)})') from None
    if not stat.S_ISREG(info.st_mode):
        raise ReadError('not a regular file')
    try:
        with open(path, 'rb') as fp:
            data = fp.read(MAX_BYTES + 1)
    except OSError as err:
        raise ReadError(f'cannot be read ({_why(err)})') from None
    return decoded(data)


def _why(err):
    return one_line(err.strerror or type(err).__name__)


def decoded(data):
    '''The text of a file's bytes ``data``.

    :raises ReadError: more than :data:`MAX_BYTES`, or not UTF-8.
    '''
    if len(data) > MAX_BYTES:
        raise ReadError(f'larger than the {MAX_BYTES // 1024} KiB an '
                        f'acknowledgements file may hold')
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as err:
        line = data.count(b'\n', 0, err.start) + 1
        raise ReadError(f'line {line}: not UTF-8 (byte '
                        f'0x{data[err.start]:02x})') from None


def _line_of(err, text):
    '''The line (from 1) a parser's error names, or None.'''
    mark = getattr(err, 'problem_mark', None) or getattr(
        err, 'context_mark', None)
    if mark is not None:
        return mark.line + 1
    position = getattr(err, 'position', None)
    if isinstance(position, int):
        return text.count('\n', 0, position) + 1
    return None


def _said(err, text):
    '''A parser's error as ``line N: not YAML (what)``.'''
    what = (getattr(err, 'problem', None) or getattr(err, 'reason', None)
            or type(err).__name__)
    character = getattr(err, 'character', None)
    if isinstance(character, str) and len(character) == 1:
        character = ord(character)
    if isinstance(character, int):
        what = f'{what}: character #x{character:04x}'
    line = _line_of(err, text)
    where = f'line {line}: ' if line else ''
    return f'{where}not YAML ({one_line(what)[:200]})'


#: A mapping awaits a key; its key was a list or a mapping
_NO_KEY = object()
_ODD = object()


class _Builder:
    '''Plain data from a document's events, one event at a time (no
    recursion: the depth is a list's length).'''

    def __init__(self):
        self.stack = []
        self.keys = []
        self.root = None
        self.done = False

    def add(self, value, line):
        '''``value`` (which began on ``line``) into the collection open
        last: a list's next item, a mapping's next key or its value.'''
        if not self.stack:
            self.root, self.done = value, True
            return
        top = self.stack[-1]
        if isinstance(top, list):
            top.append(value)
            return
        key, at = self.keys[-1]
        if key is _NO_KEY:
            if isinstance(value, str) or value is None:
                self.keys[-1] = ('' if value is None else value, line)
            else:
                self.keys[-1] = (_ODD, line)
                top.odd.append(line)
            return
        self.keys[-1] = (_NO_KEY, 0)
        if key is _ODD:
            return
        if key in top:
            top.twice.append((key, at))
        top[key] = value

    def open(self, container, line):
        if len(self.stack) >= MAX_DEPTH:
            raise ReadError(f'line {line}: nested deeper than {MAX_DEPTH} '
                            f'levels (an entry needs 3)')
        self.stack.append(container)
        self.keys.append((_NO_KEY, 0))

    def close(self):
        self.keys.pop()
        container = self.stack.pop()
        self.add(container, container.line)


def _scalar(event):
    if event.implicit[0] and event.value in NULLS:
        return None
    return event.value


def load(text, parser=None):
    '''The one document of ``text`` as plain data: :class:`Mapping`,
    :class:`Sequence`, str and None (an empty file: None); ``parser``:
    PyYAML's loader class whose parser reads it (default :data:`PARSER`).

    :raises ReadError: it is not YAML, holds an anchor or an alias, more
        than one document, or nesting deeper than :data:`MAX_DEPTH`.
    '''
    built = _Builder()
    try:
        for event in yaml.parse(text, Loader=parser or PARSER):
            _event(built, event)
    except ReadError:
        raise
    except yaml.YAMLError as err:
        raise ReadError(_said(err, text)) from None
    except Exception as err:  # noqa: BLE001 - a parser's fault is a line
        # libyaml and PyYAML are fuzzed, but a reader of hand-edited files
        # turns whatever a parser raises on them into the file's problem
        raise ReadError(f'not YAML ({type(err).__name__}: '
                        f'{one_line(err)[:200]})') from None
    return built.root


def _event(built, event):
    line = event.start_mark.line + 1 if event.start_mark else 0
    if isinstance(event, yaml.AliasEvent) or getattr(event, 'anchor', None):
        raise ReadError(f'line {line}: a YAML anchor or alias (&, *): not '
                        f'read in an acknowledgements file (write each '
                        f'entry out)')
    if isinstance(event, yaml.DocumentStartEvent) and built.done:
        raise ReadError(f'line {line}: a second YAML document (---): an '
                        f'acknowledgements file is one')
    if isinstance(event, yaml.ScalarEvent):
        built.add(_scalar(event), line)
    elif isinstance(event, yaml.SequenceStartEvent):
        built.open(Sequence(line), line)
    elif isinstance(event, yaml.MappingStartEvent):
        built.open(Mapping(line), line)
    elif isinstance(event, yaml.CollectionEndEvent):
        built.close()
