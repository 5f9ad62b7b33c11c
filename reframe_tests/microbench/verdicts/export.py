'''``microbench export [SESSION] [--verdicts FILE] (--openmetrics FILE |
--textfile DIR | --push URL)...``: the figures of a session for Prometheus.

Every figure of the session (the latest one the query SESSION selects;
default: the latest stored) is a sample of the gauge ``microbench_figure``
labelled system, partition, environ, check, variant, figure (the statistic
is in its name: ``write_median_mib_s``, ``write_min_mib_s``, ...) and unit.
Beside it, every figure of a partition goes out with:

``microbench_session_start_timestamp_seconds`` {system, partition,
session, tag}: when the session began (Unix time, seconds);
``microbench_figure_share_of_limit`` {the figure's labels, limit_name}:
the figure over its hardware limit, a ratio, where one is known;
``microbench_verdict`` (``--verdicts``, the JSON of ``microbench compare
--json``) {the figure's labels}: -1 a regression (tonight's or one that
holds, ``degraded``), +1 an improvement (``improved``), 0 unchanged, NaN
for a verdict without a direction (``changed``, ``shifted``,
``inconclusive``); ``microbench_change_point_percent`` {the figure's
labels, session, date}: each change point of the figure's history, its
change in percent, labelled with the session and date it began.

The text is written by Prometheus' own Python client (prometheus_client):
label values are any UTF-8, ``\\``, ``"`` and newlines escaped by it; a
character that is not UTF-8 (a lone surrogate of a JSON escape) is written
as its ``\\udxxx`` escape; figure names are label values, never part of a
metric name.

``--openmetrics FILE``: the OpenMetrics text, every sample stamped with the
session's start: what ``promtool tsdb create-blocks-from openmetrics FILE
DIR`` backfills into a Prometheus.  ``--push URL``: to a Prometheus
Pushgateway, one group per partition (job=microbench, system, partition:
each push replaces that partition's previous one).  ``--textfile DIR``:
one file per partition, ``microbench_SYSTEM_PARTITION.prom``, for
node_exporter's textfile collector (written whole, then renamed).  The
Pushgateway refuses samples with timestamps and node_exporter's textfile
collector does too, so these two go without; Prometheus stamps them when
it scrapes, and the session's start is the gauge above.

Errors (exit 2): no session, a session without figures, a verdicts file
that is not one or judges another session, a Pushgateway that refuses or
does not answer (named with its URL): every destination is tried first,
what could be written is.
'''

import json
import math
import os
import re
import sys
import urllib.error

from prometheus_client import CollectorRegistry
from prometheus_client import push_to_gateway, write_to_textfile
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.openmetrics import exposition as openmetrics

from microbench.verdicts import figures, nightly, storage

HELP = 'the figures of a session (and its verdicts) for Prometheus'

#: The labels of a figure (what identifies it across sessions, its unit)
LABELS = [*figures.KEY, 'unit']

#: The job of every push (the Pushgateway's grouping key, with system and
#: partition)
JOB = 'microbench'

#: The value of ``microbench_verdict`` for each verdict (its first word);
#: any other is NaN
DIRECTION = {'unchanged': 0.0,
             **{word: sign for state, sign in (('down', -1.0), ('up', 1.0))
                for word in nightly.STATES[state]}}

#: Seconds a push may take
TIMEOUT_S = 30

_UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-'
                   r'[0-9a-f]{12}')


def label(value):
    '''A label value: text, None as empty, what is not UTF-8 escaped.'''
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ''
    return str(value).encode('utf-8', 'backslashreplace').decode('utf-8')


def verdict_value(verdict):
    '''-1, 0, +1 or NaN for a verdict (``degraded since ...`` included).'''
    words = str(verdict or '').split()
    return DIRECTION.get(words[0] if words else '', math.nan)


def session_rows(query, db=None):
    '''(the UUID of the latest session ``query`` selects, its figures).'''
    uuids = figures.sessions(query, db)
    if not uuids:
        raise storage.ResultsError(f'no session in the results storage '
                                   f'{storage.database(db)} for {query!r}')
    session = uuids[-1]
    try:
        rows = figures.load(session, db)
    except storage.ResultsError:
        raise storage.ResultsError(
            f'session {session} has no figures in the results storage '
            f'{storage.database(db)}: nothing to export') from None
    rows = rows[rows['session'] == session]
    return session, rows.drop_duplicates(subset=figures.KEY, keep='last')


