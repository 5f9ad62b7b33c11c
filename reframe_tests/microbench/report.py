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
verdicts, worst first, and the latest figures.  A year of nightly sessions
takes seconds: low resolution, boxes drawn by hand in one axes (an axes'
ticks cost more than all its data), plots drawn in parallel.
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

from microbench import results  # noqa: E402
from microbench.comparison import COLUMNS as VERDICT  # noqa: E402
from microbench.verdicts import VERDICTS  # noqa: E402

KEY = results.key_columns()
DPI = 72
#: Drawing the plots is most of the work: a process per core
WORKERS = min(4, os.cpu_count() or 1)
#: Small text, not hinted (cheaper), no mathtext (a variant may hold a $)
RC = {'text.parse_math': False, 'font.size': 7, 'figure.titlesize': 8,
      'text.hinting': 'no_hinting'}
BAND = {'color': 'tab:green', 'alpha': 0.2, 'lw': 0}
LEGEND = ('bars: least to largest sample; shaded: reference band; red X: '
          'failed its reference, or a regression in the comparison')
CSS = ('body{font-family:sans-serif}img.plot{display:block;max-width:100%}'
       'table{border-collapse:collapse;font-size:12px}th,td{border:1px solid'
       ' #ccc;padding:2px 6px}td.num{text-align:right}.regression,.fail{'
       'background:#f4b3b3}.improvement{background:#bfe6bf}.inconclusive,'
       '.changed{background:#f8dc94}')


def _fmt(value):
    return '-' if pd.isna(value) else (
        f'{value:.4g}' if isinstance(value, float) else str(value))


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
    return ('-' if low is None and high is None else f'>= {low:.4g}'
            if high is None else f'<= {high:.4g}' if low is None
            else f'{low:.4g} .. {high:.4g}')


def _latest(rows):
    '''The rows of the latest session among ``rows``.'''
    return rows[rows['session'] == rows.loc[rows['start'].idxmax(),
                                            'session']]


def _limits(values, bands, gap):
    '''Limits that hold ``values``, the finite edges of ``bands``, and 1
    for a gap, with a margin.'''
    every = np.concatenate([np.ravel(np.asarray(values, dtype=float)), [
        e for b in bands if b for e in b if e is not None] + [1.0] * gap])
    every = every[np.isfinite(every)]
    low, high = (every.min(), every.max()) if every.size else (0.0, 1.0)
    pad = (high - low) * 0.08 or abs(high) * 0.1 or 1.0
    return low - pad, high + pad


def _rect(x0, x1, y0, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _scale(lim, start, size):
    '''The function taking values from ``lim`` to ``start`` .. ``start +
    size`` (inches).'''
    return lambda v: start + (np.asarray(v, dtype=float) - lim[0]) / (
        lim[1] - lim[0]) * size


def _box(ax, parts, left, bottom, size, ylim, gap, shades):
    '''A plot's box at ``left``, ``bottom`` of ``size`` (inches), its y
    ticks, a dashed line at 1 for a gap, each band of ``shades``, ``(x0,
    x1, band)``, shaded (its open sides to the limits); the function taking
    y to inches.'''
    y, right = _scale(ylim, bottom, size[1]), left + size[0]
    parts['boxes'].append(_rect(left, right, bottom, bottom + size[1]))
    parts['bands'] += [_rect(x0, x1, *y([ylim[0] if b[0] is None else b[0],
                                         ylim[1] if b[1] is None else b[1]]))
                       for x0, x1, b in shades if b is not None]
    for t in MaxNLocator(4 if size[1] > 1.5 else 3).tick_values(*ylim):
        if ylim[0] <= t <= ylim[1]:
            parts['ticks'].append([(left - 0.04, y(t)), (left, y(t))])
            ax.text(left - 0.06, y(t), f'{t:.4g}', ha='right', va='center')
    if gap:
        parts['ones'].append([(left, y(1)), (right, y(1))])
    return y


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
                                     lw=1.2))
    ax.plot(*points('bars'), color='0.55', lw=0.7)
    ax.plot(*points('points'), 'o', ms=2.5, color='tab:blue')
    ax.plot(*points('dots'), '.', ms=3, color='k')
    ax.plot(*points('red'), 'X', ms=6, color='tab:red')


