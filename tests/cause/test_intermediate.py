'''microbench.cause.intermediate: the Spack environment of a bisection
step, written from two real locks; with the pinned Spack on PATH, the
steps concretize to the nodes of A and B.'''

import dataclasses
import os
import shutil

import pytest
import yaml

from microbench.cause import diff, intermediate, locks, stacks
from spack_manifests import ENVS_DIR

DATA = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')
PLANTED = {side: os.path.join(DATA, f'planted-{side}') for side in 'abd'}


def _found(a='a', b='b'):
    return diff.diff(locks.read(os.path.join(PLANTED[a], 'spack.lock')),
                     locks.read(os.path.join(PLANTED[b], 'spack.lock')))


def _repos():
    return intermediate.repos_of(PLANTED['a'])


def _packages(subset):
    return intermediate.intermediate(_found(), subset,
                                     _repos())['spack']['packages']


def test_the_repositories_of_an_environment_in_order():
    repos = _repos()
    assert [ns for ns, _ in repos] == ['microbench_test', 'microbench']
    assert repos[1][1] == os.path.join(ENVS_DIR, 'repo', 'spack_repo',
                                       'microbench')


def test_no_change_pins_every_package_at_a():
    packages = _packages(set())
    a = locks.read(os.path.join(PLANTED['a'], 'spack.lock'))
    for node in a.nodes.values():
        if node.name in intermediate.IMPLIED_PACKAGES:
            assert node.name not in packages
            continue
        entry = packages[node.name]
        if node.external:
            assert entry['buildable'] is False
            assert entry['externals'][0]['prefix'] == node.external
        assert entry['require'] == intermediate.requirement(node) or \
            entry['require'] == f'@={node.version}'
    assert packages['fio']['require'].startswith('@=3.33 ')
    assert '~slowwrite' in packages['fio']['require']
    assert packages['all'] == {'target': ['x86_64_v2']}
    assert packages['mpi'] == {'require': 'mpich'}
    assert 'bzip2' not in packages          # B's new dependency


def test_moving_fio_takes_bs_fio_and_nothing_else():
    packages = _packages({'fio'})
    assert '+slowwrite' in packages['fio']['require']
    assert packages['libfabric']['require'].startswith('@=2.5.1 ')
    assert packages['ior']['require'].startswith('@=3.3.0 ')


def test_a_package_that_comes_with_a_change_moves_with_it():
    packages = _packages({'darshan-util'})
    assert '+bzip2' in packages['darshan-util']['require']
    assert packages['bzip2']['externals'][0]['prefix'] == '/usr'


def test_the_roots_are_the_packages_of_as_roots():
    manifest = intermediate.intermediate(_found(), set(), _repos())
    assert manifest['spack']['specs'] == [
        'darshan-runtime', 'darshan-util', 'fabtests', 'fio', 'ior',
        'py-darshan']
    assert manifest['spack']['view'] is True


def test_a_step_may_install_some_roots_only():
    manifest = intermediate.intermediate(_found(), {'fio'}, _repos(),
                                         roots=['fio'])
    assert manifest['spack']['specs'] == ['fio']
    # every package is still pinned to its side
    assert '+slowwrite' in manifest['spack']['packages']['fio']['require']
    assert 'libfabric' in manifest['spack']['packages']
    with pytest.raises(locks.LockError) as err:
        intermediate.intermediate(_found(), set(), _repos(),
                                  roots=['fio', 'osu-micro-benchmarks'])
    assert 'osu-micro-benchmarks is no root of the step' in str(err.value)


def test_a_name_that_is_no_unit_is_said():
    with pytest.raises(locks.LockError) as err:
        intermediate.intermediate(_found(), {'py-darshan'}, _repos())
    assert 'py-darshan is no change of its own' in str(err.value)
    assert '\n' not in str(err.value)


def test_a_namespace_without_repository_is_said():
    with pytest.raises(locks.LockError) as err:
        intermediate.intermediate(_found(), {'fio'},
                                  [('microbench', '/nowhere')])
    assert 'the namespace microbench_test of its nodes has no ' \
        'repository here' in str(err.value)


@pytest.mark.parametrize('text', ['spack: [', 'spack: {repos: [1]}', '- 1'])
def test_repositories_of_a_bad_manifest_are_one_line(text, tmp_path):
    (tmp_path / 'spack.yaml').write_text(text)
    with pytest.raises(locks.LockError) as err:
        intermediate.repos_of(str(tmp_path))
    assert str(err.value).startswith(f'{tmp_path}/spack.yaml: ')
    assert '\n' not in str(err.value)


def test_a_written_step_reads_back(tmp_path):
    manifest = intermediate.intermediate(_found(), {'fio', 'ior'}, _repos())
    path = intermediate.write(str(tmp_path / 'step'), manifest)
    with open(path) as fp:
        assert yaml.safe_load(fp) == manifest


def test_variants_are_spelled_as_a_spec():
    a = locks.read(os.path.join(PLANTED['a'], 'spack.lock'))
    (runtime,) = a.by_name()['darshan-runtime']
    text = intermediate.variants_text(runtime)
    assert 'scheduler=NONE' in text and '+mpi' in text
    assert 'log_path=none' in text
    (gcc,) = a.by_name()['gcc']
    assert "languages=c,c++,fortran" in intermediate.variants_text(gcc)


# -- with the pinned Spack: the steps are nodes of A and B -------------------

NO_SPACK = pytest.mark.skipif(shutil.which('spack') is None,
                              reason='no spack executable on PATH')


