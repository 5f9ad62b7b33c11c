'''The limits files' reader (microbench.limitsfile) against every input:
the committed files, the committed files broken by every mutation of
tests/helpers/mutations.py, their entries with values Hypothesis draws
(wrong types, negative, zero, infinite, NaN, huge and tiny numbers,
unknown keys) and texts that are no YAML at all, plus the cases a typo or
a hostile file makes: YAML that runs code, nested past Python's stack,
aliases that expand, an integer of 5000 digits, a file of 160 KiB.

Each case is read right or rejected in one line naming the file and the
entry; never an exception: a partition's entry is either kept, valid, or
rejected, and a rejection costs only that partition's shares
(tests/suite/test_limits_command.py: the configuration and ``microbench
limits --write`` on such files).'''

import os
import tempfile

import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st

from microbench import components, limitsfile

from mutations import MUTATIONS, MUTATIONS_OF_ANY

#: Hypothesis' settings of the drawn files: derandomized, a few seconds
DRAWN = settings(max_examples=150, deadline=None, derandomize=True,
                 database=None)

#: The committed files (version 2), the base of every mutation
COMMITTED = ('local', 'slurm_testbed')


def committed(system='slurm_testbed'):
    with open(os.path.join(limitsfile.COMMITTED, f'{system}.yaml')) as fp:
        return fp.read()


def data_of(system='slurm_testbed'):
    return yaml.safe_load(committed(system))


def one_line(line, path='limits'):
    '''A problem as the contract wants it: one line, naming the file,
    short enough to read.'''
    assert '\n' not in line and '\r' not in line, repr(line)
    assert line.startswith(f'{path}: '), line
    assert len(line) <= 600, len(line)


def valid(entry):
    '''What a kept entry must be, restated plainly.'''
    assert set(entry) == {'measured', 'limits', 'node'}
    assert all(isinstance(v, str) for v in entry['measured'].values())
    machine = entry['measured'].get('machine')
    assert machine is None or len(machine) == 16
    for name, stats in entry['limits'].items():
        assert stats['unit'] == components.LIMITS[name][3]
        numbers = [stats[s] for s in ('min', 'median', 'max')]
        for value in numbers:
            assert type(value) in (int, float)
            assert 1e-6 <= value <= 1e12
        assert numbers == sorted(numbers)
    for name, value in entry['node'].items():
        assert name in components.NODE
        assert type(value) in (int, float) and 1e-6 <= value <= 1e12


def holds(text, path='limits'):
    '''Read ``text``: the contract holds; the answer.'''
    found = limitsfile.read(text, path)
    for line in found.problems:
        one_line(line, path)
    for entry in found.entries.values():
        valid(entry)
    assert not set(found.entries) & set(found.rejected)
    if found.whole:
        assert not found.entries
    return found


# -- the committed files -----------------------------------------------------

@pytest.mark.parametrize('system', COMMITTED)
def test_the_committed_files_load(system):
    found = limitsfile.load(system)
    assert found.problems == [] and found.version == limitsfile.VERSION
    assert found.entries
    for entry in found.entries.values():
        valid(entry)
        assert {'storage_write_mib_s', 'storage_read_mib_s',
                'memory_read_mib_s', 'tmpfs_iops'} <= set(entry['limits'])
        assert entry['node']['cores'] >= 1


def test_the_local_entry_names_its_machine():
    # the local default is bound to the machine that measured it
    entry = limitsfile.load('local').entries['default']
    assert components.IDENTITY.fullmatch(entry['measured']['machine'])


def test_written_then_read_is_the_same():
    found = limitsfile.load('slurm_testbed')
    again = limitsfile.read(limitsfile.text('slurm_testbed', found.entries))
    assert again.entries == found.entries and not again.problems


def test_a_version_1_file_is_still_read():
    # before machines were kept: the partitions at the top, no format
    entries = data_of()['partitions']
    found = holds(yaml.safe_dump(entries))
    assert found.version == 1 and found.entries.keys() == entries.keys()


# -- what a typo or a hostile file makes ----------------------------------

def _with(change, system='slurm_testbed'):
    data = data_of(system)
    change(data)
    return yaml.safe_dump(data)


def _stat(**values):
    return _with(lambda d: d['partitions']['shared']['limits'][
        'storage_write_mib_s'].update(values))


