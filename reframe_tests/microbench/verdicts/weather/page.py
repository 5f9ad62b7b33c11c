'''The weather page: one self-contained HTML file for users.

No script, no font, no image file, nothing fetched: inline CSS and inline
SVG (:mod:`.sparkline`).  A phone's width first: tiles in one column that
become a grid on a wider screen, long words (commands, mount options)
wrapped, so the page never scrolls sideways.  The status is said in
words, the colour only repeats it.

The page: when it was made and from which session; the state changes in
plain words (:mod:`.news`); per partition (its storage target: the
scratch's file system) and group (:data:`.realistic.GROUPS`), a tile per
figure (:mod:`.status`); what the statuses mean; the commands that make
it again.
'''

import html
import re

from microbench.verdicts import vocabulary
from microbench.verdicts.weather import realistic, sparkline, status

TITLE = 'I/O and network weather'

CSS = (
    '*{box-sizing:border-box}'
    'body{font-family:system-ui,sans-serif;font-size:16px;line-height:1.4;'
    'margin:0 auto;padding:12px;max-width:1100px;color:#1a1a1a;'
    'background:#fff;overflow-wrap:anywhere}'
    'h1{font-size:24px;margin:4px 0}h2{font-size:20px;margin:28px 0 6px}'
    'h3{font-size:16px;margin:16px 0 6px;color:#444}'
    'p{margin:6px 0}.made,.target,.note{color:#555;font-size:14px}'
    'ul.tiles{list-style:none;margin:0;padding:0;display:grid;gap:10px;'
    'grid-template-columns:repeat(auto-fill,minmax(250px,1fr))}'
    'li.tile{border:1px solid #ccc;border-left:8px solid #999;'
    'border-radius:6px;padding:8px 10px;min-width:0}'
    '.what{font-weight:600}.value{font-size:22px;margin:2px 0}'
    '.row{display:flex;flex-wrap:wrap;align-items:center;'
    'justify-content:space-between;column-gap:8px}'
    '.share{font-size:14px;color:#444}.when{font-size:14px;color:#555}'
    '.status{font-size:15px;font-weight:600}'
    'svg.spark{display:block;margin:4px 0;max-width:100%}'
    'svg.spark polyline{fill:none;stroke:#333;stroke-width:1.5}'
    'svg.spark circle{fill:#333}'
    'svg.spark line.since{stroke:#b00;stroke-dasharray:3 2}'
    '.night{white-space:nowrap}'
    'ul.news{padding-left:20px}ul.news li{margin:6px 0}'
    'pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;'
    'padding:8px;font-size:14px;border-radius:4px}'
    '.badge{font-size:14px;padding:1px 8px;border-radius:10px;'
    'vertical-align:middle;white-space:nowrap}'
    'dl{margin:6px 0}dt{font-weight:600}dd{margin:0 0 6px 16px}'
    + vocabulary.status_css() +
    'ul.news li.degraded{color:#8e1b1b}ul.news li.improved{color:#1b5e20}'
)

#: What each status means, for the page's reader
MEANING = [
    ('normal', 'as on the nights before: no change found.'),
    ('degraded since a night', 'slower since that night, by how much it '
     'says; your jobs doing this kind of I/O or communication may take '
     'longer.'),
    ('improved since a night', 'faster since that night.'),
    ('changed since a night', 'moved, and neither side is better.'),
    ('unknown', 'too little history to tell a change from the usual '
     'spread (the verdict needs 14 nights), or not measured in the last '
     'session.'),
]

ABOUT = (
    'Every night the suite runs microbenchmarks on each partition and '
    'judges each figure against its own history (the night as the unit: '
    'change points and a test of the last nights).  This page shows only '
    'the figures a real job sees, not a benchmark\'s flattering default: '
    'writes and reads that bypass or flush the page cache, metadata '
    'rates of files another node made, MPI bandwidth from many buffers. '
    'Each value is the median of the last night\'s samples; the line '
    'under it is the last {nights} nights (a dashed line: the night a '
    'change began).')


def _e(text):
    return html.escape(str(text))


#: A night: never broken at its hyphens
NIGHT = re.compile(r'\b\d{4}-\d\d-\d\d\b')


def _said(text):
    '''``text`` escaped, each night in it kept on one line.'''
    return NIGHT.sub(lambda m: f'<span class="night">{m[0]}</span>',
                     _e(text))


