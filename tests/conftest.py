'''File systems the end-to-end tests mount (as root) to provoke faults, a
compressing file system for the data-reduction check, a guard on
Hypothesis' settings of parametrized tests, which tests share one worker
when the tests run on every core (pytest-xdist) and how many workers, and
the share of the run's time no test module may take
(tests/helpers/module_times.py).'''

import os
import shutil
import subprocess
import tempfile

import pytest

import dryruns
import module_times
import workers
from microbench.units import size_bytes


def pytest_collection_modifyitems(config, items):
    '''Every marked test is in its module's group (tests/helpers/workers.py):
    an error before anything runs where one is not.'''
    wrong = workers.held(items)
    if wrong:
        raise pytest.UsageError('\n'.join(wrong))
    items.sort(key=workers.order)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    '''The benchmarks on one worker, the dry runs on one, every other
    module on any (tests/helpers/workers.py).'''
    if config.getvalue('dist') == 'loadscope':
        return workers.ByGroup(config, log)
    return None


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    '''``-n auto``: a worker more than the cores this process may use
    (tests/helpers/workers.py), unless PYTEST_XDIST_AUTO_NUM_WORKERS says
    how many.'''
    if os.environ.get('PYTEST_XDIST_AUTO_NUM_WORKERS'):
        return None
    return workers.auto(len(os.sched_getaffinity(0)))


def pytest_configure(config):
    '''Time by test module, on the process that sees every report (not an
    xdist worker).'''
    if not hasattr(config, 'workerinput'):
        config.pluginmanager.register(module_times.Plugin(config),
                                      'microbench-module-times')


@pytest.fixture(scope='session')
def dry_runs(tmp_path_factory):
    '''Every partition's dry run, made once per pytest process
    (tests/helpers/dryruns.py).'''
    return dryruns.DryRuns(tmp_path_factory.mktemp('dry-runs'))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    '''Hypothesis' pytest plugin (6.170) wraps a parametrized test's
    settings in new settings, on the one function object, for every
    invocation: the chain grows by one per parametrized case, and reading
    a setting recurses through it (a RecursionError past about 950 cases of
    one test, as test_mutations has).  Each invocation starts from the
    settings the test was defined with.'''
    function = getattr(item.obj, '__func__', item.obj)
    saved = getattr(function, '_hypothesis_internal_use_settings', None)
    yield
    if saved is not None:
        function._hypothesis_internal_use_settings = saved


def _mounted(path, *options):
    path.mkdir()
    mount = subprocess.run(['mount', *options, str(path)],
                           capture_output=True, text=True)
    if mount.returncode != 0:
        pytest.skip(f'cannot mount {options} here: {mount.stderr.strip()}')

    yield path
    subprocess.run(['umount', str(path)], check=True)


@pytest.fixture
def ramfs(tmp_path):
    '''A ramfs: it rejects O_DIRECT (tmpfs accepts it since Linux 6.6).'''
    yield from _mounted(tmp_path / 'ramfs', '-t', 'ramfs', 'ramfs')


@pytest.fixture
def tiny_fs(tmp_path):
    '''A 1 MiB tmpfs: a file system that fills up.'''
    yield from _mounted(tmp_path / 'tiny', '-t', 'tmpfs', '-o', 'size=1m',
                        'tmpfs')


def compressing_btrfs(size='16g'):
    '''A generator: a loop-mounted btrfs with ``compress-force=zstd`` in a
    new temporary directory, the mount point yielded; unmounted and
    removed when it ends, whatever happened.  Skips, saying why, without
    root, mkfs.btrfs or a loop device.'''
    if os.geteuid() != 0:
        pytest.skip('a compressing btrfs needs root (a loop mount)')

    if shutil.which('mkfs.btrfs') is None:
        pytest.skip('mkfs.btrfs is missing (apt-get install btrfs-progs)')

    top = tempfile.mkdtemp(prefix='microbench-btrfs.')
    image, mount = os.path.join(top, 'image'), os.path.join(top, 'mnt')
    mounted = False
    try:
        os.mkdir(mount)
        with open(image, 'wb') as fp:
            fp.truncate(size_bytes(size))

        subprocess.run(['mkfs.btrfs', '-q', image], capture_output=True,
                       check=True)
        done = subprocess.run(['mount', '-o', 'loop,compress-force=zstd',
                               image, mount], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f'cannot loop-mount a btrfs here: '
                        f'{done.stderr.strip()}')

        mounted = True
        yield mount
    finally:
        if mounted:
            subprocess.run(['umount', mount], check=True)

        shutil.rmtree(top)


@pytest.fixture
def btrfs():
    '''A loop-mounted btrfs that compresses every write (zstd), for one
    test.'''
    yield from compressing_btrfs()
