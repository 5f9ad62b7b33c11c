'''The confirmation rerun's plan: which checks, how many samples, and the
night's ReFrame command line with its ``-n``, ``-S samples`` and
``--report-file`` replaced; the ``-n`` pattern selects exactly those
checks and their gaps in ReFrame's own listing.'''

import os
import subprocess

import pytest

import project
from microbench.verdicts import (advise, compare, compare_json, confirm,
                                 figures)

from changes import CHANGE, drop, history

NIGHT = ['.venv/bin/reframe', '-c', 'reframe_tests', '--system',
         'local:default', '-r', '--mode', 'quick', '-n', '^fio_',
         '--name=^ior', '-nfoo', '-S', 'samples=3', '-S', 'scratch_dir=/x',
         '--report-file', 'night.json', '--session-extras', 'tag=nightly']


def test_the_reruns_command_keeps_the_nights_options():
    cmd = confirm.command(NIGHT, ['fio_cache_flags'], 7, 'uuid-1', 'r.json')
    assert cmd == ['.venv/bin/reframe', '-c', 'reframe_tests', '--system',
                   'local:default', '-r', '--mode', 'quick', '-S',
                   'scratch_dir=/x', '--session-extras', 'tag=nightly',
                   '-n', '^(fio_cache_flags)((_[a-z0-9]+)?_gap)?(%|/|$)', '-S',
                   'samples=7', '--session-extras', 'confirms=uuid-1',
                   '--report-file', 'r.json']


def test_the_checks_of_gaps_and_variants():
    rows = [{'check': 'fio_cache_flags_gap', 'figure': 'both_over_sync'},
            {'check': 'fio_cache_flags'}, {'check': 'component_limits'},
            {'check': 'fio_cache_flags_dontcache_gap',
             'figure': 'dontcache_over_direct'},
            {'check': 'fio_completion_polling_hipri_gap',
             'figure': 'hipri_over_interrupt_per_core'},
            {'check': 'fio_completion_polling_gap',
             'figure': 'sqpoll_over_interrupt_per_core'}]
    assert confirm.checks(rows) == ['component_limits', 'fio_cache_flags',
                                    'fio_completion_polling']


def test_the_pattern_selects_those_checks_in_reframes_listing():
    proc = subprocess.run(
        [os.path.join(project.ROOT, '.venv', 'bin', 'reframe'), '-c',
         os.path.join(project.ROOT, 'reframe_tests'), '-n',
         confirm.pattern(['fio_cache_flags', 'component_limits']), '-l'],
        capture_output=True, text=True, timeout=300, cwd=project.ROOT,
        env={**os.environ, 'RFM_CONFIG_FILES':
             os.path.join(project.ROOT, 'systems', 'config.py')})
    assert proc.returncode == 0, proc.stderr
    listed = {line.split()[1] for line in proc.stdout.splitlines()
              if line.startswith('- ')}
    # the variants are tests of their own (a gap reads the rounds, not
    # its variants' tests: suite/gap.py)
    assert listed == {'fio_cache_flags', 'fio_cache_flags_gap',
                      'fio_cache_flags_dontcache_gap', 'component_limits'}
    assert 'component_limits_node' not in proc.stdout
    assert 'fio_cache_flags %mode=direct' in proc.stdout


@pytest.fixture(scope='module')
def tonight(tmp_path_factory):
    '''A compare JSON of a night with a new regression, and its frame.'''
    tmp = tmp_path_factory.mktemp('confirm')
    frame = figures.frame(history(CHANGE + 1, drop(0.5)))
    doc, _, _ = compare.last(frame, found=[])
    path = tmp / 'verdicts.json'
    compare_json.write(str(path), doc)
    return compare_json.read(str(path)), frame


def test_the_samples_the_advisor_gives_capped(tonight):
    found, frame = tonight
    rows = confirm.regressions(found)
    assert [row['check'] for row in rows] == ['fio_cache_flags']
    frame = frame[~frame['session'].isin(found.sessions)]
    advice = advise.advice(frame)
    mine = advice[(advice['check'] == 'fio_cache_flags')
                  & (advice['variant'] == 'direct')].iloc[0]
    # this figure's 3 samples a night suffice (the advisor): the rerun
    # takes the night's own count, and never more than the cap
    assert mine['needed'] <= mine['samples_now'] == 3
    assert confirm.samples(rows, frame, 10) == 3
    assert confirm.samples(rows, frame, 2) == 2
    noisy = advice.assign(needed=advice['needed'].where(
        advice['check'] != 'fio_cache_flags', 40))
    assert confirm.samples(rows, frame, 10, noisy) == 10
    assert confirm.samples(rows, frame, 50, noisy) == 40


def test_nothing_to_confirm_exits_as_the_verdicts(tonight, tmp_path):
    found, _ = tonight
    doc = dict(found.doc)
    doc['figures'] = [dict(row, verdict='unchanged') for row in
                      doc['figures']]
    doc['exit_code'] = 0
    path = tmp_path / 'quiet.json'
    compare_json.write(str(path), doc)
    proc = subprocess.run(
        [os.path.join(project.ROOT, '.venv', 'bin', 'microbench'), '--db',
         str(tmp_path / 'none.db'), 'confirm', '--verdicts', str(path),
         '--report-file', str(tmp_path / 'r.json'), '--', 'false'],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert 'nothing to rerun' in proc.stdout
