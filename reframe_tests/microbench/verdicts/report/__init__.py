'''``microbench report``: one self-contained HTML page of the results
storage's figures, with plots.

The page (:mod:`.page`) holds, per pitfall, the violin plots of its latest
session (:mod:`.violins`) and the trend of each figure over the sessions
(:mod:`.trends`), both drawn on one canvas whose units are inches
(:mod:`.canvas`), then the verdicts of a comparison, the samples a night
each figure needs (:mod:`..advise`: made while the plots are drawn,
:mod:`.plots`) and the latest figures.  matplotlib is imported only when
a report is drawn.
'''

import functools

from microbench.verdicts import advise, compare_json, figures

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
    found = compare_json.read(args.verdicts) if args.verdicts else None
    print(page.render(frame, found and found.figures, args.output,
                      advice=functools.partial(advise.advice, frame),
                      events=found and found.events))
    return 0
