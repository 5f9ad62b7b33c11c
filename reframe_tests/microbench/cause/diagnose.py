'''``microbench diagnose``: an event's cause, by experiment (issue 43,
item 2).

    microbench diagnose EVENT --verdicts COMPARE_JSON [--a STACK]
                        [--mode quick] [--diagnoses DIR] [--ab-db FILE]
    microbench diagnose --events all|new-software --verdicts COMPARE_JSON

The event (by its fingerprint, among the compare JSON's events) changed
on its first night.  Its checks run again now, interleaved in one job on
the same nodes (``microbench ab``, :mod:`.ab`): side A on the stack of
the night before that first night, side B on tonight's, each named by
its night's records (:mod:`.nightstacks`).  Each member figure is then
classed (:func:`.classify.classify`) from the level before the event,
tonight's, and where the two sides lie: both slow is the machine (or what
both stacks share), only tonight's the software, neither not reproduced.
Where both nights ran the same stack, the A/B is an A/A of it: the
machine, or nothing, is what changed.

The event's cause is its members' where the ones decided agree, else
``inconclusive`` (saying how they split).  The diagnosis is written as
``<DIR>/<fingerprint>.json`` (:mod:`.diagnosis_json`; ``--diagnoses``,
default ``diagnoses/`` beside the results storage), where compare finds
it: the event then says ``cause: software (by experiment)`` in compare,
the report, the weather page and the export.  The A/B's sessions go to a
storage of their own (``--ab-db``, default ``ab.db`` beside the results
storage), never the nightly history.

Before anything runs, each of these is one line and exit 2, nothing
stored: a compare JSON that is not one, an event that is not in it (the
events it holds listed), a night whose records name no stack, a
night-before stack that is no longer installed (and how stacks are kept).
'''

import argparse
import datetime
import difflib
import os
import tempfile
import time

from microbench.cause import (ab, ab_json, abchecks, abstacks, classify,
                              diagnosis_json, nightstacks)
from microbench import settings
from microbench.verdicts import (compare_json, figures, history, storage,
                                 vocabulary)
from microbench.verdicts.vocabulary import UNDECIDED

HELP = ('class an event by experiment: its checks on the night-before '
        'stack and tonight\'s, interleaved')

#: The events ``--events`` selects: every one, or those the nightly
#: recipe diagnoses (a new regression whose records show a software
#: change: microbench.verdicts.events.CAUSES)
SELECTIONS = ('all', 'new-software')

#: Most events a did-you-mean lists
LISTED = 10


def add_arguments(parser):
    parser.description = (
        'Reads the records of the event\'s nights from the results storage '
        '(--db); the A/B\'s sessions go to --ab-db.')
    parser.add_argument('event', nargs='?', metavar='EVENT',
                        help='the event\'s fingerprint (ev-...), as compare '
                        'lists it')
    parser.add_argument('--events', choices=SELECTIONS, help='every event '
                        'of the verdicts, or each new regression whose '
                        'records show a software change (the nightly '
                        'recipe\'s), one after the other')
    parser.add_argument('--verdicts', required=True, metavar='FILE',
                        help='the compare JSON that lists the event')
    parser.add_argument('--a', metavar='STACK', help='the night-before '
                        'stack, as microbench ab takes it (default: named '
                        'by the records of the night before)')
    parser.add_argument('--mode', choices=['quick'], help="the suite's "
                        'quick mode for the A/B')
    parser.add_argument('--diagnoses', metavar='DIR', help='where the '
                        'diagnosis is written (default: diagnoses/ beside '
                        'the results storage)')
    parser.add_argument('--ab-db', metavar='FILE', help='the A/B\'s '
                        'results storage (default: ab.db beside the results '
                        'storage)')
    parser.add_argument('--stacks', metavar='DIR', help='where stacks are '
                        'kept by lock hash (default: MICROBENCH_STACKS, '
                        f'else {nightstacks.STACKS})')
    parser.add_argument('-S', dest='setvars', action='append', default=[],
                        metavar='[TEST.]VAR=VAL', help="ReFrame's -S for "
                        'the A/B, as the nights had it (not samples)')
    parser.add_argument('-J', dest='job_options', action='append',
                        default=[], metavar='OPT', help="ReFrame's -J")
    parser.add_argument('--first', type=int, default=ab.FIRST,
                        metavar='PAIRS', help='the A/B\'s first batch')
    parser.add_argument('--batch', type=int, default=ab.BATCH,
                        metavar='PAIRS', help='each further batch')
    parser.add_argument('--cap', type=int, metavar='PAIRS', help='the most '
                        'pairs of rounds (default: the rule\'s)')
    parser.set_defaults(handler=run)


