'''The runner of ``microbench ab`` without ReFrame running: what it reads of
a stored A/B session (the real session of a quick ``fio_fallocate`` A/B in
tests/data/ab), the rounds it gives the rule across batches, the ReFrame
command of a batch, and the batch loop with the sequential rule (a batch
made of known series in place of a ReFrame run).'''

import argparse
import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench import sides
from microbench.cause import ab, abrun, sequential

from fixtures import path
from mutations import MUTATIONS, MUTATIONS_OF_ANY, MUTATIONS_OF_JSON

SESSION = 'ab/fio_fallocate-ab-report.json'
DEFAULT = ('fio_fallocate', 'default', 'write_median_mib_s', 'MiB/s',
           'higher-is-better')
GAP = ('fio_fallocate_gap', 'gap', 'preallocated_over_none', 'x', 'none')


@pytest.fixture(scope='module')
def session():
    with open(path(SESSION)) as fp:
        return json.load(fp)


def test_a_stored_session_gives_each_sides_samples(session):
    batch = abrun.read(session, abrun.Batch(1, 2))
    assert batch.session == '8c8a92ca-b3e9-43b7-a406-4840da1d189a'
    assert set(batch.samples) == {
        DEFAULT, GAP, ('fio_fallocate', 'none', 'write_median_mib_s',
                       'MiB/s', 'higher-is-better')}
    assert batch.samples[DEFAULT] == {'A': [395.807, 436.454],
                                      'B': [509.667, 455.969]}
    assert batch.tools == {'A': {'fio': 'fio-3.33'},
                           'B': {'fio': 'fio-3.40'}}
    assert batch.nodes == ['vm'] and batch.scheduler == 'local'
    assert len(batch.jobs) == 1 and batch.jobs[0].startswith('local ')
    assert (batch.system, batch.partition) == ('local', 'default')
    assert batch.failures == []


def test_the_rounds_of_two_batches_follow_in_time(session):
    one = abrun.read(session, abrun.Batch(1, 2))
    two = abrun.read(session, abrun.Batch(2, 2))
    del two.samples[GAP]['B']
    found = abrun.series([one, two])
    assert found[DEFAULT] == [(1, 'A', [395.807]), (2, 'B', [509.667]),
                              (3, 'B', [455.969]), (4, 'A', [436.454]),
                              (5, 'A', [395.807]), (6, 'B', [509.667]),
                              (7, 'B', [455.969]), (8, 'A', [436.454])]
    # B's gap failed in batch 2: its rounds have no sample, their pairs
    # are lost, not judged
    assert [r for r in found[GAP] if r[0] > 4 and r[1] == 'B'] == [
        (6, 'B', []), (7, 'B', [])]
    state = sequential.Experiment(sequential.Rule.quick())
    state.update(found)
    assert state.judgements[GAP].lost == 2
    assert state.judgements[DEFAULT].lost == 0


def test_a_failed_check_is_said_and_its_figures_left_out(session):
    broken = copy.deepcopy(session)
    case = next(c for c in broken['runs'][-1]['testcases']
                if c['display_name'].startswith('fio_fallocate %fallocate='
                                                'none %.stack=B'))
    case.update(result='fail', fail_phase='sanity', perfvalues={},
                fail_reason='sample 2 of none: fio output ...\nmore')
    batch = abrun.read(broken, abrun.Batch(1, 2))
    assert batch.failures == ['fio_fallocate %fallocate=none %.stack=B: '
                              'sample 2 of none: fio output ...']
    assert 'B' not in batch.samples[('fio_fallocate', 'none',
                                     'write_median_mib_s', 'MiB/s',
                                     'higher-is-better')]


@settings(MUTATIONS, max_examples=60)
@given(st.data(), st.sampled_from(sorted({*MUTATIONS_OF_ANY,
                                          *MUTATIONS_OF_JSON})))
def test_a_mutated_session_is_read_or_one_line(data, mutation):
    with open(path(SESSION), 'rb') as fp:
        raw = fp.read()
    case = argparse.Namespace(data=raw, kind='json')
    if mutation in MUTATIONS_OF_JSON:
        _, mutated = MUTATIONS_OF_JSON[mutation](data.draw, raw, 'json')
    else:
        _, mutated = MUTATIONS_OF_ANY[mutation](data.draw, case.data)
    try:
        found = json.loads(mutated.decode('utf-8', errors='replace'))
    except ValueError:
        return      # not JSON: the storage would not hold it
    try:
        batch = abrun.read(found, abrun.Batch(1, 2))
    except abrun.RunError as err:
        assert '\n' not in str(err)
    else:
        abrun.series([batch])


def test_a_batch_is_one_reframe_run_of_both_stacks(tmp_path):
    cmd = abrun.command('^(fio_fallocate)', ['fio_fallocate_rounds'],
                        'SPEC', 3, str(tmp_path / 'batch-2'),
                        ['--mode', 'quick'],
                        {'kind': 'ab', 'ab': 'X', 'batch': 2})
    assert cmd[cmd.index('-P') + 1] == 'stack=A,B'
    sets = [cmd[i + 1] for i, word in enumerate(cmd) if word == '-S']
    assert sets == ['fio_fallocate_rounds.stacks=SPEC', 'samples=3']
    assert cmd[cmd.index('--session-extras') + 1] == 'kind=ab,ab=X,batch=2'
    assert cmd[cmd.index('--perflogdir') + 1] == str(tmp_path / 'perflogs')
    assert cmd[cmd.index('--report-file') + 1] == str(
        tmp_path / 'batch-2' / 'report.json')
    assert '-r' in cmd and '--dry-run' not in cmd


