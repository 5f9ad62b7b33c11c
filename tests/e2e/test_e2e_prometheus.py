'''End to end: ``microbench export --push`` into Debian's real Prometheus
Pushgateway, scraped by Debian's real Prometheus (ci/prometheus_testbed.sh:
both on ports of this machine's loopback the kernel picks, a scrape every
second), read back through Prometheus' HTTP query API with every query of
the Grafana dashboard (ci/grafana/microbench.json), its variables set the
way Grafana sets them; every value must be the stored night's figure,
verdict or change point.  The night: 17 nights made from a real session
(tests/data/results/fio-quick-1.json), a variant named with quotes, a
backslash and a newline, a figure halved from night 15 (a regression, then
degraded, one change point: a real ``microbench compare --last``).

Also: the Pushgateway refuses timestamped samples (why export pushes none);
a push it refuses (a metric of another type in another group) is an error
naming its URL and its reason; ``promtool`` backfills the OpenMetrics file.
Skipped, with the script's one-line reason, where prometheus or
prometheus-pushgateway are not installed; the test bed is stopped after
the module, and nothing of it may be left.
'''

import json
import math
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from prometheus_client import CollectorRegistry, Summary, \
    delete_from_gateway, push_to_gateway
from prometheus_client.core import GaugeMetricFamily

import project
import prometheus_bed
from microbench.verdicts import figures
from exported import (DIRECTION, LABELS, ODD, expected, make_nights,
                      microbench)

# Real servers on ports the kernel picks, no benchmark: beside any other
# test (tests/helpers/workers.py)
pytestmark = pytest.mark.servers

DASHBOARD = os.path.join(project.ROOT, 'ci', 'grafana', 'microbench.json')

#: Seconds to wait for a pushed night to be scraped (every 1 s)
SCRAPE_TIMEOUT_S = 30

#: A dashboard query: a metric's selector, times an optional factor
QUERY = re.compile(r'(microbench_\w+)\{[^}]*\}(?: \* (\d+))?')


@pytest.fixture(scope='module')
def prometheus():
    '''The test bed's variables; stopped after the module, checked gone.'''
    yield from prometheus_bed.running(('pushgateway', 'prometheus'))


@pytest.fixture(scope='module')
def nights(tmp_path_factory):
    return make_nights(tmp_path_factory.mktemp('nights'))


def query(env, expr):
    '''The instant vector of ``expr`` at Prometheus' HTTP API.'''
    url = (f'{env["MICROBENCH_PROMETHEUS_URL"]}/api/v1/query?'
           + urllib.parse.urlencode({'query': expr}))
    with urllib.request.urlopen(url, timeout=10) as answer:
        found = json.load(answer)
    assert found['status'] == 'success', found
    assert found['data']['resultType'] == 'vector', found
    return found['data']['result']


def scraped(env, session):
    '''Seconds until Prometheus has scraped the push of ``session``.'''
    began = time.monotonic()
    expr = f'microbench_session_start_timestamp_seconds{{session="{session}"}}'
    while not query(env, expr):
        assert time.monotonic() - began < SCRAPE_TIMEOUT_S, \
            f'not scraped within {SCRAPE_TIMEOUT_S} s'
        time.sleep(0.2)
    return time.monotonic() - began


def dashboard_queries(values):
    '''(panel title, query) of every query of the dashboard, its variables
    set as Grafana does: ``values`` for system and partition, one query per
    value of a panel's repeated variable, the "All" value for the others.
    '''
    with open(DASHBOARD) as fp:
        board = json.load(fp)
    variables = {v['name']: v for v in board['templating']['list']}
    out = []
    for panel in board['panels']:
        for target in panel['targets']:
            repeat = panel.get('repeat')
            for each in values.get(repeat, [None]) if repeat else [None]:
                expr = target['expr']
                for name, variable in variables.items():
                    value = (each if name == repeat else values.get(name)
                             if name in ('system', 'partition')
                             else variable.get('allValue'))
                    if value is not None:
                        expr = expr.replace(f'${name}', value)
                assert '$' not in expr, expr
                out.append((panel['title'].replace(f'${repeat}', each or ''),
                            expr))
    return out


def wanted(last, verdicts, rows):
    '''{metric: {labels: value}} of the night, from its report, its
    verdicts and its figures in the results storage ``rows`` (not from
    what export made of them).'''
    start = last['session_info']['time_start_unix']
    return {
        'microbench_figure': expected(last, ODD),
        'microbench_session_start_timestamp_seconds': {
            ('local', 'default', last['session_info']['uuid'],
             last['session_info'].get('tag', '')): start},
        'microbench_verdict': {tuple(f[k] for k in LABELS):
                               DIRECTION.get(f['verdict'], math.nan)
                               for f in verdicts['figures']},
        'microbench_change_point_percent': {
            (*(p[k] for k in LABELS), p['date'], p['session']):
            p['change_pct'] for p in verdicts['change_points']},
        'microbench_figure_share_of_limit': shares(rows),
    }


def shares(rows):
    '''{labels: share} of the figures with a known hardware limit (none,
    where the results storage gives no ``share_of_limit``).'''
    if 'share_of_limit' not in rows:
        return {}
    known = rows[rows['share_of_limit'].notna()]
    return {(*(r[k] for k in LABELS), r['limit_name'] or ''):
            float(r['share_of_limit']) for _, r in known.iterrows()}