def _violin_figure(rows, gaps, title):
    '''The paper's figure of one pitfall's session, or None.'''
    panels = [(rows[rows['figure'] == f], 'variant', f) for f in
              pd.unique(rows['figure']) if '_median_' in f]
    panels += [(gaps, 'figure', 'gap')] if len(gaps) else []
    if not panels:
        return None

    names = [list(p[kind]) for p, kind, _ in panels]
    widths = [max(1.6, 0.45 * len(n) + 0.3) for n in names]
    # names too long side by side are turned: how far down they reach
    turns = [0.03 * max(map(len, n)) * (sum(map(len, n)) * 0.055 > w)
             for n, w in zip(names, widths)]
    below = 0.55 + max(turns)
    fig, ax, parts = _canvas(max(4.5, sum(widths) + 0.85 * len(panels)),
                             below + 2.7)
    left, counts = 0.75, []
    for (p, kind, label), n, w, turn in zip(panels, names, widths, turns):
        data = [np.asarray(s if len(s) else (v,), dtype=float)
                for s, v in zip(p['samples'], p['value'])]
        counts += [d.size for d in data]
        bands = [_band(r) for _, r in p.iterrows()]
        gap = label == 'gap'
        ylim = _limits(np.concatenate(data), bands, gap)
        step = w / len(data)
        xs = left + (np.arange(len(data)) + 0.5) * step
        y = _box(ax, parts, left, below, (w, 2.0), ylim, gap, [
            (x - 0.4 * step, x + 0.4 * step, b) for x, b in zip(xs, bands)])
        for x, d, name in zip(xs, data, n):
            low, mid, high = y([d.min(), np.median(d), d.max()])
            if high > low:
                kde = cbook.violin_stats(d, lambda s, at: mlab.GaussianKDE(
                    s).evaluate(at))[0]
                half = kde['vals'] / kde['vals'].max() * 0.35 * step
                at = y(kde['coords'])
                parts['bodies'].append(np.column_stack([np.concatenate(
                    [x - half, (x + half)[::-1]]), np.r_[at, at[::-1]]]))
            q = 0.15 * step
            parts['marks'] += [[(x - 2 * q, mid), (x + 2 * q, mid)],
                               [(x, low), (x, high)],
                               [(x - q, low), (x + q, low)],
                               [(x - q, high), (x + q, high)]]
            parts['dots'].append(np.column_stack([np.full(d.size, x), y(d)]))
            ax.text(x, below - 0.06, name, rotation=30 if turn else 0,
                    ha='right' if turn else 'center', va='top')
        ax.text(left + w / 2, below - 0.3 - turn, 'gap' if gap else kind,
                ha='center', va='top')
        ax.text(left - 0.55, below + 1, f'{label} ({p["unit"].iloc[0]})',
                rotation=90, ha='center', va='center')
        left += w + 0.85
    _draw(ax, parts)
    many = sorted({min(counts), max(counts)})
    fig.suptitle(f'{title}\n{"..".join(map(str, many))} samples per violin')
    return fig


