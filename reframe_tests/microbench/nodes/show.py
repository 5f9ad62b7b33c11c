'''``microbench nodes``: a vetting night of the results storage judged
again (the newest of a partition, or the one named), as text and JSON.

Exit: 0 every node clean, 1 a node slow or failed, 2 cannot go on (no
vetting night, a partition or night the storage does not hold).
'''

from microbench.nodes import nodes_json, vetting
from microbench.verdicts import suggest

HELP = 'the nodes of a vetting night against their peers (microbench vet)'


def add_arguments(parser):
    parser.add_argument('--partition', required=True, metavar='SYS:PART',
                        help='the partition whose vetting night is judged')
    parser.add_argument('night', nargs='?', metavar='TAG',
                        help='the vetting night (vetting-<time>; default: '
                             'the newest)')
    vetting.add_storage_argument(parser)
    parser.add_argument('--json', metavar='FILE',
                        help='the node verdicts as JSON (version '
                             f'{nodes_json.VERSION})')
    parser.set_defaults(handler=run)


def run(args):
    db = vetting.chosen(args)
    rows = vetting.vetting_rows(db, args.partition)
    if rows.empty:
        raise ValueError(f'no vetting night of {args.partition} in the '
                         f'results storage {db} (microbench vet makes one)')
    nights = vetting.nights_of(rows)
    tag = args.night or nights[-1]
    if tag not in nights:
        raise ValueError(suggest.unknown('vetting night', tag, nights,
                                         f'the results storage {db}'))
    night = vetting.judge(db, args.partition, tag)
    print(vetting.text(night))
    if args.json:
        nodes_json.write(args.json, night)
    return 1 if night.alarming() else 0
