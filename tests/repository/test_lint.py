'''The project's Python, linted: ruff (pinned in pyproject.toml's test
extra, configured there: pycodestyle and pyflakes), beside shellcheck on
the job scripts (tests/suite/test_dry_run.py).'''

import os
import shutil
import subprocess
import sys

import pytest

from microbench import paths

#: Where the project's Python is
TREES = ['reframe_tests', 'systems', 'tests', 'bench', 'docs']

RUFF = shutil.which('ruff', path=os.path.dirname(sys.executable)) or \
    shutil.which('ruff')


@pytest.mark.skipif(RUFF is None, reason='ruff is not installed (pip '
                    'install -r requirements.txt)')
def test_the_python_is_ruff_clean():
    proc = subprocess.run([RUFF, 'check', '--no-cache', *TREES],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(RUFF is None, reason='ruff is not installed')
def test_ruff_sees_what_it_checks(tmp_path):
    '''The linter is not blind: an unused import and a long line fail.'''
    bad = tmp_path / 'bad.py'
    bad.write_text('import os\nx = "' + 'y' * 90 + '"\n')
    proc = subprocess.run([RUFF, 'check', '--no-cache', str(bad)],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert proc.returncode == 1
    assert 'F401' in proc.stdout and 'E501' in proc.stdout
