'''What a user sees of each realistic figure: a *tile*.

A tile is one figure of one partition (:mod:`.realistic`): today's value
(the figure's night summary in the last session: the median of its
samples), its share of the partition's limit where one is known (the
``share_of_limit`` column of the figures, when the frame has it), the
data a storage figure touched over a node's memory (its
``data_to_memory`` record: :mod:`microbench.suite.memory`), its
last :data:`NIGHTS` nights (:mod:`.sparkline`), and a status from the
nightly verdict (:mod:`microbench.verdicts.nightly`):

- ``normal``: ``unchanged``;
- ``degraded since <night>: 31 % slower``: a ``regression`` (found
  tonight) or ``degraded`` (found before and still holding), the night
  the change began and how much the level moved (the change point's
  change, else tonight against the nights before it);
- ``improved since <night>: 12 % faster``: ``improvement``, ``improved``;
- ``unknown: too little history (3 nights, needs 14)``: ``inconclusive``;
  ``unknown: not measured in the last session``: the figure has no
  verdict tonight;
- an acknowledged change (``acknowledged``): the status of the verdict
  it acknowledges, saying so (``degraded since ...: 31 % slower
  (acknowledged, known: ...)``); a night acknowledged as noise is
  ``normal``, saying so; a slower first run that its confirmation rerun
  did not confirm (``unconfirmed``) is ``normal``, saying so.

Slower and faster read the same for every unit: a bandwidth or a rate
that drops, a latency that grows, is slower.
'''

import collections
import re

import pandas as pd

from microbench import components
from microbench.verdicts import events, figures, history, rule, vocabulary
from microbench.verdicts.weather import realistic
from microbench.verdicts.weather.sparkline import number

#: Nights a sparkline shows
NIGHTS = 30

#: A nightly verdict -> a user's status
STATUS = vocabulary.status_of()

#: Where a limit comes from, as its ``limit_name`` record says it
#: (``storage_write_mib_s (measured)``, ``... (declared)``)
_SOURCE = re.compile(r'\((measured|declared)\b')

#: The statuses, from the one a user must see first
STATUSES = tuple(vocabulary.STATUSES)

#: One figure's tile; ``limit``: the text of the limit of its ``share``,
#: or, without a share, why its measured limit was withheld
Tile = collections.namedtuple('Tile', [
    'system', 'partition', 'environ', 'check', 'variant', 'figure',
    'words', 'group', 'unit', 'value', 'when', 'share', 'limit', 'nights',
    'status', 'text', 'since', 'verdict', 'memory'])


def moved(pct, unit):
    '''``31 % slower``: a change of ``pct`` % of a figure in ``unit``.'''
    better = rule.BETTER.get(unit, 0)
    if not better:
        return f'{pct:+.0f} %'
    return f'{abs(pct):.0f} % {"faster" if pct * better > 0 else "slower"}'


#: How much a changed figure's level moved, in % (None: not known)
change_pct = events.change_pct


def night(date):
    '''A verdict's date (``YYYY-MM-DD HH:MM``) as its night.'''
    return str(date)[:10] if date else '?'


def status(verdict, unit):
    '''``(status, its text, the night the change began or None)`` of a
    figure's nightly ``verdict`` (a dict of the compare JSON), or of no
    verdict.'''
    if verdict is None:
        return 'unknown', 'unknown: not measured in the last session', None
    if verdict.get('verdict') == vocabulary.UNCONFIRMED:
        return 'normal', ('normal: tonight\'s first run was slower, its '
                          'confirmation rerun was not (a lone night)'), None
    if verdict.get('verdict') == vocabulary.ACKNOWLEDGED:
        return _acknowledged(verdict, unit)
    found = STATUS.get(verdict.get('verdict'), 'unknown')
    if found == 'normal':
        return found, 'normal', None
    if found == 'unknown':
        why = str(verdict.get('why') or 'no verdict')
        if why.startswith('history: '):
            why = 'too little history (' + why.removeprefix('history: ') \
                + ')'
        return found, f'unknown: {why}', None
    since = night(verdict.get('since_date'))
    pct = change_pct(verdict)
    how = f': {moved(pct, unit)}' if pct is not None else ''
    return found, f'{found} since {since}{how}', since


