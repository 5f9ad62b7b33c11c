'''The report's share of the hardware: per partition, every figure with a
limit in force (microbench/components.py) as a share of it, in its latest
session; each pitfall's benchmark-default and realistic forms side by
side, so the picture says how far a benchmark default sits from what the
hardware can do ("Keeping It Real" in one plot).  A bar past 100 % is the
"too good to be true" alarm: a cache figure (orange) is expected there, a
storage figure (blue) is not.

A figure whose measured limit was withheld (measured on another machine,
or a limits file that is not one: :mod:`microbench.components`) has no
bar: the section says, per partition, why and how to measure its own.
'''

import base64
import html
import os
import re

import numpy as np

from microbench import components
from microbench.verdicts import figures
from microbench.verdicts.report import canvas

#: A bar's colour: storage, a cache figure
COLOURS = {'storage': 'tab:blue', 'cache': 'tab:orange'}


def _limited(frame):
    '''Each figure's latest row that names a limit (with a share, or
    withheld), in the figures' order.'''
    if 'share_of_limit' not in frame:
        return frame.iloc[:0]
    named = frame['limit_name'].fillna('').astype(str) != ''
    rows = frame[named | np.isfinite(frame['share_of_limit'].astype(float))]
    return (rows.sort_values('start', kind='stable')
            .drop_duplicates(figures.KEY, keep='last')
            .sort_values(['check', 'variant', 'figure'], kind='stable'))


def latest(frame):
    '''The rows with a share of their limit, each figure's latest (a
    figure whose latest row withheld its limit has none).'''
    rows = _limited(frame)
    return rows[np.isfinite(rows['share_of_limit'].astype(float))]


def withheld(frame):
    '''{(system, partition): {reason: figures}} of the figures whose
    latest row withheld their measured limit, and why.'''
    out = {}
    for row in _limited(frame).itertuples():
        reason = components.withheld_reason(row.limit_name)
        if reason is None or np.isfinite(float(row.share_of_limit)):
            continue
        said = out.setdefault((row.system, row.partition), {})
        said[reason] = said.get(reason, 0) + 1
    return out


def is_cache(row):
    return '_cache_' in row['figure'] or row['measures'] in (
        'page cache', 'client cache')


def figure(rows, title):
    '''A horizontal bar per figure of ``rows`` (one partition): its share
    of its limit, a dashed line at 100 %.'''
    labels = [f'{r.check} {r.variant}  {r.figure.split("_median_")[0]}'
              for r in rows.itertuples()]
    shares = rows['share_of_limit'].astype(float).to_numpy()
    colours = [COLOURS['cache' if is_cache(row) else 'storage']
               for _, row in rows.iterrows()]
    height = 0.8 + 0.28 * len(rows)
    fig = canvas.figure(8, height)
    ax = fig.subplots()
    ax.barh(np.arange(len(rows)), shares, color=colours)
    ax.axvline(100, color='black', linestyle='--', linewidth=1)
    ax.set_yticks(np.arange(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlabel('% of the limit in force (measured, else declared)')
    ax.set_title(title)
    for index, share in enumerate(shares):
        ax.annotate(f'{share:.0f} %', (share, index), xytext=(3, 0),
                    textcoords='offset points', va='center')
    fig.tight_layout()
    return fig


def plots(frame):
    '''The section's plots: ``(file name, title, job)`` per partition with
    a figure with a limit (``job``: :func:`figure` and its arguments).'''
    out = []
    for (system, partition), part in latest(frame).groupby(['system',
                                                            'partition']):
        title = f'Share of the hardware on {system}:{partition}'
        name = re.sub(r'[^A-Za-z0-9._-]+', '_',
                      f'shares-{system}-{partition}')
        out.append((name, title, (figure, part, title)))
    return out


def section(frame, outdir, drawn=None):
    '''The section's HTML, its plots also PNG files in ``outdir``:
    ``drawn``, ``(file name, title, PNG)`` each (of :func:`plots`, drawn
    elsewhere: :mod:`.plots`), else those of ``frame``, drawn here.'''
    if drawn is None:
        drawn = []
        for name, title, (function, *args) in plots(frame):
            with canvas.drawing():
                drawn.append((name, title, canvas.png(function(*args))))
    out = ['<section id="shares"><h2>Share of the hardware</h2>']
    for where, reasons in withheld(frame).items():
        out += [f'<p class="withheld">'
                f'{html.escape(components.withheld_text(*where, *said))}.</p>'
                for said in reasons.items()]
    if not drawn:
        return out + ['<p>No figure has a limit in force: measure the '
                      'partition\'s limits (component_limits, then '
                      'microbench limits --write) or declare them.</p>',
                      '</section>']

    out.append('<p>Each figure with a limit, its latest session, as a share '
               'of the limit in force (the partition\'s measured limit, '
               'else its declared one): blue storage, orange a cache '
               'figure; beyond 100 % a storage figure is too good to be '
               'true.</p>')
    for name, title, png in drawn:
        with open(os.path.join(outdir, f'{name}.png'), 'wb') as fp:
            fp.write(png)
        out.append(f'<h3>{html.escape(title)}</h3><div class="scroll">'
                   f'<img class="plot" alt="{html.escape(title)}" src="data:'
                   f'image/png;base64,{base64.b64encode(png).decode()}">'
                   f'</div>')
    return out + ['</section>']
