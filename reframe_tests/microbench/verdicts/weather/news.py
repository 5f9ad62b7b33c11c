'''The state changes, one line each in plain words.

A state change is a change point of a realistic figure's history (the
nightly verdict's ``change_points``: the night it began, the levels
before and after it, what differs between the records of the night
before and that night), or one of tonight's events (what began on one
night in one partition: :mod:`microbench.verdicts.events`), said once
with every realistic figure it holds::

    lustre on slurm_cluster: O_DIRECT writes 31 % slower; durable
    writes 28 % slower since 2026-11-20, after the kernel update (6.1.0
    -> 6.8.0)

Newest first.  What differs is said in :data:`CAUSES`' words and order,
each with its values (cut to :data:`WIDTH` characters a side).
'''

import collections

from microbench import settings
from microbench.verdicts import vocabulary
from microbench.verdicts.weather import status

#: A record field that differs around a change -> what a user reads; the
#: order they are said in
CAUSES = {
    'kernel': 'the kernel update',
    'scratch_fstype': 'a change of file system',
    'scratch_mount_options': "new mount options of the file system",
    'tool_version': 'a new version of the benchmark',
    'spack_spec': 'a rebuilt software stack',
    'spack_env': 'another software environment',
    'node': 'other nodes',
    'suite_commit': 'a new version of the test suite',
}

#: The most characters of each side of a difference a line shows
WIDTH = 40

#: Nothing differs around a change
SAME = ('with nothing changed in the records (kernel, software, nodes, '
        'file system, machine settings)')

Line = collections.namedtuple('Line', 'night status text')


def _cut(values):
    text = ' | '.join(values) or '-'
    return text if len(text) <= WIDTH else text[:WIDTH - 3] + '...'


def causes(differences):
    '''``after the kernel update (a -> b) and ...`` of a change point's
    ``differences`` (``{field: {before: [...], after: [...]}}``).'''
    said = [f'{words} ({_cut(differences[name]["before"])} -> '
            f'{_cut(differences[name]["after"])})'
            for name, words in CAUSES.items() if name in differences]
    said += [f'a changed machine setting ({named})'
             for named in settings.said(differences)]
    said += [f'a change of {name}' for name in differences
             if name not in CAUSES and not name.startswith(settings.PREFIX)]
    if not said:
        return SAME
    return 'after ' + (said[0] if len(said) == 1 else
                       ', '.join(said[:-1]) + ' and ' + said[-1])


def _line(tile, when, pct, differences):
    how = (vocabulary.CHANGED if pct is None
           else status.moved(pct, tile.unit))
    if pct is None or how.startswith(('+', '-')):
        state = vocabulary.CHANGED
    elif how.endswith('slower'):
        state = vocabulary.DEGRADED
    else:
        state = vocabulary.IMPROVED
    return Line(when, state, f'{tile.partition} on {tile.system}: '
                f'{tile.words} {how} since {when}, {causes(differences)}')


def _event_line(event, mine):
    '''One line for an event (:mod:`..events`): every realistic figure
    of it (``mine``, tiles) and how it moved, since its night, what
    differs in the records around it, and its cause where an experiment
    found it (``microbench diagnose``).'''
    when = status.night(event.get('date'))
    moves = []
    for tile in mine:
        pct = status.change_pct(tile.verdict)
        moves.append(f'{tile.words} '
                     + (vocabulary.CHANGED if pct is None
                        else status.moved(pct, tile.unit)))
    states = {tile.status for tile in mine}
    state = next((s for s in status.STATUSES if s in states),
                 vocabulary.CHANGED)
    root = (f' (downstream of its measured {", ".join(event["root"])})'
            if event.get('root') else '')
    others = len(event.get('members') or ()) - len(mine)
    more = f' and {others} more figure(s) of the suite' if others > 0 \
        else ''
    tile = mine[0]
    found = event.get('diagnosis')
    tested = f'; cause: {found["label"]}' if found else ''
    return Line(when, state, f'{tile.partition} on {tile.system}: '
                f'{"; ".join(moves)}{more} since {when}{root}, '
                f'{causes(event.get("differences") or {})}{tested}')


def lines(tiles, events=()):
    '''The state changes of the ``tiles`` (:func:`status.tiles`) in plain
    words, newest first: each change point of a figure's history, and
    each of tonight's events (the compare JSON's ``events``) once, with
    every realistic figure of it.'''
    out, members = [], {}
    for tile in tiles:
        verdict = tile.verdict or {}
        current = (verdict.get('since_session') if tile.status not in
                   ('normal', 'unknown') else None)
        if current and verdict.get('event'):
            members.setdefault(verdict['event'], []).append(tile)
        for point in verdict.get('change_points') or ():
            if isinstance(point, dict) and point.get('session') != current:
                out.append(_line(tile, status.night(point.get('date')),
                                 point.get('change_pct'),
                                 point.get('differences') or {}))
    for event in events:
        mine = members.get(event.get('fingerprint'))
        if mine:
            out.append(_event_line(event, mine))
    return sorted(out, key=lambda line: line.night, reverse=True)


def node_lines(nights):
    '''One line for each slow or failed node of the newest vetting night
    of each partition (the compare JSON's ``nodes``: ``microbench vet``):
    a job the scheduler puts on it sees what its peers do not.'''
    out = []
    for night in nights:
        system, partition = night['partition'].split(':', 1)
        when = status.night(night.get('date'))
        for item in night['nodes']:
            if item['state'] != 'slow':
                continue
            worst = item['lines'][0].split(': ', 1)[-1] if item['lines'] \
                else 'its figures'
            out.append(Line(when, vocabulary.DEGRADED,
                            f'{partition} on {system}: '
                            f'node {item["node"]} slower than its peers '
                            f'({worst}; {item["persistence"]}): a job '
                            f'placed there sees it'))
        for node in night['failed']:
            out.append(Line(when, vocabulary.CHANGED,
                            f'{partition} on {system}: '
                            f'node {node} failed its vetting job'))
    return out
