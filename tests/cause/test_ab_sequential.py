'''microbench.cause.sequential and .pairs: the sequential rule of an A/B
experiment on series with known answers and on real recorded rounds, its
levels, the pairs of the runner's rounds, and the runner's question
(needs_more).'''

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, note, settings
from hypothesis import strategies as st

from microbench.cause import pairs, sequential, stopping

from ab_cases import constant, interleaved, real_series, recorded

KEY = ('fio_cache_flags', 'direct', 'write_median_mib_s', 'MiB/s',
       'higher-is-better')
LATENCY = ('osu_buffer_reuse', 'osu_latency', 'latency_median_us', 'us',
           'lower-is-better')
GAP = ('fio_cache_flags_gap', '', 'buffered_over_direct', 'x', 'none')


def one(rounds, rule=None, key=KEY):
    '''The judgement of a one-figure experiment.'''
    experiment = sequential.Experiment(rule or sequential.Rule.quick())
    return experiment.update({key: rounds})[key]


# -- known answers ------------------------------------------------------------

def test_identical_sides_are_the_same_at_the_first_look():
    got = one(constant([1.0] * 3))
    assert (got.verdict, got.label, got.look) == (
        'same', 'same (within ±5 %)', 3)
    assert got.ratio == got.low == got.high == 1.0


@pytest.mark.parametrize('ratio, key, verdict', [
    (0.8, KEY, 'B slower'), (1.25, KEY, 'B faster'),
    (1.25, LATENCY, 'B slower'), (0.8, LATENCY, 'B faster'),
    (1.25, GAP, 'B higher'), (0.8, GAP, 'B lower')])
def test_a_clear_change_is_called_at_the_first_look_in_its_direction(
        ratio, key, verdict):
    got = one(constant([ratio] * 5), key=key)
    assert (got.verdict, got.look, got.pairs) == (verdict, 3, 3)
    assert got.ratio == pytest.approx(ratio)


def test_a_change_inside_the_threshold_is_the_same():
    got = one(constant([0.97] * 3))
    assert got.verdict == 'same' and got.ratio == pytest.approx(0.97)


def test_the_interval_is_students_t_of_the_log_ratios_at_the_looks_level():
    ratios = [0.8, 1.1, 0.95, 1.3, 0.9, 1.05, 0.85, 1.2, 1.0, 0.92]
    rule = sequential.Rule.quick()
    got = one(constant(ratios), rule)
    logs = np.log(ratios[:got.look])
    level = rule.level(got.look, 1)
    ci = scipy.stats.ttest_1samp(logs, 0).confidence_interval(1 - level)
    assert got.level == level
    assert got.low == pytest.approx(math.exp(ci.low))
    assert got.high == pytest.approx(math.exp(ci.high))
    assert got.ratio == pytest.approx(math.exp(logs.mean()))


def test_a_noisy_figure_takes_every_round_then_says_how_far_same_reaches():
    ratios = [math.exp(0.3 * (-1) ** i) for i in range(10)]
    got = one(constant(ratios))
    logs = np.log(ratios)
    half = scipy.stats.t.ppf(1 - 0.025 / 2, 9) * logs.std(ddof=1) / \
        math.sqrt(10)
    reach = math.exp(half) - 1
    assert got.look == 10 and got.verdict == 'same'
    assert got.reach == pytest.approx(reach)
    assert got.label == f'same (within ±{math.ceil(100 * reach)} %)'


def test_a_figure_too_noisy_for_the_cap_is_same_saying_so():
    # no difference found: same, and its label says what it could miss
    got = one(constant([math.exp((-1) ** i) for i in range(10)]))
    assert got.verdict == 'same' and got.reach > 0.5
    assert got.label.startswith('same (too noisy to resolve ±')


def test_a_small_sure_change_that_may_reach_the_threshold_is_inconclusive():
    ratios = [0.96 * math.exp(0.046 * (-1) ** i) for i in range(20)]
    got = one(constant(ratios), sequential.Rule())
    assert got.high < 1 and got.low < 0.95 and got.ratio > 0.95
    assert (got.verdict, got.look) == ('inconclusive', 20)
    assert got.label == 'inconclusive (a small change)'


def test_fewer_than_three_pairs_continue():
    got = one(constant([0.5, 0.5]))
    assert (got.verdict, got.pairs, got.ratio) == ('continue', 2, None)


def test_a_decided_figure_keeps_the_verdict_of_its_first_look():
    # B slower after 3 pairs, then pairs that alone would say same
    got = one(constant([0.8, 0.8, 0.8] + [1.2] * 7))
    assert (got.verdict, got.look) == ('B slower', 3)


# -- levels: the union bound --------------------------------------------------

