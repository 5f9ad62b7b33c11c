'''A gap reads its inputs from the rounds job, judged by the pitfall's own
check (microbench/suite/gap.py, VariantCheck.as_input), never through a
dependency on the variant tests, whose references would skip it.

On a real rounds job (tests/data/gap/fio_fallocate: a quick run of
fio_fallocate on the local default in which the ``none`` variant failed an
impossible reference, and its gap was reported), ReFrame's own pipeline
methods run the gap in this process: its figure and records are the ones
that run's perflog holds; a sample cut, corrupted or mutated skips the gap
in one line naming the input, and a variant the job could not run skips
it saying why.  And every gap check of the suite: the rounds fixture of its
pitfall, no dependency, inputs that exist.'''

import os
import shutil
from types import SimpleNamespace

import pandas
import pytest
from hypothesis import event, given, settings, strategies as st
from reframe.core import runtime
from reframe.core.exceptions import SkipTestError

import mutations
import project
from fixtures import path
from microbench.suite.gap import GapCheck
from microbench.suite.variant import as_list

#: The real rounds job and the perflogs of its run
JOB = path('gap/fio_fallocate')
GAP_LOG = path('gap/fio_fallocate_gap.log')
VARIANT_LOG = path('gap/fio_fallocate.log')

#: What that run asked (reframe -c reframe_tests -r --mode quick -n
#: '^fio_fallocate'): the quick mode's settings of its rounds fixture,
#: which the fio reader holds each sample's output to
QUICK = {'runtime_s': 2, 'witness_runtime_s': 1, 'file_size': '8g'}

SAMPLES = sorted(name for name in os.listdir(JOB)
                 if name.startswith('fio-') and name.endswith('.json'))


@pytest.fixture(scope='module')
def job(tmp_path_factory):
    '''(partition, environment, the rounds fixture over the real job's
    files, the check module) in ReFrame's builtin configuration (its
    ``generic`` system: no references, no limits), set up by ReFrame's
    pipeline below a temporary prefix.'''
    tmp = tmp_path_factory.mktemp('gap')
    # ReFrame's option names its configuration key: the stage prefix
    prefix = '/'.join(('systems', 'prefix'))
    with runtime.temp_runtime('<builtin>', 'generic', {prefix: str(tmp)}):
        module = __import__('fio_fallocate')
        partition = runtime.runtime().system.partitions[0]
        environ = partition.environs[0]
        rounds = module.fio_fallocate_rounds()
        for name, value in QUICK.items():
            setattr(rounds, name, value)
        rounds.setup(partition, environ)
        for name in os.listdir(JOB):
            shutil.copy(os.path.join(JOB, name), rounds.stagedir)
        rounds.collect_records()
        yield partition, environ, rounds, module


def gap_of(job):
    '''The gap check of the job, through its sanity and performance:
    (the test, its figure) or SkipTestError.'''
    partition, environ, rounds, module = job
    gap = module.fio_fallocate_gap()
    gap.setup(partition, environ)
    gap.rounds = rounds
    gap.check_sanity()
    gap.check_performance()
    value, *_ = gap.perfvalues[f'{partition.fullname}:preallocated_over_none']
    return gap, value


def perflog(name):
    return pandas.read_csv(name, sep='|', keep_default_na=False, dtype=str)


def test_the_run_failed_a_variant_and_kept_its_gap():
    '''What the real run's perflogs hold: ``none`` failed its reference,
    its gap was reported all the same.'''
    variants = perflog(VARIANT_LOG)
    none = variants[(variants['variant'] == 'none')
                    & (variants['perf_var'] == 'write_median_mib_s')]
    assert list(none['perf_result']) == ['fail']
    assert list(none['perf_ref']) == ['1000000']
    row, = perflog(GAP_LOG).to_dict('records')
    assert row['perf_var'] == 'preallocated_over_none'
    assert row['perf_result'] == 'pass'


def test_the_gap_of_the_real_job_is_the_one_its_run_recorded(job):
    gap, value = gap_of(job)
    row, = perflog(GAP_LOG).to_dict('records')
    assert value == float(row['perf_value'])
    for field in ('sample_values', 'figure_samples', 'note', 'cold_start',
                  'tool_version', 'node', 'kernel', 'scratch_fstype',
                  'samples', 'too_spread'):
        assert str(getattr(gap, field)) == row[field], field
    # The commands name the run's own scratch directory
    assert gap.command_line == row['command_line']
    assert gap.note == ('default: cold start: write_median_mib_s round 1 '
                        'x1.4 faster')


def sample_name(name):
    '''``fio-none-2.json`` -> (``none``, 2)'''
    _, variant, number = os.path.splitext(name)[0].split('-')
    return variant, int(number)


@pytest.fixture
def restored(job):
    '''The job's files as the run left them, after the test.'''
    yield job
    stage = job[2].stagedir
    for name in os.listdir(JOB):
        shutil.copy(os.path.join(JOB, name), stage)


def skipped(job):
    '''The one line of the gap's skip.'''
    with pytest.raises(SkipTestError) as info:
        gap_of(job)
    said = str(info.value)
    assert '\n' not in said and 'Traceback' not in said
    return said


