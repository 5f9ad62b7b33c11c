'''A gap too spread to tell (microbench/suite/stats.py, the note and record
of microbench/suite/gap.py): the rule on every gap of the real sessions of
tests/data/results, whose answers are known (the ratios and figures the
suite recorded that night, and which of the gaps did not show with rounds
too spread to tell); the rule's edges; and its properties on generated
samples.'''

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import project
from fixtures import path
from microbench.suite import gap, stats
from microbench.suite.gap import GapCheck
from microbench.suite.stats import Samples
from microbench.verdicts import figures

#: The real sessions of tests/data/results that ran gap checks
SESSIONS = ('all-quick', 'fio-quick-1', 'fio-quick-2', 'fio-quick-limits',
            'memory-quick')

#: The known answer: of the 36 gaps those sessions computed, the ones whose
#: rounds lie on both sides of 1 with a 75 % interval that holds 1 and is
#: 1.5x wide or more: (the lowest and highest round as the suite recorded
#: them, the interval's ends)
TOO_SPREAD = {
    # fabtests 1.17 fi_msg_bw, bound 715.6, 2590, 853.1 MiB/s against
    # unbound 2881, 2109, 1058: round 2 went the other way
    ('all-quick', 'unbound_over_bound'): ((0.814203, 4.02561),
                                          (0.7411, 3.4363)),
    # mdtest 4.0.0 easy stat, a round-3 collapse of the stride's figure
    ('all-quick', 'easy_stat_none_over_node'): ((0.255794, 1.34817),
                                                (0.3087, 1.5922)),
    # OSU 7.2 osu_bw, one buffer 848.6, 1490, 6281 MiB/s
    ('all-quick', 'multiple_over_single'): ((0.804884, 4.42226),
                                            (0.9852, 5.4371)),
}

#: Gaps of the same sessions whose rounds lie on both sides of 1, with an
#: interval that holds 1 but is less than 1.5x wide: the pitfall did not
#: show, and the rounds agree on it
AGREE_ACROSS_1 = {
    ('all-quick', 'easy_read_none_over_reorder_fsync'): (0.7191, 1.0154),
    ('all-quick', 'hard_stat_none_over_node'): (0.8596, 1.0298),
}


def report(name):
    with open(path(f'results/{name}.json')) as fp:
        return json.load(fp)


def gap_classes():
    return {name: cls for name, cls in project.check_classes().items()
            if issubclass(cls, GapCheck)}


def recorded_figure(case, figure):
    '''The :class:`Samples` of ``figure`` (None: the variant's main one,
    the first it records) of a variant's test case, as its
    ``figure_samples`` record holds them, demoted to a cache figure or
    not.'''
    recorded = figures.parse_samples(case['figure_samples'])
    if figure is None:
        key = next(iter(recorded))
    else:
        key, = (k for k in recorded
                if k.startswith((f'{figure}_median_',
                                 f'{figure}_cache_median_')))
    unit, = (value[4] for name, value in case['perfvalues'].items()
             if name.endswith(f':{key}'))
    return Samples(recorded[key], unit)


def recorded_gaps():
    '''[(session, gap, default Samples, realistic Samples, the gap's
    recorded ratios per round, its recorded figure)] of every gap a real
    session computed.'''
    out = []
    for session in SESSIONS:
        cases = {case['display_name']: case
                 for case in report(session)['runs'][-1]['testcases']}
        for name, cls in gap_classes().items():
            if not cases.get(name, {}).get('perfvalues'):
                continue

            knobs = project.knobs(cls.pitfall)
            recorded = figures.parse_samples(cases[name]['figure_samples'])
            for gap_name, pair in cls.gaps.items():
                inputs = [cases[' '.join(
                    [cls.pitfall.__name__,
                     *(f'%{knob}={value}' for knob, value
                       in zip(knobs, variant.split('.')))])]
                    for variant in pair[:2]]
                figure = pair[2] if len(pair) > 2 else None
                value, = (v[0] for k, v in cases[name]['perfvalues'].items()
                          if k.endswith(f':{gap_name}'))
                out.append((session, gap_name,
                            *(recorded_figure(c, figure) for c in inputs),
                            recorded[gap_name], value))

    return out


