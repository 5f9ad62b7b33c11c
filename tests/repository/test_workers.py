'''Which tests share a worker (tests/helpers/workers.py): every module
that runs a benchmark on the local default is in one group, every module
that runs the Slurm test cluster in another, the dry runs' in a third; a
marked test outside its group is an error, and so is a test without
benchmarks in a chain's group; the chains are sent first.'''

from collections import OrderedDict

import workers


class Marked:
    '''A collected test as :func:`workers.held` reads it.'''

    def __init__(self, nodeid, *markers):
        self.nodeid, self.markers = nodeid, markers

    def get_closest_marker(self, name):
        return name if name in self.markers else None


def test_the_benchmarks_the_testbed_and_the_dry_runs_are_a_group_each():
    assert workers.group_of('tests/e2e/test_e2e_local.py::test_x') == \
        workers.BENCHMARKS
    assert workers.group_of('tests/testbeds/test_slurm_testbed.py::t') == \
        workers.TESTBED
    # marked e2e and slurm: the test cluster's
    assert workers.group_of('tests/e2e/test_e2e_slurm.py::t') == \
        workers.TESTBED
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
                           'e2e but its module is not in the group '
                           'benchmarks')
    (said,) = workers.held([Marked('tests/e2e/test_e2e_local.py::u')])
    assert said.startswith('tests/e2e/test_e2e_local.py::u runs no '
                           'benchmark')
    # a test of the test cluster among the local benchmarks', and the
    # other way round
    (said,) = workers.held([Marked('tests/e2e/test_e2e_local.py::v',
                                   'e2e', 'slurm')])
    assert 'is marked slurm but its module is not in the group testbed' \
        in said
    (said,) = workers.held([Marked('tests/e2e/test_e2e_slurm.py::w', 'e2e')])
    assert 'is marked e2e but its module is not in the group benchmarks' \
        in said


class Scheduler(workers.ByGroup):
    ''':class:`workers.ByGroup` without xdist's workers: what it would send
    to which worker, in order.'''

    def __init__(self, queue):
        self.workqueue = OrderedDict((scope, {}) for scope in queue)
        self.sent = []

    def assign(self, node):
        self._assign_work_unit(node)


def test_the_chains_are_sent_first(monkeypatch):
    monkeypatch.setattr(
        workers.LoadScopeScheduling, '_assign_work_unit',
        lambda self, node: self.sent.append(
            (node, self.workqueue.popitem(last=False)[0])))
    scheduler = Scheduler(['tests/tools/test_mutations.py', workers.DRY_RUNS,
                           workers.TESTBED, 'tests/suite/test_samples.py',
                           workers.BENCHMARKS])
    for node in ('gw0', 'gw1', 'gw0', 'gw1'):
        scheduler.assign(node)
    assert scheduler.sent == [('gw0', workers.BENCHMARKS),
                              ('gw1', workers.TESTBED),
                              ('gw0', 'tests/tools/test_mutations.py'),
                              ('gw1', workers.DRY_RUNS)]


def test_auto_is_a_worker_more_than_the_cores():
    assert [workers.auto(cores) for cores in (0, 1, 2, 64)] == [2, 2, 3, 65]


def test_the_noisy_experiments_are_last_in_their_chain():
    items = [Marked('tests/cause/test_diagnose_e2e.py::a', 'e2e'),
             Marked('tests/cause/test_ab_e2e.py::b', 'e2e'),
             Marked('tests/e2e/test_e2e_local.py::c', 'e2e'),
             Marked('tests/suite/test_samples.py::d')]
    items.sort(key=workers.order)
    assert [item.nodeid[-1] for item in items] == ['c', 'd', 'a', 'b']