def _repo_order(subset):
    '''The namespaces, in order, of the step of planted-a against planted-d
    (side B's fio is microbench_test_double's) that moves ``subset``.'''
    found = _found('a', 'd')
    manifest = intermediate.intermediate(
        found, subset, intermediate.repos_of(PLANTED['d']))
    return list(manifest['spack']['repos'])


def test_a_node_takes_the_recipe_of_its_lock():
    '''Spack takes fio from the first repository that holds one: a step
    that keeps A's fio (microbench_test's) lists microbench_test before
    B's microbench_test_double (found by the k = 8 planted bisection,
    whose steps without fio compiled a fio of the wrong recipe); one that
    moves fio, the order of B.'''
    assert [ns for ns, _ in intermediate.repos_of(PLANTED['d'])] == [
        'microbench_test_double', 'microbench_test', 'microbench']
    assert _repo_order({'ior'}) == ['microbench_test',
                                    'microbench_test_double', 'microbench']
    assert _repo_order(set()) == ['microbench_test',
                                  'microbench_test_double', 'microbench']
    assert _repo_order({'fio'}) == ['microbench_test_double',
                                    'microbench_test', 'microbench']


def test_recipes_needed_in_contradicting_orders_are_one_line(tmp_path):
    '''Two packages, each of whose lock's recipe is in the repository the
    other's must go before: no order gives both; said, never guessed.'''
    for ns in ('one', 'two'):
        for name in ('fio', 'ior'):
            folder = tmp_path / ns / 'packages' / name
            folder.mkdir(parents=True)
            (folder / 'package.py').write_text('')
    found = _found('a', 'b')
    chosen = {name: [dataclasses.replace(node, namespace=ns)
                     for node in found.a.by_name()[name]]
              for name, ns in (('fio', 'two'), ('ior', 'one'))}
    with pytest.raises(locks.LockError) as err:
        intermediate.ordered_repos([('one', str(tmp_path / 'one')),
                                    ('two', str(tmp_path / 'two'))], chosen)
    assert '\n' not in str(err.value) and 'one, two' in str(err.value)


def _pinned():
    try:
        stacks.pinned_spack()
    except stacks.StackError as err:
        pytest.skip(str(err))


def _concretized(tmp_path, subset):
    env = str(tmp_path / 'step')
    intermediate.write(env, intermediate.intermediate(_found(), subset,
                                                      _repos()))
    return stacks.concretize(env)


@NO_SPACK
@pytest.mark.parametrize('side', ['a', 'b'])
def test_the_step_of_no_change_is_a_and_of_every_change_b(side, tmp_path):
    _pinned()
    found = _found()
    subset = set() if side == 'a' else set(found.units())
    made = _concretized(tmp_path, subset)
    wanted = found.a if side == 'a' else found.b
    assert set(made.nodes) == set(wanted.nodes), (
        sorted(n.spec() for h, n in made.nodes.items()
               if h not in wanted.nodes))


@NO_SPACK
def test_a_step_of_the_k8_plant_without_fio_is_a_fio(tmp_path):
    '''planted-a against planted-d, the step that moves ior alone: its fio
    is A's build (microbench_test's recipe), nothing built anew.'''
    _pinned()
    found = _found('a', 'd')
    env = str(tmp_path / 'step')
    intermediate.write(env, intermediate.intermediate(
        found, {'ior'}, intermediate.repos_of(PLANTED['d'])))
    made = stacks.concretize(env)
    known = set(found.a.nodes) | set(found.b.nodes)
    assert set(made.nodes) <= known, sorted(
        n.spec() for h, n in made.nodes.items() if h not in known)
    (fio,) = made.by_name()['fio']
    assert fio.namespace == 'microbench_test' and fio.hash in found.a.nodes


@NO_SPACK
def test_a_step_that_splits_a_group_cannot_be_concretized(tmp_path):
    '''fabtests 2.6.0 needs libfabric 2.6.0: moving fabtests without
    libfabric is a step Spack refuses, and says so.'''
    _pinned()
    with pytest.raises(stacks.StepError) as err:
        _concretized(tmp_path, {'fabtests'})
    assert err.value.kind == 'concretize'
    assert '\n' not in str(err.value)
    assert os.path.isfile(err.value.log)


@NO_SPACK
def test_the_recipes_couple_fabtests_and_libfabric_only():
    _pinned()
    found = _found()
    couples = stacks.recipe_couples(found, _repos())
    assert couples == [('fabtests', 'libfabric')]
    assert diff.groups(found, couples) == [
        ('darshan-runtime',), ('darshan-util',), ('fabtests', 'libfabric'),
        ('fio',), ('ior',)]


@NO_SPACK
def test_the_recipes_group_the_upgrade_of_local_in_five():
    '''issue 43's upgrade, local-2023 -> local: fabtests moves with
    libfabric, py-darshan with darshan-util, the rest alone.'''
    _pinned()
    found = diff.diff(
        locks.read(os.path.join(ENVS_DIR, 'local-2023', 'spack.lock')),
        locks.read(os.path.join(ENVS_DIR, 'local', 'spack.lock')))
    repos = intermediate.repos_of(os.path.join(ENVS_DIR, 'local'))
    couples = stacks.recipe_couples(found, repos)
    assert couples == [('darshan-util', 'py-darshan'),
                       ('fabtests', 'libfabric')]
    assert diff.groups(found, couples) == [
        ('darshan-runtime',), ('darshan-util', 'py-darshan'),
        ('elbencho',), ('fabtests', 'libfabric'), ('fio',)]
