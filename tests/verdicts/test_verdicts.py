'''The statistics of the verdicts, on samples with known answers; the
comparison of two real sessions; writing references.'''

import json
import os

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import example, given, settings, strategies as st

from microbench.verdicts import baseline, figures, prepost, rule
from microbench import fields, references

import fixtures

DATA = fixtures.path('results')


def draw(rng, n, median, sigma=0.05):
    '''``n`` values around ``median``, log-normal noise of ``sigma``.'''
    return median * np.exp(rng.normal(0, sigma, n))


def test_pre_post_sessions_a_side_call_a_known_slowdown():
    # 5 sessions a side, sessions differing by 5 %, 100 figures compared:
    # a 25 % slowdown is called in 9 of 10 comparisons (the recipe of
    # docs/operators/nightly.md, "After an upgrade")
    rng = np.random.default_rng(1)
    called = [prepost.judge(draw(rng, 5, 100), draw(rng, 5, 75), 1,
                            0.05 / 100)['verdict'] for _ in range(200)]
    assert called.count('regression') >= 180, called


def test_pre_post_unchanged_sessions_keep_the_level():
    rng = np.random.default_rng(2)
    draws = [prepost.judge(draw(rng, 5, 100), draw(rng, 5, 100), 1, 0.01)
             for _ in range(1000)]
    significant = sum(d['p'] < 0.01 for d in draws)
    assert significant <= 25, significant           # Welch holds 1 %
    assert sum(d['verdict'] == 'regression' for d in draws) <= 5


def test_pre_post_one_session_a_side_is_inconclusive_with_the_spread():
    out = prepost.judge([100.0], [10.0], 1, 0.01, spread=0.07)
    assert out['verdict'] == 'inconclusive'
    assert "a session's own offset cannot be told from a change" in \
        out['why']
    assert 'differ by 7.0% (standard deviation)' in out['why']
    assert out['ratio'] == pytest.approx(0.1)
    out = prepost.judge([100.0], [10.0], 1, 0.01)
    assert 'too few stored sessions' in out['why']


def test_pre_post_one_session_against_several():
    rng = np.random.default_rng(3)
    before = draw(rng, 8, 100, 0.01)
    assert prepost.judge(before, [60.0], 1, 0.01)['verdict'] == 'regression'
    assert prepost.judge([60.0], before, 1, 0.01)['verdict'] == \
        'improvement'
    assert prepost.judge(before, [100.0], 1, 0.01)['verdict'] == \
        'unchanged'


def test_pre_post_directions():
    rng = np.random.default_rng(4)
    before, slower = draw(rng, 5, 10, 0.02), draw(rng, 5, 14, 0.02)
    assert prepost.judge(before, slower, -1, 0.01)['verdict'] == \
        'regression'                                    # a latency
    assert prepost.judge(before, slower, 1, 0.01)['verdict'] == \
        'improvement'
    assert prepost.judge(before, slower, 0, 0.01)['verdict'] == 'changed'


def test_pre_post_a_significant_change_inside_the_floor_is_no_change():
    rng = np.random.default_rng(5)
    out = prepost.judge(draw(rng, 5, 100, 0.005), draw(rng, 5, 104, 0.005),
                        1, 0.01)
    assert out['p'] < 0.01 and out['verdict'] == 'unchanged'


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.01, 1e6), min_size=1, max_size=30),
       st.floats(0, 0.5), st.floats(1, 3))
# Found by hypothesis: 1 * (1 - 0.99) is a hair above 0.01
@example(values=[1.0, 1.0, 0.01], floor=0.0, margin=1.0)
def test_every_baseline_session_passes_its_own_band(values, floor, margin):
    ref, lower, upper = rule.band(values, floor, margin)
    assert lower <= -floor + 1e-9 and upper >= floor - 1e-9
    for value in values:
        assert rule.passes(value, ref, lower, upper)


def test_a_band_keeps_cache_figures_one_sided_and_gaps_directed():
    assert rule.band([500, 600, 550], one_sided=True)[2] is None
    ref, lower, _ = rule.band([1.05, 1.06, 1.04], above=True)
    assert ref * (1 + lower) >= 1
    with pytest.raises(ValueError, match='contradicts'):
        rule.band([0.9, 0.95], above=True)
    with pytest.raises(ValueError, match='positive finite'):
        rule.band([100, float('nan')])


def sessions():
    out = []
    for name in ('fio-quick-1.json', 'fio-quick-2.json'):
        with open(os.path.join(DATA, name)) as fp:
            out.append(json.load(fp))

    return out


def test_two_real_sessions_compare_figure_by_figure():
    one, two = (figures.frame([s]) for s in sessions())
    table, level = prepost.compare(one, two)
    # every median figure (4 + 2 + 2 variants) and every gap (3 + 1 + 1)
    assert len(table) == 13 and level == pytest.approx(0.05 / 13)
    assert set(table['verdict']) == {'inconclusive'}     # 1 session a side
    assert (table['sessions_before'] == 1).all()
    assert not fields.differences(one, two)


def test_a_baseline_of_two_real_sessions():
    both = pd.concat([figures.frame([s]) for s in sessions()])
    found = baseline.entries(both, rule.FLOOR, rule.MARGIN)
    direct, values = found['fio_cache_flags', 'direct', 'write_median_mib_s']
    assert direct[3] == 'MiB/s' and direct[1] <= -rule.FLOOR
    assert len(values) == 2                       # one value per session
    buffered, _ = found['fio_cache_flags', 'buffered', 'write_median_mib_s']
    assert buffered[2] is None                    # a page cache figure
    assert rule.gap_direction(1.0, 0, None, 'x') is True
    assert rule.gap_direction(1.0, None, 0, 'x') is False


