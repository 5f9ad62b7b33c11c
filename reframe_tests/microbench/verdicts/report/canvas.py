'''The canvas every plot of the report is drawn on: a bare matplotlib
figure whose units are inches (:class:`Sheet`), boxes drawn by hand on it
(an axes' ticks cost more than all its data), each kind of shape drawn in
one go.  No axes and no pyplot at all: making them, and clipping every
text to the axes, was a fifth of the drawing, and the pixels are the same
without them (:class:`Sheet` composes the transform an axes would).

Readable where it is read: every plot is drawn at most
:data:`PLOT_WIDTH_IN` wide at :data:`DPI`, with text at :data:`FONT_PT`,
and shown at its natural size, so that at 1280 px it fits the window and
its text is the page's.
'''

import io
from collections import defaultdict

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import Bbox, BboxTransformFrom, BboxTransformTo

#: Pixels per inch: a plot is shown at its natural size
DPI = 100
#: zlib's level for a plot's PNG: past 3 the files shrink little for the
#: time it takes
PNG_LEVEL = 3
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


def box(sheet, parts, left, bottom, size, ylim, gap, shades):
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
            sheet.text(left - TICK_GAP_IN, at, f'{tick:.4g}', ha='right',
                       va='center')
    if gap:
        parts['ones'].append([(left, to_y(1)), (right, to_y(1))])
    return to_y


class Sheet:
    '''A figure whose units are inches: its shapes, lines and texts are
    the figure's own, drawn in the order an axes over the whole figure
    draws them (their kinds' z-order: shapes, lines, texts).'''

    def __init__(self, fig, width, height):
        self.fig = fig
        # inches to pixels composed as an axes over the whole figure with
        # these limits composes it: the same pixels to the last one
        self.transform = (BboxTransformFrom(Bbox.from_bounds(0, 0, width,
                                                             height))
                          + BboxTransformTo(fig.bbox))

    def text(self, x, y, text, **kwargs):
        '''A text at ``x``, ``y`` (inches).'''
        return self.fig.text(x, y, text, transform=self.transform, **kwargs)

    def add(self, artist):
        '''A shape (its points in inches).'''
        artist.set_transform(self.transform)
        self.fig.add_artist(artist)

    def plot(self, points, marker=None, **kwargs):
        '''A line through ``points`` (x and y), or their markers alone.'''
        self.add(Line2D(*points, marker=marker,
                        linestyle='None' if marker else '-', **kwargs))


def figure(width, height):
    '''A figure of ``width`` by ``height`` inches at :data:`DPI`, drawn
    by Agg (to a PNG: :func:`png`).'''
    fig = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def canvas(width, height):
    '''A figure whose units are inches (:class:`Sheet`), and the lists of
    shapes (in inches) to draw on it at once (:func:`draw`).'''
    fig = figure(width, height)
    return fig, Sheet(fig, width, height), defaultdict(list)


def draw(sheet, parts):
    '''Draw ``parts`` (:func:`canvas`), each kind in one go.'''
    def points(kind):
        return np.concatenate(parts[kind] or [np.empty((0, 2))]).T

    sheet.add(PolyCollection(parts['bands'], **BAND))
    sheet.add(PolyCollection(parts['bodies'], facecolor='tab:blue',
                             edgecolor='tab:blue', alpha=0.3))
    sheet.add(PolyCollection(parts['boxes'], facecolor='none',
                             edgecolor='k', lw=0.8))
    sheet.add(LineCollection(parts['ticks'], colors='k', lw=0.8))
    sheet.add(LineCollection(parts['ones'], colors='k', lw=0.8, ls='--'))
    sheet.add(LineCollection(parts['marks'], colors='tab:blue', lw=1.5))
    sheet.add(LineCollection(parts['changes'], colors='tab:orange', lw=1.2,
                             ls='--'))
    sheet.add(LineCollection(parts['levels'], colors='tab:orange', lw=1.5))
    sheet.plot(points('bars'), color='0.55', lw=0.9)
    sheet.plot(points('points'), 'o', ms=4, color='tab:blue')
    sheet.plot(points('dots'), '.', ms=4, color='k')
    sheet.plot(points('red'), 'X', ms=8, color='tab:red')


def png(fig):
    '''The PNG of a figure (made and drawn under :data:`RC`:
    :func:`drawing`), written by matplotlib at :data:`DPI`, deflated at
    :data:`PNG_LEVEL`.'''
    out = io.BytesIO()
    fig.savefig(out, format='png', dpi=DPI,
                pil_kwargs={'compress_level': PNG_LEVEL})
    return out.getvalue()


def drawing():
    '''The settings a plot is made and saved under (:data:`RC`).'''
    return matplotlib.rc_context(RC)


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
