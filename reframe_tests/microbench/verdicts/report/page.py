'''The report's page: one self-contained HTML page (PNG plots as data
URIs, inline CSS), each plot also a PNG file beside it.

Plots first: per pitfall (a check and its ``<check>_gap``), the violin
plots of its latest session (:mod:`.violins`); per pitfall, the trend of
each figure with samples over the sessions (:mod:`.trends`); per
partition, each figure's share of its limit (:mod:`.shares`).  Then the
comparison's verdicts, worst first, and the latest figures.  On a screen
narrower than a plot (a phone) a plot and a table scroll inside their own
box, and the page itself never scrolls sideways.  A year of nightly
sessions takes seconds: the plots are drawn in parallel.
'''

import base64
import html
import io
import os
import re
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from microbench.verdicts import figures
from microbench.verdicts.report import canvas, shares, trends, violins
from microbench.verdicts.nightly import VERDICTS

#: Drawing the plots is most of the work: a process per core
WORKERS = min(4, os.cpu_count() or 1)

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
       '.regression,.fail{background:#f4b3b3}.degraded{background:'
       '#f9d6d6}.improvement{background:#bfe6bf}.improved{background:'
       '#dff2df}.inconclusive,.changed,.shifted{background:#f8dc94}')

#: The verdict table's columns: heading, what a cell shows (a column of
#: the comparison, or a function of its row); each row's ``why`` is a line
#: of its own under it
VERDICT_COLUMNS = [
    ('partition', lambda verdict: (
        f'{verdict.get("system")}:{verdict.get("partition")}')),
    ('check', 'check'), ('variant', 'variant'), ('figure', 'figure'),
    ('verdict', 'verdict'), ('before', 'median_before'),
    ('after', 'median_after'), ('unit', 'unit'), ('ratio', 'ratio'),
    ('interval', lambda verdict: f'{_short(verdict.get("ci_low"))} .. '
                                 f'{_short(verdict.get("ci_high"))}'),
    ('p', 'p'),
    ('since', lambda verdict: verdict.get('since_date') or '-'),
    ('change points', lambda verdict: _points(verdict)),
    ('history', lambda verdict: (
        f'{verdict["nights"]} nights' if verdict.get('nights') else
        f'{verdict.get("sessions_before")} / '
        f'{verdict.get("sessions_after")} sessions')),
]
VERDICT_NOTE = ('nightly (compare --last): before is the geometric mean '
                'of the nights before tonight since their last change '
                'point, after is tonight\'s night summary (the median of '
                'its samples), p that of the test of the last nights, '
                'since the night a change began; '
                'regression: found tonight (the exit code), degraded: '
                'found on an earlier night and still in force.  Two sides '
                'of sessions: the medians of each side\'s session '
                'summaries, the ratio\'s interval, the sessions a side.  '
                'Under each figure, why it has its verdict')


ADVICE_NOTE = ('per figure, from the stored nights (one-way random '
               'effects on a log scale): the spread of one night\'s samples '
               '(within) and of the nights\' own levels with nothing '
               'changed (between), in %; needed: the samples a night that '
               'show a 25 % drop within 3 nights at the nightly budget '
               '(microbench advise)')


def _points(verdict):
    '''A figure's change points: the night each began, and by how
    much.'''
    points = verdict.get('change_points') or ()
    return '; '.join(f'{str(p.get("date", "?"))[:10]} '
                     f'{_short(p.get("change_pct"))} %'
                     for p in points if isinstance(p, dict)) or '-'


def _short(value):
    '''A bound of an interval or a band: three digits.'''
    return '-' if value is None or pd.isna(value) else f'{value:.3g}'


def band_text(band):
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


#: The plots :func:`render` is drawing (its forked workers inherit them)
_JOBS = []


def _png(index):
    '''The PNG of plot ``index`` of :data:`_JOBS` (a function and its
    arguments), or None: nothing to plot.'''
    with plt.rc_context(canvas.RC):
        fig = _JOBS[index][0](*_JOBS[index][1:])
        if fig is None:
            return None
        buf = io.BytesIO()
        fig.savefig(buf, format='png', dpi=canvas.DPI)
        plt.close(fig)
    return buf.getvalue()


def _is_point(point):
    '''Whether a change point of a compare JSON can be drawn.'''
    try:
        pd.Timestamp(point['date'])
        return all(np.isfinite(float(point[k]))
                   for k in ('mean_before', 'mean_after'))
    except (KeyError, TypeError, ValueError):
        return False


def _jobs(frame, marks):
    '''The plots of ``frame``, ``(section, file name, heading, job)`` each
    (:func:`_png`); the latest session's rows of each check.'''
    jobs, trend_jobs, latest = [], [], []
    for (system, partition), part in frame.groupby(['system', 'partition']):
        where, stem = f'{system}:{partition}', f'{system}-{partition}'
        checks = dict(iter(part.groupby('check')))
        latest += [_latest(rows) for rows in checks.values()]
        for base in sorted({check.removesuffix('_gap')
                            for check in checks}):
            mine = pd.concat([checks[check]
                              for check in (base, base + '_gap')
                              if check in checks])
            rows = _latest(mine)
            when = f'{rows["when"].iloc[0]:%Y-%m-%d %H:%M}'
            title = f'{base} on {where}, session {when}'
            jobs.append(('pitfalls', f'violin-{stem}-{base}', title, (
                violins.figure, rows[rows['check'] == base],
                rows[rows['check'] == base + '_gap'], title)))
            # A pitfall's trends, its gaps' included, in one plot (a plot
            # costs more than its boxes)
            title = f'{base} on {where}'
            trend_jobs.append(('trends', f'trend-{stem}-{base}', title, (
                trends.figure, mine.drop(columns='samples'), marks, title)))
    return jobs + trend_jobs, latest


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
    return f'<td class="{kind}">{html.escape(figures.fmt(value))}</td>'


