'''The share of a run's test time no test module may take
(tests/helpers/module_times.py): a run of the whole suite fails, naming
the module, when one takes more; a run of a part never does.'''

import os
import re
import subprocess
import sys
import textwrap

import module_times

HELPERS = os.path.dirname(os.path.abspath(module_times.__file__))


def test_the_module_over_its_share_is_named():
    seconds = {'a': 50.0, 'b': 300.0, 'c': 650.0}
    assert module_times.over_share(seconds, share=0.5) == [('c', 0.65)]
    assert module_times.over_share(seconds, share=0.7) == []
    # a short run says nothing
    assert module_times.over_share({'a': 1.0, 'b': 9.0}) == []


def _project(tmp_path):
    '''A small test project of two modules, one of them slow, with the
    plugin registered as the suite's conftest registers it, its share
    0.5 and no least total.'''
    (tmp_path / 'suite').mkdir()
    (tmp_path / 'pytest.ini').write_text('[pytest]\ntestpaths = suite\n')
    (tmp_path / 'conftest.py').write_text(textwrap.dedent('''
        import module_times

        module_times.SHARE = 0.5
        module_times.MIN_TOTAL_S = 0.0


        def pytest_configure(config):
            config.pluginmanager.register(module_times.Plugin(config))
    '''))
    (tmp_path / 'suite' / 'test_slow.py').write_text(
        'import time\n\ndef test_slow():\n    time.sleep(0.5)\n')
    (tmp_path / 'suite' / 'test_fast.py').write_text(
        'def test_fast():\n    pass\n')


def _pytest(tmp_path, *args):
    env = {**os.environ, 'PYTHONPATH': HELPERS}
    return subprocess.run([sys.executable, '-m', 'pytest', '-p', 'no:xdist',
                           '-p', 'no:cacheprovider', *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_whole_run_fails_on_a_module_over_its_share(tmp_path):
    _project(tmp_path)
    proc = _pytest(tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert '2 passed' in proc.stdout
    assert 'FAILED: suite/test_slow.py took' in proc.stdout
    assert 'suite/test_fast.py took' not in proc.stdout


def test_a_run_of_a_part_is_not_held_to_shares(tmp_path):
    _project(tmp_path)
    for args in (['-k', 'slow'], ['suite/test_slow.py']):
        proc = _pytest(tmp_path, *args)
        assert proc.returncode == 0, proc.stdout
        assert 'time by test module' in proc.stdout


def test_each_workers_time_and_end_are_printed(tmp_path):
    '''Which worker's chain was the run's wall time: under pytest-xdist
    each worker's summed test time and when its last test ended.'''
    _project(tmp_path)
    env = {**os.environ, 'PYTHONPATH': HELPERS}
    proc = subprocess.run([sys.executable, '-m', 'pytest', '-n', '2',
                           '-p', 'no:cacheprovider'], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert '2 passed' in proc.stdout, proc.stdout
    workers = re.findall(r'^worker (gw\d): (\d+) s of tests, its last '
                         r'ended (\d+) s after the start$', proc.stdout,
                         re.MULTILINE)
    assert sorted(worker for worker, _, _ in workers) == ['gw0', 'gw1']
