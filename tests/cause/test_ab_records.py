'''The records of an A/B job, read one side at a time
(microbench/suite/records.py, ``of_side``): the real job of a quick
``fio_fallocate`` A/B (tests/data/ab: fio 3.33 from apt as A, fio 3.40 of
the Spack stacks as B), and mutations of it.'''

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench.suite import records

from fixtures import text
from mutations import MUTATIONS, MUTATIONS_OF_ANY

JOB = 'ab/fio_fallocate-ab-job.out'
VARIANTS = ('default', 'none')


@pytest.fixture(scope='module')
def job():
    return records.parse(text(JOB))


def test_each_side_reads_as_a_job_of_its_own(job):
    for label, version, fio in (('A', 'fio-3.33', '/usr/bin/fio'),
                                ('B', 'fio-3.40', '/opt/spack-stacks/')):
        mine = records.of_side(job, label, VARIANTS)
        assert mine['version'] == [version]
        assert [line.split()[0] for line in mine['sample']] == \
            ['default:', 'none:', 'default:', 'none:']
        for variant in VARIANTS:
            recs = records.of_variant(mine, variant)
            assert [records.sample_facts(s)[0] for s in recs['sample']] \
                == [1, 2]
            assert recs['command'][0].startswith(fio)
            assert f'-o strace-{variant}.txt {fio}' in recs['witness'][0]
        # the job's own records are each side's
        assert mine['node'] == mine['nodes'] == ['vm']
        assert mine['kernel'] == job['kernel']
        assert mine['scratch'] == job['scratch']


def test_no_record_of_a_side_reaches_the_other(job):
    one = records.of_side(job, 'A', VARIANTS)
    two = records.of_side(job, 'B', VARIANTS)
    assert not any('@' in value.partition(': ')[0]
                   for values in [*one.values(), *two.values()]
                   for value in values)
    assert not any('/usr/bin/fio' in v for v in two['command'])
    assert not any('/opt/' in v for v in one['command'])


def test_the_rounds_ran_abba(job):
    order = [value.split(':')[0].split('@')[1]
             for value in job['sample']]
    # each round runs both variants of one side
    assert order == ['A', 'A', 'B', 'B', 'B', 'B', 'A', 'A']


def test_a_job_without_sides_is_read_as_it_is(job):
    plain = {'sample': ['direct: 1 scratch_bytes=1'], 'node': ['n1'],
             'lock_wait': ['/tmp/x.lock: held by a@b: pid 1']}
    assert records.of_side(plain, 'A', ('direct',)) == plain


@settings(MUTATIONS, max_examples=150)
@given(st.data(), st.sampled_from(sorted(MUTATIONS_OF_ANY)))
def test_a_mutated_job_reads_or_loses_lines_never_a_traceback(data,
                                                              mutation):
    raw = text(JOB).encode()
    _, mutated = MUTATIONS_OF_ANY[mutation](data.draw, raw)
    recs = records.parse(mutated.decode('utf-8', errors='replace'))
    for label in ('A', 'B'):
        mine = records.of_side(recs, label, VARIANTS)
        other = 'B' if label == 'A' else 'A'
        assert not any(value.startswith((f'default@{other}: ',
                                         f'none@{other}: ', f'@{other}: '))
                       for values in mine.values() for value in values)
