'''ci/spack_install.sh: it installs a lock only into the pinned Spack, also
when the ``spack`` on PATH is a wrapper script, and refuses, with a one-line
reason, a Spack whose tree it cannot verify.

The script runs from a copy of the repository's files it reads, with a
wrapper ``spack`` (as a site module or ~/bin installs it) that execs the real
Spack, except for the install itself, which the wrapper only reports.  Skipped
where no Spack of the pinned release is on PATH.
'''

import os
import shutil
import subprocess

import pytest
import yaml

import project

SCRIPT = os.path.join(project.ROOT, 'ci', 'spack_install.sh')
CHECKOUT = os.path.join(project.ROOT, 'spack_envs', 'checkout-versions.yaml')
ENV = 'some_cluster/part'


def _checkout():
    with open(CHECKOUT) as fp:
        return yaml.safe_load(fp)


def test_script_passes_shellcheck():
    if shutil.which('shellcheck') is None:
        pytest.skip('no shellcheck on PATH')
    out = subprocess.run(['shellcheck', SCRIPT], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout


@pytest.fixture
def real_spack():
    '''The bin/spack of the pinned Spack that `spack` on PATH runs.'''
    if shutil.which('spack') is None:
        pytest.skip('no spack on PATH')
    env = dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1')
    version = subprocess.run(['spack', '--version'], capture_output=True,
                             text=True, env=env, timeout=120).stdout.split()
    pinned = str(_checkout()['spack']['version'])
    if not version or version[0] != pinned:
        pytest.skip(f'spack on PATH is not the pinned {pinned}')
    root = subprocess.run(['spack', 'location', '--spack-root'],
                          capture_output=True, text=True, env=env,
                          timeout=120).stdout.strip()
    tree = subprocess.run(['git', '-C', root, 'rev-parse', 'HEAD^{tree}'],
                          capture_output=True, text=True).stdout.strip()
    if tree != _checkout()['spack']['tree']:
        pytest.skip(f'{root} is not a git checkout of the pinned tree')
    return os.path.join(root, 'bin', 'spack')


def _tree(tmp_path, checkout=None):
    '''A copy of what the script reads: itself, checkout-versions.yaml, one
    environment's lock.'''
    (tmp_path / 'ci').mkdir()
    shutil.copy(SCRIPT, tmp_path / 'ci' / 'spack_install.sh')
    (tmp_path / 'spack_envs' / ENV).mkdir(parents=True)
    (tmp_path / 'spack_envs' / ENV / 'spack.lock').write_text('{}\n')
    text = open(CHECKOUT).read()
    for old, new in (checkout or {}).items():
        assert old in text
        text = text.replace(old, new)
    (tmp_path / 'spack_envs' / 'checkout-versions.yaml').write_text(text)


def _wrapper(tmp_path, real, spack_root=None):
    '''bin/spack: execs the real Spack; reports the install instead of
    running it; optionally claims another Spack prefix.'''
    bindir = tmp_path / 'wrapper' / 'bin'
    bindir.mkdir(parents=True)
    claim = ''
    if spack_root:
        claim = (f'if [ "$1 $2" = "location --spack-root" ]; then '
                 f'echo {spack_root}; exit 0; fi\n')
    (bindir / 'spack').write_text(
        '#!/bin/sh\n'
        f'{claim}'
        'if [ "$1" = -e ]; then echo "WRAPPED-INSTALL $*"; exit 0; fi\n'
        f'exec {real} "$@"\n')
    (bindir / 'spack').chmod(0o755)
    return bindir


def _run(tmp_path, bindir, **extra):
    path = [d for d in os.environ.get('PATH', '').split(os.pathsep)
            if not os.path.exists(os.path.join(d, 'spack'))]
    env = {k: v for k, v in os.environ.items()
           if k != 'SPACK_INSTALL_UNVERIFIED'}
    env.update(PATH=os.pathsep.join([str(bindir), *path]),
               SPACK_DISABLE_LOCAL_CONFIG='1', **extra)
    return subprocess.run([str(tmp_path / 'ci' / 'spack_install.sh'), ENV],
                          capture_output=True, text=True, env=env,
                          timeout=300)


def test_wrapped_pinned_spack_installs(tmp_path, real_spack):
    _tree(tmp_path)
    out = _run(tmp_path, _wrapper(tmp_path, real_spack))
    assert out.returncode == 0, out.stderr
    assert f'WRAPPED-INSTALL -e spack_envs/{ENV} install' in out.stdout


def test_wrapped_spack_of_another_tree_is_refused(tmp_path, real_spack):
    # The wrapper's own folder is no git checkout: the script must look at
    # the prefix Spack reports, not at the wrapper's, and find another tree
    # than the pinned one
    tree = _checkout()['spack']['tree']
    _tree(tmp_path, {tree: '0' * 40})
    out = _run(tmp_path, _wrapper(tmp_path, real_spack))
    assert out.returncode == 1, out.stdout + out.stderr
    assert 'WRAPPED-INSTALL' not in out.stdout
    assert f'is at tree {tree}, not' in out.stderr


def test_spack_that_cannot_be_verified_is_refused(tmp_path, real_spack):
    # A Spack unpacked from a tarball: its prefix is no git checkout
    unpacked = tmp_path / 'spack-1.0.2'
    unpacked.mkdir()
    _tree(tmp_path)
    bindir = _wrapper(tmp_path, real_spack, spack_root=unpacked)
    out = _run(tmp_path, bindir)
    assert out.returncode == 1, out.stdout + out.stderr
    assert 'WRAPPED-INSTALL' not in out.stdout
    (line,) = out.stderr.strip().splitlines()
    assert str(unpacked) in line and 'cannot be verified' in line, line
    assert 'SPACK_INSTALL_UNVERIFIED=1' in line, line

    out = _run(tmp_path, bindir, SPACK_INSTALL_UNVERIFIED='1')
    assert out.returncode == 0, out.stderr
    assert 'WRAPPED-INSTALL' in out.stdout
    assert 'warning' in out.stderr
