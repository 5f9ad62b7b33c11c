'''microbench.cause.locks: reading a Spack lock, on the project's real
locks, and rejecting what is not one in one line naming the file.'''

import json
import os

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from microbench.cause import locks
from mutations import MUTATIONS_OF_ANY, MUTATIONS_OF_JSON, load_pairs
from spack_manifests import ENVS, ENVS_DIR

DATA = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')

#: Real locks made by the pinned Spack: every environment's, the locks
#: before issue 43 moved the pins, the planted scenario's (planted-c: the
#: diagnose bench's stronger plant; planted-d: the k = 8 bisection's)
REAL = sorted([os.path.join(ENVS_DIR, env, 'spack.lock') for env in ENVS]
              + [os.path.join(DATA, name) for name in os.listdir(DATA)
                 if name.endswith('.lock')]
              + [os.path.join(DATA, side, 'spack.lock')
                 for side in ('planted-a', 'planted-b', 'planted-c',
                              'planted-d')])


def _raw(path):
    with open(path, 'rb') as fp:
        return fp.read()


LOCAL = os.path.join(ENVS_DIR, 'local', 'spack.lock')


def _one_line(err, path):
    text = str(err)
    assert '\n' not in text, text
    assert text.startswith(f'{path}: '), text
    return text


@pytest.mark.parametrize('path', REAL,
                         ids=lambda p: os.path.relpath(p, ENVS_DIR))
def test_every_real_lock_reads(path):
    lock = locks.read(path)
    tree = json.loads(_raw(path))
    assert len(lock.nodes) == len(tree['concrete_specs'])
    assert [r['spec'] for r in tree['roots']] == [s for s, _ in lock.roots]
    assert lock.spack == tree['spack']['version']
    for digest, node in lock.nodes.items():
        raw = tree['concrete_specs'][digest]
        assert (node.name, node.version) == (raw['name'], raw['version'])
        assert [d.hash for d in node.dependencies] == [
            d['hash'] for d in raw.get('dependencies', [])]
        assert (node.external is not None) == ('external' in raw)


def test_the_local_lock_holds_its_benchmarks():
    lock = locks.read(LOCAL)
    assert {'fio', 'ior', 'fabtests', 'libfabric', 'darshan-util'} <= set(
        lock.by_name())
    assert lock.root_names() == {
        'fio', 'ior', 'osu-micro-benchmarks', 'fabtests', 'elbencho',
        'darshan-runtime', 'darshan-util', 'py-darshan'}
    (gcc,) = lock.by_name()['gcc']
    assert gcc.external == '/usr'
    assert json.loads(gcc.external_attributes)['compilers']['c'] == \
        '/usr/bin/gcc'


# -- what is not a lock ------------------------------------------------------

def _write(tmp_path, data, name='spack.lock'):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


def _edited(change):
    tree = json.loads(_raw(LOCAL))
    change(tree)
    return json.dumps(tree)


def _first_node(tree):
    return next(iter(tree['concrete_specs'].values()))


def _node_named(tree, name):
    return next(n for n in tree['concrete_specs'].values()
                if n['name'] == name)


BAD = {
    'empty file': ('', 'not JSON'),
    'the manifest': (open(os.path.join(ENVS_DIR, 'local', 'spack.yaml'))
                     .read(), 'not JSON'),
    'a JSON list': ('[1, 2]', 'not a Spack lock (no _meta object)'),
    'a report': ('{"session_info": {}}', 'no _meta object'),
    'another file type': (_edited(lambda t: t['_meta'].update(
        {'file-type': 'spack-specfile'})), "_meta.file-type is "
        "'spack-specfile'"),
    'lockfile version 5': (_edited(lambda t: t['_meta'].update(
        {'lockfile-version': 5})), 'lockfile-version 5 is not one'),
    'lockfile version 7': (_edited(lambda t: t['_meta'].update(
        {'lockfile-version': 7})), 'lockfile-version 7 is not one'),
    'lockfile version as text': (_edited(lambda t: t['_meta'].update(
        {'lockfile-version': '6'})), "lockfile-version '6' is not one"),
    'lockfile version true': (_edited(lambda t: t['_meta'].update(
        {'lockfile-version': True})), 'lockfile-version True is not one'),
    'no concrete_specs': (_edited(lambda t: t.pop('concrete_specs')),
                          'concrete_specs is None, not a dict'),
    'no roots': (_edited(lambda t: t.pop('roots')),
                 'roots is None, not a list'),
    'empty roots': (_edited(lambda t: t.update(roots=[])),
                    'a lock without roots'),
    'a root not among the nodes': (_edited(lambda t: t['roots'][0].update(
        hash='a' * 32)), 'is not among its concrete_specs'),
    'a node without a name': (_edited(lambda t: _first_node(t).pop(
        'name')), '.name is None, not a str'),
    'a version that is a number': (_edited(lambda t: _first_node(t).update(
        version=3.33)), '.version is 3.33, not a str'),
    'a node under another hash': (_edited(lambda t: _first_node(t).update(
        hash='b' * 32)), "not its key"),
    'a dependency on a hash not in the lock': (
        _edited(lambda t: _node_named(t, 'fabtests')['dependencies'][0]
                .update(hash='c' * 32)),
        'which the lock does not hold'),
    'deptypes that are text': (
        _edited(lambda t: _node_named(t, 'fabtests')['dependencies'][0][
            'parameters'].update(deptypes='build')),
        'deptypes is \'build\', not a list'),
    'a variant that is an object': (
        _edited(lambda t: _node_named(t, 'fio')['parameters'].update(
            libaio={'x': 1})), "parameters.libaio is {'x': 1}, not a bool"),
    'an external without a path': (
        _edited(lambda t: _node_named(t, 'gcc')['external'].pop('path')),
        'external.path is None, not a str'),
    'a name that is no package name': (
        _edited(lambda t: _first_node(t).update(name='Fio; rm')),
        "not a package name"),
    'included environments': (
        _edited(lambda t: t.update(include_concrete={})),
        'include_concrete'),
    'nested too deeply': ('[' * 100000 + ']' * 100000, 'not'),
    'an integer of 5000 digits': ('{"_meta": ' + '9' * 5000 + '}',
                                  'not JSON'),
    'not UTF-8': (b'{"_meta": "\xff\xfe"}', 'not UTF-8'),
}


