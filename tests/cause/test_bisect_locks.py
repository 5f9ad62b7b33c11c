'''What ``microbench bisect`` makes of real committed locks: its units,
groups, k and budget, and each unit's two sides as the result names them
(the planted locks of tests/data/spack, the project's local and local-2023,
a facility's lock before and after issue 43, the paper's); where a lock's
installed stack is found.'''

import os
import shutil

import pytest

from microbench.cause import bisect, bisectdoc, bisection, diff, locks
from spack_manifests import ENVS_DIR

DATA = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')


def _lock(*parts):
    return locks.read(os.path.join(*parts))


def _found(a, b):
    return diff.diff(a, b)


PLANTED = (lambda: _lock(DATA, 'planted-a', 'spack.lock'),
           lambda: _lock(DATA, 'planted-b', 'spack.lock'))
UPGRADE = (lambda: _lock(ENVS_DIR, 'local-2023', 'spack.lock'),
           lambda: _lock(ENVS_DIR, 'local', 'spack.lock'))


def test_the_planted_locks_are_five_groups_a_budget_of_four():
    found = _found(PLANTED[0](), PLANTED[1]())
    groups = diff.groups(found, diff.edge_couples(found))
    assert groups == [('darshan-runtime',), ('darshan-util',),
                      ('fabtests', 'libfabric'), ('fio',), ('ior',)]
    assert bisection.budget(len(groups)) == 4


def test_the_planted_units_name_what_differs_of_each():
    found = _found(PLANTED[0](), PLANTED[1]())
    rows = {row['name']: row for row in bisectdoc.units(found)}
    assert rows['fio']['kinds'] == ['variants', 'recipe']
    assert rows['darshan-util']['brings'] == ['bzip2']
    assert rows['darshan-util']['rebuilds'] == ['py-darshan']
    assert rows['ior']['a'] == ['3.3.0'] and rows['ior']['b'] == ['4.0.0']
    (fio,) = bisectdoc.packages(found, ('fio',))
    assert fio == {'name': 'fio', 'a': '3.33 ~slowwrite',
                   'b': '3.33 +slowwrite'}
    (runtime,) = bisectdoc.packages(found, ('darshan-runtime',))
    assert (runtime['a'], runtime['b']) == ('3.5.0 scheduler=NONE',
                                            '3.5.0 scheduler=slurm')
    fabtests, libfabric = bisectdoc.packages(found, ('fabtests',
                                                     'libfabric'))
    assert (fabtests['a'], fabtests['b']) == ('2.5.1', '2.6.0')
    assert (libfabric['a'], libfabric['b']) == ('2.5.1', '2.6.0')


def test_the_upgrade_of_local_is_five_groups_a_budget_of_four():
    found = _found(UPGRADE[0](), UPGRADE[1]())
    groups = diff.groups(found, diff.edge_couples(found))
    assert len(groups) == 5 and ('fio',) in groups
    assert bisection.budget(len(groups)) == 4
    (fio,) = bisectdoc.packages(found, ('fio',))
    assert (fio['a'], fio['b']) == ('3.33', '3.42')


def test_a_facility_lock_before_and_after_is_bisected_by_its_units():
    found = _found(_lock(DATA, 'slurm_cluster-nvme-before-43.lock'),
                   _lock(ENVS_DIR, 'slurm_cluster', 'nvme', 'spack.lock'))
    units = found.units()
    groups = diff.groups(found, diff.edge_couples(found))
    assert sorted(name for group in groups for name in group) == units
    assert len(groups) == 5 and bisection.budget(len(groups)) == 4
    # the facility's own libfabric kept its version: its recipe moved
    libfabric = bisectdoc.packages(found, ('libfabric',))[0]
    assert (libfabric['a'], libfabric['b']) == ('1.17.0', '1.17.0')
    assert found.changes['libfabric'].kinds == ('recipe',)


def test_the_paper_lock_against_its_old_self_has_no_version_moved():
    found = _found(_lock(DATA, 'paper-2020-before-43.lock'),
                   _lock(ENVS_DIR, 'paper-2020', 'spack.lock'))
    assert all('version' not in row['kinds']
               for row in bisectdoc.units(found))


def _env(tmp_path, name, lock_path):
    env = tmp_path / name
    (env / '.spack-env' / 'view' / 'bin').mkdir(parents=True)
    shutil.copy(lock_path, env / 'spack.lock')
    return str(env)


def test_an_installed_stack_is_found_by_its_lock_in_the_stacks_dir(
        tmp_path):
    lock = os.path.join(DATA, 'planted-a', 'spack.lock')
    env = _env(tmp_path, 'planted-a-7df2ee83a676', lock)
    assert bisect.installed(lock, str(tmp_path), 'LOCK_A') == env
    # the lock's own folder, where it is an installed environment
    assert bisect.installed(os.path.join(env, 'spack.lock'), '/nowhere',
                            'LOCK_A') == env


def test_a_stack_not_installed_is_one_line(tmp_path):
    lock = os.path.join(DATA, 'planted-a', 'spack.lock')
    other = os.path.join(DATA, 'planted-b', 'spack.lock')
    _env(tmp_path, 'planted-b', other)
    with pytest.raises(ValueError) as err:
        bisect.installed(lock, str(tmp_path), 'LOCK_A')
    said = str(err.value)
    assert '\n' not in said
    assert said.startswith(f'LOCK_A {lock}: its stack is not installed')
    assert '7df2ee83a676' in said
