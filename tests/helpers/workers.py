'''Which tests share one worker when the tests run on every core
(pytest-xdist, ``-n auto --dist loadscope``, pyproject.toml).

A test module is the unit sent to a worker (its module fixtures are made
once), except two groups, each sent whole to one worker:

- ``benchmarks``: every module holding a test that runs a benchmark or a
  test bed (the markers ``e2e`` and ``slurm``).  One worker runs them one
  after another, so that no two benchmarks run side by side (the suite's
  benchmark lock would hold the second, its time limit running) and the
  test beds' ports, namespaces and daemons are one test's at a time; the
  other workers run the rest beside them.
- ``dry-runs``: the modules that read the shared dry runs (the marker
  ``dry_runs``): each partition's dry run is made once, on that worker.

xdist's scheduler sees test ids, not markers, so the modules are found by
their source (``pytest.mark.e2e`` ...), and :func:`held` checks at
collection that every marked test is in a module found so: a marker the
scan misses is an error, never a benchmark run beside another.  It checks
too that a module of ``benchmarks`` holds nothing else: a test that runs
no benchmark would wait its turn on the one worker that runs them all
(the run's longest), so it lives in a module of its own.'''


import glob
import os
import re

from xdist.scheduler import LoadScopeScheduling

from module_times import module_of

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)

BENCHMARKS = 'benchmarks'
DRY_RUNS = 'dry-runs'

#: The markers of each group
MARKERS = {BENCHMARKS: ('e2e', 'slurm'), DRY_RUNS: ('dry_runs',)}


def _modules_marked(markers):
    '''The test modules (paths from the project's root, as test ids begin)
    whose source marks a test with one of ``markers``.'''
    pattern = re.compile(r'pytest\.mark\.(%s)\b' % '|'.join(markers))
    found = set()
    for path in glob.glob(os.path.join(TESTS, '**', 'test_*.py'),
                          recursive=True):
        with open(path, encoding='utf-8') as fp:
            if pattern.search(fp.read()):
                found.add(os.path.relpath(path, ROOT))
    return found


#: ``{module: group}`` of the modules in a group
GROUPED = {module: group for group, markers in MARKERS.items()
           for module in _modules_marked(markers)}


def group_of(nodeid):
    '''The group of the test ``nodeid``: its module's, or its module.'''
    module = module_of(nodeid)
    return GROUPED.get(module, module)


def held(items):
    '''What a marked test's module should be and is not, one line each.'''
    wrong = []
    for item in items:
        module = module_of(item.nodeid)
        for group, markers in MARKERS.items():
            if any(item.get_closest_marker(m) for m in markers) and \
                    GROUPED.get(module) != group:
                wrong.append(f'{item.nodeid} is marked {"/".join(markers)} '
                             f'but its module is not in the group {group} '
                             f'(tests/helpers/workers.py)')
        if GROUPED.get(module) == BENCHMARKS and not any(
                item.get_closest_marker(m) for m in MARKERS[BENCHMARKS]):
            wrong.append(f'{item.nodeid} runs no benchmark (no e2e/slurm '
                         f'marker) but its module is in the group '
                         f'{BENCHMARKS}: it would wait on their worker; '
                         f'move it to a module without benchmarks '
                         f'(tests/helpers/workers.py)')
    return wrong


class ByGroup(LoadScopeScheduling):
    '''xdist's scope scheduling with :func:`group_of` as the scope.'''

    def _split_scope(self, nodeid):
        return group_of(nodeid)