@pytest.mark.parametrize('case', sorted(BAD))
def test_what_is_not_a_lock_is_one_line_naming_the_file(case, tmp_path):
    data, said = BAD[case]
    path = _write(tmp_path, data)
    with pytest.raises(locks.LockError) as err:
        locks.read(path)
    assert said in _one_line(err.value, path)


def test_a_lock_past_the_size_cap_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(locks, 'MAX_BYTES', 1000)
    path = _write(tmp_path, _raw(LOCAL))
    with pytest.raises(locks.LockError) as err:
        locks.read(path)
    assert 'more than a lock (1000 at most)' in _one_line(err.value, path)


def test_a_lock_past_the_node_cap_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(locks, 'MAX_NODES', 10)
    path = _write(tmp_path, _raw(LOCAL))
    with pytest.raises(locks.LockError) as err:
        locks.read(path)
    assert 'nodes, more than a lock (10 at most)' in _one_line(err.value,
                                                               path)


@pytest.mark.parametrize('where', ['missing', 'directory'])
def test_a_file_that_cannot_be_read_is_said(where, tmp_path):
    path = str(tmp_path / 'nowhere.lock') if where == 'missing' \
        else str(tmp_path)
    with pytest.raises(locks.LockError) as err:
        locks.read(path)
    assert 'cannot be read' in _one_line(err.value, path)


# -- mutated real locks: a Lock or one line, never another exception ---------

#: A small real lock (the planted scenario's side A), so that a mutation is
#: quick to parse
SMALL = os.path.join(DATA, 'planted-a', 'spack.lock')
MUTATIONS = sorted(MUTATIONS_OF_ANY) + sorted(MUTATIONS_OF_JSON)


def _holds_the_contract(data, path):
    try:
        lock = locks.parse(data, path)
    except locks.LockError as err:
        _one_line(err, path)
        return None
    assert lock.nodes and lock.roots
    for node in lock.nodes.values():
        for dep in node.dependencies:
            assert dep.hash in lock.nodes
    return lock


@pytest.mark.parametrize('mutation', MUTATIONS)
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_a_mutated_lock_is_read_or_rejected_in_one_line(mutation, data):
    raw = _raw(SMALL)
    if mutation in MUTATIONS_OF_JSON:
        what, mutated = MUTATIONS_OF_JSON[mutation](data.draw, raw, 'json')
    else:
        what, mutated = MUTATIONS_OF_ANY[mutation](data.draw, raw)
    note(what)
    _holds_the_contract(mutated, 'mutated.lock')


#: Values of the wrong type (and a few of the right one) put anywhere
WRONG = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                  st.text(max_size=8), st.just([]), st.just({}),
                  st.just([1, 'a']), st.just({'a': [None]}))


def _paths(node, prefix=()):
    '''Every path to a value in a JSON tree.'''
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, prefix + (i,))


def _replace(tree, where, value):
    if not where:
        return value
    node = tree
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    return tree


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_a_value_of_any_type_anywhere_is_read_or_rejected(data):
    tree = json.loads(_raw(SMALL))
    where = data.draw(st.sampled_from(sorted(_paths(tree), key=str)))
    value = data.draw(WRONG)
    note(f"{where} -> {value!r}")
    mutated = json.dumps(_replace(tree, where, value)).encode()
    _holds_the_contract(mutated, 'mutated.lock')


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_a_lock_with_a_member_dropped_is_read_or_rejected(data):
    tree = load_pairs(_raw(SMALL))
    keys = [k for k, _ in tree]
    dropped = data.draw(st.sampled_from(keys))
    rest = {k: v for k, v in json.loads(_raw(SMALL)).items()
            if k != dropped}
    lock = _holds_the_contract(json.dumps(rest).encode(), 'mutated.lock')
    # Spack's own metadata, the roots and the nodes are all needed; the
    # record of the Spack that made it is not
    assert (lock is None) == (dropped != 'spack')
