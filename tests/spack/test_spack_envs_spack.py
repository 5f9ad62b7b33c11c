'''spack_envs/ with Spack: the tests that run when a ``spack`` of the
pinned release is on PATH (and skip, with their reason, where it is not).
'''

import json
import os
import shutil
import signal
import subprocess

import pytest
import yaml

from spack_manifests import (CHECKOUT, CONCRETIZE_TIMEOUT_S, ENVS, ENVS_DIR,
                             lock, packages, pins)

# -- with Spack -------------------------------------------------------------

def _spack_version():
    out = subprocess.run(['spack', '--version'], capture_output=True,
                         text=True, timeout=120).stdout
    return out.split()[0] if out.split() else ''


def _require_pinned_spack():
    pinned = CHECKOUT['spack']['version']
    if _spack_version() != pinned:
        pytest.skip(f'spack on PATH is not the pinned {pinned}')


NO_SPACK = pytest.mark.skipif(shutil.which('spack') is None,
                              reason='no spack executable on PATH')


def _spack(*args, env=None, timeout=300):
    return subprocess.run(['spack', *args], capture_output=True, text=True,
                          timeout=timeout,
                          env=env or dict(os.environ,
                                          SPACK_DISABLE_LOCAL_CONFIG='1'))


@NO_SPACK
@pytest.mark.parametrize('env', ENVS)
def test_every_pin_is_a_version_its_recipe_declares(env):
    # Inside the environment, so that the versions of the project's
    # repository (fio 3.20, fabtests 1.10.1) count; `--safe`: only the
    # versions a recipe declares with a checksum (or a git commit)
    _require_pinned_spack()
    for name, version in sorted(pins(env).items()):
        out = _spack('-e', os.path.join(ENVS_DIR, env), 'versions', '--safe',
                     name)
        declared = set(out.stdout.split())
        assert out.returncode == 0, out.stderr[-2000:]
        assert version in declared, (
            f'{env}: {name}@={version} is not declared by its recipe '
            f'({sorted(declared)})')


def _concretize(env_dir, environ):
    '''Concretize a copy of an environment; its fresh lock.'''
    proc = subprocess.Popen(['spack', '-e', str(env_dir), 'concretize',
                             '--force'], env=environ, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=CONCRETIZE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f'{env_dir}: no solution within {CONCRETIZE_TIMEOUT_S} s')

    assert proc.returncode == 0, output[-3000:]
    with open(os.path.join(env_dir, 'spack.lock')) as fp:
        return json.load(fp)


def _copy_envs(tmp_path):
    copy = tmp_path / 'spack_envs'
    shutil.copytree(ENVS_DIR, copy,
                    ignore=shutil.ignore_patterns('spack.lock', '.spack-env'))
    return copy


def _require_compilers(env):
    '''Spack 1.0 drops an external compiler that does not run where it
    concretizes: skip where the environment's compilers are absent.'''
    for external in packages(env).get('gcc', {}).get('externals', []):
        for path in external.get('extra_attributes', {}).get(
                'compilers', {}).values():
            if not os.access(path, os.X_OK):
                pytest.skip(f'{env}: no compiler {path} here (see '
                            f'spack_envs/README.md, "Reproducing a lock")')


@NO_SPACK
@pytest.mark.parametrize('env', ENVS)
def test_environment_concretizes_to_its_lock(env, tmp_path):
    _require_pinned_spack()
    _require_compilers(env)
    copy = _copy_envs(tmp_path)
    environ = dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1')
    fresh = _concretize(copy / env, environ)

    def roots(data):
        return sorted((r['spec'], data['concrete_specs'][r['hash']]['version'])
                      for r in data['roots'])

    assert roots(fresh) == roots(lock(env))


