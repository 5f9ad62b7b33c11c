'''The gauges of a session for Prometheus: one collector per partition
(:class:`Session`, for prometheus_client), every figure, its share of
its limit, and with the compare JSON its verdict, verdict state,
acknowledgement, change points and events (the package's docstring says
each gauge).'''

import math

from prometheus_client import CollectorRegistry
from prometheus_client.core import GaugeMetricFamily

from microbench import settings
from microbench.nodes import outliers
from microbench.verdicts import figures, vocabulary

#: The labels of a figure (what identifies it across sessions, its unit)
LABELS = [*figures.KEY, 'unit']

#: The value of ``microbench_verdict`` for each verdict (its first word);
#: any other is NaN (an acknowledged one: that of the verdict it
#: acknowledges)
DIRECTION = vocabulary.directions()

#: The labels of an event's gauge
EVENT_LABELS = ['system', 'partition', 'event', 'night', 'cause', 'root',
                'verdict', 'settings']

#: The labels of a node of a vetting night (microbench vet)
NODE_LABELS = ['system', 'partition', 'node', 'night', 'worst',
               'persistence']

#: The labels of an event's cause by experiment, and of each of its
#: member's A/B figure (``microbench diagnose``)
DIAGNOSIS_LABELS = ['system', 'partition', 'event', 'cause']
AB_LABELS = ['system', 'partition', 'event', 'check', 'variant', 'figure',
             'ab_verdict', 'cause']


def label(value):
    '''A label value: text, None as empty, what is not UTF-8 escaped.'''
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ''
    return str(value).encode('utf-8', 'backslashreplace').decode('utf-8')


def verdict_value(verdict):
    '''-1, 0, +1 or NaN for a verdict (``degraded since ...`` included).'''
    words = str(verdict or '').split()
    return DIRECTION.get(words[0] if words else '', math.nan)


def direction(row):
    '''``microbench_verdict`` of a figure's verdict (a dict of the compare
    JSON): an acknowledged one keeps the direction it acknowledges.'''
    if row.get('verdict') == vocabulary.ACKNOWLEDGED:
        return verdict_value(row.get('verdict_unacknowledged'))
    return verdict_value(row.get('verdict'))