RECORDED = recorded_gaps()


def test_every_gap_of_the_sessions_is_read():
    assert len(RECORDED) == 36
    assert {(s, g) for s, g, *_ in RECORDED} >= set(TOO_SPREAD)


@pytest.mark.parametrize('session,name,default,realistic,ratios,value',
                         RECORDED, ids=[f'{s}-{g}' for s, g, *_ in RECORDED])
def test_recorded_gaps_have_their_known_answers(session, name, default,
                                                realistic, ratios, value):
    # The ratios per round and the figure the suite recorded that night,
    # from the variants' samples (six significant digits each)
    assert stats.round_ratios(default, realistic).values == pytest.approx(
        ratios, rel=2e-5)
    assert default.median / realistic.median == pytest.approx(value,
                                                              rel=2e-5)
    found = stats.too_spread(default, realistic)
    if (session, name) in TOO_SPREAD:
        rounds, ends = TOO_SPREAD[session, name]
        assert (min(ratios), max(ratios)) == pytest.approx(rounds)
        assert (found.low, found.high) == pytest.approx(ends, rel=1e-4)
        assert found.paired and found.spread >= stats.TOO_SPREAD
        assert found.gap == pytest.approx(value, rel=2e-5)
    else:
        assert found is None


def test_the_interval_is_students():
    '''The interval of every real gap, against SciPy's t interval of
    the mean of the logarithms of its rounds (the table of t the suite
    carries, and its expansion beyond 30 degrees of freedom).'''
    from scipy import stats as scipy_stats

    for _, _, default, realistic, _, _ in RECORDED:
        logs = np.log(stats.round_ratios(default, realistic).values)
        low, high = scipy_stats.t.interval(
            stats.CONFIDENCE, logs.size - 1, loc=logs.mean(),
            scale=scipy_stats.sem(logs))
        assert stats.gap_interval(default, realistic) == pytest.approx(
            (math.exp(low), math.exp(high)), rel=1e-4)

    for df in range(1, 200):
        assert stats.t_875(df) == pytest.approx(
            scipy_stats.t.ppf(0.875, df), rel=5e-4), df


@pytest.mark.parametrize('key', sorted(AGREE_ACROSS_1))
def test_rounds_that_agree_across_1_are_not_too_spread(key):
    (_, _, default, realistic, _, _), = (
        row for row in RECORDED if row[:2] == key)
    low, high = stats.gap_interval(default, realistic)
    assert (low, high) == pytest.approx(AGREE_ACROSS_1[key], rel=1e-4)
    assert low < 1 < high < low * stats.TOO_SPREAD
    assert stats.too_spread(default, realistic) is None


def test_the_note_and_the_record_of_a_real_gap():
    (_, name, default, realistic, _, _), = (
        row for row in RECORDED
        if row[:2] == ('all-quick', 'unbound_over_bound'))
    found = stats.too_spread(default, realistic)
    assert gap.spread_note(name, found) == (
        'unbound_over_bound: pitfall not shown: gap 2.47, its rounds say '
        '0.741 to 3.44 (75 % confidence), on both sides of 1 and 4.64x '
        'apart, and the samples spread 715.6-2881 MiB/s: too spread to '
        'tell; more rounds (-S samples=N) or a quieter node')
    assert gap.spread_record(name, found) == (
        'unbound_over_bound=gap 2.47, rounds 0.741 to 3.44')
    (_, name, default, realistic, _, _), = (
        row for row in RECORDED
        if row[:2] == ('all-quick', 'easy_stat_none_over_node'))
    # mdtest's rates: whole numbers, no exponent
    assert ('the samples spread 153818-601334 ops/s'
            in gap.spread_note(name, stats.too_spread(default, realistic)))