@pytest.mark.parametrize('text, said', [
    (_stat(min=1e9), 'min <= median <= max'),
    (_stat(unit='MB/s'), "unit 'MB/s', not MiB/s"),
    (_stat(median=float('nan')), 'numbers from 1e-06 to 1e+12'),
    (_stat(max=float('inf')), 'numbers from'),
    (_stat(min=-1), 'numbers from'),
    (_stat(min=0), 'numbers from'),
    (_stat(min=1e-300), 'numbers from'),
    (_stat(max=10**20), 'numbers from'),
    (_stat(median=True), 'numbers from'),
    (_stat(median='2615'), 'numbers from'),
    (_with(lambda d: d['partitions']['shared']['limits']['tmpfs_iops'].pop(
        'max')), 'exactly median, min, max and unit'),
    (_with(lambda d: d['partitions']['shared']['limits'].update(
        storage_fast={})), "unknown limit 'storage_fast'"),
    (_with(lambda d: d['partitions']['shared'].update(extra=1)),
     "unknown key 'extra'"),
    (_with(lambda d: d['partitions']['shared']['measured'].update(
        by='me')), "shared.measured: unknown key 'by'"),
    (_with(lambda d: d['partitions']['shared']['measured'].update(
        machine='vm')), "'vm' is not 16 hex digits"),
    (_with(lambda d: d['partitions']['shared']['measured'].update(
        nodes=['mbnode2'])), 'shared.measured.nodes: not a text'),
    (_with(lambda d: d['partitions']['shared'].update(limits=[1, 2])),
     'shared.limits: not a mapping'),
    (_with(lambda d: d['partitions']['shared']['node'].update(cores=0)),
     'shared.node.cores: not a node fact'),
    (_with(lambda d: d['partitions']['shared'].update(node='big')),
     'shared.node: not a mapping'),
    (_with(lambda d: d['partitions'].update(shared=[])),
     'shared: not a mapping'),
])
def test_an_entry_that_is_not_one_costs_only_its_partition(text, said):
    found = holds(text, 'slurm_testbed.yaml')
    assert list(found.rejected) == ['shared'], found.problems
    assert said in found.rejected['shared'], found.rejected['shared']
    assert found.rejected['shared'].endswith(
        ': its figures get no share of a measured limit')
    assert list(found.entries) == ['node_local']
    assert components.in_force_here(found, 'shared', False, None) == {
        'withheld': components.REJECTED}
    assert 'limits' in components.in_force_here(found, 'node_local', False,
                                                None)


def _nested(depth):
    return 'a: ' + '[' * depth + ']' * depth + '\n'


def _aliases(levels):
    '''The billion laughs: each level ten times the one before.'''
    lines = ['l0: &l0 [x, x, x, x, x, x, x, x, x, x]']
    for level in range(1, levels):
        refs = ', '.join([f'*l{level - 1}'] * 10)
        lines.append(f'l{level}: &l{level} [{refs}]')
    return '\n'.join(lines) + f'\ndefault: {{measured: {{session: ' \
        f'*l{levels - 1}}}}}\n'


@pytest.mark.parametrize('text, said', [
    ('!!python/object/apply:os.system ["true"]\n', 'not YAML at line 1'),
    ('default: {limits: [\n', 'not YAML'),
    ('\tdefault: 1\n', 'not YAML'),
    (_nested(5000), 'not a limits file (RecursionError)'),
    ('a: ' + '9' * 5000 + '\n', 'not a limits file (ValueError)'),
    ('- default\n', 'not a mapping'),
    ('format: microbench limits\nversion: 3\n', 'limits version 3'),
    ('format: microbench limits\nversion: true\n', 'limits version True'),
    ('format: microbench limits\nversion: 2.0\n', 'limits version 2.0'),
    ('format: microbench limits\n', 'limits version None'),
    ('version: 2\npartitions: {}\n', 'it must say format: microbench'),
    ('format: acks\nversion: 2\n', 'it must say format'),
    ('format: microbench limits\nversion: 2\npartitions: [a]\n',
     "partitions: not a mapping (a list of 1)"),
    ('# x\n' * 40000, 'larger than 131072 bytes'),
])
def test_a_file_that_is_not_one_is_one_line(text, said):
    found = holds(text, 'local.yaml')
    assert found.whole and said in found.whole, found.whole
    assert found.whole.endswith('its figures get no share of a measured '
                                'limit')
    for bound in (True, False):
        assert components.in_force_here(found, 'default', bound, None) == {
            'withheld': components.REJECTED}


def test_aliases_that_expand_are_not_walked():
    # 10**8 leaves if walked; the entry's session is no text
    found = holds(_aliases(8))
    assert 'default.measured.session: not a text' in \
        found.rejected['default']