def _trend_figure(rows, bad, title):
    '''Each figure with samples of one pitfall (its check and its gaps)
    over the sessions, in a box of its own, or None.'''
    rows = rows[rows['low'].notna()]
    groups = list(rows.groupby(['environ', 'variant', 'figure'], sort=False))
    if not groups:
        return None

    cols = min(4, len(groups))
    pitch = max(2.6, 5.2 / cols)
    height = 1.6 * -(-len(groups) // cols) + 0.9
    fig, ax, parts = _canvas(pitch * cols + 0.2, height)
    since, until = rows['when'].min(), rows['when'].max()
    x0, x1 = mdates.date2num(since), mdates.date2num(until)
    xlim = (x0 - ((x1 - x0) * 0.04 or 0.5), x1 + ((x1 - x0) * 0.04 or 0.5))
    locator = mdates.AutoDateLocator(minticks=2, maxticks=5)
    xticks = locator.tick_values(*mdates.num2date(xlim))
    xticks = xticks[(xticks >= xlim[0]) & (xticks <= xlim[1])]
    xlabels = mdates.ConciseDateFormatter(locator).format_ticks(xticks)
    environs = rows['environ'].nunique() > 1
    w, h = pitch - 0.85, 1.15
    for i, ((environ, variant, figure), g) in enumerate(groups):
        left, bottom = 0.7 + i % cols * pitch, height - 1.95 - i // cols * 1.6
        last = g.iloc[-1]
        band, gap = _band(last), last['check'].endswith('_gap')
        ylim = _limits([g['low'], g['high']], [band], gap)
        y = _box(ax, parts, left, bottom, (w, h), ylim, gap,
                 [(left, left + w, band)])
        x = _scale(xlim, left, w)
        at = x(mdates.date2num(g['when'].to_numpy()))
        parts['bars'].append(np.column_stack([np.repeat(at, 3), y(
            np.column_stack([g['low'], g['high'], np.full(len(g), np.nan)])
            .ravel())]))
        parts['points'].append(np.column_stack([at, y(g['value'])]))
        red = (g['result'] == 'fail').to_numpy()
        red[-1] |= tuple(last[k] for k in KEY) in bad
        parts['red'].append(parts['points'][-1][red])
        ax.text(left + w / 2, bottom + h + 0.04, f'{variant} {figure} '
                f'({last["unit"]})' + (f' [{environ}]' if environs else ''),
                ha='center', va='bottom')
        if i + cols >= len(groups):
            for t, label in zip(x(xticks), xlabels):
                parts['ticks'].append([(t, bottom), (t, bottom - 0.04)])
                ax.text(t, bottom - 0.06, label, ha='center', va='top')
    _draw(ax, parts)
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
    unique among ``used``); its heading and ``<img>``.'''
    alt = ('Violin plots of each variant and gap of ' if section ==
           'pitfalls' else 'Trend of each figure of ') + heading
    name = re.sub(r'[^A-Za-z0-9._-]+', '_', name)
    name += f'-{len(used)}' if name in used else ''
    used.add(name)
    with open(os.path.join(outdir, f'{name}.png'), 'wb') as out:
        out.write(png)
    return (f'<h3>{html.escape(heading)}</h3><img class="plot" alt="'
            f'{html.escape(alt)}" src="data:image/png;base64,'
            f'{base64.b64encode(png).decode()}">')


def _table(head, rows, marked):
    '''An HTML table; a cell of column ``marked`` is of the class its text
    says, a number of class ``num``.'''
    out = [''.join(f'<th>{html.escape(h)}</th>' for h in head)]
    for row in rows:
        out.append(''.join('<td class="{}">{}</td>'.format(
            html.escape(str(c)) if h == marked else 'num' if isinstance(
                c, (int, float)) else '', html.escape(_fmt(c)))
            for h, c in zip(head, row)))
    return f'<table><tr>{"</tr><tr>".join(out)}</tr></table>'


def _tables(verdicts, latest):
    '''The sections of the verdicts (if any: the compare JSON's
    ``figures``), worst first, and of the figures of ``latest``.'''
    out = []
    if verdicts is not None:
        order = {v: i for i, v in enumerate(VERDICTS)}
        ranked = sorted(verdicts, key=lambda v: (
            order.get(v.get('verdict'), len(order)),
            *(str(v.get(k, '')) for k in KEY)))
        out += ['<section id="verdicts"><h2>Verdicts</h2>', _table(
            VERDICT, [[v.get(h) for h in VERDICT] for v in ranked],
            'verdict'), '</section>']
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

    :arg frame: figures of the results storage (:func:`results.frame`).
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
