'''The statistics of the verdicts, on samples with known answers; the
comparison of two real sessions; writing references.'''

import json
import os

import numpy as np
import pytest
import yaml
from hypothesis import example, given, settings, strategies as st

from microbench.verdicts import compare, figures, rule
from microbench import references

DATA = os.path.join(os.path.dirname(__file__), 'data', 'results')


def draw(rng, n, median, sigma=0.05):
    '''``n`` samples around ``median``, log-normal noise of ``sigma``.'''
    return median * np.exp(rng.normal(0, sigma, n))


def test_a_known_slowdown_is_called_a_regression():
    # A nightly design: one night's 3 samples against 7 nights' 21
    rng = np.random.default_rng(1)
    called = [rule.judge(draw(rng, 21, 100), draw(rng, 3, 75), -0.1, 0.1,
                             better=1)['verdict'] for _ in range(200)]
    assert called.count('regression') >= 190, called


def test_identical_distributions_are_not_called_at_the_stated_rate():
    rng = np.random.default_rng(2)
    draws = [rule.judge(draw(rng, 21, 100), draw(rng, 3, 100), -0.1,
                            0.1, better=1) for _ in range(1000)]
    significant = sum(d['p'] < rule.ALPHA for d in draws)
    called = sum(d['verdict'] in ('regression', 'improvement')
                 for d in draws)
    # The rank test holds its level (0.01; 1000 draws: at most ~2.5 %)...
    assert significant <= 25, significant
    # ...and a change must also leave the band: none here
    assert called <= significant
    assert called <= 10


def test_too_few_samples_are_inconclusive_whatever_the_shift():
    assert rule.smallest_p(3, 3) == pytest.approx(0.1)
    out = rule.judge([100, 101, 99], [10, 11, 9], -0.1, 0.1, better=1)
    assert out['verdict'] == 'inconclusive'
    assert 'too few samples (3 vs 3)' in out['why']
    assert out['ratio'] == pytest.approx(0.1)


def test_directions():
    rng = np.random.default_rng(3)
    before, slower = draw(rng, 21, 10, 0.02), draw(rng, 5, 14, 0.02)
    assert rule.judge(before, slower, -0.1, 0.1,
                          better=-1)['verdict'] == 'regression'   # latency
    assert rule.judge(before, slower, -0.1, 0.1,
                          better=1)['verdict'] == 'improvement'
    assert rule.judge(before, slower, -0.1, 0.1,
                          better=0)['verdict'] == 'changed'       # a gap


def test_a_significant_change_inside_the_band_is_unchanged():
    rng = np.random.default_rng(4)
    out = rule.judge(draw(rng, 21, 100, 0.005), draw(rng, 5, 104, 0.005),
                         -0.1, 0.1, better=1)
    assert out['p'] < rule.ALPHA
    assert out['verdict'] == 'unchanged'
    assert 'inside the band' in out['why']


def test_a_wide_interval_reaching_outside_the_band_is_inconclusive():
    rng = np.random.default_rng(5)
    out = rule.judge(draw(rng, 21, 100, 0.3), draw(rng, 3, 100, 0.3),
                         -0.1, 0.1, better=1)
    assert out['verdict'] == 'inconclusive'
    assert out['ci_low'] < 0.9 or out['ci_high'] > 1.1


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
    table = compare.compare(one, two)
    # every median figure (4 + 2 + 2 variants) and every gap (3 + 1 + 1)
    assert len(table) == 13
    assert set(table['verdict']) == {'inconclusive'}     # 3 samples a side
    assert (table['n_before'] == 3).all() and (table['n_after'] == 3).all()
    assert not compare.differences(one, two)
    text = compare.text(table, {}, ('one', 'two'))
    assert '13 inconclusive' in text


def test_what_differs_between_sides_is_listed():
    one, two = (figures.frame([s]) for s in sessions())
    two = two.assign(kernel='6.1.0-28-amd64', tool_version='fio-3.38')
    diffs = compare.differences(one, two)
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