class Session:
    '''The gauges of one partition of a session (a collector for
    prometheus_client); ``timestamp``: every sample stamped with it.'''

    def __init__(self, session, rows, verdicts=(), timestamp=None,
                 events=(), behaviour=(), nodes=()):
        self.session, self.rows = session, rows
        self.verdicts, self.timestamp = list(verdicts), timestamp
        self.events, self.behaviour = list(events), list(behaviour)
        #: the partition's nights of nodes (the compare document's)
        self.nodes = list(nodes or ())

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
        state = GaugeMetricFamily(
            'microbench_verdict_state', 'A figure\'s verdict (label '
            'verdict: regression is a new, unacknowledged one), its role in '
            'its event and the event', labels=[*LABELS, 'verdict', 'role',
                                               'event'])
        acked = GaugeMetricFamily(
            'microbench_acknowledged', 'An acknowledgement in force on a '
            'figure (its kind and night)', labels=[*LABELS, 'kind', 'night'])
        for row in self.verdicts:
            labels = self._labels(row)
            self._add(verdict, labels, direction(row))
            self._add(state, [*labels, *(label(row.get(name)) for name in
                                         ('verdict', 'role', 'event'))], 1)
            ack = row.get('ack')
            if ack:
                self._add(acked, [*labels, label(ack.get('kind')),
                                  label(str(ack.get('date') or '')[:10])], 1)
            for point in row.get('change_points') or ():
                self._add(points, [*labels, label(point.get('session')),
                                   label(point.get('date'))],
                          point['change_pct'])
        yield verdict
        yield state
        if acked.samples:
            yield acked
        if points.samples:
            yield points
        yield from self._events()
        yield from self._behaviour()
        yield from self._nodes()

    def _nodes(self):
        if not self.nodes:
            return
        slow = GaugeMetricFamily(
            'microbench_node_slow', 'A node of the newest vetting night '
            '(microbench vet) or of the newest multi-node runs read per node '
            '(label night: session-<uuid>): 1 where it is slower than its '
            'peers of the same night, 0 where not (label worst: its worst '
            'figure; persistence: slow tonight only, slow for N nights)',
            labels=NODE_LABELS)
        ratios = GaugeMetricFamily(
            'microbench_node_ratio', 'A figure of a node of the newest '
            'vetting night or multi-node runs over its peers\' median '
            '(label state: slow, fast, clean, failed, unjudged)',
            labels=['system', 'partition', 'node', 'night', 'figure',
                    'state'])
        for night in self.nodes:
            self._night(night, slow, ratios)
        yield slow
        if ratios.samples:
            yield ratios

    def _night(self, night, slow, ratios):
        system, partition = night['partition'].split(':', 1)
        for item in night['nodes']:
            where = [label(system), label(partition), label(item['node']),
                     label(night['tag'])]
            worst = item['lines'][0] if item['lines'] else ''
            self._add(slow, [*where, label(worst),
                             label(item['persistence'])],
                      int(item['state'] == outliers.SLOW))
            for row in item['figures']:
                if row['ratio'] is not None:
                    self._add(ratios, [*where, label(row['figure']),
                                       label(row['state'])], row['ratio'])
        for node in night['failed']:
            self._add(slow, [label(system), label(partition), label(node),
                             label(night['tag']), 'failed', 'failed'], 0)

    def _behaviour(self):
        if not self.behaviour:
            return
        family = GaugeMetricFamily(
            'microbench_counted_figure', 'A counted figure of tonight (what '
            'the scratch disk did per byte a sample moved: '
            'microbench/suite/counted.py) and its verdict (label verdict: '
            'behaviour change, same behaviour, inconclusive)',
            labels=[*figures.KEY, 'verdict'])
        for row in self.behaviour:
            self._add(family, [*(label(row[name]) for name in figures.KEY),
                               label(row['verdict'])], row['tonight'])
        yield family

    def _events(self):
        if not self.events:
            return
        family = GaugeMetricFamily(
            'microbench_event_members', 'The figures of an event: what '
            'began on one night in one partition (its cause, its root '
            'limit)', labels=EVENT_LABELS)
        for event in self.events:
            self._add(family, [
                label(event['system']), label(event['partition']),
                label(event['fingerprint']),
                label(str(event.get('date') or '')[:10]),
                label(event['cause']), label(','.join(event['root'])),
                label(event['verdict']),
                label('; '.join(settings.said(event.get('differences')
                                              or {})))],
                len(event['members']))
        yield family
        yield from self._diagnoses()

    def _diagnoses(self):
        diagnosed = [event for event in self.events
                     if event.get('diagnosis')]
        if not diagnosed:
            return
        causes = GaugeMetricFamily(
            'microbench_event_cause', 'An event\'s cause found by '
            'experiment (microbench diagnose): 1, the cause a label',
            labels=DIAGNOSIS_LABELS)
        ratios = GaugeMetricFamily(
            'microbench_event_ab_ratio', 'Each figure of a diagnosed event '
            'in its A/B: tonight\'s stack over the night-before one (B/A)',
            labels=AB_LABELS)
        for event in diagnosed:
            found = event['diagnosis']
            where = [label(event['system']), label(event['partition']),
                     label(event['fingerprint'])]
            self._add(causes, [*where, label(found['label'])], 1)
            for row in found['figures']:
                if row['ratio'] is not None:
                    self._add(ratios, [
                        *where, label(row['check']), label(row['variant']),
                        label(row['figure']), label(row['label']),
                        label(row['cause'])], row['ratio'])
        yield causes
        if ratios.samples:
            yield ratios


def _nan(value):
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError):
        return True


def partitions(session, rows, verdicts=None, timestamps=False):
    '''{(system, partition): its :class:`Session`}; ``verdicts``: a
    :class:`.compare_json.Verdicts`, or None.'''
    out = {}
    for (system, partition), mine in rows.groupby(['system', 'partition'],
                                                  sort=True):
        where = (system, partition)
        theirs = [v for v in (verdicts.figures if verdicts else ())
                  if (v['system'], v['partition']) == where]
        happened = [e for e in (verdicts.events if verdicts else ())
                    if (e['system'], e['partition']) == where]
        counted = [b for b in (verdicts.doc['behaviour'] if verdicts
                               else ())
                   if (b['system'], b['partition']) == where]
        vetted = [night for night in (verdicts.doc['nodes'] if verdicts
                                      else ())
                  if night['partition'] == f'{system}:{partition}']
        stamp = float(mine['start'].iloc[0]) if timestamps else None
        out[where] = Session(session, mine, theirs, stamp, happened,
                             counted, vetted)
    return out


def registry(*collectors):
    '''A prometheus_client registry of ``collectors``.'''
    out = CollectorRegistry(auto_describe=False)
    for collector in collectors:
        out.register(collector)
    return out


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
