'''``microbench report``: one self-contained HTML page of the results
storage's figures, with plots.

The page (:mod:`.page`) holds, per pitfall, the violin plots of its latest
session (:mod:`.violins`) and the trend of each figure over the sessions
(:mod:`.trends`), both drawn on one canvas whose units are inches
(:mod:`.canvas`), then the verdicts of a comparison, the samples a night
each figure needs (:mod:`..advise`: made while the plots are drawn,
:mod:`.plots`) and the latest figures; given an A/B's JSON (``--ab``),
its section (:mod:`.absection`); given a bisection's (``--bisect``), its
section (:mod:`.bisectsection`).  matplotlib is imported only when
a report is drawn.
'''

import functools

from microbench.cause import ab_json, bisect_json
from microbench.verdicts import advise, compare_json, figures

HELP = 'an HTML report with plots'


def add_arguments(parser):
    parser.add_argument('sessions', nargs='*', help='session queries '
                        '(default: all)')
    parser.add_argument('-o', '--output', required=True, help='directory')
    parser.add_argument('--verdicts', help='the JSON of a compare')
    parser.add_argument('--ab', metavar='FILE', help='the JSON of an A/B '
                        '(microbench ab --json): its section')
    parser.add_argument('--bisect', metavar='FILE', help='the JSON of a '
                        'bisection (microbench bisect --json): its section')
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.set_defaults(handler=run)


def run(args):
    from microbench.verdicts.report import page

    # the A/B's JSON said wrong before the storage is read
    tried = ab_json.read(args.ab) if args.ab else None
    bisected = bisect_json.read(args.bisect) if args.bisect else None
    frame = figures.load_many(args.sessions or [figures.ALL], args.db,
                              args.partition)
    found = compare_json.read(args.verdicts) if args.verdicts else None
    print(page.render(frame, found and found.figures, args.output,
                      advice=functools.partial(advise.advice, frame),
                      events=found and found.events,
                      ab=tried and tried.doc, bisect=bisected,
                      behaviour=found and found.doc['behaviour'],
                      nodes=found and found.doc['nodes']))
    return 0