def _acknowledged(verdict, unit):
    '''The status of an acknowledged change: that of the verdict it
    acknowledges, saying so; ``normal`` for a night acknowledged as
    noise.'''
    ack = verdict.get('ack') or {}
    said = f'{ack.get("kind")}: {ack.get("reason")}'
    if ack.get('kind') == 'noise':
        return 'normal', f'normal: tonight acknowledged as noise ({said})', \
            None
    found, text, since = status({**verdict, 'verdict': verdict.get(
        'verdict_unacknowledged')}, unit)
    return found, f'{text} (acknowledged, {said})', since


def _share(row):
    '''``(share of the limit in %, the limit's text)`` of a figure's row:
    the limit's value and where it comes from (``1,907 MiB/s,
    measured``); ``(None, why)`` where its measured limit was withheld
    (:func:`microbench.components.withheld_text`); Nones where the
    figures have no such column, or no limit is known.'''
    share = row.get('share_of_limit')
    if share is None or pd.isna(share):
        reason = components.withheld_reason(row.get('limit_name'))
        if reason is None:
            return None, None
        return None, components.withheld_text(row['system'],
                                              row['partition'], reason)
    limit = row.get('limit_value')
    source = _SOURCE.search(str(row.get('limit_name') or ''))
    text = (f'{number(float(limit))} {row["unit"]}'
            + (f', {source[1]}' if source else '')
            if limit is not None and not pd.isna(limit) else None)
    return float(share), text


def _memory(row):
    '''The data a storage figure's row touched on a node over the node's
    memory (``0.05x memory, 0.2x client cache``), or None: the figures
    have no such column, or the figure no ratio.'''
    said = row.get(figures.MEMORY)
    return said if isinstance(said, str) and said else None


def tiles(frame, verdicts):
    '''The tiles of every realistic figure with a night among each
    partition's last :data:`NIGHTS` sessions of ``frame`` (rows of
    :func:`figures.load`), in the page's order; ``verdicts``: the nightly
    verdicts (the dicts of the compare JSON's ``figures``).'''
    mine = realistic.pick(frame)
    table = history.nights(mine, last=NIGHTS)
    if table.empty:
        return []
    # the last night: its first session and its confirmation rerun
    _, last = list(history.sessions_of_nights(frame).items())[-1]
    judged = {tuple(v.get(k) for k in history.KEY): v for v in verdicts}
    today = mine[mine['session'].isin(last)].sort_values(
        'start', kind='stable').drop_duplicates(
        history.KEY, keep='last').set_index(history.KEY)
    out = []
    for key, rows in history.series(table).items():
        info = dict(zip(history.KEY, key))
        said = realistic.words(info['check'], info['variant'],
                               info['figure'])
        unit = rows['unit'].iloc[-1]
        verdict = judged.get(key) if key in today.index else None
        state, text, since = status(verdict, unit)
        row = today.loc[key].to_dict() if key in today.index else None
        share, limit = (_share({**row, **info, 'unit': unit})
                        if row is not None else (None, None))
        out.append(Tile(
            **info, words=said.words, group=said.group, unit=unit,
            value=float(rows['night'].iloc[-1]),
            when=rows['when'].iloc[-1], share=share, limit=limit,
            nights=list(zip(rows['when'], rows['night'].astype(float))),
            status=state, text=text, since=since, verdict=verdict,
            memory=_memory(row) if row is not None else None))
    return sorted(out, key=lambda tile: (
        tile.system, tile.partition, realistic.ORDER[
            (tile.check, tile.variant, tile.figure)], tile.environ))


def partitions(found):
    '''``{(system, partition): [tiles]}`` of :func:`tiles`, in order.'''
    out = {}
    for tile in found:
        out.setdefault((tile.system, tile.partition), []).append(tile)
    return out


def worst(found):
    '''The worst status among the tiles ``found``.'''
    states = {tile.status for tile in found}
    return next((s for s in STATUSES if s in states), 'unknown')
