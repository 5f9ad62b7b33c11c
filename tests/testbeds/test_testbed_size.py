'''The Slurm test cluster's size (ci/slurm_testbed.sh,
``MICROBENCH_SLURM_NODES``): a count from 2 to 16, anything else refused
in one line before anything is probed or started.'''

import os
import subprocess

import pytest

import project

TESTBED = os.path.join(project.ROOT, 'ci', 'slurm_testbed.sh')


@pytest.mark.parametrize('count', ['1', '17', 'four', '', '3x', '-2'])
def test_a_count_that_is_not_one_is_refused(count):
    proc = subprocess.run([TESTBED, 'status'], capture_output=True,
                          text=True, timeout=60,
                          env={**os.environ,
                               'MICROBENCH_SLURM_NODES': count})
    if count == '':
        # empty is unset: the default of two nodes
        assert proc.returncode != 2 or 'MICROBENCH_SLURM_NODES' not in \
            proc.stderr
        return
    assert proc.returncode == 2
    assert proc.stderr == (f'slurm_testbed: MICROBENCH_SLURM_NODES={count}: '
                           f'a count of nodes from 2 to 16 is needed\n')
