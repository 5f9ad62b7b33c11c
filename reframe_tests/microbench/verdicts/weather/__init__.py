'''``microbench weather``: the I/O weather, one HTML page for users.

Run by the nightly flow after ``compare --last``: per partition and its
storage target, the figures a user's job sees (:mod:`.realistic`), each
with today's value, its share of the partition's limit where one is
known, its last 30 nights and a status from the nightly verdicts
(:mod:`.status`, :mod:`.sparkline`); the state changes in plain words
(:mod:`.news`); when it was made and the commands that make it again
(:mod:`.page`).  ``DIR/weather.html``, self-contained: no script, no
font, nothing fetched.

The verdicts are those of ``--verdicts FILE`` (the JSON of ``microbench
compare --last --json FILE``), else judged here by the code of ``compare
--last`` (:func:`microbench.verdicts.nightly.judge_last`) on the sessions
SESSIONS select (default: all).

Bad input: a session query that selects no figure, a last session
without figures (every test failed before its figures were taken: the
page would show an older night as today's), sessions without one
realistic figure, or verdicts of another night than the last session,
is an error (exit 2).
'''

import datetime
import os
import shlex
import sys

from microbench.nodes import multinode
from microbench.verdicts import compare_json, figures, storage, triage
from microbench.verdicts.weather import news, page, realistic, status

HELP = "the I/O weather: one HTML page of what users' jobs see"

#: The page, in the output directory
PAGE = 'weather.html'


def add_arguments(parser):
    parser.add_argument('sessions', nargs='*', help='session queries '
                        '(default: all)')
    parser.add_argument('-o', '--output', required=True, help='directory '
                        f'(the page is {PAGE} in it)')
    parser.add_argument('--verdicts', help='the JSON of compare --last '
                        '(default: judged here, as compare --last judges)')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.set_defaults(handler=run)


def judged(frame):
    '''The nightly verdicts of the last night of ``frame`` (as ``compare
    --last`` judges it), as the compare JSON's ``figures`` and
    ``events``.'''
    night = triage.judge(frame)
    for warning in night.warnings:
        print(f'microbench weather: warning: {warning}', file=sys.stderr)
    return [compare_json.plain(row) for row in night.figures], \
        compare_json.plain(night.events)


def _last_has_figures(queries, frame, path, partition):
    ''':raises ValueError: the last session a query selects has no
    figure (of ``partition``, if given) in ``frame``.'''
    found = set(frame['session'])
    for query in queries:
        selected = figures.sessions(query, path)
        if selected and selected[-1] not in found:
            where = f' on {partition}' if partition else ''
            raise ValueError(
                f'the last session {selected[-1]} of {query!r} has no '
                f'figures{where} (did every test fail before its '
                f'performance stage?): the weather would show an older '
                f'night as today\'s')


def commands(args):
    '''The shell commands that make the page again.'''
    db = ['--db', storage.database(args.db)]
    where = ['--partition', args.partition] if args.partition else []
    weather = ['microbench', *db, 'weather', *args.sessions, '-o',
               os.path.abspath(args.output), *where]
    if not args.verdicts:
        return [shlex.join(weather)]
    verdicts = os.path.abspath(args.verdicts)
    return [shlex.join(['microbench', *db, 'compare', '--last', *where,
                        '--json', verdicts]),
            shlex.join([*weather, '--verdicts', verdicts])]


def write(frame, verdicts, outdir, commands, made=None, events=(),
          nodes=()):
    '''Write ``outdir/weather.html`` of the figures ``frame`` (rows of
    :func:`figures.load`) and the nightly ``verdicts`` and ``events`` (the
    compare JSON's ``figures`` and ``events``), and the newest vetting
    night of each partition (its ``nodes``); return its path.

    :raises ValueError: no realistic figure.
    '''
    tiles = status.tiles(frame, verdicts)
    if not tiles:
        raise ValueError(
            f'no figure a user\'s job sees among the '
            f'{frame["session"].nunique()} session(s): the weather shows '
            f'the realistic variants of the pitfall checks only (' + ', '.join(
                sorted({check for check, _, _ in realistic.TABLE}))
            + ')')
    last = frame.loc[frame['start'].idxmax()]
    targets = {where: page.target(rows) for where, rows in
               frame.groupby(['system', 'partition'])}
    made = made or datetime.datetime.now(datetime.timezone.utc)
    lines = sorted([*news.lines(tiles, events), *news.node_lines(nodes)],
                   key=lambda line: line.night, reverse=True)
    text = page.render(tiles, lines, made,
                       (last['session'], last['when']), targets, commands)
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, PAGE)
    with open(path, 'w', encoding='utf-8') as out:
        out.write(text)
    return path


def given(path, frame):
    '''The verdicts (``figures``, ``events``) and vetting nights
    (``nodes``) of the compare JSON at ``path``.

    :raises ValueError: not that JSON, or the verdicts of another night
        than the last session of ``frame``.
    '''
    found = compare_json.read(path)
    last = frame.loc[frame['start'].idxmax(), 'session']
    if not found.judges(last):
        raise ValueError(f'{path} judges the session {found.session}, not '
                         f'the last session here, {last}: the verdicts of '
                         f'another night')
    return found.figures, found.events, found.doc['nodes']


def run(args):
    queries = args.sessions or [figures.ALL]
    frame = figures.load_many(queries, args.db, args.partition)
    _last_has_figures(queries, frame, args.db, args.partition)
    if args.verdicts:
        found, happened, vetted = given(args.verdicts, frame)
    else:
        found, happened = judged(frame)
        vetted = multinode.attached(args.db, args.partition)
    print(write(frame, found, args.output, commands(args), events=happened,
                nodes=vetted))
    return 0