def beside(db, name):
    '''``name`` beside the results storage ``db``.'''
    return os.path.join(os.path.dirname(storage.database(db)), name)


def directory(args):
    '''Where the diagnoses are: ``--diagnoses``, else beside the
    storage.'''
    return os.path.abspath(args.diagnoses or beside(args.db, 'diagnoses'))


def _described(event):
    return (f'{event["fingerprint"]} ({event["verdict"]}, '
            f'{event["system"]}:{event["partition"]} since '
            f'{str(event.get("date") or "?")[:16]}, '
            f'{len(event["members"])} figure(s))')


def find(verdicts, fingerprint):
    '''The event ``fingerprint`` of ``verdicts``.

    :raises ValueError: none (one line listing those it holds).'''
    for event in verdicts.events:
        if event['fingerprint'] == fingerprint:
            return event
    known = [event['fingerprint'] for event in verdicts.events]
    if not known:
        raise ValueError(f'no event {fingerprint} in {verdicts.path}: it '
                         f'holds no event (nothing changed on its nights)')
    near = difflib.get_close_matches(fingerprint, known, n=1, cutoff=0.5)
    said = f'did you mean {near[0]}? ' if near else ''
    listed = '; '.join(_described(event)
                       for event in verdicts.events[:LISTED])
    more = (f'; and {len(known) - LISTED} more' if len(known) > LISTED
            else '')
    raise ValueError(f'no event {fingerprint} in {verdicts.path}: {said}'
                     f'its events: {listed}{more}')


def selected(verdicts, how):
    '''The events ``--events`` names.'''
    if how == 'all':
        return list(verdicts.events)
    return [event for event in verdicts.events
            if event['new'] and event['verdict'] == vocabulary.REGRESSION
            and 'software' in event['cause']]


def checks_of(event, found=None):
    '''(the variant checks an A/B runs for ``event``'s members, [{check,
    why}] of those it cannot run): a gap's pitfall runs for it.'''
    found = abchecks.catalogue() if found is None else found
    out, left = [], []
    for check in dict.fromkeys(m['check'] for m in event['members']):
        kind, read, _ = found.get(check, (None, '', ''))
        if kind == abchecks.GAP:
            check = read
        elif kind != abchecks.VARIANT:
            left.append({'check': check, 'why': 'not a check of variants '
                         'an A/B pairs' if kind else 'no such check here'})
            continue
        if check not in out:
            out.append(check)
    return out, left


def nights_of(verdicts, event, frame, db):
    '''(the session of the night before the event's first night,
    tonight's session).'''
    if verdicts.kind == 'pre-post':
        before = figures.load_many([verdicts.before], db,
                                   f'{event["system"]}:{event["partition"]}')
        last = before.sort_values('start', kind='stable')['session']
        return last.iloc[-1], verdicts.session
    nightly, _ = history.nightly(frame)
    order = list(history.sessions_of_nights(nightly))
    if event['night'] not in order:
        raise ValueError(f'{verdicts.path}: the first night {event["night"]} '
                         f'of event {event["fingerprint"]} is not a night '
                         f'of the results storage {storage.database(db)}')
    index = order.index(event['night'])
    if index == 0:
        raise ValueError(f'event {event["fingerprint"]} began on the first '
                         f'night stored: there is no night before it')
    return order[index - 1], verdicts.session


