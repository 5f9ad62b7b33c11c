'''``microbench acks``: what is acknowledged, whether each entry applies,
and the field record of the acknowledgements.

Lists every entry of the acknowledgements files of the systems in the
results storage (:mod:`.acks`) with its state today: in force, expired,
or why it cannot apply (its partition, night or figure is not in the
storage, or the entry is not one).  ``--check`` exits 2 when any entry
cannot apply or has expired (for the review of a change to the files).

``--stats``: the tally over the history, the suite's field record to put
beside the simulated false-alarm budget (:mod:`.nightly`): per partition
and kind, the entries and the nights they name, each night classed by
what differs in the records around it (:func:`.events.cause`: the suite
or software changed, the machine changed, nothing recorded changed); and
per partition the share of judged nights (those with
:data:`.nightly.MIN_NIGHTS` nights before them) acknowledged as noise:
the false alarms the field found.
'''

import collections
import datetime

from microbench.verdicts import (acks, events, figures, history, nightly,
                                 triage)

HELP = 'the acknowledgements: each one\'s state, --stats their record'


def add_arguments(parser):
    parser.add_argument('--partition', help='SYSTEM:PARTITION (default: '
                        'all)')
    parser.add_argument('--stats', action='store_true', help='the tally by '
                        'kind and partition, and the field false-alarm '
                        'rate')
    parser.add_argument('--check', action='store_true', help='exit 2 when '
                        'an entry cannot apply or has expired')
    parser.set_defaults(handler=run)


def _today():
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d')


def states(found, nights, keys, day):
    '''``[(ack, state)]``: every entry of ``found`` and its state on
    ``day`` (``in force`` or the line that says why not).'''
    out = []
    for ack in found:
        applied, problems = acks.check([ack], nights, keys, day)
        out.append((applied[0] if applied else ack,
                    'in force' if applied else problems[0]))
    return out


def listing(rows):
    lines = []
    for ack, state in rows:
        when = ack.date[:16] or ack.night
        lines.append(f'{ack.where()}: {ack.names()}, night {when}: '
                     f'{ack.words()}' + (f' [{ack.link}]' if ack.link else '')
                     + (f', until {ack.expires}' if ack.expires else ''))
        if state != 'in force':
            lines.append(f'    {state}')
    return lines


def stats(rows, frame, nights):
    '''The tally of the entries ``rows`` that name a night of the
    storage: by partition and kind, the nights classed by cause; and the
    share of judged nights acknowledged as noise.'''
    records = history.as_nights(frame)
    order = {key: [s for s, _ in mine] for key, mine in nights.items()}
    tally = collections.Counter()
    named = collections.defaultdict(set)
    for ack, _ in rows:
        where = (ack.system, ack.partition)
        if ack.night not in order.get(where, ()):
            continue
        named[where, ack.kind].add(ack.night)
        tally[where, ack.kind, 'entries'] += 1
    lines = ['partition                 kind      entries  nights  '
             'software  machine  both  nothing']
    for (where, kind), found in sorted(named.items()):
        causes = collections.Counter(events.cause(events.around(
            records, *where, night, order[where])) for night in found)
        lines.append(
            f'{":".join(where):25} {kind:8} {tally[where, kind, "entries"]:8}'
            f' {len(found):7} {causes["software"]:9} {causes["machine"]:8} '
            f'{causes["software and machine"]:5} '
            f'{causes["nothing recorded"]:8}')
    for where in sorted(nights):
        judged = max(0, len(nights[where]) - nightly.MIN_NIGHTS)
        noise = len(named.get((where, 'noise'), ()))
        rate = f'{noise / judged:.1%}' if judged else '-'
        lines.append(f'{":".join(where)}: {noise} of {judged} judged nights '
                     f'acknowledged as noise ({rate}); the simulated '
                     f'budget: at most {nightly.BUDGET:.0%} of unchanged '
                     f'nights exit 1')
    return lines


def run(args):
    frame = figures.load(figures.ALL, args.db, args.partition)
    nights = triage.partition_nights(frame)
    found, problems = acks.load_all(frame['system'].unique())
    if args.partition:
        system, _, partition = args.partition.partition(':')
        found = [a for a in found
                 if (a.system, a.partition) == (system, partition)]
    keys = list(frame.drop_duplicates(figures.KEY)[figures.KEY].itertuples(
        index=False, name=None))
    rows = states(found, nights, keys, _today())
    for line in problems:
        print(f'microbench acks: {line}')
    print(f'{len(found)} acknowledgement(s) in '
          f'{len({a.path for a in found})} file(s) ({acks.directory()}); '
          f'{sum(state == "in force" for _, state in rows)} in force today')
    print('\n'.join(listing(rows)))
    if args.stats:
        print('\n'.join(['', *stats(rows, frame, nights)]))
    bad = problems or any(state != 'in force' for _, state in rows)
    return 2 if args.check and bad else 0
