'''End to end: the alerts that ship with ``microbench export``
(ci/prometheus/microbench-rules.yml, ci/prometheus/alertmanager.yml)
through Debian's real Pushgateway, Prometheus and Alertmanager
(ci/prometheus_testbed.sh with MICROBENCH_ALERT_WEBHOOK: the Alertmanager
notifies a webhook receiver this test runs, an http.server on a port of
127.0.0.1 the kernel picks, recording every notification).

No metric is made by hand: nights made from real recorded sessions
(tests/data/results/fio-quick-limits.json, every fio figure with its share
of the measured storage write limit, and limits-quick.json, the
component_limits checks that measure those limits, merged into one) on
two partitions of the local system, each night's samples times that
night's own drift; on the last night (``tonight``, an hour ago):

- on partition ``second``, fio_fallocate none halved: a new regression,
  and a share of its limit under the 5 % floor (4 %);
- on partition ``second``, fio_cache_flags direct halved, acknowledged in
  an acknowledgements file (MICROBENCH_ACKS_DIR; kind ``known``);
- on partition ``default``, the storage_write_mib_s component limit
  (component_limits write) halved with a figure judged against it
  (fio_time_based_overwrite large): a root and its downstream member.

The plain regression is on another partition than the root: an event is
what began on one night in one partition, and on the root's partition
every fio write figure is judged against the storage write limit, so it
would be downstream of the root, quiet.

The real ``microbench compare --last --json`` judges the night, the real
``microbench export --verdicts ... --push`` pushes it; Prometheus
evaluates the rules, the Alertmanager groups, inhibits and delivers.  The
plain regression and its share are delivered; the root is delivered and
its downstream figure is not (the Alertmanager's API shows it inhibited
by the root); the acknowledged figure is no alert at all, and no night is
missing.  Skipped, with the test bed's one-line reason, where prometheus,
prometheus-pushgateway or prometheus-alertmanager are not installed;
after the module the test bed, the webhook receiver and the data are
gone.
'''

import copy
import datetime
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid

import numpy as np
import pytest

import prometheus_bed
from microbench import components
from microbench.verdicts import figures, nightly, storage
from weather_history import merged, recorded

# Real servers on ports the kernel picks, no benchmark: beside any other
# test (tests/helpers/workers.py)
pytestmark = pytest.mark.servers

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')

#: The recorded sessions the nights are made of (16, tonight the last):
#: the fio checks with their limits, and the checks of those limits
SOURCES = ('fio-quick-limits', 'limits-quick')
#: The partitions of each night (the recorded session's is default)
PARTITIONS = ('default', 'second')
#: The figure of every changed test case
FIGURE = 'write_median_mib_s'
#: (partition, check, variant) of the changed test cases
PLAIN = ('second', 'fio_fallocate', 'none')
ACKED = ('second', 'fio_cache_flags', 'direct')
ROOT = ('default', *components.LIMITS['storage_write_mib_s'][:2])
DOWNSTREAM = ('default', 'fio_time_based_overwrite', 'large')
#: Tonight's factor of each
DROPS = {PLAIN: 0.5, ACKED: 0.5, ROOT: 0.5, DOWNSTREAM: 0.5}

#: Seconds to wait for the Alertmanager to deliver the night's alerts,
#: then for anything else it might deliver (its group interval is 1 s)
DELIVERY_TIMEOUT_S = 60
SETTLE_S = 5


def scaled(text, factor, numbers):
    '''A ``<figure>=<values>;...`` record with each value times ``factor``
    (``numbers``: the figure names whose values are numbers to scale).'''
    out = []
    for item in filter(None, (text or '').split(';')):
        name, _, values = item.partition('=')
        if name in numbers:
            values = ','.join(repr(float(v) * factor)
                              for v in values.split(','))
        out.append(f'{name}={values}')
    return ';'.join(out)


