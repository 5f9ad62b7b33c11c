'''One event per root cause: what began on one night in one partition.

When one component changes, every figure that rests on it changes the
same night: ten verdicts for one cause.  Every figure whose verdict holds
a change (:data:`CHANGED`) belongs to the *event* of the night its change
began (``since_session``) in its partition (changes dated up to
:data:`APART` nights apart are one: the nightly verdict's test of the
last nights dates a change by the 1, 2 or 3 nights that show it); an
event is listed once by compare, the report, the weather page and the
export, its members under it, and is classified from the records of the
nights around it (:func:`cause`): *the suite or software changed* (a field of
:data:`microbench.fields.SOFTWARE`: the suite's commit, the benchmark's
version, its Spack spec or environment), *the machine changed*
(:data:`microbench.fields.MACHINE`: kernel, file system, its mount
options, nodes, the machine's settings), both, or *nothing recorded
changed*.  A changed machine setting is named with its values
(:func:`said`: ``the machine changed: block.vda.read_ahead_kb 128 ->
4096``), in compare, the report, the weather page and the export.

**Downstream of a limit.**  A figure is judged against a component limit
of its partition (its ``limit_name``: :mod:`microbench.components`), and
the limit is itself a figure the suite measures (``component_limits``).
When the limit's figure changed on the same night, it is the event's
*root* and every member judged against it is *downstream* of it
(``downstream_of``: the limit and its change in %): one alarm for the
root cause.  A downstream member found tonight while its root was found
on an earlier night is not a new alarm (``degraded``, saying so); one
whose root is acknowledged is acknowledged with it.

**An identity that does not move.**  An event is named by its
partition and its *first night*, the earliest night a member's change
began (:func:`fingerprint`), never by its members: a figure that joins it
a night later (a noisier figure shows the same drop a night later) is
listed under it with its own night, and the fingerprint, the alert's
``event`` label and an ``ack --event`` reference made the night before
keep naming it.  The one thing that moves it: a member whose change is
dated *before* the first night (a change point found later and dated
back) makes that night the first, and the event is named anew.

**One alarm per event.**  A regression found tonight, in an event that
began before tonight and holds a regression found on an earlier night
(a figure with more noise shows the same drop a night later), joins it
without a new alarm: ``degraded``, saying so.  An event that never
alarmed (a gap that changed, an improvement) takes nobody's alarm.
'''

import hashlib
import json
import math

from microbench import components, fields, settings
from microbench.verdicts import compare_json, vocabulary
from microbench.verdicts.verdict import Verdict

#: The verdicts of a figure whose change holds (it began on a night)
CHANGED = vocabulary.CHANGES

#: An event's cause -> how it is said
CAUSES = vocabulary.RECORDED_CAUSES

#: (check, variant, figure) of each component limit -> the limit's name
LIMIT_OF = {(check, variant, figure): name for name, (
    check, variant, figure, *_) in components.LIMITS.items()}

#: The most nights apart two changes of one event began (the test of the
#: last nights dates a change by the 1, 2 or 3 last nights that show it)
APART = 2


#: What identifies a member within its event
MEMBER = ('environ', 'check', 'variant', 'figure')


def fingerprint(system, partition, night):
    '''``ev-<12 hex>``: a hash of the partition and the session of the
    event's first night, the same wherever and on whichever later night it
    is computed: the members are left out, so a figure that joins the
    event later does not rename it.'''
    text = json.dumps([system, partition, night])
    return 'ev-' + hashlib.sha256(text.encode()).hexdigest()[:12]


def cause(differences):
    '''The class of an event from what differs in the records around it
    (``{field: ...}``).'''
    software = any(fields.is_software(name) for name in differences)
    machine = any(fields.is_machine(name) for name in differences)
    if software and machine:
        return 'software and machine'
    return 'software' if software else 'machine' if machine else \
        'nothing recorded'


