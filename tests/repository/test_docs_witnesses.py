'''Every check declares the witnesses it runs, and runs the witnesses it
declares (``witnesses = (...)``, by the names of
``reframe_tests/microbench/witnesses.py``); the checks page says them.

What a check runs is read twice, as far as it can be without running a
benchmark: from the job script a dry run writes for its rounds fixture
(the witness's command is in it: a ``strace``, a Darshan preload, a
``fincore``, ...) and from the code that judges the check (its class and
its bases in the suite: the call that reads that witness's output).  A
witness runs where both say so.  The dry runs are the local default's
(every check it can run) and a partition of the example Slurm cluster for
each check the local default cannot (IOR's GPU buffers; a network limit,
which needs two nodes).
'''

import glob
import importlib
import inspect
import os
import re
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from reframe.core.pipeline import RegressionTest

from job_scripts import settings
from microbench import paths, witnesses
from microbench.suite.rounds import Rounds
from microbench.suite.variant import VariantCheck

#: The partitions' dry runs, shared (tests/helpers/dryruns.py)
pytestmark = pytest.mark.dry_runs

#: The partitions whose dry runs write a job script for every check's
#: rounds: the local default's, a GPU partition's (ior_gpu_buffer), a
#: partition with a network (component_limits_network)
DRY_RUNS = ('local:default', 'slurm_cluster:gpu', 'slurm_cluster:nvme')

CHECKS_PAGE = os.path.join(paths.ROOT, 'docs', 'reference', 'checks.md')


def job_runs(job, arrays, pattern):
    '''Whether a command the job script sets in one of ``arrays`` (by
    variant, or by name) matches ``pattern``.'''
    for array in arrays:
        value = (job or {}).get(array, {})
        values = value.values() if isinstance(value, dict) else [value]
        if any(re.search(pattern, command) for command in values):
            return True
    return False


def code_calls(code, pattern):
    return re.search(pattern, code) is not None


def has_figure(cls, pattern):
    '''Whether a figure the class may report matches ``pattern``.'''
    units = getattr(cls, 'figure_units', dict)()
    return any(re.fullmatch(pattern, name) for name in units)


def tells_data(cls):
    '''Whether the check says what data its figures touched (the default
    of :class:`VariantCheck` says none).'''
    return getattr(cls, 'data_touched', None) not in (
        None, VariantCheck.data_touched)


#: witness -> (check class, its job's settings or None, its code) -> runs
EVIDENCE = {
    'strace': lambda cls, job, code: (
        job_runs(job, ['witnesses'], r'\bstrace -f -c ')
        and code_calls(code, r'strace\.parse_summary\(')),
    'darshan': lambda cls, job, code: (
        job_runs(job, ['darshans'], r'LD_PRELOAD=\$darshan_lib ')
        and code_calls(code, r'witnessed\.judge\(|witness_logs\(')),
    'cache_after_write': lambda cls, job, code: (
        job_runs(job, ['witnesses'], r'-exec fincore ')
        and code_calls(code, r'parse_fincore')),
    'residency': lambda cls, job, code: (
        job_runs(job, ['residencies', 'witnesses'], r'/residency\.sh ')
        and code_calls(code, r'residency\.(judge|seen)\(')),
    'stored_bytes': lambda cls, job, code: (
        job_runs(job, ['witnesses'], r"-printf 'file %s %b ")
        and code_calls(code, r'reduction\.judge\(')),
    'busy_cores': lambda cls, job, code: (
        job_runs(job, ['commands'], r'polling\.sh cpu ')
        and has_figure(cls, r'busy_median_cores')),
    'poller_threads': lambda cls, job, code: (
        job_runs(job, ['witnesses'], r'polling\.sh threads ')
        and code_calls(code, r'self\.judge_threads\(\)')),
    'cpuset': lambda cls, job, code: (
        job_runs(job, ['witnesses'], r'grep Cpus_allowed_list ')
        and code_calls(code, r'self\.check_cpusets\(\)')),
    'stripe_count': lambda cls, job, code: (
        job_runs(job, ['witnesses'], r'lfs getstripe -c ')
        and code_calls(code, r'parse_stripe_count')),
    'client_cpu': lambda cls, job, code: (
        job_runs(job, ['commands'], r'/usr/bin/time -v ')
        and has_figure(cls, r'client_cpu_percent')),
    'one_kernel': lambda cls, job, code: (
        job_runs(job, ['facts'], r'kernel/random/boot_id')
        and code_calls(code, r"shared_cache\(|records\.get\('kernels'")),
    'overwrite_factor': lambda cls, job, code: (
        has_figure(cls, r'overwrite_factor')),
    'data_to_memory': lambda cls, job, code: (
        job_runs(job, ['facts'], r'MemTotal')
        and code_calls(code, r'memory\.judge\(') and tells_data(cls)),
    'cold_start': lambda cls, job, code: (
        code_calls(code, r'coldstart\.flags\(')),
}


