'''``microbench report``: one self-contained HTML page of the results
storage's figures, with plots.

The page (:mod:`.page`) holds, per pitfall, the violin plots of its latest
session (:mod:`.violins`) and the trend of each figure over the sessions
(:mod:`.trends`), both drawn on one canvas whose units are inches
(:mod:`.canvas`), then the verdicts of a comparison, the samples a night
each figure needs (:mod:`..advise`) and the latest figures.  matplotlib
is imported only when a report is drawn.
'''

import json

from microbench.verdicts import advise, figures

HELP = 'an HTML report with plots'


def add_arguments(parser):
    parser.add_argument('sessions', nargs='*', help='session queries '
                        '(default: all)')
    parser.add_argument('-o', '--output', required=True, help='directory')
    parser.add_argument('--verdicts', help='the JSON of a compare')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.set_defaults(handler=run)


def run(args):
    from microbench.verdicts.report import page

    frame = figures.load_many(args.sessions or [figures.ALL], args.db,
                              args.partition)
    found = verdicts_of(args.verdicts) if args.verdicts else None
    print(page.render(frame, found, args.output,
                      advice=advise.advice(frame)))
    return 0


def verdicts_of(path):
    '''The verdicts of the JSON ``microbench compare --json`` wrote at
    ``path``: the list of one dict per figure under ``figures``.

    :raises ValueError: not that JSON.
    '''
    with open(path) as fp:
        found = json.load(fp)
    verdicts = found.get('figures') if isinstance(found, dict) else None
    if not isinstance(verdicts, list) or not all(
            isinstance(verdict, dict) and 'verdict' in verdict
            for verdict in verdicts):
        raise ValueError(f'{path}: not the JSON of microbench compare (no '
                         f'list of figures with their verdicts)')
    return verdicts