def read_verdicts(path, session):
    '''The verdicts of ``microbench compare --json`` at ``path``, checked
    to judge ``session`` where they name the session they judge.'''
    from microbench.verdicts.report import verdicts_of

    found = verdicts_of(path)
    with open(path) as fp:
        after = str(json.load(fp).get('after', ''))
    named = _UUID.findall(after)
    if named and session not in named:
        raise ValueError(f'{path} judges the session {named[-1]}, not '
                         f'{session}, the one exported')
    return found


class Session:
    '''The gauges of one partition of a session (a collector for
    prometheus_client); ``timestamp``: every sample stamped with it.'''

    def __init__(self, session, rows, verdicts=(), timestamp=None):
        self.session, self.rows = session, rows
        self.verdicts, self.timestamp = list(verdicts), timestamp

    def _labels(self, source):
        return [label(source.get(name)) for name in LABELS]

    def _add(self, family, labels, value):
        family.add_metric(labels, float(value), timestamp=self.timestamp)

    def collect(self):
        first = self.rows.iloc[0]
        start = GaugeMetricFamily(
            'microbench_session_start_timestamp_seconds', 'When the '
            'session of these figures began (Unix time)',
            labels=['system', 'partition', 'session', 'tag'], unit='seconds')
        self._add(start, [label(first['system']), label(first['partition']),
                          label(self.session), label(first.get('tag'))],
                  first['start'])
        yield start

        figure = GaugeMetricFamily(
            'microbench_figure', 'A figure of the session in its unit (label '
            'unit); the statistic over its samples is in its name',
            labels=LABELS)
        share = GaugeMetricFamily(
            'microbench_figure_share_of_limit', 'A figure over its '
            'hardware limit (label limit_name), a ratio',
            labels=[*LABELS, 'limit_name'])
        for _, row in self.rows.iterrows():
            labels = self._labels(row)
            self._add(figure, labels, row['value'])
            value = row.get('share_of_limit')
            if value is not None and not _nan(value):
                # the records' per cent as Prometheus' ratio
                self._add(share, [*labels, label(row.get('limit_name'))],
                          value / 100)
        yield figure
        if share.samples:
            yield share

        if not self.verdicts:
            return
        verdict = GaugeMetricFamily(
            'microbench_verdict', 'The verdict on a figure: -1 regression '
            '(new or degraded), +1 improvement, 0 unchanged, NaN none of '
            'those (changed, shifted, inconclusive)', labels=LABELS)
        points = GaugeMetricFamily(
            'microbench_change_point_percent', 'A change point of a '
            "figure's history: its change in percent, the session and date "
            'it began', labels=[*LABELS, 'session', 'date'])
        for row in self.verdicts:
            labels = self._labels(row)
            self._add(verdict, labels, verdict_value(row['verdict']))
            for point in row.get('change_points') or ():
                self._add(points, [*labels, label(point.get('session')),
                                   label(point.get('date'))],
                          point['change_pct'])
        yield verdict
        if points.samples:
            yield points


def _nan(value):
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError):
        return True


def partitions(session, rows, verdicts=(), timestamps=False):
    '''{(system, partition): its :class:`Session`}.'''
    out = {}
    for (system, partition), mine in rows.groupby(['system', 'partition'],
                                                  sort=True):
        theirs = [v for v in verdicts if (v.get('system'), v.get(
            'partition')) == (system, partition)]
        stamp = float(mine['start'].iloc[0]) if timestamps else None
        out[system, partition] = Session(session, mine, theirs, stamp)
    return out


def registry(*collectors):
    '''A prometheus_client registry of ``collectors``.'''
    out = CollectorRegistry(auto_describe=False)
    for collector in collectors:
        out.register(collector)
    return out


def openmetrics_text(session, rows, verdicts=()):
    '''The OpenMetrics text of a session, every sample stamped.'''
    groups = partitions(session, rows, verdicts, timestamps=True)
    return openmetrics.generate_latest(
        registry(Merged(groups.values()))).decode('utf-8')


class Merged:
    '''The collectors of several partitions as one: each gauge once, with
    the samples of every partition (a metric family may not repeat).'''

    def __init__(self, collectors):
        self.collectors = list(collectors)

    def collect(self):
        merged = {}
        for collector in self.collectors:
            for family in collector.collect():
                if family.name in merged:
                    merged[family.name].samples += family.samples
                else:
                    merged[family.name] = family
        yield from merged.values()


