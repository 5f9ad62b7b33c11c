'''The suite as the tests see it: systems, check classes, reference files,
and a way to run ReFrame on it.'''

import glob
import importlib
import inspect
import json
import os
import shutil
import subprocess
import sys

import yaml

from reframe.core.pipeline import RegressionTest
from reframe.utility import import_module_from_file

from microbench import paths
from microbench.suite.gap import GapCheck  # noqa: F401
from microbench.suite.rounds import Rounds  # noqa: F401
from microbench.suite.variant import VariantCheck  # noqa: F401

ROOT = paths.ROOT
CHECKS_DIR = paths.CHECKS
CONFIG = paths.CONFIG
REFRAME = os.path.join(os.path.dirname(sys.executable), 'reframe')


def site_configuration():
    return import_module_from_file(CONFIG).site_configuration


def partitions():
    '''{'system:partition': partition config} of every system.'''
    return {f'{s["name"]}:{p["name"]}': p
            for s in site_configuration()['systems']
            for p in s['partitions']}


#: Systems that are this machine: the embedded default and the Slurm test
#: cluster of ci/slurm_testbed.sh; no fixed references, gap directions only
THIS_MACHINE = ('local', 'slurm_testbed')


def facility_partitions():
    return {name: p for name, p in partitions().items()
            if name.split(':')[0] not in THIS_MACHINE}


def _defined_classes(bases):
    '''Every class of every check file that derives from ``bases``, by name.'''
    classes = {}
    for filename in sorted(os.listdir(CHECKS_DIR)):
        if not filename.endswith('.py'):
            continue

        module = importlib.import_module(filename[:-3])
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, bases):
                classes[name] = cls

    return classes


def check_classes():
    '''Every check class of every check file (a test with references), by
    name: variant checks, gap checks, sweeps.'''
    return {name: cls for name, cls in _defined_classes(RegressionTest).items()
            if reference_file(cls)}


def launched_executables():
    '''{rounds fixture name: the benchmark programs it launches} of every
    check file.

    The rounds fixtures (:class:`Rounds`) are what runs a benchmark; a check
    or a gap only reads their output.'''
    return {name: cls.launched()
            for name, cls in _defined_classes(Rounds).items()}


def valid_partitions(cls):
    '''The partitions of systems/ a check class runs on (the simple forms
    of valid_systems the suite uses: *, +feature, system, system:part).'''
    if issubclass(cls, GapCheck):
        cls = cls.pitfall

    valid = cls.var_space['valid_systems'].default_value

    def match(name, part, spec):
        if spec in ('*', '*:*', name, name.split(':')[0]):
            return True

        return spec.startswith('+') and spec[1:] in part.get('features', [])

    return {name for name, part in partitions().items()
            if any(match(name, part, spec) for spec in valid)}


def figures(cls):
    '''{figure name: unit} of a check class.'''
    if issubclass(cls, GapCheck):
        return {name: 'x' for name in cls.gaps}

    return cls.figure_units()


def spack_locks():
    '''Every committed spack.lock of spack_envs/.'''
    return sorted(glob.glob(os.path.join(ROOT, 'spack_envs', '**',
                                         'spack.lock'), recursive=True))


def knobs(cls):
    '''The knob parameters of a variant check class, as a tuple.'''
    return cls.knob if isinstance(cls.knob, tuple) else (cls.knob,)


def reference_file(cls):
    '''The ``$ref`` file of a check class.  ReFrame keeps it privately and
    has no public API for it (checked against ReFrame 4.10.4): this is the
    one place that reads it.'''
    ref = cls.var_space['reference'].default_value
    return getattr(ref, '_ReferenceDict__ref_file', None)


def load_references(relpath):
    with open(os.path.join(CHECKS_DIR, relpath)) as fp:
        return yaml.safe_load(fp)


def variants(cls):
    '''Every variant its rounds fixture measures, as tuples of knob values.'''
    rounds = cls.fixture_space['rounds'].cls
    return {tuple(variant.split('.')) for variant in rounds.variants}


def short(check):
    '''The shortest real run of ``check``, on top of ``--mode quick``, for
    a test that reads what a run records, not how fast it was: 2 samples
    of 1 s a variant (the quick mode's are 3 of 2 s).'''
    return ('-S', 'samples=2', '-S', f'{check}_rounds.runtime_s=1')


#: fio_cache_flags' shortest real run (:func:`short`)
SHORT_FIO = short('fio_cache_flags')

