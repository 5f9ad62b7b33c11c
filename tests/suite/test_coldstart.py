'''The cold-start witness's rule (microbench/suite/coldstart.py): round 1
against the range of the other rounds, on made series with known answers
and on the real samples of stored sessions (tests/data/results).'''

import json

import pytest

from microbench.suite import coldstart
from microbench.suite.stats import Samples
from microbench.verdicts import figures

from fixtures import path


@pytest.mark.parametrize('values, unit, said', [
    # a rate: round 1 below the others is slower, above is faster
    ((1100, 2000, 3500), 'MiB/s', 'round 1 x2.4 slower'),
    ((1000, 2000, 2100, 1950, 2050), 'MiB/s', 'round 1 x2.0 slower'),
    ((5000, 2000, 2100), 'IOPS', 'round 1 x2.4 faster'),
    ((300, 100, 110, 105), 'ops/s', 'round 1 x2.9 faster'),
    # a time: round 1 above the others is slower
    ((24.0, 10.0, 10.5), 'us', 'round 1 x2.3 slower'),
    ((4.0, 10.0, 10.5), 'us', 'round 1 x2.6 faster'),
    # no speed (a gap's ratio, a share): higher or lower
    ((3.0, 1.2, 1.25), 'x', 'round 1 x2.4 higher'),
    ((10.0, 40.0, 41.0), '%', 'round 1 x4.0 lower'),
    # the others equal: any round 1 beyond the margin is outside them
    ((1.0, 2.0, 2.0), 'MiB/s', 'round 1 x2.0 slower'),
])
def test_a_round_1_outside_the_others_is_flagged(values, unit, said):
    assert coldstart.judge(values, unit) == said


@pytest.mark.parametrize('values', [
    (2000, 2000, 2000),               # all equal
    (2000, 2100, 1900),               # inside the others' range
    (1800, 2000, 2100),               # beyond by less than the margin
    (1000, 2000, 4000),               # beyond by less than the range
    (2000, 4000, 2100),               # the outlier is round 2
    (1000, 2000),                     # two samples: not judged
    (1000,),
    (0.0, 2000, 2100),                # no log of zero: not judged
    (-1.0, 2.0, 2.0),
])
def test_a_round_1_with_the_others_or_not_judged_is_not(values):
    assert coldstart.judge(values, 'MiB/s') == ''


def test_the_margin_and_the_range_are_both_needed():
    # Beyond the range by far more than the range but by less than 25 %
    assert coldstart.judge((1000, 1200, 1201), 'MiB/s') == ''
    # Beyond 25 % but not beyond the range of the others
    assert coldstart.judge((1000, 1600, 2800), 'MiB/s') == ''
    assert coldstart.judge((1000, 1600, 1700), 'MiB/s') == \
        'round 1 x1.6 slower'


def test_a_rate_and_its_time_say_the_same():
    rates = (1000, 2000, 2100, 1950)
    times = tuple(1e6 / value for value in rates)
    assert coldstart.judge(rates, 'MiB/s') == coldstart.judge(times, 'us') \
        == 'round 1 x2.0 slower'


def test_flags_record_and_note():
    found = coldstart.flags({
        'write_median_mib_s': Samples((1100, 2000, 3500), 'MiB/s'),
        'read_median_mib_s': Samples((2000, 2100, 1900), 'MiB/s'),
        'latency_median_us': Samples((24.0, 10.0, 10.5), 'us'),
    })
    assert found == [('write_median_mib_s', 'round 1 x2.4 slower'),
                     ('latency_median_us', 'round 1 x2.3 slower')]
    text = coldstart.record(found)
    assert text == ('write_median_mib_s=round 1 x2.4 slower;'
                    'latency_median_us=round 1 x2.3 slower')
    # the verdicts read the record back, and a record of the older
    # spelling (``<figure>: <words>``) alike
    assert figures.cold_starts(text) == dict(found)
    assert figures.cold_starts(text.replace('=', ': ')) == dict(found)
    assert coldstart.note(found) == (
        'cold start: write_median_mib_s round 1 x2.4 slower, '
        'latency_median_us round 1 x2.3 slower')
    assert coldstart.record([]) == coldstart.note([]) == ''
    assert figures.cold_starts('') == {}


def _stored(name):
    with open(path(f'results/{name}.json')) as fp:
        rows = figures.with_samples(figures.frame([json.load(fp)]))
    return {(row.check, row.variant, row.figure): (row.samples, row.unit)
            for row in rows.itertuples()}


@pytest.mark.parametrize('source, key, said', [
    # IOR's easy write on the development VM: round 1 720 MiB/s against
    # 1067 and 1209
    ('all-quick', ('ior_page_cache', 'easy.none', 'write_median_mib_s'),
     'round 1 x1.6 slower'),
    ('all-quick', ('osu_buffer_reuse', 'osu_bw.multiple',
                   'bandwidth_median_mib_s'), 'round 1 x1.4 slower'),
    ('fio-quick-1', ('fio_cache_flags', 'direct', 'write_median_mib_s'),
     'round 1 x1.4 slower'),
    # 466, 1825, 566 MiB/s: the odd round is round 2, not round 1
    ('all-quick', ('fio_cache_flags', 'buffered', 'write_median_mib_s'),
     ''),
    ('all-quick', ('osu_buffer_reuse', 'osu_latency.single',
                   'latency_median_us'), ''),
])
def test_real_stored_samples(source, key, said):
    samples, unit = _stored(source)[key]
    assert coldstart.judge(samples, unit) == said
