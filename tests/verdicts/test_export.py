'''``microbench export`` on real sessions: every figure of a stored
session (tests/data/results: real ReFrame reports) read back through
Prometheus' own parsers (prometheus_client's OpenMetrics and text format
parsers), values, labels and timestamps against the report itself; the
verdicts and change points of a real ``microbench compare --last``.  Bad
input: label values Prometheus must get escaped (quotes, backslashes,
newlines, a character that is not UTF-8), a session without figures, an
empty storage, no destination, a Pushgateway that is down (a closed port
of this machine: the error names its URL), verdicts of another session.
'''

import json
import math
import os
import socket

import pytest
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import text_string_to_metric_families

from microbench.verdicts import (acks, compare, compare_json, figures,
                                 nightly, storage)
from microbench.verdicts.export import destinations

from exported import (DIRECTION, LABELS, ODD, expected,
                      make_nights, microbench, report, samples)
from nights import WATCHED


@pytest.fixture(scope='module')
def nights(tmp_path_factory):
    return make_nights(tmp_path_factory.mktemp('export'))


def test_every_figure_of_a_real_session_as_openmetrics(tmp_path):
    db, out = tmp_path / 'results.db', tmp_path / 'all.txt'
    source = report('all-quick')
    storage.store(str(db), report('fio-quick-1'))
    storage.store(str(db), source)
    proc = microbench(db, 'export', '--openmetrics', str(out))
    assert proc.returncode == 0, proc.stderr
    info = source['session_info']
    want = expected(source)
    assert len(want) == 204
    assert proc.stdout == (f'session {info["uuid"]}: 204 figures, 0 '
                           f'verdicts -> {out}\n')

    text = out.read_text()
    assert text.endswith('# EOF\n')
    families = list(openmetrics_families(text))
    got = samples(families, 'microbench_figure')
    assert {k: v for k, (v, _) in got.items()} == want
    assert {float(t) for _, t in got.values()} == {info['time_start_unix']}
    start, = samples(families, 'microbench_session_start_timestamp_seconds'
                     ).items()
    assert start[1][0] == info['time_start_unix']
    assert {f.name for f in families} == {
        'microbench_figure', 'microbench_session_start_timestamp_seconds'}
    assert families[0].unit == 'seconds'


def test_the_session_asked_for_not_the_latest(tmp_path):
    db, out = tmp_path / 'results.db', tmp_path / 'first.txt'
    first = report('fio-quick-1')
    for name in ('fio-quick-1', 'fio-quick-2'):
        storage.store(str(db), report(name))
    proc = microbench(db, 'export', first['session_info']['uuid'],
                      '--openmetrics', str(out))
    assert proc.returncode == 0, proc.stderr
    got = samples(openmetrics_families(out.read_text()),
                  'microbench_figure')
    assert {k: v for k, (v, _) in got.items()} == expected(first)


