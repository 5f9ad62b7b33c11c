'''``microbench compare``: did any figure change? (exit 1 on a new
regression).

``--last``: the last night (tonight, with its confirmation rerun if it
has one) against each figure's history of nights before it
(:mod:`.nightly`: change points and a test of the last nights, one
false-alarm budget for the whole night), with the facility's
acknowledgements and tonight's events (:mod:`.triage`).  ``BEFORE
AFTER``: two sides of sessions, the session as the unit (:mod:`.prepost`).
Either way, what differs between the sides' records is listed (tool
versions, Spack specs, nodes, kernel, scratch and its mount options, the
suite's commit), and ``--json`` writes the verdicts in the format of
:mod:`.compare_json`.  An event (one per night and partition a change
began on; in a pre-post comparison, what changed between the sides in a
partition) diagnosed by ``microbench diagnose`` says its cause by
experiment and the A/B's figures: the diagnoses are read from
``--diagnoses`` (default ``diagnoses/`` beside the results storage).
'''

import os
import sys

import pandas as pd

from microbench import fields, settings
from microbench.cause import diagnosis_json
from microbench.nodes import multinode, vetting
from microbench.verdicts import (acks, behaviour, compare_json, events,
                                 figures, history, nightly, prepost, rule,
                                 storage, triage, vocabulary)

HELP = 'did any figure change? (exit 1 on a new regression)'

KEY = figures.KEY


def _figure(row):
    return (f'{row["system"]}:{row["partition"]} {row["check"]} '
            f'{row["variant"]} {row["figure"]}')


def _table(rows, extra):
    head = ('verdict', 'figure', 'before', 'after', 'ratio', 'p',
            extra[0])
    body = [(row['verdict'], _figure(row),
             f'{figures.fmt(row["median_before"])} {row["unit"]}',
             f'{figures.fmt(row["median_after"])} {row["unit"]}',
             figures.fmt(row['ratio']), figures.fmt(row['p']),
             extra[1](row)) for row in rows]
    widths = [max(len(line[column]) for line in [head, *body])
              for column in range(len(head))]
    return ['  '.join(cell.ljust(width) for cell, width in
                      zip(line, widths)).rstrip() for line in [head, *body]]


def _differences(found, indent):
    '''A line for each of ``found`` (``{field: {before, after}}``): a
    field's values on each side; a machine setting as
    :func:`microbench.settings.said` says it.'''
    found = found or {}
    lines = [f'{indent}{name}: {" | ".join(diff["before"]) or "-"}  ->  '
             f'{" | ".join(diff["after"]) or "-"}'
             for name, diff in found.items()
             if not name.startswith(settings.PREFIX)]
    return lines + [f'{indent}machine setting: {named}'
                    for named in settings.said(found)]


def _points(rows):
    lines = []
    for row in rows:
        for point in row['change_points']:
            lines.append(f'change point: {_figure(row)}: from {point["date"]}'
                         f' (session {point["session"]}): '
                         f'{point["mean_before"]:.4g} -> '
                         f'{point["mean_after"]:.4g} {row["unit"]} '
                         f'({point["change_pct"]:+.1f} %, p = '
                         f'{point["p"]:.2g})')
            lines += _differences(point['differences'], '    ')
    return lines


def _joined(event, member):
    '''``, joined: its change began <date>`` for a member whose change
    began after its event's first night, else nothing.'''
    since = member.get('since_session')
    if not since or since == event['night']:
        return ''
    return f', joined: its change began {str(member.get("since_date"))[:16]}'


def _events(found):
    lines = []
    for event in found:
        lines.append(events.line(event))
        for member in event['members']:
            pct = member['change_pct']
            lines.append(f'    {member["role"]:10} {member["check"]} '
                         f'{member["variant"]} {member["figure"]}: '
                         f'{member["verdict"]}'
                         + ('' if pct is None else f' ({pct:+.1f} %)')
                         + _joined(event, member))
        lines += _differences(event['differences'], '    ')
        lines += _diagnosed(event.get('diagnosis'))
    return lines


def _diagnosed(found):
    '''The lines of an event's diagnosis: its cause by experiment, and
    each member's A/B figure.'''
    if not found:
        return []
    lines = [f'    cause: {found["label"]}: {found["why"]} (A/B of '
             f'{found["stacks"]["A"]} and {found["stacks"]["B"]}, '
             f'{str(found["date"] or "?")[:16]}; {found["path"]})']
    for row in found['figures']:
        ratio = ('-' if row['ratio'] is None else
                 f'{row["ratio"]:.3f}' + (
                     f' [{row["low"]:.3f}, {row["high"]:.3f}]'
                     if row['low'] is not None and row['high'] is not None
                     else ''))
        lines.append(f'      A/B {row["check"]} {row["variant"]} '
                     f'{row["figure"]}: {row["label"]}, B/A {ratio}: '
                     f'{row["cause"]}')
    return lines


