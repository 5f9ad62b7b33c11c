'''An A/B's sessions are never part of the nightly history: kept in a
storage of their own by ``microbench ab``, and, should one reach the
nightly storage, tagged ``kind=ab``, which ``compare --last`` leaves out
(microbench/verdicts/history.py judges sessions tagged ``kind=nightly``).
Real sessions: a quick night of the fio checks and the A/B of
``fio_fallocate`` (tests/data), their tags as ci/nightly.sh and the runner
give them.'''

import copy
import json

from microbench.cause import ab
from microbench.verdicts import figures, history, storage

from fixtures import path


def report(name, **extras):
    with open(path(name)) as fp:
        found = json.load(fp)
    found['session_info'].update(extras)
    return found


def test_an_ab_session_is_left_out_of_the_nights(tmp_path):
    db = str(tmp_path / 'results.db')
    night = report('results/fio-quick-1.json', kind='nightly')
    later = copy.deepcopy(night)
    later['session_info']['uuid'] = '00000000-0000-4000-8000-000000000001'
    later['session_info']['time_start_unix'] += 86400
    ab_session = report('ab/fio_fallocate-ab-report.json', kind='ab',
                        ab='20261127T154808-b767', batch='1')
    ab_session['session_info']['time_start_unix'] = \
        later['session_info']['time_start_unix'] + 3600
    for found in (night, later, ab_session):
        storage.store(db, found)
    frame = figures.load(figures.ALL, db)
    nights, said = history.nightly(frame)
    assert set(nights['session']) == {night['session_info']['uuid'],
                                      later['session_info']['uuid']}
    assert any('1 ad-hoc session after the last night is not judged' in line
               for line in said), said
    assert figures.sessions('?kind=="ab"', db) == [
        ab_session['session_info']['uuid']]


def test_the_runner_keeps_its_sessions_apart_by_default(monkeypatch,
                                                         tmp_path):
    monkeypatch.delenv('RFM_SQLITE_DB_FILE', raising=False)
    assert ab.storage_of(None) == ab.DB
    assert ab.DB != storage.database(None)
