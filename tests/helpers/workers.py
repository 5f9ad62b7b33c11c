'''Which tests share one worker when the tests run on every core
(pytest-xdist, ``-n auto --dist loadscope``, pyproject.toml).

A test module is the unit sent to a worker (its module fixtures are made
once), except three groups, each sent whole to one worker:

- ``benchmarks``: every module holding a test that runs a benchmark on
  this machine's local default (the marker ``e2e``).  One worker runs them
  one after another, so that no two of them run side by side (the suite's
  benchmark lock would hold the second, its time limit running), and the
  test beds' ports and servers are one test's at a time.
- ``testbed``: every module holding a test that runs the Slurm test
  cluster (the marker ``slurm``, also on tests marked ``e2e``;
  ci/slurm_testbed.sh): one cluster at a time, its jobs one at a time, on
  a worker beside the benchmarks'.  Its nodes are namespaces of this
  machine with a benchmark lock of their own (systems/slurm_testbed.py):
  its figures test the path through the workload manager, they are not
  measurements.  A test looking for the processes a run left behind looks
  at its own side's only (tests/helpers/processes.py).
- ``dry-runs``: the modules that read the shared dry runs (the marker
  ``dry_runs``): each partition's dry run is made once, on that worker.

The two chains (``benchmarks``, ``testbed``) are the run's longest: they
are sent first, so that they start at once.  Their workers wait more than
they compute (on the benchmarks' runs, on the test cluster's scheduler),
so ``-n auto`` means one worker more than the cores (:func:`auto`): the
other modules keep every core busy while the chains wait.

xdist's scheduler sees test ids, not markers, so the modules are found by
their source (``pytest.mark.e2e`` ...), and :func:`held` checks at
collection that every marked test is in a module found so: a marker the
scan misses is an error, never a benchmark run beside another.  It checks
too that a module of a chain holds nothing else: a test that runs no
benchmark would wait its turn on a chain's worker, so it lives in a module
of its own.'''


import glob
import os
import re

from xdist.scheduler import LoadScopeScheduling

from module_times import module_of

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)

BENCHMARKS = 'benchmarks'
TESTBED = 'testbed'
DRY_RUNS = 'dry-runs'

#: The marker of each group, in order of precedence: a test marked both
#: ``slurm`` and ``e2e`` runs on the test cluster
MARKERS = {TESTBED: 'slurm', BENCHMARKS: 'e2e', DRY_RUNS: 'dry_runs'}

#: The groups whose every test runs a benchmark or a test bed: the run's
#: longest chains, sent to the workers first
CHAINS = (BENCHMARKS, TESTBED)


#: The local chain's modules whose answers depend on the machine's noise
#: (A/B experiments that judge by three pairs): last in the chain, after
#: the test cluster's chain (about 7 minutes) has ended
LAST = ('tests/cause/test_ab_e2e.py', 'tests/cause/test_diagnose_e2e.py')


def order(item):
    '''The sort key of a collected test: :data:`LAST`'s modules last, the
    rest as collected (a stable sort).'''
    return module_of(item.nodeid) in LAST


def auto(cores):
    '''The workers of ``-n auto`` on ``cores`` cores: one more.'''
    return max(cores, 1) + 1


def _modules_marked(marker):
    '''The test modules (paths from the project's root, as test ids begin)
    whose source marks a test with ``marker``.'''
    pattern = re.compile(r'pytest\.mark\.%s\b' % marker)
    found = set()
    for path in glob.glob(os.path.join(TESTS, '**', 'test_*.py'),
                          recursive=True):
        with open(path, encoding='utf-8') as fp:
            if pattern.search(fp.read()):
                found.add(os.path.relpath(path, ROOT))
    return found


def _grouped():
    '''``{module: group}``: each marked module in the first group, in order
    of precedence, whose marker it holds.'''
    out = {}
    for group, marker in MARKERS.items():
        for module in _modules_marked(marker):
            out.setdefault(module, group)
    return out


#: ``{module: group}`` of the modules in a group
GROUPED = _grouped()


def group_of(nodeid):
    '''The group of the test ``nodeid``: its module's, or its module.'''
    module = module_of(nodeid)
    return GROUPED.get(module, module)


def _wanted(item):
    '''The group the test ``item`` belongs to by its markers, or None.'''
    for group, marker in MARKERS.items():
        if item.get_closest_marker(marker):
            return group
    return None


def held(items):
    '''What a marked test's module should be and is not, one line each.'''
    wrong = []
    for item in items:
        module = module_of(item.nodeid)
        wanted, group = _wanted(item), GROUPED.get(module)
        if wanted is not None and group != wanted:
            wrong.append(f'{item.nodeid} is marked {MARKERS[wanted]} but '
                         f'its module is not in the group {wanted} '
                         f'(tests/helpers/workers.py)')
        elif wanted not in CHAINS and group in CHAINS:
            wrong.append(f'{item.nodeid} runs no benchmark (no '
                         f'{MARKERS[group]} marker) but its module is in '
                         f'the group {group}: it would wait on its chain\'s '
                         f'worker; move it to a module without benchmarks '
                         f'(tests/helpers/workers.py)')
    return wrong


class ByGroup(LoadScopeScheduling):
    '''xdist's scope scheduling with :func:`group_of` as the scope, the
    chains sent first.'''

    def _split_scope(self, nodeid):
        return group_of(nodeid)

    def _assign_work_unit(self, node):
        for group in reversed(CHAINS):
            if group in self.workqueue:
                self.workqueue.move_to_end(group, last=False)
        super()._assign_work_unit(node)
