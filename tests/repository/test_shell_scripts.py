'''The suite's own shell scripts are shellcheck-clean: the rounds job's
skeleton and its lock and progress lines, the polling check's helper, the
residency witness's node script (the job scripts written from them:
tests/suite/test_dry_run.py).'''

import subprocess

import pytest

from job_scripts import needs_shellcheck
from microbench import paths
from microbench.tools.fio import polling


@needs_shellcheck
@pytest.mark.parametrize('script', [paths.SKELETON, paths.PROGRESS,
                                    polling.HELPER, paths.RESIDENCY])
def test_the_suites_shell_is_shellcheck_clean(script):
    proc = subprocess.run(['shellcheck', script], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout
