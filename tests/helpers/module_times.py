'''Where the tests' time goes, one test module at a time, and the share no
module may take (issue 47: CI on 2 cores in 20 minutes or less).

Every test's set-up, call and tear-down are summed by module
(:class:`ModuleTimes`, fed by ``pytest_runtest_logreport``; under
pytest-xdist the controller sees every worker's reports).  At the end of a
run of the whole suite (:func:`whole_run`) the modules are printed, the
largest first, written to pytest's cache (under :data:`CACHE_KEY`),
and the run fails when one module's share of the summed time is above
:data:`SHARE`: a module grown that large holds a worker for much of the
run, and the suite's wall time with it.  It is cut up or its set-ups
shared, never let grow.'''

import time

import pytest

#: Where pytest's cache keeps the last whole run's module times
CACHE_KEY = 'module_times/last_whole_run'

#: The most of the run's summed test time one module may take (the
#: largest, tests/e2e/test_e2e_slurm.py, took 13.9 % on a quiet machine:
#: room for a busy one, where the modules that compute grow more)
SHARE = 0.20

#: Below this summed time a run is too short for shares to mean anything
#: (a run of a few fast modules)
MIN_TOTAL_S = 300.0


def module_of(nodeid):
    '''The module of the test ``nodeid`` (its path).'''
    return nodeid.split('::')[0]


def worker_of(report):
    '''The pytest-xdist worker that ran ``report``'s test (``gw0`` ...),
    or ``main`` without workers.'''
    gateway = getattr(getattr(report, 'node', None), 'gateway', None)
    return getattr(gateway, 'id', 'main')


class ModuleTimes:
    '''Seconds of set-up, call and tear-down, summed by module.'''

    def __init__(self):
        self.seconds = {}
        self.started = time.monotonic()
        #: {worker: [its summed test seconds, when its last report came
        #: (seconds since the start)]}: which worker's chain was the run's
        #: wall time
        self.workers = {}

    def add(self, report):
        module = module_of(report.nodeid)
        self.seconds[module] = (self.seconds.get(module, 0.0)
                                + float(report.duration))
        worker = self.workers.setdefault(worker_of(report), [0.0, 0.0])
        worker[0] += float(report.duration)
        worker[1] = time.monotonic() - self.started

    def total(self):
        return sum(self.seconds.values())

    def largest(self, count=None):
        '''``[(module, seconds, share)]``, the largest first.'''
        total = self.total() or 1.0
        ranked = sorted(self.seconds.items(), key=lambda item: -item[1])
        return [(module, seconds, seconds / total)
                for module, seconds in ranked[:count]]

    def as_dict(self):
        return {'wall_s': round(time.monotonic() - self.started, 1),
                'total_s': round(self.total(), 1),
                'share_limit': SHARE,
                'modules': {module: round(seconds, 2) for module, seconds
                            in sorted(self.seconds.items())}}


def over_share(seconds, share=None, min_total_s=None):
    '''``[(module, share)]`` of the modules of ``seconds`` ({module:
    seconds}) above ``share`` (default :data:`SHARE`) of their sum, the
    largest first; none when the sum is below ``min_total_s`` (default
    :data:`MIN_TOTAL_S`).'''
    share = SHARE if share is None else share
    min_total_s = MIN_TOTAL_S if min_total_s is None else min_total_s
    total = sum(seconds.values())
    if total < min_total_s:
        return []
    over = [(module, value / total) for module, value in seconds.items()
            if value / total > share]
    return sorted(over, key=lambda item: -item[1])


def whole_run(config):
    '''Whether ``config`` runs the whole suite: no test chosen by name,
    keyword, marker or last failure, only the configured test paths.'''
    option = config.option
    if option.keyword or option.markexpr or option.deselect:
        return False
    if getattr(option, 'lf', False) or getattr(option, 'failedfirst', False):
        return False
    asked = {(config.invocation_params.dir / arg).resolve()
             for arg in config.args}
    return asked == {(config.rootpath / path).resolve()
                     for path in config.getini('testpaths')}


class Plugin:
    '''The pytest plugin: sums, prints, keeps and holds the shares.'''

    def __init__(self, config):
        self.config = config
        self.times = ModuleTimes()
        self.over = []

    def pytest_runtest_logreport(self, report):
        self.times.add(report)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session, exitstatus):
        if not whole_run(self.config):
            return
        cache = getattr(self.config, 'cache', None)   # -p no:cacheprovider
        if cache is not None:
            cache.set(CACHE_KEY, self.times.as_dict())
        self.over = over_share(self.times.seconds)
        if self.over and exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter):
        if not self.times.seconds:
            return
        write = terminalreporter.write_line
        terminalreporter.section('time by test module')
        write(f'{self.times.total():.0f} s of tests in '
              f'{len(self.times.seconds)} modules; in a run of the whole '
              f'suite no module may take more than {SHARE:.0%} '
              f'(tests/helpers/module_times.py)')
        for module, seconds, share in self.times.largest(12):
            write(f'{seconds:8.1f} s {share:6.1%}  {module}')
        for worker, (busy, ended) in sorted(self.times.workers.items()):
            write(f'worker {worker}: {busy:.0f} s of tests, its last '
                  f'ended {ended:.0f} s after the start')
        for module, share in self.over:
            write(f'FAILED: {module} took {share:.1%} of the run\'s test '
                  f'time, more than {SHARE:.0%}: share its set-ups or '
                  f'split it')
