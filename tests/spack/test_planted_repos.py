'''The test Spack repositories of issue 43's planted stacks
(tests/data/spack_repo): microbench_test's fio +slowwrite (planted-b) and
microbench_test_double's +doublewrite (planted-c) apply to fio 3.33's
sources, and no environment of the project lists them.'''

import os
import subprocess

import pytest
import yaml

import upstream
from spack_manifests import ENVS, manifest

TEST_REPO = os.path.join(os.path.dirname(__file__), '..', 'data',
                         'spack_repo', 'spack_repo', 'microbench_test')


@pytest.mark.parametrize('env', ENVS)
def test_no_environment_lists_the_test_repository(env):
    repos = manifest(env).get('repos') or {}
    assert 'microbench_test' not in repos
    for path in repos.values():
        assert 'tests' not in os.path.normpath(path).split(os.sep), (
            f'{env}: {path}')


def _patched_sync_c(tmp_path, patches):
    '''fio 3.33's engines/sync.c (from the fetched upstream) with
    ``patches`` applied in order, into ``tmp_path``; its text.'''
    repo = upstream.clone('axboe+fio')
    tar = subprocess.run(['git', '-C', repo, 'archive', '--format=tar',
                          'fio-3.33', 'engines/sync.c'],
                         capture_output=True, check=True).stdout
    subprocess.run(['tar', '-x', '-C', str(tmp_path)], input=tar,
                   check=True)
    for patch in patches:
        applied = subprocess.run(['patch', '-p1', '-i', patch],
                                 cwd=tmp_path, capture_output=True,
                                 text=True)
        assert applied.returncode == 0, applied.stdout + applied.stderr
    return (tmp_path / 'engines' / 'sync.c').read_text()


def test_the_planted_slow_fio_patch_applies_to_fio_3_33(tmp_path):
    '''The +slowwrite patch of the test repository applies to fio 3.33's
    engines/sync.c and slows its writes only.'''
    source = _patched_sync_c(tmp_path, [os.path.join(
        TEST_REPO, 'packages', 'fio', 'fio-3.33-slow-sync-writes.patch')])
    assert source.count('slow_write_again(io_u, ret);') == 4
    # the reads are untouched
    assert 'ret = pread(f->fd, io_u->xfer_buf, io_u->xfer_buflen, ' \
        'io_u->offset);\n' in source


TEST_REPO_DOUBLE = os.path.join(os.path.dirname(TEST_REPO),
                                'microbench_test_double')
PLANTED = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')


def test_the_stronger_planted_fio_patch_applies_on_top(tmp_path):
    '''The +doublewrite patch (microbench_test_double, planted-c) applies to
    fio 3.33's engines/sync.c after the +slowwrite patch, and writes every
    write twice instead of every third.'''
    source = _patched_sync_c(tmp_path, [
        os.path.join(TEST_REPO, 'packages', 'fio',
                     'fio-3.33-slow-sync-writes.patch'),
        os.path.join(TEST_REPO_DOUBLE, 'packages', 'fio',
                     'fio-3.33-double-sync-writes.patch')])
    assert source.count('slow_write_again(io_u, ret);') == 4
    assert '++slow_writes % 1)' in source
    assert '++slow_writes % 3)' not in source


@pytest.mark.parametrize('side', ['planted-a', 'planted-b', 'planted-c',
                                  'planted-d'])
def test_only_planted_c_and_d_list_the_stronger_test_repository(side):
    '''The stronger planted fio lives in a repository of its own: a variant
    declared in microbench_test's fio would be in planted-b's fio spec
    (~doublewrite) and change its committed lock.'''
    with open(os.path.join(PLANTED, side, 'spack.yaml')) as fp:
        repos = list(yaml.safe_load(fp)['spack']['repos'])
    wanted = (['microbench_test_double'] if side in ('planted-c', 'planted-d')
              else []) + [
        'microbench_test', 'microbench']
    assert repos == wanted
