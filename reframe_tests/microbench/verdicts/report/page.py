'''The report's page: one self-contained HTML page (PNG plots as data
URIs, inline CSS), each plot also a PNG file beside it.

Plots first: per pitfall (a check and its ``<check>_gap``), the violin
plots of its latest session (:mod:`.violins`); per pitfall, the trend of
each figure with samples over the sessions (:mod:`.trends`); per
partition, each figure's share of its limit (:mod:`.shares`).  Then the
comparison's verdicts, worst first, and the latest figures.  On a screen
narrower than a plot (a phone) a plot and a table scroll inside their own
box, and the page itself never scrolls sideways.  A year of nightly
sessions takes seconds: the plots are drawn in parallel, while the tables
are made (:mod:`.plots`).
'''

import base64
import html
import os
import re
from collections import defaultdict

import pandas as pd

from microbench import settings
from microbench.verdicts import events, figures, vocabulary
from microbench.verdicts.compare_json import VERDICTS
from microbench.verdicts.report import (absection, bisectsection, canvas,
                                        nodesection, plots, shares)

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
       + vocabulary.css())

#: The verdict table's columns: heading, what a cell shows (a column of
#: the comparison, or a function of its row); each row's ``why`` is a line
#: of its own under it
VERDICT_COLUMNS = [
    ('partition', lambda verdict: (
        f'{verdict.get("system")}:{verdict.get("partition")}')),
    ('check', 'check'), ('variant', 'variant'), ('figure', 'figure'),
    ('verdict', lambda verdict: verdict.get('label')
     or verdict.get('verdict')), ('before', 'median_before'),
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
    ('cold start', lambda verdict: verdict.get('cold_start') or '-'),
]
VERDICT_NOTE = ('nightly (compare --last): before is the geometric mean '
                'of the nights before tonight since their last change '
                'point, after is tonight\'s night summary (the median of '
                'its samples), p that of the test of the last nights, '
                'since the night a change began; '
                'regression: found tonight (the exit code), degraded: '
                'found on an earlier night and still in force.  Two sides '
                'of sessions: the medians of each side\'s session '
                'summaries, the ratio\'s interval, the sessions a side; '
                'cold start: round 1 of the latest run outside its other '
                'rounds (microbench advise says what to do).  '
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


#: The columns of the latest figures
LATEST_COLUMNS = ['partition', 'check', 'variant', 'figure', 'value', 'unit',
                  'reference band', 'result', 'cold start', 'data / memory',
                  'session']

LATEST_NOTE = ('data / memory: the data a storage figure touched on a '
               'node (its files, not the bytes moved again and again) '
               'over the node\'s memory, and over the client cache the '
               'partition declares; a read of less than its node\'s '
               'memory may be answered by the page cache, and MLPerf '
               'Storage calls a read a storage read from 5x memory '
               '(the check\'s note says which)')


EVENT_NOTE = ('what began on one night in one partition: one event per '
              'root cause, its members under it (root: a component limit '
              'that changed that night; downstream: a figure judged '
              'against it), classed by what differs in the records of '
              'the night before and its first night')


def _cause(event):
    '''An event's cause: by experiment where ``microbench diagnose`` found
    it, else what differs in its records.'''
    found = event.get('diagnosis')
    if not found:
        return events.said(event)
    named = settings.said(event.get('differences') or {})
    return f'cause: {found["label"]}' + (f' ({"; ".join(named)})'
                                         if named else '')


def _ab_said(found):
    '''What an event's diagnosis measured: each member's A/B figure.'''
    if not found:
        return ''
    figures_said = '; '.join(
        f'{row["check"]} {row["variant"]} {row["figure"]}: {row["label"]}'
        + ('' if row['ratio'] is None else f', B/A {row["ratio"]:.3f}')
        for row in found['figures'])
    return (f'. A/B of {found["stacks"]["A"]} (the night before) and '
            f'{found["stacks"]["B"]} (tonight): {figures_said}; '
            f'{found["why"]}')


def _events(found):
    '''The section of tonight's events (the compare JSON's ``events``).'''
    rows, notes = [], []
    for event in found:
        rows.append([event['fingerprint'],
                     f'{event["system"]}:{event["partition"]}',
                     str(event.get('date') or '-')[:16], event['verdict'],
                     len(event['members']), ', '.join(event['root']) or '-',
                     _cause(event)])
        notes.append('; '.join(
            f'{m["role"]}: {m["check"]} {m["variant"]} {m["figure"]} '
            f'{m["verdict"]}' + ('' if m['change_pct'] is None else
                                 f' {m["change_pct"]:+.1f} %')
            for m in event['members']) + _ab_said(event.get('diagnosis')))
    return ['<section id="events"><h2>Events</h2>',
            f'<p>{html.escape(EVENT_NOTE)}</p>', _table(
                ['event', 'partition', 'since', 'verdict', 'figures',
                 'root', 'cause'], rows, 'verdict', notes), '</section>']


#: What the counted figures' section says
BEHAVIOUR_NOTE = ('counted figures (microbench/suite/counted.py): what the '
                  'scratch disk did for the bytes a sample moved, judged '
                  'by their own rule (microbench/verdicts/behaviour.py), '
                  'never in the exit code')


def _behaviour(rows):
    '''The section of the counted figures' verdicts (the compare JSON's
    ``behaviour``).'''
    shown = [[f'{row["system"]}:{row["partition"]}', row['check'],
              row['variant'], row['figure'], row['verdict'],
              f'{row["tonight"]:.4g}',
              '-' if row['before_low'] is None else
              f'{row["before_low"]:.4g} to {row["before_high"]:.4g}',
              row['nights']] for row in rows]
    return ['<section id="behaviour"><h2>Counted figures</h2>',
            f'<p>{html.escape(BEHAVIOUR_NOTE)}</p>', _table(
                ['partition', 'check', 'variant', 'figure', 'verdict',
                 'tonight', 'nights before', 'nights'], shown, 'verdict',
                [row['why'] for row in rows]), '</section>']


def _tables(verdicts, latest, advice=None, found=None):
    '''The sections of the verdicts (if any: the compare JSON's
    ``figures``), worst first, of tonight's events (``found``), of the
    samples a night each figure needs (``advice``, if any), and of the
    figures of ``latest``.'''
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
    if found:
        out += _events(found)
    if advice is not None and len(advice):
        out += _advice(advice)
    rows = [[f'{row["system"]}:{row["partition"]}', row['check'],
             row['variant'], row['figure'], row['value'], row['unit'],
             band_text(canvas.band(row)), row['result'],
             row[figures.COLD_START] or '-', _words(row.get(figures.MEMORY)),
             f'{row["when"]:%Y-%m-%d %H:%M}']
            for _, row in latest.iterrows()]
    return out + ['<section id="latest"><h2>Latest figures</h2>',
                  f'<p>{html.escape(LATEST_NOTE)}</p>',
                  _table(LATEST_COLUMNS, rows, 'result'), '</section>']


def _words(value):
    '''A record's words of a figure, ``-`` where it has none.'''
    return value if isinstance(value, str) and value else '-'


def render(frame, verdicts, outdir, title='Microbenchmark pitfalls',
           workers=plots.WORKERS, advice=None, events=None, ab=None,
           bisect=None, behaviour=None, nodes=None):
    '''Write ``outdir/report.html`` and each of its plots as a PNG file in
    ``outdir``; return the page's path.

    :arg frame: figures of the results storage (:func:`figures.frame`).
    :arg verdicts: a comparison's verdicts (the list of dicts under
        ``figures`` of its JSON), or None.
    :arg workers: processes that draw the plots (forked), 1: this one.
    :arg advice: the samples a night each figure needs
        (:func:`.advise.advice`), or a function that makes them (made
        while the plots are drawn), or None.
    :arg events: the comparison's events (its JSON's ``events``), or
        None.
    :arg ab: an A/B experiment (the document of its JSON,
        :mod:`microbench.cause.ab_json`), or None: its section
        (:mod:`.absection`) comes before the verdicts.
    :arg bisect: a bisection (the document of its JSON,
        :mod:`microbench.cause.bisect_json`), or None: its section
        (:mod:`.bisectsection`) comes after the A/B's.
    :arg behaviour: the counted figures' verdicts (the JSON's
        ``behaviour``), or None: their section after the events.
    :arg nodes: the newest vetting night of each partition (the JSON's
        ``nodes``), or None: the node map (:mod:`.nodesection`) last.
    '''
    if frame.empty:
        raise ValueError('no figures to report')
    os.makedirs(outdir, exist_ok=True)
    jobs, latest = plots.jobs(frame, verdicts)
    shared = shares.plots(frame)
    with plots.drawing([job for *_, job in jobs + shared],
                       workers) as finished:
        # the tables are made while the plots are drawn
        if callable(advice):
            advice = advice()
        tables = _tables(verdicts, pd.concat(latest), advice, events)
        pngs = finished()
    drawn, used = defaultdict(list), set()
    for (section, name, heading, _), png in zip(jobs, pngs):
        if png is not None:
            drawn[section].append(_img(png, outdir, section, name, heading,
                                       used))
    shared = shares.section(frame, outdir, [
        (name, heading, png) for (name, heading, _), png in zip(
            shared, pngs[len(jobs):])])

    page = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, '
            'initial-scale=1">',
            f'<title>{html.escape(title)}</title><style>{CSS}</style>',
            f'</head><body><h1>{html.escape(title)}</h1><p>', html.escape(
                f'{frame["session"].nunique()} session(s), {len(frame)} '
                f'figures'),
            '</p><section id="pitfalls"><h2>Pitfalls: the latest session'
            '</h2>', *drawn['pitfalls'], '</section><section id="trends">'
            '<h2>Trends</h2>', *drawn['trends'], '</section>', *shared]
    page += [*(absection.section(ab) if ab else []),
             *(bisectsection.section(bisect) if bisect else []), *tables,
             *(_behaviour(behaviour) if behaviour else []),
             *(nodesection.section(nodes) if nodes else []),
             '</body></html>']
    path = os.path.join(outdir, 'report.html')
    with open(path, 'w', encoding='utf-8') as out:
        out.write('\n'.join(page))
    return path