def series(result):
    '''{labels: value} of a query's result (the figure's labels first);
    each was pushed as job microbench.'''
    out = {}
    for item in result:
        labels = dict(item['metric'])
        labels.pop('__name__', None)
        assert labels.pop('job') == 'microbench', item
        key = tuple(labels.pop(k) for k in LABELS if k in labels)
        out[key + tuple(labels[k] for k in sorted(labels))] = \
            float(item['value'][1])
    return out


def same(got, want):
    return got.keys() == want.keys() and all(
        math.isnan(want[k]) and math.isnan(got[k]) or got[k] == want[k]
        for k in want)


def test_a_pushed_night_through_the_dashboards_queries(prometheus, nights,
                                                        tmp_path):
    db, last, verdicts = nights
    url = prometheus['MICROBENCH_PUSHGATEWAY']
    session = last['session_info']['uuid']
    proc = microbench(db, 'export', '--verdicts', str(verdicts), '--push',
                      url)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        f"session {session}: 37 figures, 13 verdicts -> {url} "
        f"(job=microbench, system='local', partition='default')\n")
    print(f'\nscraped {scraped(prometheus, session):.1f} s after the push')

    found = json.loads(verdicts.read_text())
    want = wanted(last, found, figures.load(session, str(db)))
    units = sorted({key[-1] for key in want['microbench_figure']})
    seen = {name: {} for name in want}
    for title, expr in dashboard_queries({'system': 'local',
                                          'partition': 'default',
                                          'unit': units}):
        name, factor = QUERY.fullmatch(expr).groups()
        got = series(query(prometheus, expr))
        if factor:
            got = {k: v / int(factor) for k, v in got.items()}
        print(f'{title}: {len(got)} series <- {expr}')
        assert not got.keys() & seen[name].keys(), expr
        seen[name].update(got)
    for name in want:
        assert same(seen[name], want[name]), name
    # what the night said: one figure degraded, halved since its change
    # point; the rest unchanged, the odd variant's figures among them
    assert sorted(seen['microbench_verdict'].values()).count(-1) == 1
    assert sum(ODD in key for key in seen['microbench_figure']) == 4
    point, = seen['microbench_change_point_percent'].values()
    print(f'degraded: {point:.1f} % at its change point; '
          f'{len(seen["microbench_figure"])} figures read back')
    assert -56 < point < -44


def test_the_pushgateway_refuses_timestamps(prometheus):
    '''Why --push sends no timestamps: the Pushgateway refuses them.'''
    url = prometheus['MICROBENCH_PUSHGATEWAY']

    class Stamped:
        def collect(self):
            family = GaugeMetricFamily('microbench_probe', 'a probe')
            family.add_metric([], 1.0, timestamp=1_790_000_000)
            yield family

    registry = CollectorRegistry()
    registry.register(Stamped())
    with pytest.raises(urllib.error.HTTPError) as refused:
        push_to_gateway(url, job='microbench-probe', registry=registry)
    assert refused.value.code == 400
    assert 'timestamp' in refused.value.read().decode()


def test_a_refused_push_names_the_url_and_why(prometheus, nights):
    db, _, _ = nights
    url = prometheus['MICROBENCH_PUSHGATEWAY']
    # another group holds microbench_figure of another type (a summary):
    # the Pushgateway refuses ours as inconsistent with it (ours, pushed
    # before, deleted first: it would refuse theirs)
    delete_from_gateway(url, job='microbench', grouping_key={
        'system': 'local', 'partition': 'default'})
    other = CollectorRegistry()
    Summary('microbench_figure', 'not a figure', registry=other).observe(1)
    push_to_gateway(url, job='other', registry=other)
    try:
        proc = microbench(db, 'export', '--push', url)
    finally:
        delete_from_gateway(url, job='other')
    assert proc.returncode == 2, proc.stdout + proc.stderr
    line, = proc.stderr.splitlines()
    print(f'\n{line}')
    assert line.startswith(
        f"microbench export: error: the Pushgateway at {url} refused the "
        f"push of job=microbench, system='local', partition='default': "
        f"HTTP 400 Bad Request: ")
    assert 'microbench_figure' in line

    # and once that group is gone, the same push goes through
    assert microbench(db, 'export', '--push', url).returncode == 0


@pytest.mark.skipif(shutil.which('promtool') is None,
                    reason='promtool is not installed (Debian package '
                    'prometheus)')
def test_promtool_backfills_the_openmetrics_file(nights, tmp_path):
    db, last, verdicts = nights
    out = tmp_path / 'night.txt'
    proc = microbench(db, 'export', '--verdicts', str(verdicts),
                      '--openmetrics', str(out))
    assert proc.returncode == 0, proc.stderr
    made = subprocess.run(['promtool', 'tsdb', 'create-blocks-from',
                           'openmetrics', str(out), str(tmp_path / 'tsdb')],
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stdout + made.stderr
    # one block at the night's start: 37 figures, 13 verdicts and their
    # 13 states, one change point, one event, the session's start
    start = int(last['session_info']['time_start_unix'] * 1000)
    block = made.stdout.splitlines()[-1].split()
    print(f'\n{made.stdout}')
    assert block[1] == str(start) and \
        block[4] == str(37 + 13 + 13 + 1 + 1 + 1)