def write_openmetrics(path, session, rows, verdicts=()):
    text = openmetrics_text(session, rows, verdicts)
    tmp = f'{path}.tmp{os.getpid()}'
    with open(tmp, 'w', encoding='utf-8') as fp:
        fp.write(text)
    os.replace(tmp, path)
    return [path]


def textfile_name(system, partition):
    '''``microbench_SYSTEM_PARTITION.prom``, safe as a file name.'''
    safe = re.sub(r'[^A-Za-z0-9_.-]', '_', f'{system}_{partition}')
    return f'microbench_{safe}.prom'


def write_textfiles(directory, session, rows, verdicts=()):
    if not os.path.isdir(directory):
        raise OSError(f'--textfile {directory}: not a directory')
    out = []
    for (system, partition), group in partitions(session, rows,
                                                 verdicts).items():
        path = os.path.join(directory, textfile_name(system, partition))
        write_to_textfile(path, registry(group))
        out.append(path)
    return out


def push(url, session, rows, verdicts=(), timeout=TIMEOUT_S):
    '''Push every partition's gauges to the Pushgateway at ``url``.

    :raises OSError: it refuses (its HTTP status and reason) or does not
        answer, naming ``url``.
    '''
    out = []
    for (system, partition), group in partitions(session, rows,
                                                 verdicts).items():
        key = {'system': system, 'partition': partition}
        where = f'job={JOB}, system={system!r}, partition={partition!r}'
        try:
            push_to_gateway(url, job=JOB, registry=registry(group),
                            grouping_key=key, timeout=timeout)
        except urllib.error.HTTPError as err:
            body = ' '.join(err.read().decode('utf-8', 'replace').split())
            raise OSError(f'the Pushgateway at {url} refused the push of '
                          f'{where}: HTTP {err.code} {err.reason}: '
                          f'{body[:300]}') from None
        except (urllib.error.URLError, OSError, ValueError) as err:
            why = getattr(err, 'reason', None) or err
            raise OSError(f'cannot push to the Pushgateway at {url} '
                          f'({where}): {type(why).__name__}: '
                          f'{why}') from None
        out.append(f'{url} ({where})')
    return out


def add_arguments(parser):
    parser.add_argument('session', nargs='?', default=figures.ALL,
                        help='session query: the latest session it '
                        'selects (default: the latest stored)')
    parser.add_argument('--verdicts', metavar='FILE',
                        help='the JSON of microbench compare '
                        '--json: the verdicts and change points to export '
                        'with the figures')
    parser.add_argument('--openmetrics', action='append', default=[],
                        metavar='FILE', help='write OpenMetrics text, '
                        "samples stamped with the session's start "
                        '(promtool tsdb create-blocks-from openmetrics)')
    parser.add_argument('--textfile', action='append', default=[],
                        metavar='DIR', help="write a file per partition "
                        "into node_exporter's textfile directory")
    parser.add_argument('--push', action='append', default=[],
                        metavar='URL', help='push to a Prometheus '
                        'Pushgateway (job=microbench, system, partition)')
    parser.set_defaults(handler=run)


def run(args):
    if not (args.openmetrics or args.textfile or args.push):
        raise ValueError('nowhere to export to: give --openmetrics FILE, '
                         '--textfile DIR or --push URL')
    session, rows = session_rows(args.session, args.db)
    verdicts = read_verdicts(args.verdicts, session) if args.verdicts \
        else []
    mine = {tuple(key) for key in rows[['system', 'partition']].values}
    other = [v for v in verdicts
             if (v.get('system'), v.get('partition')) not in mine]
    if other:
        print(f'microbench export: {len(other)} verdict(s) of '
              f'partitions without figures in session {session} not '
              f'exported', file=sys.stderr)

    jobs = ([(write_openmetrics, p) for p in args.openmetrics]
            + [(write_textfiles, d) for d in args.textfile]
            + [(push, u) for u in args.push])
    errors = []
    for job, target in jobs:
        try:
            done = job(target, session, rows, verdicts)
        except OSError as err:
            errors.append(str(err))
            continue
        for where in done:
            print(f'session {session}: {len(rows)} figures, '
                  f'{len(verdicts) - len(other)} verdicts -> {where}')
    if errors:
        raise OSError('; '.join(errors))
    return 0