def change_pct(verdict):
    '''How much a changed figure's level moved, in %: its change point at
    the night the change began, else tonight against the nights before;
    None if neither is known.'''
    for point in verdict.get('change_points') or ():
        if isinstance(point, dict) and point.get('session') == \
                verdict.get('since_session'):
            return float(point['change_pct'])
    ratio = verdict.get('ratio')
    if isinstance(ratio, (int, float)) and math.isfinite(ratio):
        return 100 * (ratio - 1)
    return None


def around(records, system, partition, night, order):
    '''What differs in the records of ``partition`` between the night
    before ``night`` and ``night`` (``order``: the partition's nights,
    oldest first; ``records``: rows with every night's records).'''
    if night not in order or order.index(night) == 0:
        return {}
    before = order[order.index(night) - 1]
    mine = records[(records['system'] == system)
                   & (records['partition'] == partition)]
    return fields.differences(mine[mine['session'] == before],
                              mine[mine['session'] == night])


def limit_of(row):
    '''The name of the limit a figure is judged against (its
    ``limit_name`` record says ``storage_write_mib_s (measured)``), or
    ''.'''
    return fields.limit_of(row.get('limit_name'))


def _clusters(rows, order):
    '''``[(night, members)]`` of one partition's changed figures: those
    whose changes began within :data:`APART` nights of the earliest
    member's night are one event (the two tests of the nightly verdict
    may date one change a night apart), dated by that earliest night, its
    first: the night most of them say would move when a member joins.'''
    index = {session: at for at, session in enumerate(order)}
    ranked = sorted(rows, key=lambda row: index.get(row['since_session'],
                                                    -1))
    out, current = [], []
    for row in ranked:
        at = index.get(row['since_session'])
        first = index.get(current[0]['since_session']) if current else None
        if current and (at is None or first is None or at - first > APART):
            out.append(current)
            current = []
        current.append(row)
    if current:
        out.append(current)
    return [(members[0]['since_session'], members) for members in out]


def _worst(verdicts):
    rank = {v: i for i, v in enumerate(compare_json.VERDICTS)}
    return min(verdicts, key=lambda v: rank.get(v, len(rank)))


def _downstream(rows, root, limit):
    '''Mark ``rows`` (members judged against ``limit``) downstream of
    ``root`` (the limit's own row).'''
    pct = change_pct(root)
    for row in rows:
        row['role'] = 'downstream'
        row['downstream_of'] = {'limit': limit, 'change_pct': pct}
        said = f'downstream of {limit} ({_pct(pct)})'
        if root['verdict'] == vocabulary.ACKNOWLEDGED and \
                row['verdict'] in CHANGED:
            row['ack'] = {**(root.get('ack') or {}), 'downstream_of': limit}
            Verdict(row).add('downstream', f'{said}, acknowledged with it',
                             vocabulary.ACKNOWLEDGED)
        elif row['verdict'] == vocabulary.REGRESSION and \
                root['verdict'] != vocabulary.REGRESSION:
            Verdict(row).add('downstream', f'{said}, whose change was found '
                             f'before tonight: no new alarm',
                             vocabulary.DEGRADED)
        else:
            Verdict(row).add('downstream', said)


def _joined(members, night, tonight):
    '''A regression found tonight in an event found on an earlier night
    (it began before ``tonight`` and holds a regression found before it,
    now ``degraded`` or ``acknowledged``) joins it without a new alarm.'''
    alarmed = any(m['verdict'] in (vocabulary.DEGRADED,
                                   vocabulary.ACKNOWLEDGED)
                  for m in members)
    if night == tonight or not alarmed:
        return
    date = next(m.get('since_date') for m in members
                if m['since_session'] == night)
    for member in members:
        if member['verdict'] == vocabulary.REGRESSION:
            Verdict(member).add('event', f'joins the event since '
                                f'{str(date)[:16]}, found before tonight: '
                                f'no new alarm', vocabulary.DEGRADED)