def _table(head, rows, marked, notes=()):
    '''An HTML table in a box that scrolls where it is wider than the
    window; a cell of column ``marked`` is of the class its text says;
    each of ``notes`` (if any) a line across the table under its row.'''
    lines = [''.join(f'<th>{html.escape(heading)}</th>'
                     for heading in head)]
    for row, note in zip(rows, notes or [None] * len(rows)):
        lines.append(''.join(_cell(heading, value, marked)
                             for heading, value in zip(head, row)))
        if note:
            lines.append(f'<td class="why" colspan="{len(head)}">'
                         f'{html.escape(note)}</td>')
    return (f'<div class="scroll"><table><tr>{"</tr><tr>".join(lines)}'
            f'</tr></table></div>')


def _verdict_row(verdict):
    return [verdict.get(column) if isinstance(column, str) else
            column(verdict) for _, column in VERDICT_COLUMNS]


def _advice(advice):
    '''The section of :func:`.advise.advice`'s table.'''
    rows = [[f'{row.system}:{row.partition}', row.check, row.variant,
             row.figure, row.nights, row.within_pct, row.between_pct,
             '-' if row.needed is None or row.needed != row.needed
             else int(row.needed), row.advice]
            for row in advice.itertuples()]
    return ['<section id="advice"><h2>Samples a night</h2>',
            f'<p>{html.escape(ADVICE_NOTE)}</p>', _table(
                ['partition', 'check', 'variant', 'figure', 'nights',
                 'within %', 'between %', 'needed', 'advice'], rows, None),
            '</section>']


def _tables(verdicts, latest, advice=None):
    '''The sections of the verdicts (if any: the compare JSON's
    ``figures``), worst first, of the samples a night each figure needs
    (``advice``, if any), and of the figures of ``latest``.'''
    out = []
    if verdicts is not None:
        order = {name: rank for rank, name in enumerate(VERDICTS)}
        ranked = sorted(verdicts, key=lambda verdict: (
            order.get(verdict.get('verdict'), len(order)),
            *(str(verdict.get(key, '')) for key in figures.KEY)))
        out += ['<section id="verdicts"><h2>Verdicts</h2>',
                f'<p>{html.escape(VERDICT_NOTE)}</p>',
                _table([heading for heading, _ in VERDICT_COLUMNS],
                       [_verdict_row(verdict) for verdict in ranked],
                       'verdict', [verdict.get('why') for verdict in ranked]),
                '</section>']
    if advice is not None and len(advice):
        out += _advice(advice)
    return out + ['<section id="latest"><h2>Latest figures</h2>', _table(
        ['partition', 'check', 'variant', 'figure', 'value', 'unit',
         'reference band', 'result', 'session'], [[
             f'{row["system"]}:{row["partition"]}', row['check'],
             row['variant'], row['figure'], row['value'], row['unit'],
             band_text(canvas.band(row)), row['result'],
             f'{row["when"]:%Y-%m-%d %H:%M}']
            for _, row in latest.iterrows()], 'result'), '</section>']


def render(frame, verdicts, outdir, title='Microbenchmark pitfalls',
           workers=WORKERS, advice=None):
    '''Write ``outdir/report.html`` and each of its plots as a PNG file in
    ``outdir``; return the page's path.

    :arg frame: figures of the results storage (:func:`figures.frame`).
    :arg verdicts: a comparison's verdicts (the list of dicts under
        ``figures`` of its JSON), or None.
    :arg workers: processes that draw the plots (forked), 1: this one.
    :arg advice: the samples a night each figure needs
        (:func:`.advise.advice`), or None.
    '''
    if frame.empty:
        raise ValueError('no figures to report')
    os.makedirs(outdir, exist_ok=True)
    shared = shares.section(frame, outdir)
    frame = frame[[*figures.KEY, 'session', 'start', 'when', 'value',
                   'unit', 'ref', 'lower', 'upper', 'result',
                   'samples']].sort_values('start', kind='stable',
                                           ignore_index=True)
    samples = figures.with_samples(frame)['samples']
    frame = frame.assign(low=samples.map(min), high=samples.map(max))
    marks = {tuple(verdict.get(key) for key in figures.KEY): {
        'regression': verdict.get('verdict') == 'regression',
        'points': [p for p in verdict.get('change_points') or ()
                   if isinstance(p, dict) and _is_point(p)]}
        for verdict in verdicts or ()}
    jobs, latest = _jobs(frame, marks)
    # The forked workers inherit the jobs: only an index and a PNG cross
    # between processes; the largest plots first
    global _JOBS
    _JOBS = [job[-1] for job in jobs]
    order = sorted(range(len(jobs)),
                   key=lambda index: -len(_JOBS[index][1]))
    with ProcessPoolExecutor(workers, mp_context=get_context('fork')) as pool:
        done = dict(zip(order, (pool.map if workers > 1 else map)(
            _png, order)))
    pngs = [done[index] for index in range(len(jobs))]
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
            '<h2>Trends</h2>', *plots['trends'], '</section>', *shared]
    page += [*_tables(verdicts, pd.concat(latest), advice),
             '</body></html>']
    path = os.path.join(outdir, 'report.html')
    with open(path, 'w', encoding='utf-8') as out:
        out.write('\n'.join(page))
    return path
