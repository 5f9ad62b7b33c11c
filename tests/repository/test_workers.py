'''Which tests share a worker (tests/helpers/workers.py): every module
that runs a benchmark or a test bed is in one group, the dry runs' in
another; a marked test outside its group is an error, and so is a test
without benchmarks in the benchmarks' group.'''

import workers


class Marked:
    '''A collected test as :func:`workers.held` reads it.'''

    def __init__(self, nodeid, *markers):
        self.nodeid, self.markers = nodeid, markers

    def get_closest_marker(self, name):
        return name if name in self.markers else None


def test_the_benchmarks_and_the_dry_runs_are_one_group_each():
    assert workers.group_of('tests/e2e/test_e2e_local.py::test_x') == \
        workers.BENCHMARKS
    assert workers.group_of('tests/testbeds/test_slurm_testbed.py::t') == \
        workers.BENCHMARKS
    assert workers.group_of('tests/suite/test_dry_run.py::t[a]') == \
        workers.DRY_RUNS
    assert workers.group_of('tests/suite/test_samples.py::t') == \
        'tests/suite/test_samples.py'


def test_every_e2e_module_is_found():
    found = {module for module, group in workers.GROUPED.items()
             if group == workers.BENCHMARKS}
    assert {'tests/e2e/test_e2e_local.py',
            'tests/audit/test_audit_measure_e2e.py',
            'tests/verdicts/test_store_fails_e2e.py',
            'tests/cause/test_ab_e2e.py'} <= found
    # their neighbours without benchmarks run on the other workers
    assert not {'tests/audit/test_audit.py',
                'tests/verdicts/test_storage_writers.py'} & found


def test_a_marked_test_outside_its_group_is_said():
    assert workers.held([Marked('tests/e2e/test_e2e_local.py::t', 'e2e'),
                         Marked('tests/suite/test_samples.py::t')]) == []
    (said,) = workers.held([Marked('tests/suite/test_samples.py::t', 'e2e')])
    assert said.startswith('tests/suite/test_samples.py::t is marked '
                           'e2e/slurm')
    (said,) = workers.held([Marked('tests/e2e/test_e2e_local.py::u')])
    assert said.startswith('tests/e2e/test_e2e_local.py::u runs no '
                           'benchmark')