@pytest.mark.parametrize('rule', [sequential.Rule(), sequential.Rule.quick(),
                                  sequential.Rule(min_pairs=5, cap=5)])
@pytest.mark.parametrize('figures', [1, 7, 100])
def test_the_levels_of_every_look_and_figure_sum_to_alpha(rule, figures):
    looks = range(rule.min_pairs, rule.cap + 1)
    total = figures * sum(rule.level(look, figures) for look in looks)
    assert total == pytest.approx(rule.alpha)
    assert rule.level(rule.cap, figures) == pytest.approx(
        rule.alpha / figures * (rule.last_share if rule.cap > rule.min_pairs
                                else 1))


def test_the_caps_are_stated():
    assert (sequential.Rule().cap, sequential.Rule.quick().cap,
            sequential.MIN_PAIRS) == (20, 10, 3)


@pytest.mark.parametrize('numbers, said', [
    ({'alpha': 0}, 'alpha 0 is not a fraction'),
    ({'threshold': 1.5}, 'threshold 1.5'),
    ({'cap': 2}, 'pairs: from 3 to 2'),
    ({'cap': 101}, '<= 100'),
    ({'min_pairs': 2.5}, 'min_pairs 2.5 is not an integer'),
    ({'last_share': 0}, 'last_share 0'),
    ({'max_reach': 0}, 'max_reach 0 is not in (0, 1000]')])
def test_a_rule_out_of_range_is_one_line(numbers, said):
    with pytest.raises(ValueError, match=said.replace('(', r'\(')) as err:
        sequential.Rule(**numbers)
    assert '\n' not in str(err.value)


# -- real recorded rounds -----------------------------------------------------

def test_two_real_sessions_of_one_stack_show_no_difference():
    '''dev1 against dev2 (the same fio, the same machine): no figure is
    called different.'''
    series = real_series()
    experiment = sequential.Experiment(sequential.Rule(cap=3))
    found = experiment.update(series)
    assert len(found) == 13
    assert {got.verdict for got in found.values()} <= {'same',
                                                        'inconclusive'}
    assert not stopping.needs_more(experiment)


def test_a_real_figure_made_half_as_fast_is_called_slower():
    key = ('fio_cache_flags', 'sync', 'write_median_mib_s', 'MiB/s',
           'higher-is-better')
    a, b = recorded('fio-quick-1')[key], recorded('fio-quick-2')[key]
    assert one(interleaved(a, [v / 2 for v in b]), sequential.Rule(cap=3),
               key).verdict == 'B slower'
    assert one(interleaved(a, b), sequential.Rule(cap=3),
               key).verdict == 'same'


# -- the runner's rounds ------------------------------------------------------

def test_abab_and_abba_pair_the_same_rounds():
    a, b = [10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0]
    want = list(zip(a, b))
    assert pairs.pairs(interleaved(a, b, 'ABAB')) == want
    assert pairs.pairs(interleaved(a, b, 'ABBA')) == want
    assert pairs.order(interleaved(a, b, 'ABBA')) == 'ABBA'
    assert pairs.order(interleaved(a, b, 'ABAB')) == 'ABAB'


def test_a_rounds_value_is_the_median_of_its_usable_samples():
    rounds = [(0, 'A', [3.0, 1.0, 2.0, float('nan')]), (1, 'B', [0.0, 5.0]),
              (2, 'A', [float('inf'), -1.0]), (3, 'B', [1.0]),
              (4, 'A', [1.0])]
    assert pairs.pairs(rounds) == [(2.0, 5.0), None]


def test_lost_pairs_are_counted_never_judged():
    rounds = constant([0.8] * 5)
    rounds[2] = (rounds[2][0], 'A', [float('nan')])
    got = one(rounds)
    assert (got.verdict, got.look, got.pairs, got.lost) == (
        'B slower', 4, 3, 1)


@pytest.mark.parametrize('rounds, said', [
    ('AB', 'not a list'),
    ([(0, 'A')], 'not (round index, side, samples)'),
    ([(0, 'C', [1.0])], "side 'C' is not A or B"),
    ([(0.5, 'A', [1.0])], 'index 0.5 is not an integer'),
    ([(0, 'A', 1.0)], 'samples 1.0 are not a list'),
    ([(0, 'A', ['1'])], "sample '1' is not a number"),
    ([(1, 'A', [1.0]), (0, 'B', [1.0])], 'not in time order'),
    ([(0, 'A', [1.0]), (1, 'A', [1.0])], 'both A')])
def test_rounds_not_the_shape_are_one_line(rounds, said):
    with pytest.raises(pairs.RoundsError) as err:
        pairs.pairs(rounds, 'fio direct write')
    assert said in str(err.value)
    assert str(err.value).startswith('fio direct write: ')
    assert '\n' not in str(err.value)


