'''The canvas every plot of the report is drawn on: one matplotlib axes
whose units are inches, boxes drawn by hand in it (an axes' ticks cost
more than all its data), each kind of shape drawn in one go.

Readable where it is read: every plot is drawn at most
:data:`PLOT_WIDTH_IN` wide at :data:`DPI`, with text at :data:`FONT_PT`,
and shown at its natural size, so that at 1280 px it fits the window and
its text is the page's.
'''

from collections import defaultdict

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

#: Pixels per inch: a plot is shown at its natural size
DPI = 100
#: The widest plot: 1200 px, inside a 1280 px window with the page's margins
PLOT_WIDTH_IN = 12.0
#: Text of the plots (10 pt at 100 dpi: 14 px, the size of the page's text)
FONT_PT = 10
#: Width of one character of that text, and the height of a line of it
CHAR_IN = 0.085
LINE_IN = 0.19
#: Room left of a box for its tick labels and its axis label
AXIS_IN = 1.05
#: Room right of the rightmost box
RIGHT_IN = 0.2
#: Length of a tick, and the gap between a tick and its label
TICK_IN = 0.05
TICK_GAP_IN = 0.07
#: Room above the top row for the plot's title (two lines)
TITLE_IN = 0.65

#: Not hinted (cheaper), no mathtext (a variant may hold a $)
RC = {'text.parse_math': False, 'font.size': FONT_PT,
      'figure.titlesize': FONT_PT + 1, 'text.hinting': 'no_hinting'}
#: A reference band
BAND = {'color': 'tab:green', 'alpha': 0.2, 'lw': 0}


def band(row):
    '''``(low, high)`` of a row's reference band, None for an open side;
    None without a reference (ref 0).'''
    ref, lower, upper = row['ref'], row['lower'], row['upper']
    if pd.isna(ref) or ref <= 0:
        return None
    return (None if pd.isna(lower) else ref * (1 + float(lower)),
            None if pd.isna(upper) else ref * (1 + float(upper)))


def limits(values, bands, gap):
    '''Limits that hold ``values``, the finite edges of ``bands``, and 1
    for a gap, with a margin.'''
    edges = [edge for one in bands if one for edge in one
             if edge is not None]
    every = np.concatenate([np.ravel(np.asarray(values, dtype=float)),
                            edges + [1.0] * gap])
    every = every[np.isfinite(every)]
    low, high = (every.min(), every.max()) if every.size else (0.0, 1.0)
    pad = (high - low) * 0.08 or abs(high) * 0.1 or 1.0
    return low - pad, high + pad


def rect(left, right, bottom, top):
    '''The corners of a rectangle.'''
    return [(left, bottom), (right, bottom), (right, top), (left, top)]


def scale(lim, start, size):
    '''The function taking values from ``lim`` to ``start`` .. ``start +
    size`` (inches).'''
    return lambda value: start + (np.asarray(value, dtype=float)
                                  - lim[0]) / (lim[1] - lim[0]) * size


def box(ax, parts, left, bottom, size, ylim, gap, shades):
    '''A plot's box at ``left``, ``bottom`` of ``size`` (inches), its y
    ticks, a dashed line at 1 for a gap, each band of ``shades``, ``(left,
    right, band)``, shaded (its open sides to the limits); the function
    taking y to inches.'''
    to_y, right = scale(ylim, bottom, size[1]), left + size[0]
    parts['boxes'].append(rect(left, right, bottom, bottom + size[1]))
    parts['bands'] += [
        rect(start, end, *to_y([ylim[0] if shade[0] is None else shade[0],
                                ylim[1] if shade[1] is None else shade[1]]))
        for start, end, shade in shades if shade is not None]
    for tick in MaxNLocator(5 if size[1] > 2 else 4).tick_values(*ylim):
        if ylim[0] <= tick <= ylim[1]:
            at = to_y(tick)
            parts['ticks'].append([(left - TICK_IN, at), (left, at)])
            ax.text(left - TICK_GAP_IN, at, f'{tick:.4g}', ha='right',
                    va='center')
    if gap:
        parts['ones'].append([(left, to_y(1)), (right, to_y(1))])
    return to_y


def canvas(width, height):
    '''A figure of one axes whose units are inches, and the lists of
    shapes (in inches) to draw in it at once (:func:`draw`).'''
    fig = plt.figure(figsize=(width, height), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1), xlim=(0, width), ylim=(0, height))
    ax.set_axis_off()
    return fig, ax, defaultdict(list)


def draw(ax, parts):
    '''Draw ``parts`` (:func:`canvas`), each kind in one go.'''
    def points(kind):
        return np.concatenate(parts[kind] or [np.empty((0, 2))]).T

    ax.add_collection(PolyCollection(parts['bands'], **BAND))
    ax.add_collection(PolyCollection(parts['bodies'], facecolor='tab:blue',
                                     edgecolor='tab:blue', alpha=0.3))
    ax.add_collection(PolyCollection(parts['boxes'], facecolor='none',
                                     edgecolor='k', lw=0.8))
    ax.add_collection(LineCollection(parts['ticks'], colors='k', lw=0.8))
    ax.add_collection(LineCollection(parts['ones'], colors='k', lw=0.8,
                                     ls='--'))
    ax.add_collection(LineCollection(parts['marks'], colors='tab:blue',
                                     lw=1.5))
    ax.add_collection(LineCollection(parts['changes'], colors='tab:orange',
                                     lw=1.2, ls='--'))
    ax.add_collection(LineCollection(parts['levels'], colors='tab:orange',
                                     lw=1.5))
    ax.plot(*points('bars'), color='0.55', lw=0.9)
    ax.plot(*points('points'), 'o', ms=4, color='tab:blue')
    ax.plot(*points('dots'), '.', ms=4, color='k')
    ax.plot(*points('red'), 'X', ms=8, color='tab:red')


def rows_of(widths):
    '''Panels of ``widths`` (each with the room left of it) in rows that
    fit :data:`PLOT_WIDTH_IN`: lists of their indices.'''
    rows, used = [[]], 0.0
    for index, width in enumerate(widths):
        if rows[-1] and used + AXIS_IN + width > PLOT_WIDTH_IN:
            rows.append([])
            used = 0.0
        rows[-1].append(index)
        used += AXIS_IN + width
    return rows