def _tile(tile, environ=False):
    '''One figure's tile (its environment said, if ``environ``).'''
    values = [value for _, value in tile.nights]
    dates = [status.night(when) for when, _ in tile.nights]
    since = dates.index(tile.since) if tile.since in dates else None
    out = [f'<li class="tile {_e(tile.status)}">',
           f'<div class="what">{_e(tile.words)}</div><div class="row">'
           f'<div class="value">{_e(status.number(tile.value))} '
           f'{_e(tile.unit)}</div>',
           sparkline.svg(values, tile.unit, since, tile.status), '</div>']
    if tile.share is not None:
        limit = f' ({_e(tile.limit)})' if tile.limit else ''
        out.append(f'<div class="share">{tile.share:.0f} % of the '
                   f'partition\'s limit{limit}</div>')
    elif tile.limit:
        out.append(f'<div class="share withheld">{_e(tile.limit)}</div>')
    if tile.memory:
        out.append(f'<div class="share">data on a node: '
                   f'{_e(tile.memory)}</div>')
    if tile.verdict is None:
        out.append(f'<div class="when">last measured '
                   f'{_e(f"{tile.when:%Y-%m-%d}")}</div>')
    out.append(f'<div class="status">{_said(tile.text)}</div>')
    if environ:
        out.append(f'<div class="when">environment {_e(tile.environ)}'
                   f'</div>')
    return ''.join(out) + '</li>'


def _partition(where, tiles, target):
    '''A partition's section: its storage target, a tile per figure by
    group.'''
    system, partition = where
    state = status.worst(tiles)
    environs = len({tile.environ for tile in tiles}) > 1
    out = [f'<section class="partition" id="{_e(system)}-{_e(partition)}">'
           f'<h2>{_e(partition)} on {_e(system)} '
           f'<span class="badge {state}">{state}</span></h2>']
    if target:
        out.append(f'<p class="target">{_e(target)}</p>')
    for group in realistic.GROUPS:
        mine = [tile for tile in tiles if tile.group == group]
        if mine:
            out += [f'<h3>{_e(group)}</h3><ul class="tiles">',
                    *(_tile(tile, environs) for tile in mine), '</ul>']
    return out + ['</section>']


def _news(found):
    if not found:
        return ['<p>No change in the history shown.</p>']
    return ['<ul class="news">', *(
        f'<li class="{_e(line.status)}">{_said(line.text)}</li>'
        for line in found), '</ul>']


def _summary(parts):
    counts = {}
    for tiles in parts.values():
        state = status.worst(tiles)
        counts[state] = counts.get(state, 0) + 1
    return ', '.join(f'{counts[s]} {s}' for s in status.STATUSES
                     if s in counts)


def render(tiles, lines, made, session, targets, commands):
    '''The page's HTML.

    :arg tiles: the figures (:func:`.status.tiles`), at least one.
    :arg lines: the state changes (:func:`.news.lines`).
    :arg made: when the page is made (a datetime, UTC).
    :arg session: ``(UUID, its start)`` of the last session.
    :arg targets: ``{(system, partition): its storage target's words}``.
    :arg commands: the shell commands that make the page again.
    '''
    parts = status.partitions(tiles)
    body = [
        f'<header><h1>{TITLE}</h1>',
        f'<p class="made">Made {made:%Y-%m-%d %H:%M} UTC from the session '
        f'of {session[1]:%Y-%m-%d %H:%M} UTC ({_e(session[0])}).</p>',
        f'<p>{len(parts)} partition(s): {_e(_summary(parts))}.</p>'
        '</header>',
        '<section id="changes"><h2>What changed</h2>', *_news(lines),
        '</section>']
    for where, mine in parts.items():
        body += _partition(where, mine, targets.get(where))
    body += [
        '<section id="about"><h2>What this page shows</h2>',
        f'<p>{_e(ABOUT.format(nights=status.NIGHTS))}</p><dl>',
        *(f'<dt>{_e(name)}</dt><dd>{_e(text)}</dd>'
          for name, text in MEANING), '</dl>',
        '<h3>The commands that make it again</h3>',
        f'<pre>{_e(chr(10).join(commands))}</pre></section>']
    return ''.join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, '
        'initial-scale=1">', f'<title>{TITLE}</title>',
        f'<style>{CSS}</style></head><body>', '\n'.join(body),
        '</body></html>\n'])


def target(rows):
    '''The storage target of a partition's ``rows`` in words: its
    scratch's file system and mount options, of its last session.'''
    last = rows[rows['start'] == rows['start'].max()]
    fstypes = sorted(set(last['scratch_fstype']) - {''})
    if not fstypes:
        return ''
    options = sorted(set(last['scratch_mount_options']) - {''})
    return (f'Storage: the scratch file system, {", ".join(fstypes)}'
            + (f' (mounted {"; ".join(options)})' if options else ''))