def test_a_textfile_per_partition_without_timestamps(tmp_path, nights):
    db, last, _ = nights
    proc = microbench(db, 'export', '--textfile', str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert os.listdir(tmp_path) == ['microbench_local_default.prom']
    text = (tmp_path / 'microbench_local_default.prom').read_text()
    got = samples(text_string_to_metric_families(text),
                  'microbench_figure')
    assert {k: v for k, (v, _) in got.items()} == expected(last, ODD)
    assert {t for _, t in got.values()} == {None}
    # node_exporter's textfile collector refuses any timestamp
    assert all(len(line.rsplit('} ', 1)[1].split()) == 1
               for line in text.splitlines() if not line.startswith('#'))


def test_labels_are_escaped_not_lost(tmp_path, nights):
    db, last, _ = nights
    out = tmp_path / 'odd.txt'
    assert microbench(db, 'export', '--openmetrics',
                      str(out)).returncode == 0
    text = out.read_text()
    assert 'variant="buffered \\"q\\" \\\\ back\\nslash \u00e9"' in text
    assert '\n' not in text.split('variant="buffered', 1)[1].split('}')[0]
    variants = {k[4] for k in samples(openmetrics_families(text),
                                      'microbench_figure')}
    assert ODD in variants and 'direct' in variants

    # a lone surrogate (a JSON escape, not UTF-8): its escape, as text
    session = last['session_info']['uuid']
    rows = figures.load(session, str(db)).copy()
    rows.loc[rows['variant'] == ODD, 'variant'] = 'a\ud800b'
    text = destinations.openmetrics_text(session, rows)
    variants = {k[4] for k in samples(openmetrics_families(text),
                                      'microbench_figure')}
    assert 'a\\ud800b' in variants and ODD not in variants


def test_verdicts_and_change_points(tmp_path, nights):
    db, last, verdicts = nights
    found = json.loads(verdicts.read_text())
    out = tmp_path / 'night.txt'
    proc = microbench(db, 'export', '--verdicts', str(verdicts),
                      '--openmetrics', str(out))
    assert proc.returncode == 0, proc.stderr
    assert f'{len(found["figures"])} verdicts' in proc.stdout
    families = list(openmetrics_families(out.read_text()))
    got = samples(families, 'microbench_verdict')
    want = {tuple(f[k] for k in LABELS): DIRECTION[f['verdict']]
            for f in found['figures']}
    assert {k: v for k, (v, _) in got.items()} == want
    assert sorted(want.values()).count(-1) == 1
    assert got[('local', 'default', 'builtin', *WATCHED, 'MiB/s')][0] == -1

    point, = found['change_points']
    assert point['change_pct'] == pytest.approx(-50, abs=6)
    got = samples(families, 'microbench_change_point_percent')
    assert got == {(*(point[k] for k in LABELS), point['date'],
                    point['session']): (point['change_pct'], mock_time(last))}


def test_verdict_states_acknowledgements_and_events(tmp_path, nights):
    db, last, _ = nights
    frame = figures.load(figures.ALL, str(db))
    night = frame[frame['check'] == WATCHED[0]].sort_values('start')[
        'session'].unique()[nightly.MIN_NIGHTS + 1]
    known = acks.Ack(system='local', partition='default',
                     check=WATCHED[0], variant=WATCHED[1], figure=WATCHED[2],
                     night=night, kind='known', reason='the RAID rebuild',
                     index=1, path='/x/local.yaml')
    doc, _, _ = compare.last(frame, found=[known])
    path = tmp_path / 'acked.json'
    compare_json.write(str(path), doc)
    session = last['session_info']['uuid']
    rows = figures.load(session, str(db))
    text = destinations.openmetrics_text(session, rows, compare_json.read(
        str(path)))
    families = list(openmetrics_families(text))
    mine = ('local', 'default', 'builtin', *WATCHED, 'MiB/s')
    event, = doc['events']
    states = samples(families, 'microbench_verdict_state')
    assert len(states) == len(doc['figures'])
    assert states[(*mine, event['fingerprint'], 'member',
                   'acknowledged')][0] == 1
    assert {k[-1] for k in states} == {'acknowledged', 'unchanged'}
    acked = samples(families, 'microbench_acknowledged')
    assert list(acked) == [(*mine, 'known', doc['figures'][0]['ack'][
        'date'][:10])]
    # an acknowledged drop keeps its direction in microbench_verdict
    assert samples(families, 'microbench_verdict')[mine][0] == -1
    members = samples(families, 'microbench_event_members')
    (labels, (count, _)), = members.items()
    assert count == 1 and event['fingerprint'] in labels
    assert 'nothing recorded' in labels


def mock_time(source):
    '''The timestamp every sample of ``source``'s export carries.'''
    from prometheus_client.samples import Timestamp
    start = source['session_info']['time_start_unix']
    return Timestamp(int(start), int(round(start % 1 * 1e9)))


def test_verdicts_without_a_direction_are_nan(nights):
    db, last, verdicts = nights
    session = last['session_info']['uuid']
    rows = figures.load(session, str(db))
    judged = compare_json.read(str(verdicts))
    found = judged.figures
    words = ['changed', 'shifted', 'inconclusive', 'improved since x',
             'improvement', 'regression', 'degraded since 2026-11-01']
    for verdict, word in zip(found, words):
        verdict['verdict'] = word
    text = destinations.openmetrics_text(session, rows, judged)
    got = samples(openmetrics_families(text), 'microbench_verdict')
    values = [got[tuple(f[k] for k in LABELS)][0] for f in found[:7]]
    assert [math.isnan(v) for v in values[:3]] == [True] * 3
    assert values[3:] == [1, 1, -1, -1]


def test_verdicts_of_another_session_are_refused(tmp_path, nights):
    db, _, verdicts = nights
    first = figures.sessions(figures.ALL, str(db))[0]
    proc = microbench(db, 'export', first, '--verdicts', str(verdicts),
                      '--openmetrics', str(tmp_path / 'x.txt'))
    assert proc.returncode == 2
    assert proc.stderr.startswith('microbench export: error: ')
    assert f'not {first}, the one exported' in proc.stderr
    assert not (tmp_path / 'x.txt').exists()


def test_a_session_without_figures_is_a_clear_error(tmp_path):
    db = tmp_path / 'results.db'
    empty = report('fio-quick-1')
    for case in empty['runs'][-1]['testcases']:
        case['perfvalues'] = {}
    storage.store(str(db), empty)
    proc = microbench(db, 'export', '--openmetrics', str(tmp_path / 'x'))
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1] + '\n' == (
        f'microbench export: error: session {empty["session_info"]["uuid"]}'
        f' has no figures in the results storage {db}: nothing to '
        f'export\n')
    assert not (tmp_path / 'x').exists()

    proc = microbench(tmp_path / 'none.db', 'export', '--openmetrics',
                      str(tmp_path / 'x'))
    assert proc.returncode == 2 and 'no results storage at' in proc.stderr
    proc = microbench(db, 'export')
    assert proc.returncode == 2 and 'nowhere to export to' in proc.stderr


def closed_port():
    '''A port of 127.0.0.1 nothing listens on (bound, then closed).'''
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def test_a_pushgateway_that_is_down_is_named(tmp_path, nights):
    db, _, _ = nights
    url = f'http://127.0.0.1:{closed_port()}'
    out = tmp_path / 'kept.txt'
    proc = microbench(db, 'export', '--push', url, '--openmetrics',
                      str(out))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        f"microbench export: error: cannot push to the Pushgateway at "
        f"{url} (job=microbench, system='local', partition='default'): "
        f"ConnectionRefusedError: [Errno 111] Connection refused\n")
    # what could be written was written
    assert 'microbench_figure{' in out.read_text()
    assert f'-> {out}' in proc.stdout and url not in proc.stdout
