'''``baseline`` refuses a band its sessions cannot give, with known answers:
sessions that spread more than a factor of ``rule.MAX_SPREAD`` (1.5)
share no level, and a band whose lower edge reaches zero never fails from
below; each refused figure is one line saying why, and written nowhere.
On two real sessions (tests/data/results/fio-quick-1.json and -2.json) with one
figure of one of them made three times larger: that figure alone is
refused.
'''

import copy
import json
import os
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from microbench.verdicts import baseline, figures, rule, storage

import fixtures
from nights import MICROBENCH

DATA = fixtures.path('results')


@pytest.mark.parametrize('values, ref, lower, upper', [
    # a session at two thirds of the others: the widest band kept
    ([100, 100, 100, 67], 100, -0.495, 0.1),
    ([100, 150, 120], 120, -0.25, 0.375),
    ([100, 101, 99], 100, -0.1, 0.1),
])
def test_a_band_within_the_spread_is_made(values, ref, lower, upper):
    assert rule.band(values) == (ref, lower, upper)
    assert rule.refusal(values, lower, upper) is None


@pytest.mark.parametrize('values, said', [
    ([100, 151], 'its sessions spread x1.51 (from 100 to 151), more than '
                 'x1.5 (--max-spread): they share no level, and a band of '
                 'them would reach -30.5% to +30.5%'),
    # the issue's +1500 %: one session sixteen times another
    ([1, 16, 8], 'its sessions spread x16.00 (from 1 to 16)'),
    # a ratio whose band would reach below zero
    ([1.2, 1.1, 0.3], 'its sessions spread x4.00'),
])
def test_sessions_spread_beyond_the_factor_are_refused(values, said):
    ref, lower, upper = rule.band(values)
    assert said in rule.refusal(values, lower, upper)


def test_a_band_reaching_below_zero_is_refused_not_clamped():
    values = [100, 110, 90]
    ref, lower, upper = rule.band(values, margin=12)
    assert lower == -1.2
    assert rule.refusal(values, lower, upper) == (
        'its band would reach -120.0%, below zero (--margin x the farthest '
        'session, or --floor): no value is below zero, so it would never '
        'fail from below')
    assert rule.refusal(values, *rule.band(values, floor=1.0)[1:]) \
        is not None
    # --max-spread says how far sessions may spread
    assert rule.refusal([1, 16, 8], *rule.band([1, 16, 8])[1:],
                        max_spread=20) is not None      # still below zero
    assert rule.refusal([1, 1.9], *rule.band([1, 1.9])[1:],
                        max_spread=2) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(1e-3, 1e6), min_size=1, max_size=30),
       st.floats(0, 1.5), st.floats(1, 12), st.floats(1, 20))
def test_every_band_kept_fails_from_below_and_holds_its_sessions(
        values, floor, margin, max_spread):
    ref, lower, upper = rule.band(values, floor, margin)
    why = rule.refusal(values, lower, upper, max_spread)
    spread = max(values) / min(values)
    if why is None:
        assert spread <= max_spread and ref * (1 + lower) > 0
        for value in values:
            assert rule.passes(value, ref, lower, upper)
    else:
        assert spread > max_spread or lower <= -1
        assert '\n' not in why


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(1e-3, 1e6), min_size=1, max_size=30))
def test_at_the_defaults_a_band_kept_is_within_minus_50_and_plus_75(values):
    ref, lower, upper = rule.band(values)
    if rule.refusal(values, lower, upper) is None:
        assert lower >= -0.5 - 0.002 and upper <= 0.75 + 0.002


def sessions():
    out = []
    for name in ('fio-quick-1.json', 'fio-quick-2.json'):
        with open(os.path.join(DATA, name)) as fp:
            out.append(json.load(fp))
    return out


#: The figure made three times larger in the second session
SPREAD = ('fio_cache_flags', 'direct', 'write_median_mib_s')


def spread_out(report):
    '''``report`` with the O_DIRECT write's samples three times larger.'''
    out = copy.deepcopy(report)
    for case in out['runs'][-1]['testcases']:
        if (case['display_name'].split()[0], case.get('variant')) == \
                SPREAD[:2]:
            samples = figures.parse_samples(case['figure_samples'])
            case['figure_samples'] = ';'.join(
                f'{name}=' + ','.join(repr(3 * v) for v in values)
                for name, values in samples.items())
            for value in case['perfvalues'].values():
                value[0] *= 3
    return out


def test_a_real_figure_spread_out_is_refused_the_others_kept(capsys):
    one, two = sessions()
    frame = pd.concat([figures.frame([one]), figures.frame([spread_out(two)])])
    refused = []
    found = baseline.entries(frame, rule.FLOOR, rule.MARGIN,
                             refused=refused)
    assert refused == [SPREAD] and SPREAD not in found
    plain = baseline.entries(pd.concat([figures.frame([s])
                                        for s in sessions()]),
                             rule.FLOOR, rule.MARGIN)
    assert set(plain) - set(found) == {SPREAD}
    line, = [line for line in capsys.readouterr().err.splitlines()
             if line.startswith('refused: ')]
    assert line.startswith('refused: fio_cache_flags direct '
                           'write_median_mib_s: its sessions spread x3.')
    assert line.endswith('; no entry written, its reference stays as it '
                         'was')
    for entry, values in found.values():
        ref, lower = entry[:2]
        assert ref * (1 + lower) > 0
        assert np.max(values) / np.min(values) <= rule.MAX_SPREAD


def test_baseline_says_each_refused_figure_and_writes_no_entry(tmp_path):
    db = tmp_path / 'results.db'
    one, two = sessions()
    storage.store(str(db), one)
    storage.store(str(db), spread_out(two))
    user = tmp_path / 'references.yaml'
    proc = subprocess.run(
        [MICROBENCH, '--db', str(db), 'baseline', figures.ALL,
         '--partition', 'local:default', '--user', '--write'],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, 'MICROBENCH_REFERENCES': str(user)})
    assert proc.returncode == 0, proc.stderr
    assert 'Traceback' not in proc.stderr
    refused = [line for line in proc.stderr.splitlines()
               if line.startswith('refused: ')]
    assert len(refused) == 1 and refused[0].startswith(
        'refused: fio_cache_flags direct write_median_mib_s: its sessions '
        'spread x3.')
    assert 'sessions spread more than x1.5 refused (1 figure(s), above)' \
        in proc.stderr
    written = user.read_text()
    assert '    sync: {write_median_mib_s: [' in written
    assert '    direct: {' not in written
