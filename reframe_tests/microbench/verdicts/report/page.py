'''One self-contained HTML page of the results storage's figures.

:func:`render` writes ``report.html`` (PNG plots as data URIs, inline CSS)
and each plot as a PNG file beside it.  Plots first: per pitfall (a check
and its ``<check>_gap``), the paper's violin plots of its latest session,
the samples of each variant of each ``*_median_*`` figure and of each gap
(dashed line at 1), median and extrema marked, reference bands shaded (an
open side to the plot's edge: a gap's bare direction ``[1, 0, None]`` is
the half-plane above 1); per check, each figure with samples over the
sessions (each session's median and extrema, the latest band, a red cross
for a failure or a regression of the comparison).  Then the comparison's
verdicts, worst first, and the latest figures.

Readable where it is read: every plot is drawn at most :data:`PLOT_WIDTH_IN`
wide at :data:`DPI`, with text at :data:`FONT_PT`, and shown at its natural
size, so that at 1280 px it fits the window and its text is the page's;
on a narrower screen (a phone) a plot and a table scroll inside their own
box, and the page itself never scrolls sideways.  A year of nightly
sessions takes seconds: boxes drawn by hand in one axes (an axes' ticks
cost more than all its data), plots drawn in parallel.
'''

import base64
import html
import io
import os
import re
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import matplotlib
matplotlib.use('Agg')
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib import cbook, mlab  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa
from matplotlib.ticker import MaxNLocator  # noqa: E402

from microbench.verdicts import storage  # noqa: E402
from microbench.verdicts.rule import VERDICTS  # noqa: E402

KEY = storage.key_columns()

# -- the plots' layout, in inches (a plot is drawn in one axes whose units
#    are inches: :func:`_canvas`) --------------------------------------------

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
#: Length of a tick, and the gap between a tick and its label
TICK_IN = 0.05
TICK_GAP_IN = 0.07
#: Room above the top row for the plot's title (two lines)
TITLE_IN = 0.65

#: Violin plots: each violin's slot, the least width and the height of a
#: panel (one figure's violins in one box), room under a box for the
#: names and the panel's label, and between two rows of panels
SLOT_IN = 0.85
PANEL_MIN_IN = 2.0
VIOLIN_BOX_IN = 2.6
NAMES_IN = 0.55
ROW_GAP_IN = 0.25
#: Names longer than their slot are turned by this many degrees
TURN_DEGREES = 30
TURN_SIN, TURN_COS = np.sin(np.radians(TURN_DEGREES)), np.cos(
    np.radians(TURN_DEGREES))
#: Half the width of a violin's body, and of its median and extrema marks,
#: as a share of its slot
BODY_HALF = 0.35
MARK_HALF = 0.3
CAP_HALF = 0.15

#: Trend plots: panels per row, a panel's height, and room above it (its
#: title) and under it (the dates)
TREND_COLUMNS = 3
TREND_BOX_IN = 1.6
TREND_TITLE_IN = 0.35
TREND_DATES_IN = 0.45
TREND_RIGHT_IN = 0.2

#: Drawing the plots is most of the work: a process per core
WORKERS = min(4, os.cpu_count() or 1)
#: Not hinted (cheaper), no mathtext (a variant may hold a $)
RC = {'text.parse_math': False, 'font.size': FONT_PT,
      'figure.titlesize': FONT_PT + 1, 'text.hinting': 'no_hinting'}
BAND = {'color': 'tab:green', 'alpha': 0.2, 'lw': 0}
LEGEND = ('bars: least to largest sample; shaded: reference band; red X: '
          'failed its reference, or a regression in the comparison')

# -- the page ---------------------------------------------------------------

#: Plots at their natural size (never squeezed: their text stays
#: readable); a plot or a table wider than the window scrolls in its box
CSS = ('body{font-family:sans-serif;font-size:15px;margin:16px;'
       'line-height:1.35}h1{font-size:26px}h2{font-size:21px;margin-top:'
       '1.6em}h3{font-size:17px}.scroll{overflow-x:auto;max-width:100%}'
       'img.plot{display:block;max-width:none}'
       'table{border-collapse:collapse;font-size:13px}th,td{border:1px '
       'solid #ccc;padding:3px 6px;white-space:nowrap;text-align:left}'
       'th{background:#f2f2f2}td.num{text-align:right}td.why{white-space:'
       'normal;color:#444;padding-left:2em;border-top:none}'
       '.regression,.fail{background:#f4b3b3}.improvement{background:'
       '#bfe6bf}.inconclusive,.changed{background:#f8dc94}')

