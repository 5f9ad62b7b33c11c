'''The paper's violin plots of one pitfall's latest session: the samples
of each variant of each ``*_median_*`` figure and of each gap (dashed line
at 1), median and extrema marked, reference bands shaded (an open side to
the plot's edge: a gap's bare direction ``[1, 0, None]`` is the half-plane
above 1).  One figure's violins are one panel; panels wrap into rows that
fit :data:`.canvas.PLOT_WIDTH_IN`.
'''

import numpy as np
import pandas as pd
from matplotlib import cbook, mlab

from microbench.verdicts.report import canvas
from microbench.verdicts.report.canvas import (AXIS_IN, CHAR_IN, LINE_IN,
                                               TICK_GAP_IN, TITLE_IN)

#: Each violin's slot, the least width and the height of a panel (one
#: figure's violins in one box), room under a box for the names and the
#: panel's label, and between two rows of panels
SLOT_IN = 0.85
PANEL_MIN_IN = 2.0
BOX_IN = 2.6
NAMES_IN = 0.55
ROW_GAP_IN = 0.25
#: Names longer than their slot are turned by this many degrees
TURN_DEGREES = 30
TURN_SIN = np.sin(np.radians(TURN_DEGREES))
TURN_COS = np.cos(np.radians(TURN_DEGREES))
#: Half the width of a violin's body, and of its median and extrema marks,
#: as a share of its slot
BODY_HALF = 0.35
MARK_HALF = 0.3
CAP_HALF = 0.15


def violins(parts, centres, slot, data, to_y):
    '''Each sample set of ``data`` as a violin at its ``centres``: its
    body, median and extrema marked, its samples as dots.'''
    for centre, samples in zip(centres, data):
        low, mid, high = to_y([samples.min(), np.median(samples),
                               samples.max()])
        if high > low:
            kde = cbook.violin_stats(samples, lambda kept, at: (
                mlab.GaussianKDE(kept).evaluate(at)))[0]
            half = kde['vals'] / kde['vals'].max() * BODY_HALF * slot
            at = to_y(kde['coords'])
            parts['bodies'].append(np.column_stack([
                np.concatenate([centre - half, (centre + half)[::-1]]),
                np.r_[at, at[::-1]]]))
        mark, cap = MARK_HALF * slot, CAP_HALF * slot
        parts['marks'] += [[(centre - mark, mid), (centre + mark, mid)],
                           [(centre, low), (centre, high)],
                           [(centre - cap, low), (centre + cap, low)],
                           [(centre - cap, high), (centre + cap, high)]]
        parts['dots'].append(np.column_stack([
            np.full(samples.size, centre), to_y(samples)]))


def _layout(names):
    '''Where the panels of ``names`` (the names of each panel's violins)
    go: each panel's width, whether its names are turned, how far down
    they reach, and the rows of panels with where each row starts.'''
    widths = [max(PANEL_MIN_IN, SLOT_IN * len(panel)) for panel in names]
    longest = [max(map(len, panel)) * CHAR_IN for panel in names]
    # names too long for their slot are turned: how far down they reach,
    # and how far left of its panel the first one does
    turned = [length > width / len(panel)
              for panel, length, width in zip(names, longest, widths)]
    depths = [length * TURN_SIN if turn else 0.0
              for length, turn in zip(longest, turned)]
    reaches = [len(panel[0]) * CHAR_IN * TURN_COS + LINE_IN * TURN_SIN
               - width / len(panel) / 2 if turn else 0.0
               for panel, width, turn in zip(names, widths, turned)]
    rows = canvas.rows_of(widths)
    starts = [max(AXIS_IN, reaches[row[0]] + TICK_GAP_IN) for row in rows]
    return widths, turned, depths, rows, starts


def _panel(sheet, parts, panel, kind, label, where, layout):
    '''One panel: one figure's violins (``kind``: the column naming them)
    in a box at ``where`` (left, bottom, width), its names under it and
    its axis label left of it; the sample count of each violin.'''
    left, bottom, width = where
    turned, depth = layout
    data = [np.asarray(samples if len(samples) else (value,), dtype=float)
            for samples, value in zip(panel['samples'], panel['value'])]
    bands = [canvas.band(row) for _, row in panel.iterrows()]
    gap = label == 'gap'
    ylim = canvas.limits(np.concatenate(data), bands, gap)
    slot = width / len(data)
    centres = left + (np.arange(len(data)) + 0.5) * slot
    to_y = canvas.box(sheet, parts, left, bottom, (width, BOX_IN), ylim, gap,
                      [(centre - 0.4 * slot, centre + 0.4 * slot, one)
                       for centre, one in zip(centres, bands)])
    violins(parts, centres, slot, data, to_y)
    for centre, name in zip(centres, panel[kind]):
        sheet.text(centre, bottom - TICK_GAP_IN, name,
                   rotation=TURN_DEGREES if turned else 0,
                   ha='right' if turned else 'center', va='top')
    sheet.text(left + width / 2, bottom - NAMES_IN + LINE_IN - depth,
               'gap' if gap else kind, ha='center', va='top')
    sheet.text(left - AXIS_IN + LINE_IN, bottom + BOX_IN / 2,
               f'{label}\n({panel["unit"].iloc[0]})', rotation=90,
               ha='center', va='center')
    return [samples.size for samples in data]


def figure(rows, gaps, title):
    '''The paper's figure of one pitfall's session (its check's ``rows``
    and its gap check's ``gaps``), or None: nothing to plot.'''
    panels = [(rows[rows['figure'] == name], 'variant', name)
              for name in pd.unique(rows['figure']) if '_median_' in name]
    panels += [(gaps, 'figure', 'gap')] if len(gaps) else []
    if not panels:
        return None

    names = [list(panel[kind]) for panel, kind, _ in panels]
    widths, turned, depths, panel_rows, starts = _layout(names)
    heights = [BOX_IN + NAMES_IN + max(depths[index] for index in row)
               for row in panel_rows]
    width = max(start - AXIS_IN + sum(AXIS_IN + widths[index]
                                      for index in row)
                for start, row in zip(starts, panel_rows))
    height = TITLE_IN + sum(heights) + ROW_GAP_IN * (len(panel_rows) - 1)
    fig, sheet, parts = canvas.canvas(width + canvas.RIGHT_IN, height)
    top, counts = height - TITLE_IN, []
    for row, row_height, left in zip(panel_rows, heights, starts):
        for index in row:
            counts += _panel(sheet, parts, *panels[index],
                             (left, top - BOX_IN, widths[index]),
                             (turned[index], depths[index]))
            left += widths[index] + AXIS_IN
        top -= row_height + ROW_GAP_IN
    canvas.draw(sheet, parts)
    many = sorted({min(counts), max(counts)})
    fig.suptitle(f'{title}\n{"..".join(map(str, many))} samples per violin')
    return fig
