'''The nightly verdict end to end: ``microbench compare --last`` and
``advise`` on nights in ReFrame's results storage, made from a real
recorded session (tests/data/results/fio-quick-1.json: the fio checks on
the local default), each night's samples times that night's own drift;
then nights with the O_DIRECT write figure halved.  Bad input: a storage
of one session, a figure with one night, a foreign file.'''

import json
import subprocess

import numpy as np
import pytest

from microbench.verdicts import storage, nightly

from nights import MICROBENCH, WATCHED, night, recorded

def compare_last(db, tmp):
    out = tmp / 'last.json'
    proc = subprocess.run([MICROBENCH, '--db', str(db), 'compare', '--last',
                           '--json', str(out)], capture_output=True,
                          text=True, timeout=300)
    assert 'Traceback' not in proc.stderr, proc.stderr
    found = json.loads(out.read_text()) if out.exists() else None
    return proc, found


def watched(found):
    return [f for f in found['figures']
            if (f['check'], f['variant'], f['figure']) == WATCHED][0]


@pytest.fixture(scope='module')
def history(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('nightly')
    db = tmp / 'results.db'
    source, rng = recorded(), np.random.default_rng(0)
    for index in range(nightly.MIN_NIGHTS + 1):
        storage.store(str(db), night(source, index, rng))
    return tmp, db, source, rng


def test_unchanged_nights_then_a_halved_figure(history):
    tmp, db, source, rng = history
    proc, found = compare_last(db, tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert {f['verdict'] for f in found['figures']} == {'unchanged'}
    assert found['test']['figures_judged'] == 13
    assert found['change_points'] == []
    assert '13 figures judged: one budget of 5%' in proc.stdout

    storage.store(str(db), night(source, 15, rng, drop=0.5))
    proc, found = compare_last(db, tmp)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    mine = watched(found)
    assert mine['verdict'] == 'regression'
    assert mine['why'].startswith('found tonight: tonight alone 0.')
    assert mine['why'].endswith('(last nights)')
    assert mine['ratio'] == pytest.approx(0.5, abs=0.05)

    # the next night, still halved: a change found before, exit 0
    storage.store(str(db), night(source, 16, rng, drop=0.5))
    proc, found = compare_last(db, tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mine = watched(found)
    assert mine['verdict'] == 'degraded', mine
    point, = mine['change_points']
    assert point['change_pct'] == pytest.approx(-50, abs=6)
    assert point['date'] == mine['since_date']
    assert point['differences'] == {}               # same records around it
    assert found['change_points'][0]['check'] == WATCHED[0]
    assert 'change point: local:default fio_cache_flags direct' in \
        proc.stdout

    proc = subprocess.run([MICROBENCH, '--db', str(db), 'advise'],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert 'fio_cache_flags direct write_median_mib_s' in proc.stdout
    assert 'samples a night' in proc.stdout


def test_a_storage_of_one_session_and_a_figure_of_one_night(tmp_path):
    db = tmp_path / 'results.db'
    source, rng = recorded(), np.random.default_rng(1)
    storage.store(str(db), night(source, 0, rng))
    proc, _ = compare_last(db, tmp_path)
    assert proc.returncode == 2
    assert '--last needs at least two nights, the results storage has 1' \
        in proc.stderr
    proc = subprocess.run([MICROBENCH, '--db', str(db), 'advise'],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and 'Traceback' not in proc.stderr
    assert 'every figure has one night with samples (1 session(s))' in \
        proc.stderr

    # a check that ran only tonight: too little history, never a verdict
    later = night(source, 1, rng)
    for case in later['runs'][-1]['testcases']:
        case['display_name'] = 'new_' + case['display_name']
    storage.store(str(db), later)
    proc, found = compare_last(db, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert {f['verdict'] for f in found['figures']} == {'inconclusive'}
    assert {f['why'] for f in found['figures']} == {
        f'history: 0 nights, needs {nightly.MIN_NIGHTS}'}


def test_a_foreign_file_is_a_clear_error(tmp_path):
    foreign = tmp_path / 'foreign.db'
    foreign.write_bytes(b'SQLite format 3\x00' + b'\x00' * 4000)
    for args in (['compare', '--last'], ['advise']):
        proc = subprocess.run([MICROBENCH, '--db', str(foreign), *args],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f'microbench {args[0]}: error: ')
        assert 'Traceback' not in proc.stderr