class Plan:
    '''Everything a diagnosis runs, checked before anything does.'''

    def __init__(self, args, verdicts, event):
        self.event, self.verdicts = event, verdicts
        self.where = f'{event["system"]}:{event["partition"]}'
        self.checks, self.left_out = checks_of(event)
        if not self.checks:
            raise ValueError(f'event {event["fingerprint"]}: none of its '
                             f'checks can run in an A/B ('
                             + '; '.join(f'{item["check"]}: {item["why"]}'
                                         for item in self.left_out) + ')')
        frame = figures.load(figures.ALL, args.db, self.where)
        before, tonight = nights_of(verdicts, event, frame, args.db)
        mine = {m['check'] for m in event['members']} | set(self.checks)
        rows = frame[frame['check'].isin(mine)]
        self.tonight = nightstacks.named(rows[rows['session'] == tonight],
                                         tonight)
        try:
            self.before = nightstacks.named(rows[rows['session'] == before],
                                            before)
        except nightstacks.StackError:
            if not args.a:
                raise
            self.before = nightstacks.NightStack(before, {}, {}, {})
        self.a = args.a or nightstacks.installed(
            self.before, self.tonight, args.stacks, 'the night before')
        self.b = nightstacks.installed(self.tonight, self.before,
                                       args.stacks, 'tonight')
        one = abstacks.resolve('A', self.a)
        two = abstacks.resolve('B', self.b)
        self.aa = abstacks.same(one, two)
        self.names = (f'night-before-{before[:8]}', f'tonight-{tonight[:8]}')
        self.ab_db = os.path.abspath(args.ab_db or beside(args.db, 'ab.db'))


def ab_args(args, plan, path):
    '''The arguments of ``microbench ab`` for the plan's A/B, its JSON to
    ``path``; it stops when the event's members are decided (the other
    figures of its checks are then said, decided or not).'''
    return argparse.Namespace(
        checks=plan.checks, a=plan.a, b=None if plan.aa else plan.b,
        aa=plan.aa, a_name=plan.names[0],
        b_name=plan.names[0 if plan.aa else 1], system=plan.where,
        mode=args.mode, setvars=list(args.setvars),
        job_options=list(args.job_options), json=path, first=args.first,
        batch=args.batch, cap=args.cap, dry_run=False, db=plan.ab_db,
        watch=[(member['check'], member['variant'], member['figure'])
               for member in plan.event['members']])


def levels(verdicts):
    '''``{(system, partition, environ, check, variant, figure): (before,
    tonight, unit)}`` of the compare JSON's figures.'''
    return {key: (row['median_before'], row['median_after'], row['unit'])
            for key, row in verdicts.by_key().items()}


def classified(event, found, ab_doc):
    '''One row per member of ``event``: its levels (``found``:
    :func:`levels`), its A/B figure and its cause.'''
    by_key = {(row['check'], row['variant'], row['figure']): row
              for row in ab_doc.figures}
    out = []
    for member in event['members']:
        key = tuple(member[k] if k in member else event[k]
                    for k in compare_json.KEY)
        before, tonight, unit = found.get(key, (None, None, ''))
        row = by_key.get((member['check'], member['variant'],
                          member['figure']))
        base = {'check': member['check'], 'variant': member['variant'],
                'figure': member['figure'], 'unit': unit,
                'before': before, 'tonight': tonight}
        if row is None:
            out.append({**base, 'direction': 'none',
                        'verdict': diagnosis_json.NOT_MEASURED,
                        'label': diagnosis_json.NOT_MEASURED, 'ratio': None,
                        'low': None, 'high': None, 'median_a': None,
                        'median_b': None, 'cause': UNDECIDED,
                        'why': 'the A/B did not measure it on both stacks'})
            continue
        said = classify.classify(before, tonight, row)
        out.append({**base, 'unit': row['unit'],
                    'direction': row['direction'], 'verdict': row['verdict'],
                    'label': row['label'], 'ratio': row['ratio'],
                    'low': row['low'], 'high': row['high'],
                    'median_a': row['median_a'],
                    'median_b': row['median_b'], **said})
    return out


def cause_of(rows):
    '''The event's (cause, why) from its members' rows: the decided ones'
    cause where they agree.'''
    decided = [row['cause'] for row in rows if row['cause'] != UNDECIDED]
    counts = {cause: decided.count(cause) for cause in classify.CAUSES
              if cause in decided}
    split = ', '.join(f'{count} {cause}' for cause, count in counts.items())
    undecided = len(rows) - len(decided)
    rest = f'; {undecided} inconclusive' if undecided else ''
    if not decided:
        why = rows[0]['why'] if len(rows) == 1 else 'no member decided'
        return UNDECIDED, f'{why}{"" if len(rows) == 1 else rest}'
    if len(counts) > 1:
        return UNDECIDED, f'the members disagree: {split}{rest}'
    cause = decided[0]
    first = next(row for row in rows if row['cause'] == cause)
    return cause, (f'{split} of {len(rows)} member(s){rest}; '
                   f'{first["check"]} {first["variant"]} {first["figure"]}: '
                   f'{first["why"]}')


