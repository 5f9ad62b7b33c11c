'''The nightly verdict on series with known answers: a step is found at
its night, a lone outlier is not a change point, unchanged series stay
unchanged at the budget's rate, a short history is inconclusive; the
night's exit code is set once per change.'''

import numpy as np
import pytest

from microbench.verdicts import changes, nightly

#: The per-figure levels of a night that judges 100 figures
LEVEL, MAX_P = nightly.levels(100)


def noisy(rng, n, level=100.0, sigma=0.05):
    return level * np.exp(rng.normal(0, sigma, n))


def walk(values, better=1):
    '''The verdict of every night from MIN_NIGHTS on, as the nightly job
    would give it night after night.'''
    return [nightly.judge(values[:night + 1], better, LEVEL,
                          MAX_P)['verdict']
            for night in range(nightly.MIN_NIGHTS, len(values))]


def test_a_step_is_found_at_its_night():
    rng = np.random.default_rng(1)
    values = np.concatenate([noisy(rng, 30), noisy(rng, 6, 75)])
    points = changes.change_points(values, MAX_P, 0.10)
    assert [p['index'] for p in points] == [30]
    assert points[0]['change'] == pytest.approx(-0.25, abs=0.04)
    assert points[0]['mean_before'] == pytest.approx(100, rel=0.03)
    assert points[0]['p'] < MAX_P


def test_a_lone_outlier_is_not_a_change_point():
    rng = np.random.default_rng(2)
    values = noisy(rng, 40)
    values[20] = 40
    assert changes.change_points(values, MAX_P, 0.10) == []
    values[-1] = 40            # at the end too: a single night
    assert changes.change_points(values, MAX_P, 0.10) == []


def test_a_small_step_inside_the_floor_is_no_change_point():
    rng = np.random.default_rng(3)
    values = np.concatenate([noisy(rng, 30, sigma=0.01),
                             noisy(rng, 10, 95, 0.01)])
    assert changes.change_points(values, MAX_P, 0.10) == []


def test_a_persistent_drop_sets_the_exit_code_once_then_is_degraded():
    rng = np.random.default_rng(4)
    values = np.concatenate([noisy(rng, 25), noisy(rng, 6, 50)])
    verdicts = walk(values)
    assert verdicts[:25 - nightly.MIN_NIGHTS] == ['unchanged'] * (
        25 - nightly.MIN_NIGHTS)
    assert verdicts[25 - nightly.MIN_NIGHTS:] == ['regression'] + \
        ['degraded'] * 5
    last = nightly.judge(values, 1, LEVEL, MAX_P)
    assert last['since'] == 25 and 'found before tonight' in last['why']


def test_a_lone_bad_night_is_one_alarm_and_then_level_again():
    rng = np.random.default_rng(5)
    values = noisy(rng, 30)
    values[25] = 40
    verdicts = walk(values)
    assert verdicts[25 - nightly.MIN_NIGHTS] == 'regression'
    assert set(verdicts[26 - nightly.MIN_NIGHTS:]) == {'unchanged'}


def test_directions():
    rng = np.random.default_rng(6)
    values = np.concatenate([noisy(rng, 20, 10, 0.02), [20.0]])
    assert nightly.judge(values, -1, LEVEL, MAX_P)['verdict'] == \
        'regression'                                       # a latency
    assert nightly.judge(values, 1, LEVEL, MAX_P)['verdict'] == \
        'improvement'
    assert nightly.judge(values, 0, LEVEL, MAX_P)['verdict'] == 'changed'


def test_a_short_history_is_inconclusive_whatever_the_drop():
    values = [100.0] * 10 + [10.0]
    out = nightly.judge(values, 1, LEVEL, MAX_P)
    assert out['verdict'] == 'inconclusive'
    assert out['why'] == f'history: 10 nights, needs {nightly.MIN_NIGHTS}'


def test_unchanged_series_stay_unchanged_at_the_budgets_rate():
    '''At most BUDGET / 100 false regressions per figure-night (100
    figures a night share the budget): 2000 figure-nights of unchanged
    histories with night drift, 1 expected; 5 or more would be a rate
    of 5 times that, P < 0.004 for a rule that keeps its level.'''
    rng = np.random.default_rng(7)
    calls = 0
    for _ in range(100):
        values = noisy(rng, nightly.MIN_NIGHTS + 20, sigma=0.10)
        tests = nightly.Series(values, 1, LEVEL, MAX_P)
        for night in range(nightly.MIN_NIGHTS, len(values)):
            state = tests.state(night)[0]
            calls += state == 'down' and tests.state(night - 1)[0] != 'down'
    assert calls <= 4, calls


def test_levels_split_the_budget_over_the_figures():
    level, max_p = nightly.levels(50, 0.05)
    assert level == pytest.approx(nightly.SHARE * 0.05 / 50)
    assert max_p == pytest.approx(level / nightly.OTAVA_SEARCH)


def test_the_last_nights_test_is_a_prediction_interval():
    prior = [100.0, 110.0, 90.0, 105.0, 95.0] * 3
    out = changes.recent(prior, [100.0])
    assert out['k'] == 15 and out['ratio'] == pytest.approx(1, abs=0.01)
    assert out['p_low'] == pytest.approx(0.5, abs=0.05)
    assert changes.recent(prior, [50.0])['p_low'] < 1e-5
    assert changes.recent([100.0] * 15, [100.0])['p_low'] == 1.0
    # three nights 20 % down say more than one
    one, three = (changes.recent(prior, [80.0] * j) for j in (1, 3))
    assert three['p_low'] < one['p_low'] / 10 and three['apart']
    # ...but not when one outlying night makes the mean
    assert not changes.recent(prior, [40.0, 100.0, 100.0])['apart']


def test_a_drop_too_small_for_one_night_is_called_on_a_later_one():
    rng = np.random.default_rng(8)
    values = np.concatenate([noisy(rng, 25, sigma=0.06),
                             noisy(rng, 3, 78, 0.06)])
    verdicts = walk(values)[25 - nightly.MIN_NIGHTS:]
    assert verdicts[0] == 'unchanged' and 'regression' in verdicts, \
        verdicts


def test_a_night_that_is_not_a_positive_number_is_inconclusive():
    values = [100.0] * 15 + [0.0]
    out = nightly.judge(values, 1, LEVEL, MAX_P)
    assert out['verdict'] == 'inconclusive' and 'positive' in out['why']
