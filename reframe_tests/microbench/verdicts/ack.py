'''``microbench ack``: acknowledge a change, as a diff of the system's
acknowledgements file (:mod:`.acks`), the way ``baseline --write``
writes references.

One figure (``--check``, ``--variant``, ``--figure``: names or patterns)
or every member of one of tonight's events (``--event FINGERPRINT
--verdicts FILE``, the compare JSON that lists it), on a night (the
session a change began on, or its date where it is the partition's only
night that day), of a kind (``expected``, ``noise``, ``known``) with a
reason, and optionally a link and an expiry day.  The entry is checked
against the results storage first (its partition, night and figures must
be there: one line and exit 2 where not), printed as a diff, and written
with ``--write``.  The next ``compare --last`` applies it.
'''

from microbench.verdicts import acks, compare_json, figures, reviewed, triage

HELP = 'acknowledge a change (expected, noise, known), as a diff'


def add_arguments(parser):
    parser.add_argument('--partition', required=True,
                        help='SYSTEM:PARTITION')
    parser.add_argument('--check', help='the check (a name or a pattern)')
    parser.add_argument('--variant', default='*', help='the variant (a '
                        'name or a pattern; default: every one)')
    parser.add_argument('--figure', help='the figure (a name or a '
                        'pattern)')
    parser.add_argument('--event', metavar='FINGERPRINT', help="every "
                        "member of one of tonight's events (with "
                        '--verdicts)')
    parser.add_argument('--verdicts', metavar='FILE', help='the compare '
                        'JSON that lists the event')
    parser.add_argument('--night', help='the session the change began on, '
                        'or its date (YYYY-MM-DD); with --event: the '
                        "event's")
    parser.add_argument('--kind', required=True, choices=list(acks.KINDS),
                        help='; '.join(f'{kind}: {what}' for kind, what in
                                       acks.KINDS.items()))
    parser.add_argument('--reason', required=True, help='why, in words')
    parser.add_argument('--link', default='', help='a ticket, a log, a '
                        'change request')
    parser.add_argument('--expires', default='', metavar='YYYY-MM-DD',
                        help='in force until that day')
    parser.add_argument('--write', action='store_true', help='apply the '
                        'diff')
    parser.set_defaults(handler=run)


def _named(args):
    '''``[(check, variant, figure)]`` the entries name, and the night.'''
    if args.event:
        if not args.verdicts:
            raise ValueError('--event needs --verdicts FILE (the compare '
                             'JSON that lists it)')
        found = compare_json.read(args.verdicts)
        event = next((e for e in found.events
                      if e['fingerprint'] == args.event), None)
        if event is None:
            listed = ', '.join(e['fingerprint'] for e in found.events)
            raise ValueError(f'{args.verdicts} has no event {args.event} '
                             f'(it has: {listed or "none"})')
        if f'{event["system"]}:{event["partition"]}' != args.partition:
            raise ValueError(f'event {args.event} is of {event["system"]}:'
                             f'{event["partition"]}, not {args.partition}')
        return ([(m['check'], m['variant'], m['figure'])
                 for m in event['members']], args.night or event['night'])
    if not args.check or not args.figure or not args.night:
        raise ValueError('name the figure (--check, --figure, and --variant '
                         'or every variant) and --night, or give --event '
                         'and --verdicts')
    return [(args.check, args.variant, args.figure)], args.night


def entries(args, frame):
    '''The new entries (dicts of an acks file's members), each checked
    against the results storage ``frame`` of the partition.

    :raises ValueError: one cannot apply (one line).
    '''
    system, _, partition = args.partition.partition(':')
    named, night = _named(args)
    nights = triage.partition_nights(frame)
    keys = list(frame.drop_duplicates(figures.KEY)[figures.KEY].itertuples(
        index=False, name=None))
    out = []
    for check, variant, figure in named:
        values = {'partition': partition, 'check': check,
                  'variant': variant, 'figure': figure, 'night': night,
                  'kind': args.kind, 'reason': args.reason,
                  'link': args.link, 'expires': args.expires}
        try:
            draft = acks.new(system, values)
        except acks.AckError as err:
            raise ValueError(str(err)) from None
        # checked as on the first day, so an expiry day past is no reason
        applied, problems = acks.check([draft], nights, keys, '0000-00-00')
        if problems:
            raise ValueError(problems[0].removesuffix(': left out'))
        values.update(night=applied[0].night, date=applied[0].date)
        out.append(values)
    return system, out


def run(args):
    if ':' not in args.partition:
        raise ValueError(f'--partition {args.partition!r}: not '
                         f'SYSTEM:PARTITION')
    frame = figures.load(figures.ALL, args.db, args.partition)
    system, new = entries(args, frame)
    target = acks.path_of(system)
    text = reviewed.read(target)
    for values in new:
        try:
            text = acks.appended(text, system, values)
        except acks.AckError as err:
            raise ValueError(str(err)) from None
    count = f'{len(new)} entr{"y" if len(new) == 1 else "ies"}'
    reviewed.show(target, text, args.write,
                  f'{count}; the next compare --last applies it')
    return 0
