'''microbench.cause.diff: what differs between two real Spack locks, by
package name, and which changes move together.'''

import json
import os

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from microbench.cause import bisection, diff, locks
from spack_manifests import ENVS_DIR

DATA = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')


def env_lock(env):
    return locks.read(os.path.join(ENVS_DIR, env, 'spack.lock'))


def data_lock(name):
    return locks.read(os.path.join(DATA, name))


def planted(side):
    return data_lock(os.path.join(f'planted-{side}', 'spack.lock'))


def _versions(change):
    return (sorted({n.version for n in change.a}),
            sorted({n.version for n in change.b}))


# -- the upgrade of issue 43: local-2023 -> local ----------------------------

def test_the_upgrade_is_seven_packages_in_five_groups():
    found = diff.diff(env_lock('local-2023'), env_lock('local'))
    assert found.units() == ['darshan-runtime', 'darshan-util', 'elbencho',
                             'fabtests', 'fio', 'libfabric', 'py-darshan']
    versions = {name: _versions(found.changes[name])
                for name in found.units()}
    assert versions == {
        'darshan-runtime': (['3.4.7'], ['3.5.0']),
        'darshan-util': (['3.4.7'], ['3.5.0']),
        'elbencho': (['3.0-3'], ['3.1-9']),
        'fabtests': (['1.17.0'], ['2.6.0']),
        'fio': (['3.33'], ['3.42']),
        'libfabric': (['1.17.0'], ['2.6.0']),
        'py-darshan': (['3.4.7.0'], ['3.5.0']),
    }
    # fio and libfabric were apt's (externals); now they are built
    assert 'external' in found.changes['fio'].kinds
    assert 'external' in found.changes['libfabric'].kinds
    # elbencho 3.1 builds FTXUI with cmake, after a git clone: both come
    # with it, no unit of their own
    assert found.comes_with == {'cmake': ('elbencho',),
                                'git': ('elbencho',)}
    assert found.rebuilt == {}
    assert diff.groups(found, diff.edge_couples(found)) == [
        ('darshan-runtime',), ('darshan-util', 'py-darshan'),
        ('elbencho',), ('fabtests', 'libfabric'), ('fio',)]


def test_the_paper_lock_kept_every_version_and_variant():
    '''paper-2020 was concretized again when the common pins moved: not
    one version, variant or dependency of it changed.  What did: the
    packages whose recipes are now the project's (namespace microbench)
    and fabtests, whose recipe gained its 2.x build.'''
    found = diff.diff(data_lock('paper-2020-before-43.lock'),
                      env_lock('paper-2020'))
    for change in found.changes.values():
        assert change.kinds == ('recipe',), change.describe()
    assert set(found.changes) <= {'libfabric', 'fabtests', 'darshan-runtime',
                                  'darshan-util', 'py-darshan', 'elbencho',
                                  'fio'}
    for name, causes in found.rebuilt.items():
        assert set(causes) <= set(found.changes), name


def test_the_facility_lock_moved_its_benchmarks_not_its_libfabric():
    found = diff.diff(data_lock('slurm_cluster-nvme-before-43.lock'),
                      env_lock('slurm_cluster/nvme'))
    assert {'fio', 'darshan-runtime', 'darshan-util', 'py-darshan',
            'elbencho'} <= set(found.units())
    # the facility's own libfabric 1.17.0 (an external) and its fabtests
    # kept their versions: only their recipes are now the project's
    for name in ('libfabric', 'fabtests'):
        assert found.changes[name].kinds == ('recipe',), name
    assert _versions(found.changes['fio']) == (['3.33'], ['3.42'])
    assert all(n.version == '1.17.0' for n in
               env_lock('slurm_cluster/nvme').by_name()['fabtests'])


def test_two_partitions_of_a_facility_differ_by_lustre():
    found = diff.diff(env_lock('slurm_cluster/nvme'),
                      env_lock('slurm_cluster/lustre'))
    assert found.changes['ior'].kinds[0] == 'variants'
    assert found.changes['darshan-runtime'].kinds[0] == 'variants'
    assert found.changes['lustre'].kinds == ('added',)
    assert set(found.comes_with['lustre']) == {'darshan-runtime', 'ior'}
    assert 'lustre' not in found.units()


def test_the_old_local_lock_differs_from_local_2023_by_its_externals():
    '''local-2023 is the old pins on the Debian externals of the new
    local: against the lock the old local committed, the benchmarks kept
    their versions, and only how they are built moved.'''
    found = diff.diff(data_lock('local-before-43.lock'),
                      env_lock('local-2023'))
    for name in ('fio', 'libfabric', 'fabtests', 'elbencho', 'ior',
                 'darshan-runtime', 'darshan-util', 'py-darshan',
                 'osu-micro-benchmarks'):
        change = found.changes.get(name)
        if change:
            assert 'version' not in change.kinds, change.describe()
    assert 'external' in found.changes['python'].kinds


# -- the planted scenario ----------------------------------------------------

def test_the_planted_locks_differ_in_six_packages():
    found = diff.diff(planted('a'), planted('b'))
    assert found.units() == ['darshan-runtime', 'darshan-util', 'fabtests',
                             'fio', 'ior', 'libfabric']
    assert found.changes['fio'].kinds[0] == 'variants'
    (slow,) = found.changes['fio'].b
    assert slow.variants()['slowwrite'] is True
    assert found.rebuilt == {'py-darshan': ('darshan-util',)}
    assert found.comes_with == {'bzip2': ('darshan-util',)}
    assert diff.groups(found, diff.edge_couples(found)) == [
        ('darshan-runtime',), ('darshan-util',), ('fabtests', 'libfabric'),
        ('fio',), ('ior',)]