def check_file_classes():
    '''Every test class of the check files, by name.'''
    out = {}
    for filename in sorted(os.listdir(paths.CHECKS)):
        if filename.endswith('.py'):
            module = importlib.import_module(filename[:-3])
            out.update((name, cls) for name, cls in vars(module).items()
                       if inspect.isclass(cls)
                       and cls.__module__ == module.__name__
                       and issubclass(cls, RegressionTest))
    return out


def rounds_fixtures(classes):
    '''The names of the classes some check takes as its ``rounds``.'''
    return {cls.fixture_space['rounds'].cls.__name__
            for cls in classes.values() if 'rounds' in cls.fixture_space}


def checks():
    '''Every check class (not a rounds fixture), by name.'''
    classes = check_file_classes()
    fixtures = rounds_fixtures(classes)
    return {name: cls for name, cls in sorted(classes.items())
            if name not in fixtures}


def source(cls):
    '''The code of the class ``cls``; '' for a class made by a function
    (``Recorded``, whose body is the record fields: nothing that judges).'''
    try:
        return inspect.getsource(cls)
    except OSError:
        return ''


def code_of(cls):
    '''The code that judges ``cls``: its class and its bases in the
    suite.'''
    return '\n'.join(source(base) for base in cls.__mro__
                     if base.__module__ != 'builtins'
                     and inspect.getfile(base).startswith(paths.CHECKS))


def job_name(cls):
    '''The name of the job that ran what ``cls`` judges: its rounds
    fixture's, a sweep's own; None for a test with no job.'''
    if issubclass(cls, Rounds):
        return cls.__name__
    if 'rounds' in cls.fixture_space:
        return cls.fixture_space['rounds'].cls.__name__
    return None


def detected(cls, job):
    '''The witnesses ``cls`` runs, in the table's order.'''
    code = code_of(cls)
    return tuple(name for name in witnesses.WITNESSES
                 if EVIDENCE[name](cls, job, code))


def dry_run(made):
    '''{job name: what its job script sets} of a partition's dry run
    ``made`` (tests/helpers/dryruns.py).'''
    assert made.proc.returncode == 0, made.proc.stdout + made.proc.stderr
    found = {}
    for script in sorted(glob.glob(os.path.join(made.stage, '*', '*',
                                                'rfm_job.sh'))):
        folder = os.path.basename(os.path.dirname(script))
        found.setdefault(re.sub(r'_[0-9a-f]{8}$', '', folder),
                         settings(script))
    return found


@pytest.fixture(scope='module')
def jobs(dry_runs):
    '''{job name: what its job script sets} of the dry runs (made side
    by side: each is a ReFrame process that mostly waits to load), the
    first partition's where several write one.'''
    with ThreadPoolExecutor(len(DRY_RUNS)) as pool:
        runs = [pool.submit(dry_runs.of, partition)
                for partition in DRY_RUNS]
        found = {}
        for run in runs:
            for name, job in dry_run(run.result()).items():
                found.setdefault(name, job)
    return found


def test_every_check_declares_its_witnesses_and_no_fixture_does():
    classes = check_file_classes()
    fixtures = rounds_fixtures(classes)
    for name, cls in classes.items():
        declared = cls.__dict__.get('witnesses')
        if name in fixtures:
            assert declared is None, f'{name} is a rounds fixture'
            continue
        assert isinstance(declared, tuple), f'{name} declares no witnesses'
        assert not witnesses.unknown(declared), (name, declared)
        assert len(set(declared)) == len(declared), (name, declared)


def test_every_witness_has_its_evidence_and_one_line():
    assert set(EVIDENCE) == set(witnesses.WITNESSES)
    for name, witness in witnesses.WITNESSES.items():
        assert re.fullmatch(r'[a-z_]+', name)
        for text in witness:
            assert text and '\n' not in text, name
        for module in witness.code.split(', '):
            assert os.path.isfile(os.path.join(paths.LIBRARY, module)), \
                (name, module)