def night(source, index, start, rng, drops=None, drift=0.03):
    '''The recorded session as night ``index`` (starting at ``start``) on
    every partition of :data:`PARTITIONS`: a new UUID and time, each test
    case's samples, figures and shares of its limits times its own drift
    that night, times ``drops[(partition, check, variant)]`` too.'''
    report = copy.deepcopy(source)
    info = report['session_info']
    info['uuid'] = str(uuid.uuid4())
    info['time_start_unix'] = start
    info['time_end_unix'] = start + 600
    cases = []
    for partition in PARTITIONS:
        for case in copy.deepcopy(source['runs'][-1]['testcases']):
            case['uuid'] = f'{info["uuid"]}:0:{len(cases)}'
            case['session_uuid'] = info['uuid']
            case['partition'] = partition
            key = (partition, case['display_name'].split()[0],
                   case.get('variant', ''))
            factor = float(np.exp(rng.normal(0, drift))) * (
                (drops or {}).get(key, 1))
            samples = figures.parse_samples(case.get('figure_samples'))
            case['figure_samples'] = scaled(case.get('figure_samples'),
                                            factor, samples)
            case['share_of_limit'] = scaled(case.get('share_of_limit'),
                                            factor, [FIGURE])
            values = {}
            for name, value in (case.get('perfvalues') or {}).items():
                system, _, figure = name.split(':')
                if isinstance(value[0], (int, float)):
                    value[0] *= factor
                values[f'{system}:{partition}:{figure}'] = value
            case['perfvalues'] = values
            cases.append(case)
    report['runs'][-1]['testcases'] = cases
    report['runs'][-1]['num_cases'] = info['num_cases'] = len(cases)
    return report


def microbench(env, db, *args):
    return subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=300,
                          env=env)


class Receiver(http.server.BaseHTTPRequestHandler):
    '''A webhook receiver: the JSON body of every POST to ``server.path``
    in ``server.got`` (of any other path, in ``server.stray``: an
    Alertmanager of another test bed that had this port as its webhook's).
    '''

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        with self.server.lock:
            (self.server.got if self.path == self.server.path
             else self.server.stray).append((self.path, json.loads(body)))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope='module')
def webhook():
    '''The receiver, serving on 127.0.0.1 (a port the kernel picks).'''
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Receiver)
    server.got, server.stray, server.lock = [], [], threading.Lock()
    # this module's own path: a loopback port is reused
    server.path = f'/microbench/{uuid.uuid4().hex}'
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
        assert not thread.is_alive()


@pytest.fixture(scope='module')
def testbed(webhook):
    '''The test bed's variables, its Alertmanager notifying ``webhook``;
    stopped after the module, checked gone.'''
    url = f'http://127.0.0.1:{webhook.server_address[1]}{webhook.path}'
    yield from prometheus_bed.running(
        ('pushgateway', 'alertmanager', 'prometheus'),
        MICROBENCH_ALERT_WEBHOOK=url)


@pytest.fixture(scope='module')
def pushed(testbed, webhook):
    '''The nights judged, exported and pushed; (the compare JSON, the time
    of the push).  The data (results storage, acknowledgements) live in a
    directory removed after the module.'''
    tmp = tempfile.mkdtemp(prefix='microbench-alerts.')
    try:
        yield judged_and_pushed(tmp, testbed)
    finally:
        shutil.rmtree(tmp)
        assert not os.path.exists(tmp)


def judged_and_pushed(tmp, testbed):
    db, out = os.path.join(tmp, 'results.db'), os.path.join(tmp, 'last.json')
    source = merged(*(recorded(name) for name in SOURCES))
    assert [case for case in source['runs'][-1]['testcases']
            if (case['display_name'].split()[0], case.get('variant'))
            == ROOT[1:]], f'no {ROOT[1:]} test case in {SOURCES}'
    rng = np.random.default_rng(0)
    count = nightly.MIN_NIGHTS + 2
    # tonight began an hour ago: no night is missing
    tonight = int(time.time()) - 3600
    for index in range(count):
        last = night(source, index, tonight - (count - 1 - index) * 86400,
                     rng, DROPS if index == count - 1 else None)
        storage.store(db, last)
    session = last['session_info']['uuid']

    acks = os.path.join(tmp, 'acks')
    os.mkdir(acks)
    with open(os.path.join(acks, 'local.yaml'), 'w') as fp:
        fp.write(f'''\
format: microbench acknowledgements
version: 1
acks:
- partition: {ACKED[0]}
  check: {ACKED[1]}
  variant: {ACKED[2]}
  figure: {FIGURE}
  night: {session}
  kind: known
  reason: the test's acknowledged regression (tests/e2e/test_e2e_alerts.py)
''')
    env = {**os.environ, 'MICROBENCH_ACKS_DIR': acks}
    proc = microbench(env, db, 'compare', '--last', '--json', out)
    # a new regression tonight: exit 1
    assert proc.returncode == 1, proc.stdout + proc.stderr
    with open(out) as fp:
        found = json.load(fp)
    assert found['session'] == session

    url = testbed['MICROBENCH_PUSHGATEWAY']
    # a new test bed's Pushgateway holds nothing (not the last one's
    # pushes: Debian's persists them by default)
    assert api(url, '/api/v1/metrics')['data'] == []
    proc = microbench(env, db, 'export', '--verdicts', out, '--push', url)
    assert proc.returncode == 0, proc.stderr
    pushed_at = time.monotonic()
    print(proc.stdout, end='')
    assert proc.stdout.count(f'-> {url} (job=microbench') == 2
    return found, pushed_at


