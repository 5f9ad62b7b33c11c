'''The cold-start witness (microbench.suite.coldstart.judge) against every
series of samples: made by Hypothesis over a float's whole range (zero,
negatives, subnormals, 1e-300 beside 1e300, NaN and infinities), and the
real samples of stored sessions (tests/data/results) with one sample
replaced by each of those.  The cases the issue found: rounds a float's
range apart crashed (the ratio overflowed), an infinite round 1 was
``x inf faster``.

Each series is judged (``round 1 x<ratio> <way>``, a ratio any float or
power of ten says, read back by the verdicts) or not judged (''); never an
exception.'''

import json
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from microbench.suite import coldstart
from microbench.units import FASTER
from microbench.verdicts import figures

from fixtures import path
from witness_tally import COUNTS, PROPERTIES, dump

READER = 'cold start: rounds (judge)'

#: What a flag may say
SAID = re.compile(r'round 1 x\d+\.\d(e\+\d{2,})? (slower|faster|lower|higher)')

UNITS = st.sampled_from(sorted(FASTER) + ['x', '%'])


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


def judged(values, unit):
    '''judge(values, unit), held to what it may say; counted.'''
    said = coldstart.judge(values, unit)
    if said:
        assert SAID.fullmatch(said), said
        assert figures.cold_starts(coldstart.record([('f', said)])) == \
            {'f': said}
        COUNTS[READER, 'read right'] += 1
        return said

    COUNTS[READER, 'rejected'] += 1
    return said


def judgeable(values):
    return len(values) >= coldstart.FEWEST and all(
        math.isfinite(v) and v > 0 for v in values)


ANY = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)
POSITIVE = st.floats(min_value=5e-324, max_value=1.7e308)


@PROPERTIES
@given(st.lists(ANY, max_size=9), UNITS)
def test_any_series_is_judged_or_not_never_a_crash(values, unit):
    said = judged(values, unit)
    if not judgeable(values):
        assert said == ''


@PROPERTIES
@given(st.lists(POSITIVE, min_size=3, max_size=9), UNITS)
def test_a_flag_says_a_round_1_outside_the_others(values, unit):
    said = judged(values, unit)
    if said:
        logs = [math.log(v) for v in values]
        others = logs[1:]
        beyond = max(min(others) - logs[0], logs[0] - max(others))
        assert beyond > max(others) - min(others)
        assert beyond > math.log1p(coldstart.MARGIN)


@PROPERTIES
@given(st.lists(st.floats(1e-100, 1e100), min_size=3, max_size=9))
def test_a_rate_and_its_time_say_the_same(rates):
    times = [1 / rate for rate in rates]
    assert judged(rates, 'MiB/s') == judged(times, 'us')


@pytest.mark.parametrize('values, said', [
    ((1e-300, 1e300, 1e300), 'round 1 x1.0e+600 slower'),
    ((1e300, 1e-300, 1e-300), 'round 1 x1.0e+600 faster'),
    ((5e-324, 1.0, 1.0), 'round 1 x2.0e+323 slower'),
    ((1.0, 1e5, 1e5), 'round 1 x1.0e+05 slower'),
    ((1.0, 2.0, 2.0), 'round 1 x2.0 slower'),
    ((math.inf, 1.0, 1.0), ''), ((-math.inf, 1.0, 1.0), ''),
    ((math.nan, 1.0, 1.0), ''), ((1.0, math.inf, 1.0), ''),
    ((0.0, 1.0, 1.0), ''), ((-1.0, 1.0, 1.0), ''),
    ((1e-300, 1e300, 1e-300), ''),
])
def test_the_edges_the_issue_found(values, said):
    assert judged(values, 'MiB/s') == said


def _real_series():
    '''(name, samples, unit) of every figure of the stored sessions.'''
    found = []
    for source in ('all-quick', 'fio-quick-1', 'fio-quick-2'):
        with open(path(f'results/{source}.json')) as fp:
            rows = figures.with_samples(figures.frame([json.load(fp)]))
        for row in rows.itertuples():
            found.append((f'{source} {row.check} {row.variant} {row.figure}',
                          tuple(row.samples), row.unit))
    return found


REAL = _real_series()

#: What may replace one real sample
REPLACEMENTS = (math.nan, math.inf, -math.inf, 0.0, -1.0, 5e-324, 1e-300,
                1e300, 1.7976931348623157e308)


def test_real_samples_with_one_replaced_are_judged_or_not():
    assert len(REAL) == 99
    for name, samples, unit in REAL:
        judged(samples, unit)
        for at in range(len(samples)):
            for value in REPLACEMENTS:
                changed = [*samples[:at], value, *samples[at + 1:]]
                said = judged(changed, unit)
                if not judgeable(changed):
                    assert said == '', (name, changed)