def test_an_unknown_key_beside_the_partitions_is_left_out():
    text = _with(lambda d: d.update(comment='by hand'))
    found = holds(text, 'slurm_testbed.yaml')
    assert found.other == ["slurm_testbed.yaml: unknown key 'comment' "
                           "(known: format, version, partitions): left "
                           "out"]
    assert set(found.entries) == {'node_local', 'shared'}


def test_a_partition_that_is_no_name_is_left_out():
    found = holds('format: microbench limits\nversion: 2\npartitions:\n'
                  '  1: {}\n  a b: {}\n  ok: {}\n')
    assert set(found.rejected) == {'1', 'a b'}
    assert found.entries == {'ok': {'measured': {}, 'limits': {},
                                    'node': {}}}


def test_an_unquoted_date_is_a_date():
    text = committed().replace("date: '2026-11-25'", 'date: 2026-11-25')
    assert "date: 2026-11-25\n" in text
    found = holds(text)
    assert found.entries['shared']['measured']['date'] == '2026-11-25'


@pytest.mark.parametrize('data, said', [
    (b'\xff\xfe not utf-8', 'not UTF-8 (byte 0)'),
    (None, 'cannot be read (Is a directory)'),
])
def test_a_file_that_cannot_be_read(data, said, tmp_path, monkeypatch):
    monkeypatch.setenv('MICROBENCH_LIMITS_DIR', str(tmp_path))
    path = tmp_path / 'local.yaml'
    if data is None:
        path.mkdir()
    else:
        path.write_bytes(data)
    found = limitsfile.load('local')
    assert found.whole == f'{path}: {said}: its figures get no share of ' \
        f'a measured limit'


def test_no_file_no_entry(tmp_path, monkeypatch):
    monkeypatch.setenv('MICROBENCH_LIMITS_DIR', str(tmp_path))
    found = limitsfile.load('local')
    assert found.entries == {} and found.problems == []
    (tmp_path / 'local.yaml').write_text('# nothing yet\n')
    found = limitsfile.load('local')
    assert found.entries == {} and found.problems == []
    assert components.in_force_here(found, 'default', True, None) == {
        'withheld': components.NONE}


# -- drawn and mutated files ------------------------------------------------

#: Values that an entry's fields may be given by mistake
WEIRD = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


def _paths(node, path=()):
    '''Every path to a value in ``node`` (dicts).'''
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))


def _plain_number(value):
    return (type(value) in (int, float) and value == value
            and 1e-6 <= value <= 1e12)


@DRAWN
@given(st.data(), st.sampled_from(COMMITTED))
def test_a_drawn_value_anywhere(data, system):
    tree = data_of(system)
    paths = [p for p in _paths(tree) if len(p) >= 2]
    path = data.draw(st.sampled_from(paths))
    what = data.draw(st.sampled_from(['replace', 'drop', 'add']))
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    if what == 'replace':
        parent[path[-1]] = data.draw(WEIRD)
    elif what == 'drop':
        del parent[path[-1]]
    else:
        parent[data.draw(st.text(min_size=1, max_size=8))] = data.draw(WEIRD)
    note(f'{what} at {path}: {parent.get(path[-1], "-")!r}')
    found = holds(yaml.safe_dump(tree))
    # a number made into one out of span or a non-number: its entry goes
    if what == 'replace' and len(path) == 5 and path[2] in ('limits',) \
            and path[4] in ('median', 'min', 'max') \
            and not _plain_number(parent[path[-1]]):
        assert path[1] in found.rejected
    if what == 'replace' and len(path) == 4 and path[2] == 'node' \
            and not _plain_number(parent[path[-1]]):
        assert path[1] in found.rejected


@DRAWN
@given(st.text(max_size=300))
def test_any_text(text):
    holds(text)


@settings(MUTATIONS, max_examples=40)
@given(st.data(), st.sampled_from(COMMITTED),
       st.sampled_from(sorted(MUTATIONS_OF_ANY)))
def test_a_mutated_committed_file(data, system, mutation):
    original = committed(system).encode()
    what, broken = MUTATIONS_OF_ANY[mutation](data.draw, original)
    note(what)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, f'{system}.yaml'), 'wb') as fp:
            fp.write(broken)
        os.environ['MICROBENCH_LIMITS_DIR'] = tmp
        try:
            found = limitsfile.load(system)
        finally:
            del os.environ['MICROBENCH_LIMITS_DIR']
    path = os.path.join(tmp, f'{system}.yaml')
    for line in found.problems:
        one_line(line, path)
    for entry in found.entries.values():
        valid(entry)