def verdict_of(found, key):
    '''The compare JSON's verdict on (partition, check, variant)'s
    :data:`FIGURE`.'''
    mine, = [f for f in found['figures']
             if (f['partition'], f['check'], f['variant'], f['figure']) ==
             (*key, FIGURE)]
    return mine


def named(labels):
    return (labels['alertname'], labels.get('partition'),
            labels.get('check'), labels.get('variant'), labels.get('figure'))


def delivered(webhook):
    '''{(alertname, partition, check, variant, figure): (the alert's
    labels, the notification's group labels)} of every firing alert the
    Alertmanager delivered.'''
    with webhook.lock:
        got = list(webhook.got)
    out = {}
    for _, body in got:
        for alert in body['alerts']:
            if alert['status'] == 'firing':
                out[named(alert['labels'])] = (alert['labels'],
                                               body['groupLabels'])
    return out


def api(base, route):
    with urllib.request.urlopen(base + route, timeout=10) as answer:
        return json.load(answer)


def alertmanager_alerts(testbed):
    '''{(alertname, ...): the alert} of the Alertmanager's API, inhibited
    and silenced ones included.'''
    found = api(testbed['MICROBENCH_ALERTMANAGER_URL'], '/api/v2/alerts?' +
                urllib.parse.urlencode({'active': 'true', 'inhibited':
                                        'true', 'silenced': 'true'}))
    return {named(alert['labels']): alert for alert in found}


def query(testbed, expr):
    '''The instant vector of ``expr`` at Prometheus' HTTP API.'''
    found = api(testbed['MICROBENCH_PROMETHEUS_URL'], '/api/v1/query?' +
                urllib.parse.urlencode({'query': expr}))
    assert found['status'] == 'success', found
    return found['data']['result']


def prometheus_alerts(testbed):
    found = api(testbed['MICROBENCH_PROMETHEUS_URL'], '/api/v1/alerts')
    assert found['status'] == 'success', found
    return {named(alert['labels']): alert
            for alert in found['data']['alerts']}


def alert(name, key):
    return (name, key[0], key[1], key[2], FIGURE)


@pytest.fixture(scope='module')
def night_alerts(pushed, testbed, webhook):
    '''What the Alertmanager delivered of the night, once what must be
    there is (and :data:`SETTLE_S` later: what must not be had its chance):
    (the compare JSON, delivered, the Alertmanager's alerts, Prometheus').
    '''
    found, pushed_at = pushed
    want = {alert('MicrobenchRegression', PLAIN),
            alert('MicrobenchShareBelowFloor', PLAIN),
            alert('MicrobenchRegression', ROOT)}
    while not want <= delivered(webhook).keys():
        assert time.monotonic() - pushed_at < DELIVERY_TIMEOUT_S, (
            f'not delivered within {DELIVERY_TIMEOUT_S} s: '
            f'{sorted(want - delivered(webhook).keys())}; delivered: '
            f'{sorted(delivered(webhook))}; the Alertmanager has '
            f'{sorted(alertmanager_alerts(testbed))}')
        time.sleep(0.2)
    print(f'\ndelivered {time.monotonic() - pushed_at:.1f} s after the '
          f'push')
    time.sleep(SETTLE_S)
    return (found, delivered(webhook), alertmanager_alerts(testbed),
            prometheus_alerts(testbed))


