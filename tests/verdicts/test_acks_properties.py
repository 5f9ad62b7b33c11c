'''The acknowledgements files' reader against generated and mutated
files: valid files Hypothesis draws (written by ``microbench ack``'s own
writer, and by PyYAML in every style) read back entry for entry; the
committed example and drawn files broken by every mutation of
tests/helpers/mutations.py (cut, garbage bytes, bytes not UTF-8, a line
twice or dropped, a number changed) and by YAML's own (a member as a list
or a mapping, a date in another form, an alias, deep nesting, a line
indented, two lines swapped) are read right or rejected in one line each.

The contract checked on every case (:func:`holds`): no exception; each
problem one line naming the file (and the entry); a file-level problem
alone, with no entry; each kept entry valid (it passes ``acks.new``
again) and what an independent reader of the same YAML (PyYAML's
BaseLoader: every scalar a text) says its members are.  Both parsers
PyYAML offers (libyaml's and its own) run every case.'''

import os
import shutil
import string
import tempfile

import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st

from microbench.verdicts import ack_add, acks, acks_yaml

from mutations import MUTATIONS, MUTATIONS_OF_ANY
from witness_tally import COUNTS, dump

#: Hypothesis' settings: derandomized, a fifth of the mutation profile's
#: examples per test (20; MUTATIONS_PROFILE=mutations-long: 200), two
#: parsers and 12 mutations of two sources: a few seconds per parser
FEW = settings(parent=MUTATIONS,
               max_examples=max(10, MUTATIONS.max_examples // 5))
#: Drawn files mutated: fewer (each test draws a file and a mutation)
FEWER = settings(parent=MUTATIONS,
                 max_examples=max(5, MUTATIONS.max_examples // 10))

#: The reader's name in the tally of cases (tests/helpers/witness_tally.py)
READER = 'acknowledgements file (acks)'

PARSERS = [yaml.SafeLoader] + (
    [yaml.CSafeLoader] if getattr(yaml, 'CSafeLoader', None) else [])

#: Each parser and the BaseLoader of the same family (the oracle)
BASE = {yaml.SafeLoader: yaml.BaseLoader,
        getattr(yaml, 'CSafeLoader', None): getattr(yaml, 'CBaseLoader',
                                                    None)}

EXAMPLE = os.path.join(acks.directory(), 'examples', 'slurm_cluster.yaml')

#: The endings of a problem line
ENDINGS = (': left out', ': no acknowledgement of it applies',
           ': ignored')

#: Where the mutated files are written (one folder for the module, made
#: when its tests start: a worker that only collects them makes none)
FOLDER = None


#: Each test runs with each parser
EACH_PARSER = pytest.mark.parametrize('parser', PARSERS,
                                      ids=lambda p: p.__name__)


@pytest.fixture(scope='module', autouse=True)
def _tally():
    global FOLDER
    FOLDER = tempfile.mkdtemp(prefix='acks-properties-')
    yield
    dump()
    shutil.rmtree(FOLDER, ignore_errors=True)    # gone after the run


def example():
    with open(EXAMPLE, 'rb') as fp:
        return fp.read()


def holds(data, parser):
    '''Read the bytes ``data`` as a system's file with ``parser``: the
    contract holds; ``(acks, problems)``.'''
    path = os.path.join(FOLDER, 'local.yaml')
    with open(path, 'wb') as fp:
        fp.write(data)
    saved = acks_yaml.PARSER
    acks_yaml.PARSER = parser
    os.environ['MICROBENCH_ACKS_DIR'] = FOLDER
    try:
        found, problems = acks.load('local')
    finally:
        acks_yaml.PARSER = saved
        del os.environ['MICROBENCH_ACKS_DIR']
    note(f'problems: {problems}')
    for line in problems:
        assert '\n' not in line and '\r' not in line, repr(line)
        assert line.startswith(f'{path}'), line
        assert line.endswith(ENDINGS), line
        assert len(line) <= 600, len(line)
    whole = [line for line in problems if line.endswith(ENDINGS[1])]
    if whole:
        assert found == [] and problems == whole and len(whole) == 1
    for entry in found:
        valid(entry)
    if found:
        same_as_base(data.decode('utf-8'), found, parser)
    COUNTS[READER, 'rejected' if problems else 'read right'] += 1
    return found, problems


def valid(entry):
    '''A kept entry passes the entry check again, unchanged.'''
    members = {name: getattr(entry, name)
               for name in (*acks.REQUIRED, *acks.OPTIONAL)}
    again = acks.new(entry.system, members)
    assert {name: getattr(again, name) for name in members} == members
    assert entry.kind in acks.KINDS
    assert acks.UUID.fullmatch(entry.night) or acks.is_day(entry.night)
    assert entry.expires == '' or acks.is_day(entry.expires)


def same_as_base(text, found, parser):
    '''Each kept entry's members are what PyYAML's BaseLoader reads: its
    scalars as texts (the reader accepted the file: no alias, nesting of
    at most 8 levels, so the oracle is bounded too).'''
    base = yaml.load(text, Loader=BASE[parser])
    for entry in found:
        item = base['acks'][entry.index - 1]
        for name in (*acks.REQUIRED, *acks.OPTIONAL):
            said = item.get(name)
            mine = getattr(entry, name)
            if said is None or (said in acks_yaml.NULLS and mine == ''):
                assert mine == '', (name, said, mine)
                continue
            if name in acks.PROSE:
                said = acks_yaml.one_line(said)
            assert mine == said.strip(), (name, said, mine)


# -- drawn valid files -------------------------------------------------------

NAMES = st.text(string.ascii_letters + string.digits + '_-*?[]', min_size=1,
                max_size=20).filter(lambda t: t.strip('-?*[]'))
#: Prose as the reader keeps it: printable, single spaces, no ends
PROSE = st.text(st.characters(blacklist_categories=('Cc', 'Cs', 'Zl', 'Zp',
                                                    'Zs'),
                              blacklist_characters='\ufeff'),
                min_size=1, max_size=12).map(str.strip).filter(bool)
WORDS = st.lists(PROSE, min_size=1, max_size=5).map(' '.join)
DAYS = st.dates().map(lambda day: day.strftime('%Y-%m-%d')).filter(
    lambda text: len(text) == 10)
NIGHTS = st.one_of(DAYS, st.uuids().map(str))


@st.composite
def entries(draw):
    values = {'partition': draw(NAMES), 'check': draw(NAMES),
              'variant': draw(NAMES), 'figure': draw(NAMES),
              'night': draw(NIGHTS), 'kind': draw(st.sampled_from(
                  list(acks.KINDS))), 'reason': draw(WORDS)}
    for name, strategy in (('date', WORDS), ('link', WORDS),
                           ('expires', DAYS)):
        if draw(st.booleans()):
            values[name] = draw(strategy)
    return values


@st.composite
def files(draw):
    '''``(values of each entry, the file's bytes)``: written by ``ack``'s
    writer, or by PyYAML in a drawn style.'''
    drawn = draw(st.lists(entries(), max_size=5))
    if draw(st.booleans()):
        text = ack_add.HEAD.format(system='local') + ''.join(
            ack_add.entry(values) for values in drawn)
    else:
        text = yaml.safe_dump(
            {'format': acks.FORMAT, 'version': acks.VERSION,
             'acks': drawn}, allow_unicode=draw(st.booleans()),
            default_flow_style=draw(st.sampled_from([False, True, None])),
            explicit_start=draw(st.booleans()), sort_keys=draw(
                st.booleans()), width=draw(st.sampled_from([20, 80, 4096])),
            default_style=draw(st.sampled_from([None, '"', "'"])))
    return drawn, text.encode()


@EACH_PARSER
@FEW
@given(drawn=files())
def test_a_drawn_valid_file_reads_back(parser, drawn):
    values, data = drawn
    note(data.decode())
    found, problems = holds(data, parser)
    assert problems == []
    assert [{name: getattr(entry, name) for name in one} for entry, one in
            zip(found, values)] == values
    assert len(found) == len(values)


# -- mutations ---------------------------------------------------------------

def _entry_lines(data):
    lines = data.splitlines(keepends=True)
    return [i for i, line in enumerate(lines)
            if line.lstrip(b' -').split(b':')[0].decode('utf-8', 'replace')
            in (*acks.REQUIRED, *acks.OPTIONAL)], lines


def member_as(draw, data):
    '''A member's value written as a list, a mapping, a number, a date of
    another form, a null, a quoted text or a nested list.'''
    at, lines = _entry_lines(data)
    if not at:
        return 'no member to change', data
    i = draw(st.sampled_from(at))
    head = lines[i].split(b':')[0]
    value = draw(st.sampled_from([
        b'[a, b]', b'{a: b}', b'\n    - a\n    - b', b'\n    a: b', b'12',
        b'1.5e3', b'true', b'~', b'', b'2027-13-01', b'2027-02-30',
        b'20270301', b'2027-W09-1', b'2027-03-01T02:30:00', b'"2027-03-01"',
        b'!!timestamp 2027-13-01', b'!!binary aGk=', b'"\\e[1m"',
        b'[' * 40 + b']' * 40, b'|\n    two\n    lines', b'"a\\nb"']))
    lines[i] = head + b': ' + value + b'\n'
    return f'line {i} -> {lines[i]!r}', b''.join(lines)


def alias(draw, data):
    '''An anchor on one member and an alias of it on another, or a
    billion laughs after the head.'''
    at, lines = _entry_lines(data)
    if len(at) < 2 or draw(st.booleans()):
        laughs = b''.join(b'x%d: &a%d [%s]\n' % (
            i, i, b', '.join([b'*a%d' % (i - 1)] * 9)) for i in range(1, 9))
        return 'a billion laughs', b'x0: &a0 lol\n' + laughs + data
    first, second = sorted(draw(st.lists(st.sampled_from(at), min_size=2,
                                         max_size=2, unique=True)))
    lines[first] = lines[first].replace(b': ', b': &v ', 1)
    lines[second] = lines[second].split(b':')[0] + b': *v\n'
    return f'&v on line {first}, *v on line {second}', b''.join(lines)


def nested(draw, data):
    '''A member's value nested ``depth`` levels deep (past the cap or
    not), in flow or block style.'''
    at, lines = _entry_lines(data)
    if not at:
        return 'no member to nest', data
    i = draw(st.sampled_from(at))
    depth = draw(st.sampled_from([2, 5, 6, 50, 10_000, 100_000]))
    if draw(st.booleans()):
        value = b'[' * depth + b'x' + b']' * depth
    else:
        value = b'\n' + b''.join(b' ' * (4 + 2 * k) + b'- \n'
                                 for k in range(min(depth, 300)))
    lines[i] = lines[i].split(b':')[0] + b': ' + value + b'\n'
    return f'line {i} nested {depth} deep', b''.join(lines)


def indented(draw, data):
    lines = data.splitlines(keepends=True)
    i = draw(st.integers(0, len(lines) - 1))
    spaces = draw(st.sampled_from([b' ', b'  ', b'\t', b'-  ']))
    return f'line {i} indented by {spaces!r}', b''.join(
        [*lines[:i], spaces + lines[i], *lines[i + 1:]])


def swapped(draw, data):
    lines = data.splitlines(keepends=True)
    if len(lines) < 2:
        return 'one line', data
    i = draw(st.integers(0, len(lines) - 2))
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return f'lines {i} and {i + 1} swapped', b''.join(lines)


MUTATIONS_OF_YAML = {'member-as': member_as, 'alias': alias,
                     'nested': nested, 'indented': indented,
                     'swapped': swapped}
EVERY = {**MUTATIONS_OF_ANY, **MUTATIONS_OF_YAML}


@pytest.mark.parametrize('mutation', sorted(EVERY))
@EACH_PARSER
@FEW
@given(data=st.data())
def test_the_example_mutated_holds_the_contract(parser, mutation, data):
    what, broken = EVERY[mutation](data.draw, example())
    note(what)
    holds(broken, parser)


@pytest.mark.parametrize('mutation', sorted(EVERY))
@EACH_PARSER
@FEWER
@given(data=st.data(), drawn=files())
def test_a_drawn_file_mutated_holds_the_contract(parser, mutation, data,
                                                drawn):
    values, text = drawn
    if len(text) < 2:
        return
    what, broken = EVERY[mutation](data.draw, text)
    note(what)
    holds(broken, parser)


@EACH_PARSER
@FEW
@given(data=st.binary(max_size=400) | st.text(max_size=400).map(
    str.encode))
def test_any_bytes_hold_the_contract(parser, data):
    holds(data, parser)


@EACH_PARSER
@FEW
@given(data=st.data())
def test_a_member_changed_costs_that_entry_only(parser, data):
    '''One member of one entry of the example changed: the other entries
    are still read, whatever the change.'''
    what, broken = member_as(data.draw, example())
    note(what)
    found, problems = holds(broken, parser)
    if any(line.endswith(ENDINGS[1]) for line in problems):
        return  # nested past the cap: the whole file, in one line
    assert len(found) + len(problems) == 3