#: The verdict table's columns: heading, what a cell shows (a column of
#: the comparison, or a function of its row); each row's ``why`` is a line
#: of its own under it
VERDICT_COLUMNS = [
    ('partition', lambda v: f'{v.get("system")}:{v.get("partition")}'),
    ('check', 'check'), ('variant', 'variant'), ('figure', 'figure'),
    ('verdict', 'verdict'), ('before', 'median_before'),
    ('after', 'median_after'), ('unit', 'unit'), ('ratio', 'ratio'),
    ('interval', lambda v: f'{_short(v.get("ci_low"))} .. '
                           f'{_short(v.get("ci_high"))}'),
    ('p', 'p'),
    ('band', lambda v: f'{_short(v.get("band_low"))} .. '
                       f'{_short(v.get("band_high"))} '
                       f'({v.get("band_from")})'),
    ('samples', lambda v: f'{v.get("n_before")} / {v.get("n_after")}'),
    ('sessions', lambda v: f'{v.get("sessions_before")} / '
                           f'{v.get("sessions_after")}'),
]
VERDICT_NOTE = ('before and after: the medians of the two sides; ratio: '
                'after over before, with its bootstrap interval; band: '
                'of the ratio, and where it comes from; samples and '
                'sessions: before / after; under each figure, why it has '
                'its verdict')


def _fmt(value):
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return '-'
    return f'{value:.4g}' if isinstance(value, float) else str(value)


def _short(value):
    '''A bound of an interval or a band: three digits.'''
    return '-' if value is None or pd.isna(value) else f'{value:.3g}'


def _band(row):
    '''``(low, high)`` of a row's reference band, None for an open side;
    None without a reference (ref 0).'''
    ref, lower, upper = row['ref'], row['lower'], row['upper']
    if pd.isna(ref) or ref <= 0:
        return None
    return (None if pd.isna(lower) else ref * (1 + float(lower)),
            None if pd.isna(upper) else ref * (1 + float(upper)))


def _band_text(band):
    low, high = band or (None, None)
    if low is None and high is None:
        return '-'
    if high is None:
        return f'>= {low:.4g}'
    if low is None:
        return f'<= {high:.4g}'
    return f'{low:.4g} .. {high:.4g}'


def _latest(rows):
    '''The rows of the latest session among ``rows``.'''
    return rows[rows['session'] == rows.loc[rows['start'].idxmax(),
                                            'session']]


def _limits(values, bands, gap):
    '''Limits that hold ``values``, the finite edges of ``bands``, and 1
    for a gap, with a margin.'''
    edges = [edge for band in bands if band for edge in band
             if edge is not None]
    every = np.concatenate([np.ravel(np.asarray(values, dtype=float)),
                            edges + [1.0] * gap])
    every = every[np.isfinite(every)]
    low, high = (every.min(), every.max()) if every.size else (0.0, 1.0)
    pad = (high - low) * 0.08 or abs(high) * 0.1 or 1.0
    return low - pad, high + pad