def test_what_differs_between_sides_is_listed():
    one, two = (figures.frame([s]) for s in sessions())
    two = two.assign(kernel='6.1.0-28-amd64', tool_version='fio-3.38')
    diffs = fields.differences(one, two)
    assert diffs['kernel'] == (['6.18.44-fc-v782'], ['6.1.0-28-amd64'])
    assert diffs['tool_version'] == (['fio-3.33'], ['fio-3.38'])


def test_samples_records_parse():
    assert figures.parse_samples('a=1,2.5;b_over_c=3') == {
        'a': (1.0, 2.5), 'b_over_c': (3.0,)}
    assert figures.parse_samples('') == {}


FIO = os.path.join(references.COMMITTED, 'fio.yaml')


def test_set_entry_replaces_only_the_entry():
    with open(FIO) as fp:
        text = fp.read()

    path = ['fio_cache_flags', 'slurm_cluster:nvme', 'direct',
            'write_median_mib_s']
    new = references.set_entry(text, path, [1234.5, -0.15, 0.2, 'MiB/s'])
    changed = [(a, b) for a, b in zip(text.splitlines(), new.splitlines())
               if a != b]
    assert len(text.splitlines()) == len(new.splitlines())
    assert changed == [(
        '    direct:   {write_median_mib_s: [1800, -0.2, 0.3, MiB/s]}',
        '    direct:   {write_median_mib_s: [1234.5, -0.15, 0.2, MiB/s]}')]
    old, now = yaml.safe_load(text), yaml.safe_load(new)
    old['fio_cache_flags']['slurm_cluster:nvme']['direct'] = {
        'write_median_mib_s': [1234.5, -0.15, 0.2, 'MiB/s']}
    assert now == old


def test_set_entry_adds_missing_levels():
    text = '# mine\n'
    for path, entry, tail in [
        (['fio_cache_flags', 'local:default', 'direct', 'write_median_mib_s'],
         [200.0, -0.1, 0.1, 'MiB/s'], 2),
        (['fio_cache_flags', 'local:default', 'direct', 'write_max_mib_s'],
         [250.0, -0.1, None, 'MiB/s'], 2),
        (['fio_cache_flags', 'local:default', 'sync', 'write_median_mib_s'],
         [90.0, -0.1, 0.1, 'MiB/s'], 2),
        (['fio_cache_flags_gap', 'local:default', 'direct_over_both'],
         [1.9, -0.1, 0.1, 'x'], 1),
        (['fio_cache_flags_gap', 'local:default', 'both_over_sync'],
         [1.1, -0.1, 0.1, '%'], 1),
    ]:
        text = references.set_entry(text, path, entry, tail)

    assert text.startswith('# mine\n')
    assert yaml.safe_load(text) == {
        'fio_cache_flags': {'local:default': {
            'direct': {'write_median_mib_s': [200.0, -0.1, 0.1, 'MiB/s'],
                       'write_max_mib_s': [250.0, -0.1, None, 'MiB/s']},
            'sync': {'write_median_mib_s': [90.0, -0.1, 0.1, 'MiB/s']}}},
        'fio_cache_flags_gap': {'local:default': {
            'direct_over_both': [1.9, -0.1, 0.1, 'x'],
            'both_over_sync': [1.1, -0.1, 0.1, '%']}},
    }


def test_which_partitions_are_facility_ones():
    assert references.facility('slurm_cluster:nvme')
    assert not references.facility('local:default')
    assert not references.facility('slurm_testbed:node_local')
    assert references.file_of('fio_cache_flags_gap') == FIO


def test_user_references_are_laid_over_the_committed(tmp_path, monkeypatch):
    user = tmp_path / 'refs.yaml'
    monkeypatch.setenv('MICROBENCH_REFERENCES', str(user))
    assert references.merged() is None
    user.write_text(references.set_entry(
        '', ['fio_cache_flags_gap', 'local:default', 'direct_over_both'],
        [1.9, -0.1, 0.1, 'x'], 1))
    prefix = references.merged()
    merged = references.load(os.path.join(prefix, 'references', 'fio.yaml'))
    assert merged['fio_cache_flags_gap']['local:default'] == {
        'buffered_over_direct': [1.0, 0, None, 'x'],      # committed
        'direct_over_both': [1.9, -0.1, 0.1, 'x'],        # the user's
    }
    assert merged['fio_cache_flags']['$index'] == ['$partition', 'mode']


def test_loading_the_configuration_again_writes_nothing(tmp_path,
                                                        monkeypatch):
    user = tmp_path / 'refs.yaml'
    monkeypatch.setenv('MICROBENCH_REFERENCES', str(user))
    user.write_text(references.set_entry(
        '', ['fio_cache_flags_gap', 'local:default', 'direct_over_both'],
        [1.9, -0.1, 0.1, 'x'], 1))
    prefix = references.merged()
    written = {p: os.stat(p).st_mtime_ns for p in
               (tmp_path / 'refs.merged' / 'references').iterdir()}
    assert prefix == str(tmp_path / 'refs.merged') and written
    os.utime(user)
    assert references.merged() == prefix
    assert written == {p: os.stat(p).st_mtime_ns for p in written}
    user.write_text(references.set_entry(
        user.read_text(), ['fio_cache_flags_gap', 'local:default',
                           'direct_over_both'], [2.5, -0.1, 0.1, 'x'], 1))
    references.merged()
    fio = tmp_path / 'refs.merged' / 'references' / 'fio.yaml'
    assert os.stat(fio).st_mtime_ns != written[fio]
