'''microbench.cause.stacks: stacks already installed (a view, a prefix),
without compiling; snapshots of an environment per lock.'''

import os
import shutil
import subprocess

import pytest
import yaml

from microbench.cause import diff, locks, stacks
from spack_manifests import ENVS_DIR

DATA = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')

#: Where this machine's stacks were installed (spack_envs/README.md, "Built
#: for real here"); the tests that need them skip elsewhere
INSTALLED = '/opt/spack-stacks/envs'


def test_an_installed_prefix_is_a_stack():
    stack = stacks.from_prefix('/usr')
    assert stack.root == '/usr' and stack.bindir() == '/usr/bin'
    assert stack.bindir('fio') == '/usr/bin'


@pytest.mark.parametrize('where', ['/nowhere/at/all', '/etc/hostname',
                                   '/proc/self'])
def test_what_is_no_stack_is_one_line(where):
    with pytest.raises(stacks.StackError) as err:
        stacks.from_prefix(where)
    assert str(err.value) == f'{where}: not an installed stack (no bin/ ' \
        f'folder)'


def test_the_externals_of_a_lock_are_where_the_stack_finds_them(tmp_path):
    '''local-2023 takes fio and libfabric from apt: its view has no fio,
    the stack names /usr for them.'''
    view = tmp_path / 'view'
    (view / 'bin').mkdir(parents=True)
    stack = stacks.from_view(str(view), os.path.join(
        ENVS_DIR, 'local-2023', 'spack.lock'), name='local-2023')
    assert stack.bindir('fio') == '/usr/bin'
    assert stack.bindir('libfabric') == '/usr/bin'
    assert stack.bindir('ior') == str(view / 'bin')


def test_a_view_with_a_bad_lock_is_said(tmp_path):
    (tmp_path / 'bin').mkdir()
    (tmp_path / 'spack.lock').write_text('{}')
    with pytest.raises(locks.LockError) as err:
        stacks.from_view(str(tmp_path), str(tmp_path / 'spack.lock'))
    assert 'not a Spack lock' in str(err.value)


def test_a_snapshot_is_self_contained_and_keeps_the_lock(tmp_path):
    env = os.path.join(ENVS_DIR, 'local')
    made = stacks.snapshot(env, str(tmp_path))
    with open(os.path.join(env, 'spack.lock'), 'rb') as fp:
        lock = fp.read()
    with open(os.path.join(made, 'spack.lock'), 'rb') as fp:
        assert fp.read() == lock
    assert os.path.basename(made).startswith('local-')
    with open(os.path.join(made, 'spack.yaml')) as fp:
        conf = yaml.safe_load(fp)['spack']
    for path in conf['include']:
        assert not os.path.isabs(path)
        assert os.path.isfile(os.path.join(made, path)), path
    assert conf['repos'] == {'microbench': 'repos/spack_repo/microbench'}
    assert os.path.isfile(os.path.join(
        made, 'repos', 'spack_repo', 'microbench', 'packages', 'fio',
        'package.py'))
    # the same lock again: the snapshot kept, not made twice
    assert stacks.snapshot(env, str(tmp_path)) == made
    assert len(os.listdir(tmp_path)) == 1


def test_a_snapshot_of_a_folder_without_a_lock_is_refused(tmp_path):
    (tmp_path / 'spack.yaml').write_text('spack: {specs: [fio]}')
    with pytest.raises(locks.LockError) as err:
        stacks.snapshot(str(tmp_path), str(tmp_path / 'snapshots'))
    assert 'cannot be read' in str(err.value)


def test_no_spack_on_path_is_said(monkeypatch):
    monkeypatch.setenv('PATH', '/nonexistent')
    with pytest.raises(stacks.StackError) as err:
        stacks.pinned_spack()
    assert 'spack cannot be run' in str(err.value) or \
        'not the pinned' in str(err.value)


# -- the stacks installed here -----------------------------------------------

def _installed(name):
    '''The installed snapshot of ``name`` whose lock is the committed one
    (``tests/data/spack/<name>`` or ``spack_envs/<name>``).'''
    for base in (DATA, ENVS_DIR):
        lock = os.path.join(base, name, 'spack.lock')
        if os.path.isfile(lock):
            break
    digest = stacks._lock_digest(lock)[:12]
    env = os.path.join(INSTALLED, f'{name}-{digest}')
    if not os.path.isdir(os.path.join(env, '.spack-env', 'view', 'bin')):
        pytest.skip(f'{name} is not installed here ({env})')
    return env


def _fio_version(stack):
    out = subprocess.run([os.path.join(stack.bindir('fio'), 'fio'),
                          '--version'], capture_output=True, text=True,
                         timeout=60)
    return out.stdout.strip()


@pytest.mark.parametrize('name, version', [('planted-a', 'fio-3.33'),
                                           ('planted-b', 'fio-3.33'),
                                           ('planted-c', 'fio-3.33'),
                                           ('planted-d', 'fio-3.33'),
                                           ('local', 'fio-3.42')])
def test_an_installed_stack_runs_the_fio_of_its_lock(name, version):
    stack = stacks.from_environment(_installed(name), name=name)
    assert _fio_version(stack) == version
    lock = locks.read(stack.lock)
    (fio,) = lock.by_name()['fio']
    assert os.path.realpath(os.path.join(stack.bindir('fio'), 'fio')) \
        .startswith('/opt/spack-stacks/opt/')
    assert fio.hash[:7] in os.path.realpath(
        os.path.join(stack.bindir('fio'), 'fio'))


def test_the_previous_stack_runs_debians_fio():
    stack = stacks.from_environment(_installed('local-2023'),
                                    name='local-2023')
    assert stack.bindir('fio') == '/usr/bin'
    if shutil.which('fio') is None:
        pytest.skip('no /usr/bin/fio')
    assert _fio_version(stack) == 'fio-3.33'


def test_the_recipes_are_asked_about_every_edge_between_two_changes():
    '''Without Spack: the questions recipe_couples asks, both ways.'''
    found = diff.diff(
        locks.read(os.path.join(DATA, 'planted-a', 'spack.lock')),
        locks.read(os.path.join(DATA, 'planted-b', 'spack.lock')))
    asked = stacks.recipe_pairs(found)
    assert {(p, q) for p, q, _, _ in asked} == {('fabtests', 'libfabric')}
    specs = sorted((p_spec.split()[0], q_spec.split()[0])
                   for _, _, p_spec, q_spec in asked)
    assert specs == [('fabtests@=2.5.1', 'libfabric@=2.6.0'),
                     ('fabtests@=2.6.0', 'libfabric@=2.5.1')]