def text(doc, about, extra):
    '''The comparison for a terminal (``doc``: the compare document).'''
    rows = doc['figures']
    lines = [f'before: {doc["before"]}', f'after:  {doc["after"]}', about,
             '']
    lines.append(', '.join(f'{count} {verdict}' for verdict, count in
                           doc['counts'].items()) + '\n')
    lines += _table(rows, extra)
    for row in rows:
        if row['verdict'] != vocabulary.UNCHANGED or row.get('ack'):
            lines.append(f'{row["label"]}: {_figure(row)}: {row["why"]}')
    for row in rows:
        if row['cold_start']:
            lines.append(f'cold start: {_figure(row)}: {row["cold_start"]} '
                         f'(microbench advise says what to do)')
    if doc['events']:
        new = sum(event['new'] for event in doc['events'])
        lines += ['', f'{len(doc["events"])} event(s), {new} new tonight '
                  f'(one per night and partition a change began on):',
                  *_events(doc['events'])]
    lines += _points(rows)
    if doc['behaviour']:
        lines += ['', *behaviour.lines(doc['behaviour'])]
    for said in doc['nodes']:
        lines += ['', *vetting.lines(said)]
    if doc['acks'] and doc['acks']['in_force']:
        lines.append(f'{doc["acks"]["in_force"]} acknowledgement(s) in '
                     f'force ({", ".join(doc["acks"]["files"])})')
    lines.append('')
    if doc['differences']:
        lines.append('what differs between the sides:')
        lines += _differences(doc['differences'], '  ')
    else:
        lines.append('what ran is the same on both sides (versions, specs, '
                     'nodes, kernel, scratch and its mount options, the '
                     "machine's settings, the suite's commit)")

    return '\n'.join(lines) + '\n'


def add_arguments(parser):
    parser.add_argument('before', nargs='?', help='session query')
    parser.add_argument('after', nargs='?', help='session query')
    parser.add_argument('--last', action='store_true', help='the last '
                        'night against the history of nights before it')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.add_argument('--budget', type=float, default=nightly.BUDGET,
                        help='--last: the share of unchanged nights that '
                        'may exit 1, for all figures together (default '
                        '%(default)s)')
    parser.add_argument('--alpha', type=float, default=prepost.ALPHA,
                        help='BEFORE AFTER: the family-wise level over all '
                        'figures (default %(default)s)')
    parser.add_argument('--floor', type=float, default=rule.FLOOR,
                        help='the least change worth calling, a fraction '
                        '(default %(default)s)')
    parser.add_argument('--json', help='also write the verdicts as JSON '
                        'here')
    parser.add_argument('--diagnoses', metavar='DIR', help='the events\' '
                        'causes by experiment (microbench diagnose; '
                        'default: diagnoses/ beside the results storage)')
    parser.set_defaults(handler=run)


def acks_said(night):
    '''What the compare JSON says of the acknowledgements.'''
    files = sorted({ack.where().split(' #')[0] for ack in night.acks})
    return {'files': files, 'in_force': len(night.acks),
            'warnings': list(night.warnings), 'directory': acks.directory()}


def last(frame, budget=nightly.BUDGET, floor=rule.FLOOR, found=None):
    '''``(document, about, extra column)`` of the nightly verdicts on the
    last night of ``frame`` (with the acknowledgements ``found``, else the
    systems' files).'''
    frame, apart = history.nightly(frame, nightly.CAP)
    order = list(history.sessions_of_nights(frame))
    if len(order) < 2:
        raise figures.ResultsError(
            f'--last needs at least two nights, the results storage has '
            f'{len(order)}' + ''.join(f'; {line}' for line in apart))
    night = triage.judge(frame, budget, floor, found)
    if not night.figures:
        raise figures.ResultsError(f'the last session {order[-1]} has no '
                                   f'figure with samples')
    records = history.as_nights(frame)
    diffs = fields.differences(records[records['session'] == order[-2]],
                               records[records['session'] == order[-1]])
    sides = (f'each figure\'s history before the last night (up to '
             f'{nightly.CAP} nights, {len(order) - 1} stored)',
             f'the last night {night.session}' + (
                 f' (confirmation rerun {", ".join(night.sessions[1:])})'
                 if len(night.sessions) > 1 else ''))
    test = {'test': 'night as the unit: Otava change points and a '
                    'single-night prediction interval',
            'budget': budget, 'floor': floor, 'figures_judged': night.judged,
            'last_nights_level': night.level, 'otava_max_p': night.max_p,
            'nights': apart}
    about = '\n'.join([
        f'{night.judged} figures judged: one budget of {budget:.0%}'
        f' unchanged nights exiting 1 (per figure: last nights '
        f'{night.level:.2g}, Otava {night.max_p:.2g}); a change sets the '
        f'exit code on the night it is found', *apart])
    doc = compare_json.document(
        'nightly', night.session, night.sessions, sides, test,
        night.exit_code, night.figures, night.events, diffs,
        acks_said(night), night.confirmation,
        behaviour.judge(records, order))
    extra = ('since', lambda row: row['since_date'] or
             f'{row["nights"]} nights')
    return doc, about, extra