@pytest.mark.parametrize('name', sorted(checks()))
def test_a_check_runs_the_witnesses_it_declares(name, jobs):
    cls = checks()[name]
    job = job_name(cls)
    if job is not None:
        assert job in jobs, f'no dry run wrote the job of {name}: {job}'
    seen = detected(cls, jobs.get(job))
    declared = cls.witnesses
    assert set(seen) - set(declared) == set(), \
        f'{name} runs witnesses it does not declare'
    assert set(declared) - set(seen) == set(), \
        f'{name} declares witnesses it does not run'


def test_every_witness_is_run_by_some_check(jobs):
    '''The evidence of each witness finds it somewhere: none is blind.'''
    seen = set()
    for cls in checks().values():
        seen.update(detected(cls, jobs.get(job_name(cls))))
    assert seen == set(witnesses.WITNESSES)


def test_a_witness_gone_from_the_job_or_the_code_is_no_longer_run(jobs):
    '''Mutations: fio_fallocate without its strace witness in the job
    script, and fio_cache_flags' code without its fincore reader.'''
    classes = checks()
    fallocate = classes['fio_fallocate']
    job = dict(jobs['fio_fallocate_rounds'])
    assert 'strace' in detected(fallocate, job)
    del job['witnesses']
    assert 'strace' not in detected(fallocate, job)
    assert 'strace' in fallocate.witnesses

    flags = classes['fio_cache_flags']
    job = jobs['fio_cache_flags_rounds']
    code = code_of(flags)
    assert EVIDENCE['cache_after_write'](flags, job, code)
    assert not EVIDENCE['cache_after_write'](
        flags, job, code.replace('parse_fincore', 'parse_nothing'))


def page_sections():
    '''{check file: its section of the checks page}.'''
    with open(CHECKS_PAGE, encoding='utf-8') as fp:
        text = fp.read()
    parts = re.split(r'^## (\w+)\n', text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_checks_page_says_every_declared_witness():
    sections = page_sections()
    by_file = {}
    for name, cls in checks().items():
        by_file.setdefault(cls.__module__, {})[name] = cls.witnesses
    for module, declared in by_file.items():
        section = sections[module]
        said = re.findall(r'^- `(\w+)` \(([^)]*)\): (.*)$', section, re.M)
        users = {}
        for name, found in declared.items():
            for witness in found:
                users.setdefault(witness, []).append(f'`{name}`')
        assert {w for w, _, _ in said} == set(users), module
        for witness, who, line in said:
            assert who == ', '.join(users[witness]), (module, witness)
            assert line.startswith(witnesses.WITNESSES[witness].sees)
        assert 'Witness: none.' not in section or not users, module
    table = sections['Witnesses']
    for name in witnesses.WITNESSES:
        assert f'| `{name}` |' in table, name


@pytest.fixture
def checks_page(monkeypatch):
    '''docs/checks_page.py, the generator's module of the checks page.'''
    monkeypatch.syspath_prepend(os.path.join(paths.ROOT, 'docs'))
    return importlib.import_module('checks_page')


def fake_check(declared=None, rounds=None):
    '''A class shaped like a check to the generator: its fixtures, and
    its declaration where ``declared`` is given.'''
    body = {'fixture_space': {'rounds': SimpleNamespace(cls=rounds)}
            if rounds else {}}
    if declared is not None:
        body['witnesses'] = declared
    return type('fake', (), body)


def test_the_generator_refuses_what_no_table_says(checks_page):
    fixture = fake_check()
    fixture.__name__ = 'fake_rounds'
    good = {'fake': fake_check(('strace', 'cold_start'), fixture),
            'fake_rounds': fixture}
    assert checks_page.declared_witnesses(good) == {
        'fake': ('strace', 'cold_start')}
    for declared, said in ((None, 'fake declares no witnesses'),
                           (['strace'], 'fake declares no witnesses'),
                           (('strace', 'strace_calls'),
                            "'strace_calls' is no witness")):
        bad = {**good, 'fake': fake_check(declared, fixture)}
        with pytest.raises(checks_page.PageError, match=said):
            checks_page.declared_witnesses(bad)