def stack_of(night, text, name):
    return {**night.as_dict(), 'name': name, 'text': text}


def diagnose(args, plan):
    '''Run the plan's A/B and write the diagnosis; its path and
    document.'''
    start = time.monotonic()
    event = plan.event
    print(f'diagnose: event {event["fingerprint"]}: '
          f'{", ".join(plan.checks)} on {plan.where}; A (the night '
          f'before): {plan.a}; B (tonight): '
          f'{"the same stack: an A/A" if plan.aa else plan.b}', flush=True)
    with tempfile.TemporaryDirectory(prefix='diagnose-') as tmp:
        path = os.path.join(tmp, 'ab.json')
        ab.run(ab_args(args, plan, path))
        found = ab_json.read(path)
    rows = classified(event, levels(plan.verdicts), found)
    cause, why = cause_of(rows)
    why += recorded(event, cause)
    doc = diagnosis_json.document(
        event=event['fingerprint'], system=event['system'],
        partition=event['partition'], night=event['night'],
        date=datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec='seconds'),
        minutes=round((time.monotonic() - start) / 60, 2),
        verdicts={'path': os.path.abspath(plan.verdicts.path),
                  'session': plan.verdicts.session,
                  'kind': plan.verdicts.kind},
        cause=cause, why=why, aa=plan.aa,
        stacks={'A': stack_of(plan.before, plan.a, plan.names[0]),
                'B': stack_of(plan.tonight, plan.b, plan.names[1])},
        checks=plan.checks, left_out=plan.left_out,
        ab={'id': found.doc.get('id'),
            'path': os.path.join(os.path.dirname(plan.ab_db), 'ab-runs',
                                 str(found.doc.get('id')), 'ab.json'),
            'mode': found.mode, 'pairs_run': found.pairs_run,
            'minutes': found.doc.get('minutes'), 'nodes': found.nodes,
            'jobs': found.jobs},
        figures=rows)
    written = diagnosis_json.write(directory(args), doc)
    print(text(doc) + f'diagnose: written to {written} '
          f'({doc["minutes"]:.1f} min)', flush=True)
    return written, doc


def recorded(event, cause):
    '''What the event's records named of the machine's settings that night
    (``; recorded that night: block.vda.read_ahead_kb 8192 -> 4096``), and
    where the A/B did not reproduce the change, that a setting set back
    since would explain it; '' where none changed.'''
    named = settings.said(event.get('differences') or {})
    if not named:
        return ''
    said = f'; recorded that night: {"; ".join(named)}'
    if cause == vocabulary.NOT_REPRODUCED:
        said += (' (the A/B runs on the machine as it is now: a setting '
                 'set back since cannot be reproduced)')
    return said


def text(doc):
    '''A diagnosis for a terminal.'''
    lines = [f'event {doc["event"]}: cause: {doc["label"]}: {doc["why"]}']
    for row in doc['figures']:
        ratio = '-' if row['ratio'] is None else f'{row["ratio"]:.3f}'
        lines.append(f'    {row["check"]} {row["variant"]} {row["figure"]}: '
                     f'{row["cause"]}; A/B {row["label"]} (B/A {ratio})')
    for item in doc['left_out']:
        lines.append(f'    left out: {item["check"]}: {item["why"]}')
    return '\n'.join(lines) + '\n'


def run(args):
    if bool(args.event) == bool(args.events):
        raise ValueError('name one EVENT, or --events all|new-software')
    verdicts = compare_json.read(args.verdicts)
    if args.event:
        diagnose(args, Plan(args, verdicts, find(verdicts, args.event)))
        return 0
    chosen = selected(verdicts, args.events)
    print(f'diagnose: {len(chosen)} event(s) of {args.verdicts} '
          f'({args.events})', flush=True)
    failed = 0
    for event in chosen:
        try:
            diagnose(args, Plan(args, verdicts, event))
        except (ValueError, OSError, storage.ResultsError) as err:
            failed += 1
            print(f'diagnose: event {event["fingerprint"]}: not diagnosed: '
                  f'{" ".join(str(err).split())[:500]}', flush=True)
    return 2 if failed else 0