def test_the_issues_case():
    '''A gap of 1.00 from samples of 237, 457 and 1034 MiB/s: each
    variant had one round of each, in another order.'''
    default = Samples([237, 457, 1034], 'MiB/s')
    realistic = Samples([1034, 457, 237], 'MiB/s')
    found = stats.too_spread(default, realistic)
    assert found.gap == 1.0
    assert gap.spread_note('buffered_over_direct', found) == (
        'buffered_over_direct: pitfall not shown: gap 1.00, its rounds say '
        '0.256 to 3.91 (75 % confidence), on both sides of 1 and 15.3x '
        'apart, and the samples spread 237-1034 MiB/s: too spread to tell; '
        'more rounds (-S samples=N) or a quieter node')


# The rule's edges

def test_every_round_on_one_side_of_1_is_a_gap_shown_however_spread():
    '''Rounds of 2, 2 and 1000: their interval holds 1 (0.57 to 241),
    but each round showed the pitfall.'''
    default = Samples([2, 2, 1000], 'MiB/s')
    realistic = Samples([1, 1, 1], 'MiB/s')
    low, _ = stats.gap_interval(default, realistic)
    assert low < 1
    assert stats.too_spread(default, realistic) is None
    assert stats.too_spread(realistic, default) is None


def test_a_round_at_1_is_on_both_sides():
    '''Rounds of exactly 1, 1.2 and 8: the lowest is not above 1, so the
    rounds lie on both sides of it (and their interval, 0.732 to 6.17,
    holds it).'''
    found = stats.too_spread(Samples([1, 1.2, 8], 'x'), Samples([1, 1, 1],
                                                                'x'))
    assert (found.low, found.high) == pytest.approx((0.732, 6.17), rel=1e-3)


def test_the_limit_is_the_least_spread_called_too_spread():
    default = Samples([0.5, 1.0, 1.6], 'MiB/s')
    realistic = Samples([1, 1, 1], 'MiB/s')
    spread = stats.too_spread(default, realistic).spread
    assert stats.too_spread(default, realistic, limit=spread) is not None
    assert stats.too_spread(default, realistic,
                            limit=np.nextafter(spread, 2 * spread)) is None


def test_more_rounds_that_say_the_same_narrow_the_interval():
    '''The fabtests gap of all-quick with every round run twice, and
    three times: the same gap, an interval narrower each time; tripled,
    it no longer holds 1 (3.44 to 0.741 was its width at 3 rounds).'''
    (_, _, default, realistic, _, _), = (
        row for row in RECORDED
        if row[:2] == ('all-quick', 'unbound_over_bound'))
    widths = []
    for times in (1, 2, 3):
        twice = [Samples(np.tile(s.values, times), s.unit)
                 for s in (default, realistic)]
        low, high = stats.gap_interval(*twice)
        widths.append(high / low)
        if times == 3:
            assert low > 1 and stats.too_spread(*twice) is None
    assert widths == sorted(widths, reverse=True)


def test_a_single_round_has_no_spread():
    one = Samples([500], 'MiB/s')
    assert stats.too_spread(one, one) is None
    assert stats.gap_interval(one, one) == (1.0, 1.0)


def test_rounds_that_cannot_be_paired_give_the_widest_interval():
    default = Samples([100, 200, 300], 'MiB/s')
    realistic = Samples([150, 250], 'MiB/s')
    assert stats.round_ratios(default, realistic) is None
    assert stats.gap_interval(default, realistic) == (100 / 250, 300 / 150)
    found = stats.too_spread(default, realistic)
    assert not found.paired and found.spread == pytest.approx(5.0)
    assert 'its samples allow 0.4 to 2, ' in gap.spread_note('g', found)
    assert gap.spread_record('g', found) == 'g=gap 1, samples allow 0.4 to 2'


def test_a_realistic_round_of_zero_has_no_ratio():
    default = Samples([100, 200, 300], 'MiB/s')
    realistic = Samples([0, 200, 300], 'MiB/s')
    assert stats.round_ratios(default, realistic) is None
    found = stats.too_spread(default, realistic)
    assert math.isinf(found.high) and math.isinf(found.spread)
    # A realistic median of zero: no gap at all (the gap check fails it)
    assert stats.too_spread(default, Samples([0, 0, 300], 'MiB/s')) is None