@pytest.mark.parametrize('name', SAMPLES)
def test_a_cut_sample_skips_the_gap_naming_it(restored, name):
    stage = restored[2].stagedir
    with open(os.path.join(JOB, name), 'rb') as fp:
        data = fp.read()
    with open(os.path.join(stage, name), 'wb') as fp:
        fp.write(data[:len(data) // 2])
    variant, number = sample_name(name)
    said = skipped(restored)
    assert said.startswith(f'fio_fallocate %fallocate={variant} failed '
                           f'its sanity, so no gap of it is computed: ')
    assert f'sample {number} of {variant}' in said
    assert os.path.join(stage, name) in said


@settings(parent=mutations.MUTATIONS, max_examples=10)
@given(st.data())
def test_a_mutated_sample_is_read_or_skips_the_gap(job, data):
    '''Any mutation of any sample: the gap is computed (the sample still
    says what was asked, a figure moved), or skipped in one line naming
    the input and the sample; never another error.'''
    stage = job[2].stagedir
    name = data.draw(st.sampled_from(SAMPLES))
    mutation = data.draw(st.sampled_from(sorted(
        {*mutations.MUTATIONS_OF_ANY, *mutations.MUTATIONS_OF_JSON})))
    with open(os.path.join(JOB, name), 'rb') as fp:
        original = fp.read()
    case = type('Case', (), {'data': original, 'kind': 'json'})
    _, mutated = mutations.mutate(data.draw, case, mutation)
    with open(os.path.join(stage, name), 'wb') as fp:
        fp.write(mutated)
    variant, number = sample_name(name)
    try:
        _, value = gap_of(job)
    except SkipTestError as err:
        event('skipped')
        said = str(err)
        assert '\n' not in said
        assert said.startswith(f'fio_fallocate %fallocate={variant} '
                               f'failed its sanity')
        assert f'sample {number}' in said
    else:
        event('computed')
        assert value > 0
    finally:
        shutil.copy(os.path.join(JOB, name), stage)


def with_records(job, edit):
    '''The job with its records edited (``edit(text)``).'''
    rounds = job[2]
    out = os.path.join(rounds.stagedir, 'rfm_job.out')
    with open(out) as fp:
        text = fp.read()
    with open(out, 'w') as fp:
        fp.write(edit(text))
    rounds.collect_records()
    return job


def test_a_variant_the_job_could_not_run_skips_the_gap(restored):
    job = with_records(restored, lambda text: text.replace(
        'microbench: command: none:',
        'microbench: unsupported: none: fallocate=none is not asked here\n'
        'microbench: command: none:'))
    assert skipped(job) == ('fio_fallocate %fallocate=none is skipped: '
                            'fallocate=none is not asked here')


def test_a_sample_that_did_not_run_skips_the_gap(restored):
    job = with_records(restored, lambda text: text.replace(
        'microbench: sample: none: 3 scratch_bytes=37322752\n', ''))
    assert skipped(job) == ('fio_fallocate %fallocate=none failed its '
                            'sanity, so no gap of it is computed: 2 of 3 '
                            'samples of none ran')


# Every gap check of the suite

GAPS = {name: cls for name, cls in project.check_classes().items()
        if issubclass(cls, GapCheck)}


@pytest.mark.parametrize('name', sorted(GAPS))
def test_a_gap_reads_the_rounds_job_of_its_pitfall(name):
    '''The same fixture: ReFrame resolves both to one job.'''
    mine = GAPS[name].fixture_space['rounds']
    theirs = GAPS[name].pitfall.fixture_space['rounds']
    assert (mine.cls, mine.scope, mine.action, mine.variants,
            mine.variables) == (theirs.cls, theirs.scope, theirs.action,
                                theirs.variants, theirs.variables)


@pytest.fixture(scope='module')
def builtin():
    with runtime.temp_runtime('<builtin>', 'generic'):
        yield


@pytest.mark.parametrize('name', sorted(GAPS))
def test_a_gap_depends_on_no_test_and_its_inputs_exist(builtin, name):
    cls = GAPS[name]
    gap = cls()
    # No dependency a variant's reference could skip it through
    assert gap.user_deps() == []
    knobs = project.knobs(cls.pitfall)
    nums = gap.input_nums()
    assert set(nums) == {v for pair in cls.gaps.values() for v in pair[:2]}
    for gap_name, (default, realistic, *figure) in cls.gaps.items():
        for variant in (default, realistic):
            params = cls.pitfall.get_variant_info(nums[variant])['params']
            assert '.'.join(str(params[k]) for k in knobs) == variant
            # The figures the variant's check records (figure_key reads
            # only the check's parameters, its variant and its class)
            check = SimpleNamespace(main_figures=cls.pitfall.main_figures,
                                    variant=variant, **params)
            specs = as_list(cls.pitfall.main_figures[
                cls.pitfall.figure_key(check)])
            recorded = [figure_name for figure_name, _ in specs]
            assert (figure[0] if figure else recorded[0]) in recorded, \
                (gap_name, variant)


@pytest.mark.parametrize('name', ['fio_fallocate_gap',
                                  'mdtest_metadata_gap'])
def test_a_skip_names_the_input_as_reframe_does(builtin, name):
    '''One knob and two: the name a skip gives an input is its test's.'''
    cls = GAPS[name]
    gap = cls()
    for variant, num in gap.input_nums().items():
        assert gap.input_name(variant) == cls.pitfall(
            variant_num=num).display_name


def test_an_input_is_given_what_its_test_would_have(builtin):
    '''ReFrame sets a test's partition and environment in its setup
    stage, which an input does not run (it would make the variant test's
    stage directory): VariantCheck.as_input sets what ReFrame's
    properties return (ReFrame 4.10.4).'''
    module = __import__('fio_fallocate')
    check = module.fio_fallocate(variant_num=0)
    check._current_partition, check._current_environ = 'part', 'env'
    assert (check.current_partition, check.current_environ) == ('part',
                                                                'env')