#: What `spack external find cmake perl gmake openssl curl python git tar
#: autoconf automake libtool m4 pkgconf gawk diffutils findutils xz bzip2
#: ncurses sqlite openssh bison flex` writes on Debian 12, plus a buildable
#: compiler and another MPICH: a site or a user that found them must not
#: change a lock
FOREIGN_PACKAGES = {'packages': {
    **{name: {'externals': [{'spec': spec, 'prefix': '/usr'}]}
       for name, spec in {
           'findutils': 'findutils@4.9.0', 'openssl': 'openssl@3.0.19',
           'openssh': 'openssh@9.2p1', 'gmake': 'gmake@4.3',
           'libtool': 'libtool@2.4.7',
           'perl': 'perl@5.36.0~cpanm+opcode+open+shared+threads',
           'sqlite': 'sqlite@3.40.1+fts~functions+rtree', 'm4': 'm4@1.4.19',
           'pkgconf': 'pkgconf@1.8.1',
           'curl': 'curl@7.88.1+gssapi+ldap+nghttp2', 'bzip2': 'bzip2@1.0.8',
           'ncurses': 'ncurses@6.4.20221231+symlinks+termlib abi=6',
           'tar': 'tar@1.34',
           'python': 'python@3.11.2+bz2+crypt+ctypes+dbm+lzma+pyexpat'
                     '~pythoncmd+readline+sqlite3+ssl~tkinter+uuid+zlib',
           'git': 'git@2.39.5~tcltk', 'cmake': 'cmake@3.25.1',
           'diffutils': 'diffutils@3.8', 'autoconf': 'autoconf@2.71',
           'automake': 'automake@1.16.5', 'xz': 'xz@5.4.1',
           'mpich': 'mpich@4.1.1+hydra device=ch4 netmod=ofi',
       }.items()},
    'gcc': {'externals': [{
        'spec': "gcc@12.2.0 languages:='c,c++,fortran'", 'prefix': '/usr',
        'extra_attributes': {'compilers': {
            'c': '/usr/bin/gcc', 'cxx': '/usr/bin/g++',
            'fortran': '/usr/bin/gfortran'}}}]},
}}
#: The environment concretized with foreign externals around: the one that
#: builds the most from source (python, cmake, perl, openssl, ...)
FOREIGN_ENVS = ['paper-2020']


@NO_SPACK
@pytest.mark.parametrize('env', FOREIGN_ENVS)
def test_foreign_externals_change_no_hash_of_the_lock(env, tmp_path):
    _require_pinned_spack()
    _require_compilers(env)
    root = _spack('location', '--spack-root').stdout.strip()
    site = os.path.join(root, 'etc', 'spack', 'packages.yaml')
    if not os.path.isdir(os.path.dirname(site)):
        pytest.skip(f'no site scope at {os.path.dirname(site)}')
    if not os.access(os.path.dirname(site), os.W_OK):
        pytest.skip(f'the site scope {os.path.dirname(site)} is not writable')
    user = tmp_path / 'user'
    user.mkdir()
    with open(user / 'packages.yaml', 'w') as fp:
        yaml.safe_dump(FOREIGN_PACKAGES, fp)
    copy = _copy_envs(tmp_path)
    committed = lock(env)

    saved = None
    if os.path.exists(site):
        with open(site) as fp:
            saved = fp.read()
    try:
        with open(site, 'w') as fp:
            yaml.safe_dump(FOREIGN_PACKAGES, fp)
        runs = {
            # SPACK_DISABLE_LOCAL_CONFIG drops the user (and system) scope,
            # not the site scope
            'site scope': dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1'),
            'site and user scopes': {
                **{k: v for k, v in os.environ.items()
                   if k != 'SPACK_DISABLE_LOCAL_CONFIG'},
                'SPACK_USER_CONFIG_PATH': str(user)},
        }
        for where, environ in runs.items():
            # The foreign externals are there: outside the environment,
            # Spack sees them
            seen = _spack('config', 'get', 'packages', env=environ).stdout
            assert 'cmake@3.25.1' in seen, f'{where}: {seen[-1000:]}'
            fresh = _concretize(copy / env, environ)
            assert sorted(fresh['roots'], key=lambda r: r['spec']) == sorted(
                committed['roots'], key=lambda r: r['spec']), where
            added = (set(fresh['concrete_specs'])
                     - set(committed['concrete_specs']))
            assert not added, (
                f'{env}, foreign externals in the {where}: nodes not in the '
                f'lock: ' + ', '.join(sorted(
                    f'{fresh["concrete_specs"][h]["name"]}/{h[:7]}'
                    for h in added)))
            assert set(fresh['concrete_specs']) == set(
                committed['concrete_specs']), f'{where}: nodes missing'
    finally:
        if saved is None:
            if os.path.exists(site):
                os.remove(site)
        else:
            with open(site, 'w') as fp:
                fp.write(saved)

