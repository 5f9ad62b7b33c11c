'''The trend of each figure with samples of one pitfall (its check and
its gaps) over the sessions: each session's median and extrema, the
latest reference band, a red cross for a failure or a regression of the
comparison; one box per figure, :data:`COLUMNS` boxes per row.
'''

import matplotlib.dates as mdates
import numpy as np

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
          'failed its reference, or a regression in the comparison')


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


def _box(ax, parts, group, where, axis, regressed):
    '''One figure's sessions (``group``) in a box at ``where`` (left,
    bottom, width); ``axis``: :func:`date_axis`'s; ``regressed``: whether
    the comparison calls its latest session a regression.'''
    left, bottom, width = where
    xlim, xticks, xlabels = axis
    last = group.iloc[-1]
    band, gap = canvas.band(last), last['check'].endswith('_gap')
    ylim = canvas.limits([group['low'], group['high']], [band], gap)
    to_y = canvas.box(ax, parts, left, bottom, (width, BOX_IN), ylim, gap,
                      [(left, left + width, band)])
    to_x = canvas.scale(xlim, left, width)
    at = to_x(mdates.date2num(group['when'].to_numpy()))
    parts['bars'].append(np.column_stack([np.repeat(at, 3), to_y(
        np.column_stack([group['low'], group['high'],
                         np.full(len(group), np.nan)]).ravel())]))
    parts['points'].append(np.column_stack([at, to_y(group['value'])]))
    red = (group['result'] == 'fail').to_numpy()
    red[-1] |= regressed
    parts['red'].append(parts['points'][-1][red])
    for tick, label in zip(to_x(xticks), xlabels):
        parts['ticks'].append([(tick, bottom), (tick, bottom - TICK_IN)])
        ax.text(tick, bottom - TICK_GAP_IN, label, ha='center', va='top')


def figure(rows, bad, title):
    '''The trends of one pitfall's ``rows``, or None: nothing to plot.

    :arg bad: the keys (:data:`figures.KEY`) of the figures the comparison
        calls a regression.
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
    fig, ax, parts = canvas.canvas(pitch * columns, height)
    axis = date_axis(rows)
    environs = rows['environ'].nunique() > 1
    for index, ((environ, variant, name), group) in enumerate(groups):
        left = AXIS_IN + index % columns * pitch
        bottom = (height - TITLE_IN - (index // columns + 1) * row_pitch
                  + DATES_IN)
        last = group.iloc[-1]
        _box(ax, parts, group, (left, bottom, width), axis,
             tuple(last[key] for key in figures.KEY) in bad)
        ax.text(left + width / 2, bottom + BOX_IN + TICK_GAP_IN,
                f'{variant} {name} ({last["unit"]})'
                + (f' [{environ}]' if environs else ''),
                ha='center', va='bottom')
    canvas.draw(ax, parts)
    since, until = rows['when'].min(), rows['when'].max()
    fig.suptitle(f'{title}: {rows["session"].nunique()} sessions, '
                 f'{since:%Y-%m-%d %H:%M} .. {until:%Y-%m-%d %H:%M}\n{LEGEND}')
    return fig