def test_the_stronger_plant_differs_from_planted_b_in_fio_alone():
    '''planted-c (the diagnose bench's stronger plant): planted-b's stack
    but fio +doublewrite, a recipe of its own (namespace
    microbench_test_double) with one patch more.'''
    found = diff.diff(planted('b'), planted('c'))
    assert found.units() == ['fio']
    assert found.rebuilt == {} and found.comes_with == {}
    assert found.changes['fio'].kinds == ('variants', 'recipe')
    (double,) = found.changes['fio'].b
    assert double.variants()['slowwrite'] is True
    assert double.variants()['doublewrite'] is True
    assert double.namespace == 'microbench_test_double'
    found = diff.diff(planted('a'), planted('c'))
    assert found.units() == diff.diff(planted('a'), planted('b')).units()


def test_the_k8_plant_adds_three_bystanders_to_planted_c():
    '''planted-d (the k = 8 bisection of bench/bisect_planted.py):
    planted-c's six changed packages and three bystanders added as roots,
    each a unit of its own: nine packages in eight groups, a budget of
    ceil(log2 8) + 1 = 4 A/B steps.'''
    found = diff.diff(planted('a'), planted('d'))
    bystanders = ['bystander-one', 'bystander-three', 'bystander-two']
    assert found.units() == sorted(
        diff.diff(planted('a'), planted('c')).units() + bystanders)
    for name in bystanders:
        assert found.changes[name].kinds == ('added',)
        assert found.changes[name].root
    groups = diff.groups(found, diff.edge_couples(found))
    assert len(groups) == 8
    assert ('fio',) in groups and ('fabtests', 'libfabric') in groups
    assert bisection.budget(len(groups)) == 4
    assert diff.diff(planted('c'), planted('d')).units() == bystanders


def test_a_change_reads_as_an_operator_says_it():
    found = diff.diff(planted('a'), planted('b'))
    assert found.changes['ior'].describe() == \
        'ior 3.3.0 -> 4.0.0 (version, dependencies)'
    assert found.changes['bzip2'].describe() == \
        'bzip2 absent -> 1.0.8 (added)'


# -- two identical locks -----------------------------------------------------

@pytest.mark.parametrize('env', ['local', 'paper-2020', 'cray_xc/compute'])
def test_a_lock_against_itself_has_nothing_to_bisect(env):
    lock = env_lock(env)
    found = diff.diff(lock, lock)
    assert found.empty() and found.units() == []
    with pytest.raises(locks.LockError) as err:
        diff.require_changes(found)
    assert str(err.value) == (
        f'{lock.path}: the same stack as {lock.path} (no package differs): '
        f'nothing to bisect')


def test_a_lock_in_another_order_is_the_same_stack(tmp_path):
    tree = json.loads(open(os.path.join(ENVS_DIR, 'local', 'spack.lock'))
                      .read())
    tree['concrete_specs'] = dict(reversed(list(
        tree['concrete_specs'].items())))
    tree['roots'].reverse()
    path = tmp_path / 'spack.lock'
    path.write_text(json.dumps(tree, indent=2))
    assert diff.diff(env_lock('local'), locks.read(str(path))).empty()


# -- properties --------------------------------------------------------------

def _with_version(lock, name, version):
    nodes = {digest: (node if node.name != name else
                      locks.Node(**{**node.__dict__, 'version': version}))
             for digest, node in lock.nodes.items()}
    return locks.Lock(path='edited.lock', spack=lock.spack,
                      roots=lock.roots, nodes=nodes)


NAMES = sorted(env_lock('local').by_name())


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(names=st.sets(st.sampled_from(NAMES), min_size=1, max_size=5))
def test_a_version_moved_is_a_change_of_that_package(names):
    before = env_lock('local')
    after = before
    for name in names:
        after = _with_version(after, name, '999.1')
    found = diff.diff(before, after)
    note(sorted(found.changes))
    assert set(found.changes) == set(names)
    for name in names:
        assert found.changes[name].kinds == ('version',)
    back = diff.diff(after, before)
    assert back.units() == found.units()


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(couples=st.lists(st.tuples(
    st.sampled_from(['darshan-runtime', 'darshan-util', 'fabtests', 'fio',
                     'ior', 'libfabric', 'lustre', 'zlib']),
    st.sampled_from(['darshan-runtime', 'darshan-util', 'fabtests', 'fio',
                     'ior', 'libfabric', 'nowhere'])), max_size=8))
def test_groups_partition_the_units_and_keep_every_couple(couples):
    found = diff.diff(planted('a'), planted('b'))
    joined = diff.groups(found, couples)
    flat = [name for group in joined for name in group]
    assert sorted(flat) == found.units()
    assert len(flat) == len(set(flat))
    where = {name: i for i, group in enumerate(joined) for name in group}
    for one, other in couples:
        if one in where and other in where:
            assert where[one] == where[other]
    # no couple, no group of two
    if not any(one in where and other in where and one != other
               for one, other in couples):
        assert all(len(group) == 1 for group in joined)


def test_every_kind_is_declared_once():
    assert set(diff._ASPECTS) | {'added', 'removed'} == set(locks.KINDS)