def _rect(x0, x1, y0, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _scale(lim, start, size):
    '''The function taking values from ``lim`` to ``start`` .. ``start +
    size`` (inches).'''
    return lambda value: start + (np.asarray(value, dtype=float)
                                  - lim[0]) / (lim[1] - lim[0]) * size


def _box(ax, parts, left, bottom, size, ylim, gap, shades):
    '''A plot's box at ``left``, ``bottom`` of ``size`` (inches), its y
    ticks, a dashed line at 1 for a gap, each band of ``shades``, ``(x0,
    x1, band)``, shaded (its open sides to the limits); the function taking
    y to inches.'''
    to_y, right = _scale(ylim, bottom, size[1]), left + size[0]
    parts['boxes'].append(_rect(left, right, bottom, bottom + size[1]))
    parts['bands'] += [
        _rect(x0, x1, *to_y([ylim[0] if band[0] is None else band[0],
                             ylim[1] if band[1] is None else band[1]]))
        for x0, x1, band in shades if band is not None]
    for tick in MaxNLocator(5 if size[1] > 2 else 4).tick_values(*ylim):
        if ylim[0] <= tick <= ylim[1]:
            at = to_y(tick)
            parts['ticks'].append([(left - TICK_IN, at), (left, at)])
            ax.text(left - TICK_GAP_IN, at, f'{tick:.4g}', ha='right',
                    va='center')
    if gap:
        parts['ones'].append([(left, to_y(1)), (right, to_y(1))])
    return to_y


def _canvas(width, height):
    '''A figure of one axes whose units are inches, and the lists of
    shapes (in inches) to draw in it at once (:func:`_draw`).'''
    fig = plt.figure(figsize=(width, height), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1), xlim=(0, width), ylim=(0, height))
    ax.set_axis_off()
    return fig, ax, defaultdict(list)


def _draw(ax, parts):
    '''Draw ``parts`` (:func:`_canvas`), each kind in one go.'''
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
    ax.plot(*points('bars'), color='0.55', lw=0.9)
    ax.plot(*points('points'), 'o', ms=4, color='tab:blue')
    ax.plot(*points('dots'), '.', ms=4, color='k')
    ax.plot(*points('red'), 'X', ms=8, color='tab:red')


def _rows_of(widths):
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


def _violins(ax, parts, xs, slot, data, to_y):
    '''Each sample set of ``data`` as a violin at its ``xs``: its body,
    median and extrema marked, its samples as dots.'''
    for x, samples in zip(xs, data):
        low, mid, high = to_y([samples.min(), np.median(samples),
                               samples.max()])
        if high > low:
            kde = cbook.violin_stats(samples, lambda s, at: mlab.GaussianKDE(
                s).evaluate(at))[0]
            half = kde['vals'] / kde['vals'].max() * BODY_HALF * slot
            at = to_y(kde['coords'])
            parts['bodies'].append(np.column_stack([np.concatenate(
                [x - half, (x + half)[::-1]]), np.r_[at, at[::-1]]]))
        mark, cap = MARK_HALF * slot, CAP_HALF * slot
        parts['marks'] += [[(x - mark, mid), (x + mark, mid)],
                           [(x, low), (x, high)],
                           [(x - cap, low), (x + cap, low)],
                           [(x - cap, high), (x + cap, high)]]
        parts['dots'].append(np.column_stack([np.full(samples.size, x),
                                              to_y(samples)]))