def test_the_night_as_compare_judged_it(pushed):
    '''What the alerts rest on: the verdicts of the real compare.'''
    found, _ = pushed
    plain, acked = verdict_of(found, PLAIN), verdict_of(found, ACKED)
    assert plain['verdict'] == 'regression', plain
    assert acked['verdict'] == 'acknowledged', acked
    assert acked['verdict_unacknowledged'] == 'regression', acked
    # both began tonight on the same partition: one event, no root
    assert plain['event'] == acked['event'] and plain['event']
    assert plain['role'] == acked['role'] == 'member'
    # the storage write limit halved, and a figure judged against it
    root, downstream = verdict_of(found, ROOT), verdict_of(found, DOWNSTREAM)
    assert root['verdict'] == downstream['verdict'] == 'regression'
    assert (root['role'], downstream['role']) == ('root', 'downstream')
    assert root['event'] == downstream['event'] != plain['event']


def test_a_new_regression_is_delivered(night_alerts):
    found, got, _, _ = night_alerts
    plain = verdict_of(found, PLAIN)
    labels, group = got[alert('MicrobenchRegression', PLAIN)]
    print(f'\n{labels}')
    assert labels['severity'] == 'page'
    assert labels['verdict'] == 'regression'
    assert (labels['role'], labels['event']) == ('member', plain['event'])
    assert labels['job'] == 'microbench' and labels['system'] == 'local'
    # grouped by alert, partition and event
    assert group == {'alertname': 'MicrobenchRegression', 'system': 'local',
                     'partition': PLAIN[0], 'event': plain['event']}


def test_a_share_under_the_floor_is_delivered(night_alerts):
    '''fio_fallocate none, 8 % of the storage write limit, halved.'''
    _, got, _, _ = night_alerts
    labels, _ = got[alert('MicrobenchShareBelowFloor', PLAIN)]
    assert labels['severity'] == 'ticket'
    assert labels['limit_name'].startswith('storage_write_mib_s')
    # the only one: every other share is above 5 %
    assert [key for key in got if key[0] == 'MicrobenchShareBelowFloor'] \
        == [alert('MicrobenchShareBelowFloor', PLAIN)]


def test_an_acknowledged_regression_is_no_alert(night_alerts, testbed):
    _, got, in_alertmanager, in_prometheus = night_alerts
    for where in (got, in_alertmanager, in_prometheus):
        assert not [key for key in where if key[1:4] == ACKED], where
    # what the rule's unless reads: the acknowledgement in force
    ack, = query(testbed, 'microbench_acknowledged')
    labels = ack['metric']
    assert (labels['partition'], labels['check'], labels['variant'],
            labels['figure']) == (*ACKED, FIGURE)
    assert labels['kind'] == 'known' and ack['value'][1] == '1'
    assert re.fullmatch(r'\d{4}-\d{2}-\d{2}', labels['night']), labels


def test_no_night_is_missing(night_alerts):
    _, got, _, in_prometheus = night_alerts
    missing = {key: value for key, value in {**got, **in_prometheus}.items()
               if key[0] == 'MicrobenchNightMissing'}
    assert not missing


def test_the_root_is_delivered_its_downstream_inhibited(night_alerts):
    found, got, in_alertmanager, in_prometheus = night_alerts
    root, downstream = (alert('MicrobenchRegression', key)
                        for key in (ROOT, DOWNSTREAM))
    event = verdict_of(found, ROOT)['event']
    labels, group = got[root]
    assert (labels['role'], labels['event']) == ('root', event)
    assert group['event'] == event
    # Prometheus fires both; the Alertmanager delivers the root only
    assert {root, downstream} <= in_prometheus.keys()
    assert downstream not in got
    held = in_alertmanager[downstream]
    assert held['labels']['role'] == 'downstream'
    assert held['status']['state'] == 'suppressed', held
    assert held['status']['inhibitedBy'] == [
        in_alertmanager[root]['fingerprint']]
    assert in_alertmanager[root]['status']['state'] == 'active'


def test_the_session_start_is_tonight(night_alerts, testbed):
    '''No night is missing because the night is tonight: the pushed
    session start of each partition, read back from Prometheus.'''
    found = night_alerts[0]
    expr = ('max by (partition) (microbench_session_start_timestamp_'
            f'seconds{{session="{found["session"]}"}})')
    got = query(testbed, expr)
    assert sorted(item['metric']['partition'] for item in got) == \
        sorted(PARTITIONS)
    age = time.time() - float(got[0]['value'][1])
    print(f'\nsession began {datetime.timedelta(seconds=int(age))} ago')
    assert 3600 <= age < 36 * 3600
