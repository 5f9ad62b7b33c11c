'''The memory record's reader (microbench.suite.memory.memories) against
every input: records made by Hypothesis (nodes, their names and MemTotal
lines as /proc/meminfo spaces them), the real ones (tests/data/node: one
node, and two processes of MPICH's mpiexec on one machine) broken by
every mutation of tests/helpers/mutations.py, and the cases the issue
found: a MemTotal of hundreds of digits crashed, one node listed twice
kept its last value.

Each record is read right (what a plain reading says: every node once,
its kB times 1024) or rejected in one line; never another exception.'''

from types import SimpleNamespace

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.suite import memory, node, output, records
from microbench.suite.stats import Samples
from microbench.units import GIB

from fixtures import path, text
from mutations import MUTATIONS_OF_ANY
from plain import memories as plain_memories
from witness_tally import PROPERTIES, dump, holds, rejects

READER = 'memory: the memory record (memories)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


def read_right(record):
    def check(found):
        assert found == plain_memories(record)
        assert all(0 < size <= node.MOST_MEMORY_KB * 1024
                   for size in found.values())
    return check


def _recorded():
    with open(path('node/vm-memory.out')) as fp:
        return records.parse(fp.read())[memory.RECORD][0]


REAL = {'node/vm-memory.out': _recorded(),
        'node/vm-memory-hydra.txt': text('node/vm-memory-hydra.txt')}


def test_the_real_records_are_read():
    for record in REAL.values():
        found = holds(READER, memory.memories, record, read_right(record))
        # mpiexec's two processes on this one machine: one node
        assert found == {'vm': 24684084 * 1024}


@pytest.mark.parametrize('name', REAL)
@pytest.mark.parametrize('mutation', MUTATIONS_OF_ANY)
@PROPERTIES
@given(st.data())
def test_a_mutated_real_record_is_read_right_or_rejected(name, mutation,
                                                         data):
    how, mutated = MUTATIONS_OF_ANY[mutation](data.draw, REAL[name].encode())
    note(how)
    holds(READER, lambda raw: memory.memories(output.decode(raw)), mutated,
          lambda found: read_right(mutated.decode())(found))


# --- Made records -----------------------------------------------------------

NAMES = st.text('abcdefghijklmnopqrstuvwxyz0123456789-.', min_size=1,
                max_size=12)
KB = st.integers(1, node.MOST_MEMORY_KB)


def _line(name, kb, spaces):
    return f'{name} MemTotal:{" " * spaces}{kb} kB'


@PROPERTIES
@given(st.dictionaries(NAMES, KB, min_size=1, max_size=6),
       st.integers(1, 12), st.data())
def test_a_made_record_is_read_as_made(nodes, spaces, data):
    items = [_line(name, kb, spaces) for name, kb in nodes.items()]
    # a node may answer twice (two processes on it): the same line
    twice = data.draw(st.sampled_from(items))
    record = ','.join([*items, twice] if data.draw(st.booleans())
                      else items)
    note(record)

    def right(found):
        assert found == {name: kb * 1024 for name, kb in nodes.items()}

    holds(READER, memory.memories, record, right)


@PROPERTIES
@given(st.dictionaries(NAMES, KB, min_size=1, max_size=6), st.data())
def test_one_node_with_two_memories_is_rejected_naming_it(nodes, data):
    name = data.draw(st.sampled_from(sorted(nodes)))
    other = data.draw(KB.filter(lambda kb: kb != nodes[name]))
    items = [_line(n, kb, 7) for n, kb in nodes.items()]
    at = data.draw(st.integers(0, len(items)))
    items.insert(at, _line(name, other, 7))
    said = rejects(READER, memory.memories, ','.join(items))
    assert said.startswith(f'node {name} is listed twice, with ')


@pytest.mark.parametrize('digits', [17, 300, 5000, 100_000])
def test_a_memtotal_of_many_digits_is_one_short_line(digits):
    said = rejects(READER, memory.memories,
                   f'vm MemTotal:       {"9" * digits} kB',
                   "is not /proc/meminfo's MemTotal line")
    assert len(said) < 200


@pytest.mark.parametrize('kb, said', [
    (node.MOST_MEMORY_KB + 1, 'more than the 1099511627776 kB (1 PiB)'),
    (0, "is not /proc/meminfo's MemTotal line"),
    (10 ** 16 - 1, 'more than the 1099511627776 kB')])
def test_the_cap_and_the_floor(kb, said):
    rejects(READER, memory.memories, f'vm MemTotal: {kb} kB', said)
    assert memory.memories(f'vm MemTotal: {node.MOST_MEMORY_KB} kB') == \
        {'vm': node.MOST_MEMORY_KB * 1024}


def test_the_conflict_is_said_in_the_note_and_no_ratio_is_kept():
    line = _recorded()
    check = SimpleNamespace(
        figures={'read': Samples([1.0], 'MiB/s')}, cached=set(), note='',
        memory_floor=5.0, perf_variables={}, data_to_memory='',
        rounds=SimpleNamespace(records={memory.RECORD: [
            f'{line},{line.replace("24684084", "12342042")}']}),
        current_partition=SimpleNamespace(extras={}))
    memory.judge(check, {'read': memory.touched([GIB], 1, True)})
    assert check.data_to_memory == ''
    assert check.note == ('no data-to-memory ratio: node vm is listed twice, '
                          'with 23.5 GiB and 11.8 GiB of memory: two machines '
                          'under one name, or an edited record')