def _pct(pct):
    return '?' if pct is None else f'{pct:+.1f} %'


def group(rows, records, nights):
    '''The events of tonight's verdicts: ``rows`` (one dict per figure,
    the compare JSON's members) get ``event``, ``role`` and
    ``downstream_of`` (in place); returns the events, worst first.

    :arg records: rows of every night's records (confirmation reruns in
        their night: :func:`.history.as_nights`).
    :arg nights: ``{(system, partition): [night's session, ...]}``, oldest
        first.
    '''
    found = {}
    for row in rows:
        row.update(event=None, role=None, downstream_of=None)
        if row['verdict'] in CHANGED and row.get('since_session'):
            found.setdefault((row['system'], row['partition']), []).append(
                row)
    clusters = []
    for (system, partition), mine in found.items():
        order = nights.get((system, partition), [])
        for night, members in _clusters(mine, order):
            clusters.append((system, partition, night, members))
    events = [_event(system, partition, night, members, records, nights)
              for system, partition, night, members in clusters]
    rank = {v: i for i, v in enumerate(compare_json.VERDICTS)}
    return sorted(events, key=lambda e: (rank.get(e['verdict'], 99),
                                         e['system'], e['partition'],
                                         e['date'] or ''))


def _event(system, partition, night, members, records, nights):
    '''One event: its members' roles (a limit among them is the root of
    the figures judged against it), its fingerprint, its cause.'''
    roots = {LIMIT_OF[(m['check'], m['variant'], m['figure'])]: m
             for m in members
             if (m['check'], m['variant'], m['figure']) in LIMIT_OF}
    for member in members:
        member['role'] = 'root' if member in roots.values() else 'member'
    for limit, root in roots.items():
        _downstream([m for m in members if m['role'] == 'member'
                     and limit_of(m) == limit], root, limit)
    order = nights.get((system, partition), [])
    _joined(members, night, order[-1] if order else None)
    key = fingerprint(system, partition, night)
    for member in members:
        member['event'] = key
    differences = around(records, system, partition, night, order)
    verdicts = [m['verdict'] for m in members]
    return {
        'fingerprint': key, 'system': system, 'partition': partition,
        'night': night, 'date': next(m.get('since_date') for m in members
                                    if m['since_session'] == night),
        'verdict': _worst(verdicts), 'new': vocabulary.REGRESSION in verdicts,
        'cause': cause(differences),
        'differences': {name: {'before': lhs, 'after': rhs} for name,
                        (lhs, rhs) in differences.items()},
        'root': sorted(roots),
        'members': [{**{k: m[k] for k in MEMBER}, 'verdict': m['verdict'],
                     'role': m['role'], 'change_pct': change_pct(m),
                     'downstream_of': m['downstream_of'],
                     'since_session': m['since_session'],
                     'since_date': m.get('since_date')}
                    for m in members],
        # the cause found by experiment (microbench diagnose), which
        # compare reads from the diagnoses beside the storage
        'diagnosis': None}


def said(event):
    '''How an event's recorded cause is said: its class, and every
    machine setting that changed with its values (``the machine changed:
    block.vda.read_ahead_kb 128 -> 4096``).'''
    named = settings.said(event.get('differences') or {})
    return CAUSES[event['cause']] + (f': {"; ".join(named)}' if named
                                     else '')


def line(event):
    '''One line of an event: its verdict, partition, night, members,
    cause and root.'''
    root = (f'; root: {", ".join(event["root"])} (the others downstream of '
            f'it)' if event['root'] else '')
    found = event.get('diagnosis')
    cause = said(event) + (f'; cause: {found["label"]}' if found else '')
    count = len(event['members'])
    return (f'event {event["fingerprint"]}: {event["verdict"]}: '
            f'{event["system"]}:{event["partition"]} since '
            f'{(event["date"] or "?")[:16]}: {count} figure'
            f'{"s" if count != 1 else ""}; {cause}{root}')
