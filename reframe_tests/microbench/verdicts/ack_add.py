'''``microbench ack``: acknowledge a change, as a diff of the system's
acknowledgements file (:mod:`.acks`), the way ``baseline --write``
writes references.

One figure (``--check``, ``--variant``, ``--figure``: names or patterns)
or every member of one of tonight's events (``--event FINGERPRINT
--verdicts FILE``, the compare JSON that lists it), on a night (the
session a change began on, or its date where it is the partition's only
night that day), of a kind (``expected``, ``noise``, ``known``) with a
reason, and optionally a link and an expiry day (today or later, UTC:
an entry already past its expiry acts nowhere).  The entry is checked
against the results storage first (its partition, night and figures must
be there: one line and exit 2 where not), printed as a diff, and written
with ``--write``.  The next ``compare --last`` applies it.

The system's file is read as :mod:`.acks` reads it: one it cannot read,
or one with a problem (an entry left out, a member it does not know) is
one line and exit 2, nothing written: an entry is added to a file the
review would pass, never to a broken one.
'''

import datetime
import re

import yaml

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
                        help='in force until that day (today or later, '
                        'UTC)')
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


def today():
    '''Today, UTC (YYYY-MM-DD): the day ``acks`` and the nights use.'''
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d')


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
        if draft.expires and draft.expires < today():
            raise ValueError(f'--expires {draft.expires}: already past '
                             f'(today is {today()}, UTC): an entry past its '
                             f'expiry day acts nowhere')
        # checked as on the first day (the expiry was checked against today)
        applied, problems = acks.check([draft], nights, keys, '0000-00-00')
        if problems:
            raise ValueError(problems[0].removesuffix(': left out'))
        # written as it will be read (a reason's line breaks as spaces)
        out.append({name: getattr(applied[0], name)
                    for name in (*acks.REQUIRED, *acks.OPTIONAL)})
    return system, out


def run(args):
    if ':' not in args.partition:
        raise ValueError(f'--partition {args.partition!r}: not '
                         f'SYSTEM:PARTITION')
    frame = figures.load(figures.ALL, args.db, args.partition)
    system, new = entries(args, frame)
    target = acks.path_of(system)
    try:
        text = acks.read(target)
        for values in new:
            text = appended(text, system, values)
    except acks.AckError as err:
        raise ValueError(str(err)) from None
    count = f'{len(new)} entr{"y" if len(new) == 1 else "ies"}'
    reviewed.show(target, text, args.write,
                  f'{count}; the next compare --last applies it')
    return 0


# -- writing -------------------------------------------------------------

HEAD = (f'# Acknowledged changes of {{system}}: reviewed like the references'
        f' (microbench ack ... --write adds one)\n'
        f'format: {acks.FORMAT}\nversion: {acks.VERSION}\nacks:\n')

#: ``acks: []`` written by hand: a block list goes after the key
EMPTY = re.compile(r'^acks:[ \t]*\[[ \t]*\][ \t]*$', re.MULTILINE)

#: What a problem line of :func:`acks.parse` ends with
ENDINGS = (': no acknowledgement of it applies', ': left out')


def entry(values):
    '''The YAML lines of one entry (``values``: its members, in
    :data:`acks.REQUIRED` and :data:`acks.OPTIONAL` order, empty ones left
    out).'''
    ordered = {name: values[name] for name in (*acks.REQUIRED[:5], 'date',
                                               *acks.REQUIRED[5:], 'link',
                                               'expires')
               if values.get(name) not in (None, '')}
    return yaml.safe_dump([ordered], sort_keys=False, width=72,
                          allow_unicode=True)


def _fix_first(problem):
    for ending in ENDINGS:
        problem = problem.removesuffix(ending)
    return f'{problem}: fix the file before adding an entry'


def appended(text, system, values):
    '''The text of ``system``'s file (``text``, empty if none) with one
    more entry; checked to read back as it was written.

    :raises AckError: the file has a problem (one line), or the result is
        not a valid file.
    '''
    path = acks.path_of(system)
    if not text.strip():
        text = HEAD.format(system=system)
    _, problems = acks.parse(text, system, path)
    if problems:
        raise acks.AckError(_fix_first(problems[0]))
    body = text if text.endswith('\n') else text + '\n'
    new = EMPTY.sub('acks:', body, count=1) + entry(values)
    found, problems = acks.parse(new, system, path)
    if problems or not found or found[-1].night != str(values['night']):
        raise acks.AckError(f'{path}: the new entry does not read back as '
                            f"the file's last (acks must be its last "
                            f'member, a block list)')
    return new