def test_a_key_not_a_figure_is_one_line():
    with pytest.raises(pairs.RoundsError, match='not a figure key'):
        sequential.Experiment().update({KEY[:4] + ('better',): []})


# -- the runner's question ----------------------------------------------------

def _run(series, rule, watched=(), settled=False):
    '''The runner's loop: a pair at a time while needs_more (and the
    series has pairs left); the pairs run and the judgements (settled as
    the runner settles them at its end, where asked).'''
    experiment = sequential.Experiment(rule)
    most = max(len(rounds) for rounds in series.values()) // 2
    for run in range(1, most + 1):
        experiment.update({key: rounds[:2 * run]
                           for key, rounds in series.items()})
        if not stopping.needs_more(experiment, watched):
            break
    return run, (stopping.settle(experiment) if settled
                 else experiment.judgements)


def test_the_runner_stops_when_every_figure_is_decided():
    series = {KEY: constant([0.7] * 10), LATENCY: constant([1.0] * 10),
              GAP: constant([1.4, 0.7] * 5)}
    run, found = _run(series, sequential.Rule.quick())
    assert run == 10            # the gap's noise takes it to the cap
    assert (found[KEY].verdict, found[LATENCY].verdict) == ('B slower',
                                                             'same')
    assert found[GAP].verdict in ('same', 'inconclusive')
    series.pop(GAP)
    assert _run(series, sequential.Rule.quick())[0] == 3


def test_the_runner_watching_some_figures_stops_when_they_are_decided():
    '''A diagnosis watches its event's members: the noisy gap no longer
    keeps the experiment to the cap; it is said inconclusive (stopped
    early), its numbers kept.  Watching the gap (or a figure no series
    has, which watches them all) takes it to the cap again.'''
    series = {KEY: constant([0.7] * 10), LATENCY: constant([1.0] * 10),
              GAP: constant([1.4, 0.7] * 5)}
    run, found = _run(series, sequential.Rule.quick(), {KEY[:3]}, True)
    assert run == 3
    assert found[KEY].verdict == 'B slower'
    assert (found[GAP].verdict, found[GAP].label) == (
        'inconclusive', 'inconclusive (stopped early)')
    assert found[GAP].ratio is not None and 'stopped' in found[GAP].why
    assert _run(series, sequential.Rule.quick(), {GAP[:3]})[0] == 10
    assert _run(series, sequential.Rule.quick(), {('x', 'y', 'z')})[0] == 10


def test_no_figure_needs_no_more_rounds():
    experiment = sequential.Experiment()
    experiment.update({})
    assert not stopping.needs_more(experiment)


def test_a_figure_short_of_rounds_counts_them_lost():
    series = {KEY: constant([1.0] * 10), GAP: constant([1.0] * 4)}
    experiment = sequential.Experiment(sequential.Rule.quick())
    found = experiment.update(series)
    assert experiment.pairs_run == 10
    assert (found[GAP].pairs, found[GAP].lost) == (3, 0)
    assert found[GAP].verdict == 'same'


SERIES = st.lists(st.tuples(st.floats(0.05, 20), st.floats(1e-3, 1e6)),
                  min_size=0, max_size=22)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(SERIES, st.sampled_from([KEY, LATENCY, GAP]), st.sampled_from([
    sequential.Rule(), sequential.Rule.quick()]))
def test_judged_a_pair_at_a_time_or_at_once_the_verdicts_agree(
        drawn, key, rule):
    if not drawn:
        return
    series = {key: interleaved([level for _, level in drawn],
                               [level * ratio for ratio, level in drawn])}
    note(series)
    run, stepwise = _run(series, rule)
    experiment = sequential.Experiment(rule)
    at_once = experiment.update({k: rounds[:2 * run]
                                 for k, rounds in series.items()})
    assert stepwise == at_once
    got = at_once[key]
    if got.ratio is not None:
        assert got.low <= got.ratio * (1 + 1e-9)
        assert got.ratio <= got.high * (1 + 1e-9)
    if run >= rule.cap:
        assert got.verdict != 'continue'


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(SERIES, st.floats(1e-3, 1e3))
def test_the_verdict_does_not_depend_on_the_unit_and_mirrors_with_the_sides(
        drawn, scale):
    a = [level for _, level in drawn]
    b = [level * ratio for ratio, level in drawn]
    rule = sequential.Rule.quick()
    got = one(interleaved(a, b), rule)
    scaled = one(interleaved([v * scale for v in a],
                             [v * scale for v in b]), rule)
    swapped = one(interleaved(b, a), rule)
    assert scaled.verdict == got.verdict
    mirror = {'B slower': 'B faster', 'B faster': 'B slower'}
    assert swapped.verdict == mirror.get(got.verdict, got.verdict)