def test_a_default_round_of_zero_is_too_spread():
    found = stats.too_spread(Samples([0, 200, 300], 'MiB/s'),
                             Samples([100, 200, 300], 'MiB/s'))
    assert found.low == 0 and math.isinf(found.spread)


# Properties on generated samples

VALUE = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False,
                  allow_infinity=False)


@st.composite
def pairs(draw, paired=True):
    '''Two variants' samples of one figure: as many rounds each (or, if
    not ``paired``, any counts).'''
    count = draw(st.integers(min_value=1, max_value=9))
    other = count if paired else draw(st.integers(min_value=1,
                                                  max_value=9))
    return (Samples(draw(st.lists(VALUE, min_size=count, max_size=count)),
                    'MiB/s'),
            Samples(draw(st.lists(VALUE, min_size=other, max_size=other)),
                    'MiB/s'))


@settings(max_examples=300, deadline=None)
@given(pairs(paired=False))
def test_what_is_called_too_spread(pair):
    default, realistic = pair
    found = stats.too_spread(default, realistic)
    low, high = stats.gap_interval(default, realistic)
    ratios = stats.round_ratios(default, realistic)
    both_sides = ratios is None or ratios.min <= 1 <= ratios.max
    said = (both_sides and low <= 1 <= high
            and high >= stats.TOO_SPREAD * low)
    assert (found is not None) == said
    if found is None:
        return

    assert found.low <= 1 <= found.high
    assert found.spread >= stats.TOO_SPREAD
    assert found.spread == pytest.approx(found.high / found.low)
    assert found.gap == default.median / realistic.median
    assert found.least == min(default.min, realistic.min)
    assert found.most == max(default.max, realistic.max)
    assert found.paired == (default.values.size == realistic.values.size)
    assert found.unit == 'MiB/s'
    assert 'too spread to tell' in gap.spread_note('g', found)


@settings(max_examples=200, deadline=None)
@given(pairs(), st.integers(min_value=-20, max_value=20))
def test_the_unit_does_not_matter(pair, power):
    '''Both variants times the same factor (a power of two: exact in
    floating point): the same answer.'''
    default, realistic = pair
    factor = 2.0 ** power
    scaled = stats.too_spread(default.scaled(factor),
                              realistic.scaled(factor))
    found = stats.too_spread(default, realistic)
    assert (scaled is None) == (found is None)
    if found is not None:
        assert (scaled.low, scaled.high) == (found.low, found.high)


@settings(max_examples=200, deadline=None)
@given(pairs())
def test_the_inverse_gap_is_as_spread(pair):
    '''realistic over default: the interval inverted, the same answer
    (away from the edges, where a last bit of rounding decides).'''
    default, realistic = pair
    ratios = stats.round_ratios(default, realistic).values
    low, high = stats.gap_interval(default, realistic)
    assume(np.all(np.abs(ratios - 1) > 1e-9))
    assume(abs(low - 1) > 1e-9 and abs(high - 1) > 1e-9)
    assume(abs(high / low - stats.TOO_SPREAD) > 1e-9)
    found = stats.too_spread(default, realistic)
    inverse = stats.too_spread(realistic, default)
    assert (found is None) == (inverse is None)
    if found is not None:
        assert inverse.low == pytest.approx(1 / found.high)
        assert inverse.spread == pytest.approx(found.spread)


@settings(max_examples=200, deadline=None)
@given(st.lists(VALUE, min_size=1, max_size=9),
       st.integers(min_value=-10, max_value=10))
def test_rounds_that_agree_exactly_are_never_too_spread(values, power):
    '''Every round the same ratio, whatever it is and however the
    samples spread: the gap is what it is, told.'''
    realistic = Samples(values, 'MiB/s')
    default = realistic.scaled(2.0 ** power)
    assert stats.too_spread(default, realistic) is None
    assert stats.too_spread(realistic, realistic) is None


@settings(max_examples=200, deadline=None)
@given(pairs(), st.floats(min_value=1.0, max_value=10.0))
def test_a_lower_limit_calls_more_gaps_too_spread(pair, limit):
    default, realistic = pair
    if stats.too_spread(default, realistic, limit=limit) is not None:
        assert stats.too_spread(default, realistic, limit=1.0) is not None
