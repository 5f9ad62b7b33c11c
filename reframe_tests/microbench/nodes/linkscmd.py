'''``microbench links``: one bad link among a partition's nodes, found by
group testing (:mod:`microbench.nodes.links`) with real ping-pongs
(:mod:`microbench.nodes.linkrun`).

The ring first, then the whole partition; both clean, no bad link was
seen in 2 runs.  Otherwise the suspects are halved, run by run, and the
last one confirmed by its pair alone.  A run is slow when its answer
(:func:`microbench.nodes.linkrun.share`) is below ``1 - margin``: its
slowest link's ping-pong bandwidth over its median link's, a pair alone's
over ``--clean-mib-s`` where the facility knows its links' figure, else
over the median link of the ring (the first run: of its n links, at most
one is the bad one).  Each run's line says its purpose, its nodes, its slowest
link's MiB/s and its outcome; the last line the link found and how many
runs it took against the pairs one by one.

Exit: 0 no bad link seen, 1 a link found (or the search could not end:
not found within its budget, a run failed), 2 cannot go on.
'''

from microbench.nodes import linkrun, links, links_json, vet
from microbench.verdicts import compare

HELP = ('find a bad link among a partition\'s nodes by group testing with '
        'fi_pingpong (the ring, then halving the suspects)')

#: The share below the clean level at which a run is slow (a link at half
#: its healthy bandwidth, as a link trained down to half its width is)
MARGIN = 0.5


def add_arguments(parser):
    parser.add_argument('--system', required=True, metavar='SYS:PART',
                        help='the partition whose links are searched (said '
                             'in the output)')
    parser.add_argument('--nodes', metavar='NODE,NODE,...',
                        help='the nodes (default: every node of the Slurm '
                             'partition, from sinfo)')
    parser.add_argument('--slurm-partition', metavar='NAME',
                        help='the Slurm partition (default: sinfo\'s '
                             'default partition)')
    parser.add_argument('--provider', default='tcp',
                        help='the libfabric provider (default: tcp)')
    parser.add_argument('--size', type=int, default=linkrun.Asked.size,
                        help='the message size in bytes (default: '
                             f'{linkrun.Asked.size})')
    parser.add_argument('--iterations', type=int,
                        default=linkrun.Asked.iterations,
                        help='ping-pongs per link and run (default: '
                             f'{linkrun.Asked.iterations})')
    parser.add_argument('--port', type=int, default=linkrun.Asked.port,
                        help='the first port of a run\'s servers (default: '
                             f'{linkrun.Asked.port})')
    parser.add_argument('--timeout', type=int,
                        default=linkrun.Asked.timeout_s, metavar='S',
                        help='the seconds a ping-pong may take (default: '
                             f'{linkrun.Asked.timeout_s})')
    parser.add_argument('--margin', type=float, default=MARGIN,
                        help='a run is slow below 1 - MARGIN of the clean '
                             f'level (default: {MARGIN})')
    parser.add_argument('--clean-mib-s', type=float, metavar='MIB_S',
                        help='a healthy link\'s ping-pong bandwidth '
                             '(default: the ring\'s median link)')
    parser.add_argument('--json', metavar='FILE',
                        help='the search as JSON (version '
                             f'{links_json.VERSION})')
    parser.add_argument('--dry-run', action='store_true',
                        help='print the first run\'s command, run nothing')
    parser.set_defaults(handler=run)


def checked(args):
    '''The search's settings (:class:`~microbench.nodes.linkrun.Asked`),
    or ValueError naming the option that is wrong.'''
    for name in ('size', 'iterations', 'timeout'):
        if getattr(args, name) < 1:
            raise ValueError(f'--{name} {getattr(args, name)}: give 1 or '
                             f'more')
    if not 1024 <= args.port <= 65000:
        raise ValueError(f'--port {args.port}: give a port from 1024 to '
                         f'65000')
    if not 0 < args.margin < 1:
        raise ValueError(f'--margin {args.margin}: give a share between 0 '
                         f'and 1')
    if args.clean_mib_s is not None and not args.clean_mib_s > 0:
        raise ValueError(f'--clean-mib-s {args.clean_mib_s}: give a '
                         f'figure above 0')
    if not args.provider.replace('_', '').replace(';', '').isalnum():
        raise ValueError(f'--provider {args.provider!r}: not a provider '
                         f'name')
    return linkrun.Asked(args.provider, args.size, args.iterations,
                         args.port, args.timeout, args.slurm_partition)


def run_line(number, run, record):
    '''One line of a run: its number, purpose, nodes, slowest link.'''
    figure = 'no figure'
    if run.figure is not None and record and record.get('links'):
        slowest = min(record['links'].items(), key=lambda item: item[1])
        figure = (f'slowest link {slowest[0]} {slowest[1]:.3g} MiB/s, '
                  f'{run.figure:.2f} of {record["level_mib_s"]:.3g}')
    seconds = f' [{record["seconds"]:.1f} s]' if record and \
        record.get('seconds') is not None else ''
    head = (f'run {number} ({run.purpose}: {run.shape} over '
            f'{",".join(run.nodes)}, {links.plural(len(run.links), "link")})')
    if run.outcome == links.FAILED:
        return f'{head}: failed: {run.why}{seconds}'
    return f'{head}: {figure}: {run.outcome}{seconds}'


def run(args):
    if args.json:
        compare.writable(args.json, '--json')
    asked = checked(args)
    missing = linkrun.available()
    if missing and not args.dry_run:
        raise vet.VetError(missing)
    if args.nodes and (missing or args.dry_run):
        # nothing runs, or no scheduler to ask: the nodes named are the
        # partition
        nodes = vet.chosen_nodes(args.nodes, args.nodes.split(','),
                                 '(named with --nodes)')
    else:
        known, partition = vet.scheduler_nodes(args.slurm_partition)
        nodes = vet.chosen_nodes(args.nodes, known, partition)
    links.check_nodes(nodes)
    if args.dry_run:
        ring = [(nodes[index], nodes[(index + 1) % len(nodes)])
                for index in range(len(nodes))]
        print(' '.join(linkrun.command(frozenset(ring), asked)))
        return 0
    measure = linkrun.Measure(asked, args.clean_mib_s)
    # a run's answer is a share of its level: healthy near 1
    level = links.Threshold(1.0, args.margin)
    pairs = len(nodes) * (len(nodes) - 1) // 2
    print(f'microbench links: {args.system}: {len(nodes)} nodes '
          f'({links.plural(pairs, "link")}), fi_pingpong -p {asked.provider}'
          f' -S {asked.size} -I {asked.iterations} on each link of a run at '
          f'once; a run is slow where its slowest link is below '
          f'{1 - args.margin:.2f} of its median link (a pair alone: of '
          + (f'{args.clean_mib_s:g} MiB/s)' if args.clean_mib_s else
             'the ring\'s median link)'), flush=True)
    result = links.check_partition(nodes, measure, level)
    for number, one in enumerate(result.runs, 1):
        record = measure.made[number - 1] if number <= len(measure.made) \
            else None
        print(run_line(number, one, record))
    for note in result.notes:
        print(f'note: {note}')
    print(result.describe())
    if args.json:
        links_json.write(args.json, args.system, result,
                         {'provider': asked.provider, 'size': asked.size,
                          'iterations': asked.iterations,
                          'margin': args.margin,
                          'clean_mib_s': args.clean_mib_s}, measure.made)
    return 0 if result.status == links.NO_LINK else 1
