'''End to end: ``microbench confirm`` reruns a night's regression with the
real fio through ReFrame.  A results storage of 16 nights made from a
real recorded session (tests/data/results/fio-quick-1.json), the last one
with fio_cache_flags' O_DIRECT write halved: ``compare --last`` says
regression (exit 1); ``confirm`` reruns only fio_cache_flags (every
variant, round-robin, at the cap of 2 samples), as a second session of
that night, judges the night again and writes the verdicts over the
JSON.  The rerun's level is this machine's, so the verdict may be either
``regression (confirmed)`` (exit 1) or ``not confirmed (lone night)``
(exit 0), and another figure the rerun measures may be a regression
found in it: the test holds the exit code to the verdicts, and the rerun
to its plan.'''

import json
import os
import shutil
import subprocess

import pytest

import project
from microbench.verdicts import figures, storage

from changes import drop, history
from nights import MICROBENCH, WATCHED

pytestmark = pytest.mark.e2e

NIGHTS = 16


@pytest.mark.skipif(shutil.which('fio') is None, reason='fio is not '
                    'installed (Debian package fio)')
def test_a_regression_is_rerun_and_judged_again(tmp_path):
    db = tmp_path / 'results.db'
    reports = history(NIGHTS, drop(0.5, start=NIGHTS - 1),
                      source='fio-quick-1')
    for report in reports:
        storage.store(str(db), report)
    tonight = reports[-1]['session_info']['uuid']
    verdicts = tmp_path / 'verdicts.json'
    env = {**os.environ, 'RFM_CONFIG_FILES': os.path.join(
        project.ROOT, 'systems', 'config.py'), 'RFM_SQLITE_DB_FILE': str(db),
        'MICROBENCH_REFERENCES': str(tmp_path / 'no-references.yaml'),
        'MICROBENCH_ACKS_DIR': str(tmp_path / 'acks')}
    first = subprocess.run([MICROBENCH, 'compare', '--last', '--json',
                            str(verdicts)], capture_output=True, text=True,
                           env=env, timeout=300)
    assert first.returncode == 1, first.stdout + first.stderr

    night = [os.path.join(project.ROOT, '.venv', 'bin', 'reframe'), '-c',
             os.path.join(project.ROOT, 'reframe_tests'), '--system',
             'local:default', '-r', '--mode', 'quick', '-n', '^fio_', '-S',
             'fio_cache_flags_rounds.runtime_s=1', '-S',
             f'scratch_dir={tmp_path}/scratch', '--prefix',
             str(tmp_path / 'rfm'), '--perflogdir', str(tmp_path / 'perf')]
    os.makedirs(tmp_path / 'scratch')
    proc = subprocess.run([MICROBENCH, 'confirm', '--verdicts',
                           str(verdicts), '--report-file',
                           str(tmp_path / 'rerun.json'), '--cap', '2', '--',
                           *night], capture_output=True, text=True, env=env,
                          timeout=900, cwd=tmp_path)
    assert 'Traceback' not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert ("-n '^(fio_cache_flags)((_[a-z0-9]+)?_gap)?(%|/|$)' "
            "-S samples=2") in proc.stdout

    # the rerun: a second session of the night, fio_cache_flags only, at
    # 2 samples a figure
    frame = figures.load(figures.ALL, str(db))
    rerun = frame[frame[figures.CONFIRMS] == tonight]
    assert rerun['session'].nunique() == 1
    # (fio_cache_flags_dontcache_gap too, with fio 3.40 or later)
    assert {'fio_cache_flags', 'fio_cache_flags_gap'} <= set(
        rerun['check']) <= {'fio_cache_flags', 'fio_cache_flags_gap',
                            'fio_cache_flags_dontcache_gap'}
    assert {len(s) for s in figures.with_samples(rerun)['samples']} == {2}

    # the verdicts, written over the JSON, say what the exit code says: 1
    # where a regression stands (the watched figure confirmed, or another
    # found in the rerun: its level is this machine's, not the recorded
    # one's)
    doc = json.loads(verdicts.read_text())
    assert doc['session'] == tonight and len(doc['sessions']) == 2
    assert doc['confirmation']['checks'] == ['fio_cache_flags']
    assert doc['confirmation']['samples'] == 2
    assert proc.returncode == doc['exit_code'] == int(any(
        f['verdict'] == 'regression' for f in doc['figures']))
    mine, = [f for f in doc['figures']
             if (f['check'], f['variant'], f['figure']) == WATCHED]
    state = mine['confirmation']['state']
    if state == 'confirmed':
        assert mine['verdict'] == 'regression'
        assert mine['label'] == 'regression (confirmed)'
    else:
        assert state == 'not confirmed' and mine['verdict'] == 'unconfirmed'
        assert mine['label'] == 'not confirmed (lone night)'
    assert mine['label'] in proc.stdout
    for figure in doc['figures']:
        if figure['verdict'] == 'regression':
            assert figure['confirmation']['state'] in (
                'confirmed', 'found in the rerun'), figure
    others = [f for f in doc['figures'] if not f['check'].startswith(
        'fio_cache_flags')]
    assert others and all(f['confirmation'] is None for f in others)
    # nothing of the rerun's scratch is left
    assert os.listdir(tmp_path / 'scratch') == []
