'''The trend of each figure with samples of one pitfall (its check and
its gaps) over the sessions: each session's median and extrema, the
latest reference band, a red cross for a failure or a regression of the
comparison (a change point found tonight, or tonight's single-night
alarm), and each change point of the comparison: a dashed line at the
night it began, the levels before and after it (the means of the night
summaries); one box per figure, :data:`COLUMNS` boxes per row.
'''

import matplotlib.dates as mdates
import numpy as np
import pandas as pd

from microbench.verdicts import figures
from microbench.verdicts.report import canvas
from microbench.verdicts.report.canvas import (AXIS_IN, PLOT_WIDTH_IN,
                                               TICK_GAP_IN, TICK_IN,
                                               TITLE_IN)

#: Boxes per row, a box's height, and room above it (its title) and under
#: it (the dates)
COLUMNS = 3
BOX_IN = 1.6
BOX_TITLE_IN = 0.35
DATES_IN = 0.45
LEGEND = ('bars: least to largest sample; shaded: reference band; red X: '
          'failed its reference, or a regression in the comparison;\n'
          'orange: a change point (dashed: its night; lines: the levels '
          'before and after)')


def date_axis(rows):
    '''The x limits (matplotlib's date numbers) of ``rows``' sessions, and
    the ticks with their labels.'''
    first = mdates.date2num(rows['when'].min())
    last = mdates.date2num(rows['when'].max())
    margin = (last - first) * 0.04 or 0.5
    xlim = (first - margin, last + margin)
    locator = mdates.AutoDateLocator(minticks=2, maxticks=5)
    ticks = locator.tick_values(*mdates.num2date(xlim))
    ticks = ticks[(ticks >= xlim[0]) & (ticks <= xlim[1])]
    return xlim, ticks, mdates.ConciseDateFormatter(locator).format_ticks(
        ticks)


def _changes(parts, points, to_x, to_y, span, bottom):
    '''A figure's change points: a dashed line at each one's night, and
    its levels before and after, each from the change point before (or
    the box's left ``span[0]``) to the one after (or ``span[1]``).'''
    ats = [to_x(mdates.date2num(pd.Timestamp(p['date']))) for p in points]
    for index, (point, at) in enumerate(zip(points, ats)):
        parts['changes'].append([(at, bottom), (at, bottom + BOX_IN)])
        start = ats[index - 1] if index else span[0]
        end = ats[index + 1] if index + 1 < len(ats) else span[1]
        for left, right, level in ((start, at, point['mean_before']),
                                   (at, end, point['mean_after'])):
            y = float(to_y(level))
            if bottom <= y <= bottom + BOX_IN:
                parts['levels'].append([(left, y), (right, y)])


def _box(sheet, parts, group, where, axis, mark):
    '''One figure's sessions (``group``) in a box at ``where`` (left,
    bottom, width); ``axis``: :func:`date_axis`'s; ``mark``: what the
    comparison says of it (whether tonight is a regression, its change
    points).'''
    left, bottom, width = where
    xlim, xticks, xlabels = axis
    last = group.iloc[-1]
    band, gap = canvas.band(last), last['check'].endswith('_gap')
    ylim = canvas.limits([group['low'], group['high']], [band], gap)
    to_y = canvas.box(sheet, parts, left, bottom, (width, BOX_IN), ylim, gap,
                      [(left, left + width, band)])
    to_x = canvas.scale(xlim, left, width)
    at = to_x(mdates.date2num(group['when'].to_numpy()))
    parts['bars'].append(np.column_stack([np.repeat(at, 3), to_y(
        np.column_stack([group['low'], group['high'],
                         np.full(len(group), np.nan)]).ravel())]))
    parts['points'].append(np.column_stack([at, to_y(group['value'])]))
    red = (group['result'] == 'fail').to_numpy()
    red[-1] |= mark.get('alarm', False)
    parts['red'].append(parts['points'][-1][red])
    _changes(parts, mark.get('points', ()), to_x, to_y,
             (to_x(xlim[0]), to_x(xlim[1])), bottom)
    for tick, label in zip(to_x(xticks), xlabels):
        parts['ticks'].append([(tick, bottom), (tick, bottom - TICK_IN)])
        sheet.text(tick, bottom - TICK_GAP_IN, label, ha='center', va='top')


def figure(rows, marks, title):
    '''The trends of one pitfall's ``rows``, or None: nothing to plot.

    :arg marks: {key (:data:`figures.KEY`): {'alarm': bool, 'points':
        change points}} of the comparison's figures.
    '''
    rows = rows[rows['low'].notna()]
    groups = list(rows.groupby(['environ', 'variant', 'figure'], sort=False))
    if not groups:
        return None

    columns = min(COLUMNS, len(groups))
    pitch = PLOT_WIDTH_IN / COLUMNS
    width = pitch - AXIS_IN - canvas.RIGHT_IN
    row_pitch = BOX_TITLE_IN + BOX_IN + DATES_IN
    height = TITLE_IN + row_pitch * -(-len(groups) // columns)
    fig, sheet, parts = canvas.canvas(pitch * columns, height)
    axis = date_axis(rows)
    environs = rows['environ'].nunique() > 1
    for index, ((environ, variant, name), group) in enumerate(groups):
        left = AXIS_IN + index % columns * pitch
        bottom = (height - TITLE_IN - (index // columns + 1) * row_pitch
                  + DATES_IN)
        last = group.iloc[-1]
        _box(sheet, parts, group, (left, bottom, width), axis,
             marks.get(tuple(last[key] for key in figures.KEY), {}))
        sheet.text(left + width / 2, bottom + BOX_IN + TICK_GAP_IN,
                   f'{variant} {name} ({last["unit"]})'
                   + (f' [{environ}]' if environs else ''),
                   ha='center', va='bottom')
    canvas.draw(sheet, parts)
    since, until = rows['when'].min(), rows['when'].max()
    fig.suptitle(f'{title}: {rows["session"].nunique()} sessions, '
                 f'{since:%Y-%m-%d %H:%M} .. {until:%Y-%m-%d %H:%M}\n{LEGEND}')
    return fig