#: A user references file that does not exist
NO_USER_REFERENCES = '/nonexistent/microbench/references.yaml'


def reframe(*args, env=None, cwd=None, config=True, timeout=900):
    '''Run ReFrame on the suite; return the completed process.'''
    environ = dict(os.environ)
    environ.pop('RFM_CONFIG_FILES', None)
    if config:
        environ['RFM_CONFIG_FILES'] = CONFIG

    # No user references of this machine's user: a test gives its own
    environ['MICROBENCH_REFERENCES'] = NO_USER_REFERENCES
    environ.update(env or {})
    return subprocess.run([REFRAME, '-c', CHECKS_DIR, *args],
                          env=environ, cwd=cwd or ROOT, timeout=timeout,
                          capture_output=True, text=True)


def run_checks(tmp, *args, config=True, env=None):
    '''Run checks with everything they write below ``tmp``: stage and
    output, perflogs, the report and the results storage.  The completed
    process knows its report (``proc.report``: :func:`assert_ran`).'''
    proc = reframe(
        '-r', '--prefix', str(tmp), '--perflogdir', str(tmp / 'perflogs'),
        '--report-file', str(tmp / 'report.json'), *args,
        env={'RFM_SQLITE_DB_FILE': str(tmp / 'results.db'), **(env or {})},
        config=config, cwd=str(tmp)
    )
    proc.report = os.path.join(str(tmp), 'report.json')
    return proc


def outcomes(proc):
    '''``[(test, result, failing stage, reason)]`` of every test case of
    the run ``proc`` (its ReFrame report).'''
    with open(proc.report) as fp:
        report = json.load(fp)
    return [(case['display_name'], case['result'], case.get('fail_phase'),
             case.get('fail_reason') or '')
            for case in report['runs'][-1]['testcases']]


def assert_ran(proc, ran=None):
    '''Every test case of the run ``proc`` ran and held (its sanity: what
    the benchmark printed is what was asked, its witnesses agree), or was
    skipped; ``ran`` of them, where given.

    A figure outside its reference band is allowed: the bands are those of
    the machine the references were measured on, idle, and an end-to-end
    test must hold on any machine, busy or not.  The band's judgement is
    the suite doing its job (its own tests hold the bands' arithmetic); a
    failure in any other stage fails the test, naming the check, the stage
    and the reason.'''
    found = outcomes(proc)
    wrong = [f'{name}: {result} in {stage}: {reason[:300]}'
             for name, result, stage, reason in found
             if result not in ('pass', 'skip')
             and not (result == 'fail' and stage == 'performance')]
    assert not wrong, '\n'.join(wrong) + '\n' + proc.stdout[-3000:]
    banded = any(stage == 'performance' for _, _, stage, _ in found)
    assert proc.returncode == (1 if banded else 0), proc.stdout[-3000:]
    if ran is not None:
        done = sum(result != 'skip' for _, result, _, _ in found)
        assert done == ran, (done, ran, proc.stdout[-3000:])
    return found


def local_config(tmp, extras):
    '''A configuration file in ``tmp``: the suite's, with ``extras`` given
    to the local partition (limits, say); its path.'''
    config = tmp / 'local_config.py'
    config.write_text(
        'import copy\n'
        'from reframe.utility import import_module_from_file\n'
        f'module = import_module_from_file({CONFIG!r})\n'
        'site_configuration = copy.deepcopy(module.site_configuration)\n'
        'local = site_configuration["systems"][-1]["partitions"][0]\n'
        f'local["extras"] = {extras!r}\n'
    )
    return config


#: The Darshan runtimes of the end-to-end tests (libdarshan.so files or
#: prefixes, comma-separated: the non-MPI and the MPI one); empty: none
DARSHAN = os.environ.get('MICROBENCH_DARSHAN', '')


def darshan_option():
    '''The ``-S darshan=...`` of a run, where a runtime is given.'''
    return ['-S', f'darshan={DARSHAN}'] if DARSHAN else []


def installed(program, bindir=''):
    '''Whether ``program`` is in ``bindir``, or on PATH.'''
    return shutil.which(os.path.join(bindir, program) if bindir else program)


def figure(frame, name, var):
    '''The one perflog row of figure ``var`` of check ``name``.'''
    rows = frame[(frame['name'] == name) & (frame['perf_var'] == var)]
    assert len(rows) == 1, (name, var, len(rows))
    return rows.iloc[0]
