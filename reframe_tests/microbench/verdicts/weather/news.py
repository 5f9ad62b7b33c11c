'''The state changes, one line each in plain words.

A state change is a change point of a realistic figure's history (the
nightly verdict's ``change_points``: the night it began, the levels
before and after it, what differs between the records of the night
before and that night), or a change the test of the last nights found
without a change point yet (then the records of the night before the
change and of its first night are compared here, as the verdict does
for a change point: :func:`microbench.verdicts.compare.differences`)::

    lustre on slurm_cluster: O_DIRECT writes 31 % slower since
    2026-11-20, after the kernel update (6.1.0 -> 6.8.0)

Newest first.  What differs is said in :data:`CAUSES`' words and order,
each with its values (cut to :data:`WIDTH` characters a side).
'''

import collections

from microbench.verdicts import compare
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
        'file system)')

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
    said += [f'a change of {name}' for name in differences
             if name not in CAUSES]
    if not said:
        return SAME
    return 'after ' + (said[0] if len(said) == 1 else
                       ', '.join(said[:-1]) + ' and ' + said[-1])


def _line(tile, when, pct, differences):
    how = 'changed' if pct is None else status.moved(pct, tile.unit)
    state = ('changed' if pct is None or how.startswith(('+', '-')) else
             'degraded' if how.endswith('slower') else 'improved')
    return Line(when, state, f'{tile.partition} on {tile.system}: '
                f'{tile.words} {how} since {when}, {causes(differences)}')


def _unpointed(tile, frame):
    '''The records' differences around a change the last nights' test
    found (no change point at its first night): the night before it
    against its first night, in the tile's partition.'''
    since = tile.verdict.get('since_session')
    rows = frame[(frame['system'] == tile.system)
                 & (frame['partition'] == tile.partition)]
    order = rows.drop_duplicates('session').sort_values('start')[
        'session'].tolist()
    if since not in order or order.index(since) == 0:
        return {}
    before = order[order.index(since) - 1]
    found = compare.differences(rows[rows['session'] == before],
                                rows[rows['session'] == since])
    return {name: {'before': lhs, 'after': rhs}
            for name, (lhs, rhs) in found.items()}


def lines(tiles, frame):
    '''The state changes of the ``tiles`` (:func:`status.tiles`) in plain
    words, newest first; ``frame``: the figures (for a change with no
    change point).'''
    out = []
    for tile in tiles:
        verdict = tile.verdict or {}
        points = [p for p in verdict.get('change_points') or ()
                  if isinstance(p, dict)]
        for point in points:
            out.append(_line(tile, status.night(point.get('date')),
                             point.get('change_pct'),
                             point.get('differences') or {}))
        pointed = {p.get('session') for p in points}
        if tile.status not in ('normal', 'unknown') and \
                verdict.get('since_session') not in pointed:
            out.append(_line(tile, tile.since, status.change_pct(verdict),
                             _unpointed(tile, frame)))
    return sorted(out, key=lambda line: line.night, reverse=True)