def _violin_figure(rows, gaps, title):
    '''The paper's figure of one pitfall's session, or None.'''
    panels = [(rows[rows['figure'] == figure], 'variant', figure)
              for figure in pd.unique(rows['figure'])
              if '_median_' in figure]
    panels += [(gaps, 'figure', 'gap')] if len(gaps) else []
    if not panels:
        return None

    names = [list(panel[kind]) for panel, kind, _ in panels]
    widths = [max(PANEL_MIN_IN, SLOT_IN * len(n)) for n in names]
    longest = [max(map(len, n)) * CHAR_IN for n in names]
    # names too long for their slot are turned: how far down they reach,
    # and how far left of its panel the first one does
    turned = [length > width / len(n)
              for n, length, width in zip(names, longest, widths)]
    depths = [length * TURN_SIN if turn else 0.0
              for length, turn in zip(longest, turned)]
    reaches = [len(n[0]) * CHAR_IN * TURN_COS + LINE_IN * TURN_SIN
               - width / len(n) / 2
               if turn else 0.0
               for n, width, turn in zip(names, widths, turned)]
    layout = _rows_of(widths)
    starts = [max(AXIS_IN, reaches[row[0]] + TICK_GAP_IN) for row in layout]
    heights = [VIOLIN_BOX_IN + NAMES_IN + max(depths[i] for i in row)
               for row in layout]
    width = max(start - AXIS_IN + sum(AXIS_IN + widths[i] for i in row)
                for start, row in zip(starts, layout))
    height = TITLE_IN + sum(heights) + ROW_GAP_IN * (len(layout) - 1)
    fig, ax, parts = _canvas(width + TREND_RIGHT_IN, height)
    top, counts = height - TITLE_IN, []
    for row, row_height, left in zip(layout, heights, starts):
        bottom = top - VIOLIN_BOX_IN
        for i in row:
            panel, kind, label = panels[i]
            data = [np.asarray(s if len(s) else (v,), dtype=float)
                    for s, v in zip(panel['samples'], panel['value'])]
            counts += [d.size for d in data]
            bands = [_band(r) for _, r in panel.iterrows()]
            gap = label == 'gap'
            ylim = _limits(np.concatenate(data), bands, gap)
            slot = widths[i] / len(data)
            xs = left + (np.arange(len(data)) + 0.5) * slot
            to_y = _box(ax, parts, left, bottom, (widths[i], VIOLIN_BOX_IN),
                        ylim, gap, [(x - 0.4 * slot, x + 0.4 * slot, band)
                                    for x, band in zip(xs, bands)])
            _violins(ax, parts, xs, slot, data, to_y)
            for x, name in zip(xs, names[i]):
                ax.text(x, bottom - TICK_GAP_IN, name,
                        rotation=TURN_DEGREES if turned[i] else 0,
                        ha='right' if turned[i] else 'center', va='top')
            ax.text(left + widths[i] / 2,
                    bottom - NAMES_IN + LINE_IN - depths[i],
                    'gap' if gap else kind, ha='center', va='top')
            ax.text(left - AXIS_IN + LINE_IN, bottom + VIOLIN_BOX_IN / 2,
                    f'{label}\n({panel["unit"].iloc[0]})', rotation=90,
                    ha='center', va='center')
            left += widths[i] + AXIS_IN
        top -= row_height + ROW_GAP_IN
    _draw(ax, parts)
    many = sorted({min(counts), max(counts)})
    fig.suptitle(f'{title}\n{"..".join(map(str, many))} samples per violin')
    return fig


def _date_axis(rows):
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


