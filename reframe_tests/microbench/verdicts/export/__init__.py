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
holds, ``degraded``; an acknowledged one too), +1 an improvement
(``improved``), 0 unchanged (or a first run its rerun did not confirm),
NaN for a verdict without a direction (``changed``, ``shifted``,
``inconclusive``); ``microbench_change_point_percent`` {the figure's
labels, session, date}: each change point of the figure's history, its
change in percent, labelled with the session and date it began;
``microbench_verdict_state`` {the figure's labels, verdict, role, event}:
1 for each figure, its verdict word as a label (``regression`` is a new
and unacknowledged one: what alerts fire on), its role in its event
(``root``, ``downstream``, ``member``) and the event's fingerprint;
``microbench_acknowledged`` {the figure's labels, kind, night}: 1 where
an acknowledgement is in force; ``microbench_event_members`` {system,
partition, event, night, cause, root, verdict}: the figures of each of
tonight's events (:mod:`.events`); ``microbench_event_cause`` {system,
partition, event, cause}: 1 for each event with a cause found by
experiment (``microbench diagnose``: ``software (by experiment)``, ...),
and ``microbench_event_ab_ratio`` {system, partition, event, check,
variant, figure, ab_verdict, cause}: each of its figures in its A/B,
tonight's stack over the night-before one; ``microbench_node_slow``
{system, partition, node, night, worst, persistence}: each node of the
partition's newest vetting night (``microbench vet``, the compare JSON's
``nodes``), 1 where it is slower than its peers of the same night, and
``microbench_node_ratio`` {system, partition, node, night, figure,
state}: each node's figure over its peers' median.  The alert rules that
read them ship in ci/prometheus/.

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

import sys

from microbench.verdicts import compare_json, figures, storage
from microbench.verdicts.export.destinations import (
    push, write_openmetrics, write_textfiles)

HELP = 'the figures of a session (and its verdicts) for Prometheus'


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
    '''The verdicts (:class:`.compare_json.Verdicts`) of ``microbench
    compare --json`` at ``path``, checked to judge ``session``.'''
    found = compare_json.read(path)
    if not found.judges(session):
        raise ValueError(f'{path} judges the session {found.session}, not '
                         f'{session}, the one exported')
    return found


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
        else None
    judged = verdicts.figures if verdicts else []
    mine = {tuple(key) for key in rows[['system', 'partition']].values}
    other = [v for v in judged
             if (v.get('system'), v.get('partition')) not in mine]
    if other:
        print(f'microbench export: {len(other)} verdict(s) of '
              f'partitions without figures in session {session} not '
              f'exported', file=sys.stderr)
    apart = [night['partition'] for night in
             (verdicts.doc['nodes'] if verdicts else ())
             if tuple(night['partition'].split(':', 1)) not in mine]
    if apart:
        print(f'microbench export: the vetting nights of '
              f'{", ".join(apart)} (partitions without figures in session '
              f'{session}) not exported', file=sys.stderr)

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
                  f'{len(judged) - len(other)} verdicts -> {where}')
    if errors:
        raise OSError('; '.join(errors))
    return 0
