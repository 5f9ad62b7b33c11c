'''A figure's last nights as a sparkline: inline SVG, no script.

One point per night (its night summary), oldest left, spaced by the
nights' order (a night the check did not run leaves no gap); the
y axis from the least to the largest night, a flat series in the middle;
the last night a dot; the night a change began, if shown, a dashed line.
The picture says its range in words too (its ``<title>`` and the
``aria-label``), for a screen reader and for a test.
'''

import html
import math

#: The picture's size in CSS pixels, and the room kept at its edges
WIDTH, HEIGHT, PAD = 120, 32, 3


def _xy(values):
    '''The points of ``values`` in the picture.'''
    low, high = min(values), max(values)
    span = high - low
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)
    out = []
    for index, value in enumerate(values):
        y = 0.5 if not span else (value - low) / span
        out.append((PAD + index * step, HEIGHT - PAD - y * (HEIGHT - 2 * PAD)))
    return out


def svg(values, unit, since=None, state='normal'):
    '''The sparkline of night summaries ``values`` (oldest first) in
    ``unit``; ``since``: the index among them of the night a change began
    (a dashed line), or None; ``state``: the status (its class: the
    line's colour).'''
    values = [float(v) for v in values]
    if not values:
        return ''
    label = (f'{len(values)} night(s): {number(values[0])} to '
             f'{number(values[-1])} {unit}, least {number(min(values))}, '
             f'largest {number(max(values))}')
    points = _xy(values)
    line = ' '.join(f'{x:.1f},{y:.1f}' for x, y in points)
    parts = [f'<svg class="spark {html.escape(state)}" width="{WIDTH}" '
             f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{html.escape(label)}">'
             f'<title>{html.escape(label)}</title>']
    if since is not None and 0 <= since < len(points):
        x = points[since][0]
        parts.append(f'<line class="since" x1="{x:.1f}" y1="0" '
                     f'x2="{x:.1f}" y2="{HEIGHT}"/>')
    if len(points) > 1:
        parts.append(f'<polyline points="{line}"/>')
    x, y = points[-1]
    parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"/></svg>')
    return ''.join(parts)


def number(value):
    '''A value as a user reads it: ``2,257``, ``22.9``; ``-``: none.'''
    if value is None or not math.isfinite(value):
        return '-'
    if abs(value) >= 1000:
        return f'{value:,.0f}'
    return f'{value:.3g}'