# -- the batch loop with the rule ------------------------------------------


def plan(tmp_path, **more):
    args = argparse.Namespace(
        checks=['fio_fallocate'], a='/usr/bin', b=None, aa=True,
        a_name=None, b_name=None, system=None, mode='quick', setvars=[],
        job_options=[], json=None, first=4, batch=4, cap=None,
        dry_run=False, db=str(tmp_path / 'ab.db'))
    for name, value in more.items():
        setattr(args, name, value)
    return ab.Plan(args)


def known(ratio, spread, scheduler='local'):
    '''A batch of ``count`` pairs of one figure whose B is ``ratio`` times
    A, each round's value moved by up to ``spread`` (a seeded draw, the
    same on every run): what ReFrame's run would have given, the options
    of each batch kept.'''
    seen = []

    def batch(plan, number, count, extra, env):
        seen.append((number, count, list(extra)))
        draw = random.Random(number)
        a = [100 * (1 + draw.uniform(-spread, spread)) for _ in range(count)]
        b = [ratio * 100 * (1 + draw.uniform(-spread, spread))
             for _ in range(count)]
        return abrun.Batch(number, count, session=f's{number}',
                           samples={DEFAULT: {'A': a, 'B': b}},
                           nodes=['n1', 'n2'], jobs=[f'{100 + number}'],
                           scheduler=scheduler, system='x', partition='y',
                           placements=[('n1', 'n2')])
    return batch, seen


def test_a_clear_drop_stops_after_the_first_batch(tmp_path, monkeypatch):
    batch, seen = known(0.7, 0.01)
    monkeypatch.setattr(ab, 'one_batch', batch)
    state, found, batches = ab.experiment(plan(tmp_path))
    assert [count for _, count, _ in seen] == [4]
    assert state.judgements[DEFAULT].verdict == 'B slower'


def test_an_uncertain_figure_takes_batches_to_the_cap(tmp_path,
                                                      monkeypatch):
    batch, seen = known(1.0, 0.3)
    monkeypatch.setattr(ab, 'one_batch', batch)
    state, found, batches = ab.experiment(plan(tmp_path))
    assert [count for _, count, _ in seen] == [4, 4, 2]
    assert state.pairs_run == sequential.CAP_QUICK
    assert state.judgements[DEFAULT].verdict in ('same', 'inconclusive')
    assert [r[0] for r in found[DEFAULT]] == list(range(1, 21))


def test_the_batches_after_the_first_are_pinned_to_its_nodes(tmp_path,
                                                             monkeypatch):
    batch, seen = known(1.0, 0.3, scheduler='slurm')
    monkeypatch.setattr(ab, 'one_batch', batch)
    ab.experiment(plan(tmp_path, first=3, batch=3))
    assert [extra for _, _, extra in seen] == [
        [], ['-J', 'nodelist=n1,n2'], ['-J', 'nodelist=n1,n2'],
        ['-J', 'nodelist=n1,n2']]
    assert [count for _, count, _ in seen] == [3, 3, 3, 1]


def test_jobs_on_different_nodes_are_not_pinned_saying_so(
        tmp_path, monkeypatch, capsys):
    '''Two checks whose jobs ran on different nodes: ReFrame's -J is every
    job's, so no one list of nodes holds for both.'''
    batch, seen = known(1.0, 0.3, scheduler='slurm')

    def apart(*args):
        found = batch(*args)
        found.placements = [('n1',), ('n2',)]
        return found
    monkeypatch.setattr(ab, 'one_batch', apart)
    ab.experiment(plan(tmp_path, first=3, batch=3))
    assert all(extra == [] for _, _, extra in seen)
    assert 'ran on different nodes (n1; n2)' in capsys.readouterr().out


def test_a_local_job_is_not_pinned(tmp_path, monkeypatch):
    batch, seen = known(1.0, 0.3)
    monkeypatch.setattr(ab, 'one_batch', batch)
    ab.experiment(plan(tmp_path))
    assert all(extra == [] for _, _, extra in seen)


def test_the_document_names_every_batch(tmp_path, monkeypatch):
    batch, _ = known(0.7, 0.01)
    monkeypatch.setattr(ab, 'one_batch', batch)
    mine = plan(tmp_path)
    state, found, batches = ab.experiment(mine)
    doc = ab.document(mine, state, found, batches)
    assert doc['order'] == 'ABBA' and doc['mode'] == 'quick'
    assert doc['nodes'] == ['n1', 'n2'] and doc['jobs'] == ['101']
    assert doc['stacks']['A']['session'] == 's1'
    assert doc['batches'][0]['session'] == 's1'
    assert doc['exit_code'] == 1 and doc['counts'] == {'B slower': 1}
    assert sides.parse(mine.spec)['B'].dir('fio') == '/usr/bin'


def test_a_batch_that_measured_nothing_on_both_stacks_ends_it(
        tmp_path, monkeypatch, capsys):
    '''Stack B broke (its programs gone: every check of it skipped): no
    more batches are run for nothing.'''
    batch, seen = known(1.0, 0.3)

    def one_sided(*args):
        found = batch(*args)
        del found.samples[DEFAULT]['B']
        return found
    monkeypatch.setattr(ab, 'one_batch', one_sided)
    state, _, _ = ab.experiment(plan(tmp_path))
    assert [count for _, count, _ in seen] == [4]
    assert state.judgements[DEFAULT].pairs == 0
    assert 'batch 1 measured no figure on both stacks' in \
        capsys.readouterr().out