def _trend_figure(rows, bad, title):
    '''Each figure with samples of one pitfall (its check and its gaps)
    over the sessions, in a box of its own, or None.'''
    rows = rows[rows['low'].notna()]
    groups = list(rows.groupby(['environ', 'variant', 'figure'], sort=False))
    if not groups:
        return None

    columns = min(TREND_COLUMNS, len(groups))
    pitch = PLOT_WIDTH_IN / TREND_COLUMNS
    box_width = pitch - AXIS_IN - TREND_RIGHT_IN
    row_pitch = TREND_TITLE_IN + TREND_BOX_IN + TREND_DATES_IN
    height = TITLE_IN + row_pitch * -(-len(groups) // columns)
    fig, ax, parts = _canvas(pitch * columns, height)
    xlim, xticks, xlabels = _date_axis(rows)
    environs = rows['environ'].nunique() > 1
    for i, ((environ, variant, figure), group) in enumerate(groups):
        left = AXIS_IN + i % columns * pitch
        bottom = (height - TITLE_IN - (i // columns + 1) * row_pitch
                  + TREND_DATES_IN)
        last = group.iloc[-1]
        band, gap = _band(last), last['check'].endswith('_gap')
        ylim = _limits([group['low'], group['high']], [band], gap)
        to_y = _box(ax, parts, left, bottom, (box_width, TREND_BOX_IN),
                    ylim, gap, [(left, left + box_width, band)])
        to_x = _scale(xlim, left, box_width)
        at = to_x(mdates.date2num(group['when'].to_numpy()))
        parts['bars'].append(np.column_stack([np.repeat(at, 3), to_y(
            np.column_stack([group['low'], group['high'],
                             np.full(len(group), np.nan)]).ravel())]))
        parts['points'].append(np.column_stack([at, to_y(group['value'])]))
        red = (group['result'] == 'fail').to_numpy()
        red[-1] |= tuple(last[k] for k in KEY) in bad
        parts['red'].append(parts['points'][-1][red])
        ax.text(left + box_width / 2, bottom + TREND_BOX_IN + TICK_GAP_IN,
                f'{variant} {figure} ({last["unit"]})'
                + (f' [{environ}]' if environs else ''),
                ha='center', va='bottom')
        for tick, label in zip(to_x(xticks), xlabels):
            parts['ticks'].append([(tick, bottom), (tick, bottom - TICK_IN)])
            ax.text(tick, bottom - TICK_GAP_IN, label, ha='center',
                    va='top')
    _draw(ax, parts)
    since, until = rows['when'].min(), rows['when'].max()
    fig.suptitle(f'{title}: {rows["session"].nunique()} sessions, '
                 f'{since:%Y-%m-%d %H:%M} .. {until:%Y-%m-%d %H:%M}\n{LEGEND}')
    return fig


#: The plots :func:`render` is drawing (its forked workers inherit them)
_JOBS = []


def _png(index):
    '''The PNG of plot ``index`` of :data:`_JOBS` (a function and its
    arguments), or None: nothing to plot.'''
    with plt.rc_context(RC):
        fig = _JOBS[index][0](*_JOBS[index][1:])
        if fig is None:
            return None
        buf = io.BytesIO()
        fig.savefig(buf, format='png', dpi=DPI)
        plt.close(fig)
    return buf.getvalue()


def _jobs(frame, bad):
    '''The plots of ``frame``, ``(section, file name, heading, job)`` each
    (:func:`_png`); the latest session's rows of each check.'''
    jobs, trends, latest = [], [], []
    for (system, partition), part in frame.groupby(['system', 'partition']):
        where, stem = f'{system}:{partition}', f'{system}-{partition}'
        checks = dict(iter(part.groupby('check')))
        latest += [_latest(rows) for rows in checks.values()]
        for base in sorted({c.removesuffix('_gap') for c in checks}):
            mine = pd.concat([checks[c] for c in (base, base + '_gap')
                              if c in checks])
            rows = _latest(mine)
            when = f'{rows["when"].iloc[0]:%Y-%m-%d %H:%M}'
            title = f'{base} on {where}, session {when}'
            jobs.append(('pitfalls', f'violin-{stem}-{base}', title, (
                _violin_figure, rows[rows['check'] == base],
                rows[rows['check'] == base + '_gap'], title)))
            # A pitfall's trends, its gaps' included, in one plot (a plot
            # costs more than its boxes)
            title = f'{base} on {where}'
            trends.append(('trends', f'trend-{stem}-{base}', title, (
                _trend_figure, mine.drop(columns='samples'), bad, title)))
    return jobs + trends, latest


def _img(png, outdir, section, name, heading, used):
    '''Write ``png`` to ``outdir/<name>.png`` (``name`` made safe and
    unique among ``used``); its heading and ``<img>`` in a box of its
    own.'''
    alt = ('Violin plots of each variant and gap of ' if section ==
           'pitfalls' else 'Trend of each figure of ') + heading
    name = re.sub(r'[^A-Za-z0-9._-]+', '_', name)
    name += f'-{len(used)}' if name in used else ''
    used.add(name)
    with open(os.path.join(outdir, f'{name}.png'), 'wb') as out:
        out.write(png)
    return (f'<h3>{html.escape(heading)}</h3><div class="scroll">'
            f'<img class="plot" alt="{html.escape(alt)}" '
            f'src="data:image/png;base64,{base64.b64encode(png).decode()}">'
            f'</div>')


def _cell(heading, value, marked):
    '''A table cell: of the class its text says in column ``marked``, of
    class ``num`` for a number.'''
    if heading == marked:
        kind = html.escape(str(value))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        kind = 'num'
    else:
        kind = ''
    return f'<td class="{kind}">{html.escape(_fmt(value))}</td>'


def _table(head, rows, marked, notes=()):
    '''An HTML table in a box that scrolls where it is wider than the
    window; a cell of column ``marked`` is of the class its text says;
    each of ``notes`` (if any) a line across the table under its row.'''
    lines = [''.join(f'<th>{html.escape(h)}</th>' for h in head)]
    for row, note in zip(rows, notes or [None] * len(rows)):
        lines.append(''.join(_cell(h, c, marked) for h, c in zip(head, row)))
        if note:
            lines.append(f'<td class="why" colspan="{len(head)}">'
                         f'{html.escape(note)}</td>')
    return (f'<div class="scroll"><table><tr>{"</tr><tr>".join(lines)}'
            f'</tr></table></div>')


def _verdict_row(verdict):
    return [verdict.get(column) if isinstance(column, str) else
            column(verdict) for _, column in VERDICT_COLUMNS]


def _tables(verdicts, latest):
    '''The sections of the verdicts (if any: the compare JSON's
    ``figures``), worst first, and of the figures of ``latest``.'''
    out = []
    if verdicts is not None:
        order = {v: i for i, v in enumerate(VERDICTS)}
        ranked = sorted(verdicts, key=lambda v: (
            order.get(v.get('verdict'), len(order)),
            *(str(v.get(k, '')) for k in KEY)))
        out += ['<section id="verdicts"><h2>Verdicts</h2>',
                f'<p>{html.escape(VERDICT_NOTE)}</p>',
                _table([h for h, _ in VERDICT_COLUMNS],
                       [_verdict_row(v) for v in ranked], 'verdict',
                       [v.get('why') for v in ranked]),
                '</section>']
    return out + ['<section id="latest"><h2>Latest figures</h2>', _table(
        ['partition', 'check', 'variant', 'figure', 'value', 'unit',
         'reference band', 'result', 'session'], [[
             f'{r["system"]}:{r["partition"]}', r['check'], r['variant'],
             r['figure'], r['value'], r['unit'], _band_text(_band(r)),
             r['result'], f'{r["when"]:%Y-%m-%d %H:%M}']
            for _, r in latest.iterrows()], 'result'), '</section>']


def render(frame, verdicts, outdir, title='Microbenchmark pitfalls',
           workers=WORKERS):
    '''Write ``outdir/report.html`` and each of its plots as a PNG file in
    ``outdir``; return the page's path.

    :arg frame: figures of the results storage (:func:`storage.frame`).
    :arg verdicts: a comparison's verdicts (the list of dicts under
        ``figures`` of its JSON), or None.
    :arg workers: processes that draw the plots (forked), 1: this one.
    '''
    if frame.empty:
        raise ValueError('no figures to report')
    os.makedirs(outdir, exist_ok=True)
    frame = frame[[*KEY, 'session', 'start', 'when', 'value', 'unit', 'ref',
                   'lower', 'upper', 'result', 'samples']].sort_values(
                       'start', kind='stable', ignore_index=True)
    samples = frame['samples'][frame['samples'].map(len) > 0]
    frame = frame.assign(low=samples.map(min), high=samples.map(max))
    bad = {tuple(v.get(k) for k in KEY) for v in verdicts or ()
           if v.get('verdict') == 'regression'}
    jobs, latest = _jobs(frame, bad)
    # The forked workers inherit the jobs: only an index and a PNG cross
    # between processes; the largest plots first
    global _JOBS
    _JOBS = [job[-1] for job in jobs]
    order = sorted(range(len(jobs)), key=lambda i: -len(_JOBS[i][1]))
    with ProcessPoolExecutor(workers, mp_context=get_context('fork')) as pool:
        done = dict(zip(order, (pool.map if workers > 1 else map)(
            _png, order)))
    pngs = [done[i] for i in range(len(jobs))]
    plots, used = defaultdict(list), set()
    for (section, name, heading, _), png in zip(jobs, pngs):
        if png is not None:
            plots[section].append(_img(png, outdir, section, name, heading,
                                       used))

    page = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, '
            'initial-scale=1">',
            f'<title>{html.escape(title)}</title><style>{CSS}</style>',
            f'</head><body><h1>{html.escape(title)}</h1><p>', html.escape(
                f'{frame["session"].nunique()} session(s), {len(frame)} '
                f'figures'),
            '</p><section id="pitfalls"><h2>Pitfalls: the latest session'
            '</h2>', *plots['pitfalls'], '</section><section id="trends">'
            '<h2>Trends</h2>', *plots['trends'], '</section>']
    page += [*_tables(verdicts, pd.concat(latest)), '</body></html>']
    path = os.path.join(outdir, 'report.html')
    with open(path, 'w', encoding='utf-8') as out:
        out.write('\n'.join(page))
    return path