def pre_post(args):
    '''``(document, about, extra column)`` of two sides of sessions.'''
    if not args.before or not args.after:
        raise figures.ResultsError('compare needs BEFORE and AFTER, or '
                                   '--last')
    before = figures.load_many([args.before], args.db, args.partition)
    after = figures.load_many([args.after], args.db, args.partition)
    everything = figures.load(figures.ALL, args.db, args.partition)
    table, level = prepost.compare(before, after, args.alpha, args.floor,
                                   everything)
    if table.empty:
        raise figures.ResultsError('the two sides have no figure with '
                                   'samples in common')
    test = {'test': 'session as the unit: Welch t on the sessions\' '
                    'summaries (log), or one session against a prediction '
                    'interval', 'alpha': args.alpha, 'level': level}
    about = (f'{len(table)} figures: family-wise level {args.alpha} '
             f'({level:.2g} per figure), the session as the unit')
    extra = ('sessions', lambda row: f'{row["sessions_before"]} / '
                                     f'{row["sessions_after"]}')
    rows = triage.with_limits(rule.worst_first(
        table, rule.VERDICTS, KEY).to_dict('records'), after)
    for row in rows:
        row.update(since_session=None, since_date=None, ack=None,
                   verdict_unacknowledged=row['verdict'], event=None,
                   role=None, downstream_of=None, confirmation=None,
                   label=row['verdict'])
    latest = after.sort_values('start', kind='stable')
    regression = any(row['verdict'] == vocabulary.REGRESSION for row in rows)
    doc = compare_json.document(
        'pre-post', latest['session'].iloc[-1],
        list(dict.fromkeys(latest['session'])), (args.before, args.after),
        test, int(regression), rows, sides_events(rows, before, after),
        differences=fields.differences(before, after))
    return doc, about, extra


def sides_events(rows, before, after):
    '''The events of a pre-post comparison: in each partition, what
    changed between the sides began with the after side's first session
    (its ``since_session``), and is classed by what differs between the
    records of the before side's last session and that one
    (:func:`.events.group`); ``rows`` get their event.'''
    both = pd.concat([before, after], ignore_index=True)
    order = {}
    for (system, partition), mine in both.sort_values(
            'start', kind='stable').groupby(['system', 'partition'],
                                            sort=False):
        order[(system, partition)] = list(dict.fromkeys(mine['session']))
    for row in rows:
        if row['verdict'] not in events.CHANGED:
            continue
        mine = after[(after['system'] == row['system'])
                     & (after['partition'] == row['partition'])]
        first = mine.sort_values('start', kind='stable').iloc[0]
        row.update(since_session=first['session'],
                   since_date=first['when'])
    return events.group(rows, both, order)


def writable(path, what):
    '''Say in one line, before any work, why ``path`` (the file of
    ``what``, an option) cannot be written: a directory, a folder that
    does not exist or that this user cannot write, a file it cannot
    write.

    :raises ValueError: it cannot.
    '''
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f'{what} {path}: a directory, not a file')
    if not os.path.isdir(folder):
        raise ValueError(f'{what} {path}: no such directory {folder}')
    if os.path.exists(path) and not os.access(path, os.W_OK) or \
            not os.path.exists(path) and not os.access(folder, os.W_OK):
        raise ValueError(f'{what} {path}: cannot be written (permission '
                         f'denied)')


def run(args):
    if args.json:
        writable(args.json, '--json')
    if args.last:
        frame = figures.load(figures.ALL, args.db, args.partition)
        doc, about, extra = last(frame, args.budget, args.floor)
    else:
        doc, about, extra = pre_post(args)
    found = os.path.abspath(args.diagnoses or os.path.join(
        os.path.dirname(storage.database(args.db)), 'diagnoses'))
    for warning in diagnosis_json.attach(doc['events'], found):
        print(f'microbench compare: warning: diagnoses: {warning}',
              file=sys.stderr)
    if args.last:
        doc['nodes'] = multinode.attached(args.db, args.partition)
    compare_json.validate(doc, '<compare document with its diagnoses>')
    for warning in (doc['acks'] or {}).get('warnings', ()):
        print(f'microbench compare: warning: {warning}', file=sys.stderr)
    sys.stdout.write(text(doc, about, extra))
    if args.json:
        compare_json.write(args.json, doc)
    return doc['exit_code']
