'''IOR's residency witness: what of the files its read is about to read
the page cache holds, on every node that reads.

IOR writes and reads in one process, so nothing can look between its
phases.  The witness runs the variant's own command on a short sample of
its own, split at the phase boundary as IO500 splits ior-easy-write and
ior-easy-read: the write phase keeps its files (``-k``) and leaves the
stonewall's count in a status file (:data:`.command.STATUS_FILE`), every
reading node then runs fincore (:mod:`microbench.suite.residency`), and
the read phase reads what the write phase wrote.  IOR's own output of both
phases goes to the witness's standard error (kept, and quoted where the
witness fails), so its standard output is fincore's alone.

Which files a node reads: with a file per process (``-F``) rank ``r``
reads ``testfile.<r + shift>``, IOR's shift being ``-Q`` times the tasks
of a node under ``-C`` (ranks placed by node, as the launchers place
them), else 0; with one shared file every node reads parts of it.
'''

from microbench.suite import fincore, residency
from microbench.tools.ior import command

def phases(argv):
    '''(write argv, read argv) of a witness's IOR command ``argv``, which
    writes then reads (``-w -r``), split at the phase boundary; the
    stonewall's count passed from one to the other where IOR's wear-out
    stonewalls the write.'''
    program, *words = argv
    if words[:2] != ['-w', '-r']:
        raise ValueError(f'{" ".join(argv)!r} does not write then read: '
                         f'no phase boundary to look at')

    rest = words[2:]
    # A stonewalled write (IOR's wear-out) leaves its count for the read;
    # IOR refuses the status file of a command without one (an audit's
    # user form)
    worn = any('stoneWallingWearOut=' in word and not word.endswith('=0')
               for word in rest)
    status = (('-O', f'stoneWallingStatusFile={command.STATUS_FILE}')
              if worn else ())
    return ((program, '-w', '-k', *rest, *status),
            (program, '-r', '-k', *rest, *status))


def witness_command(rounds, variant, runs):
    '''The residency witness of ``variant`` of IOR ``rounds``: ``runs``,
    its short sample's :class:`.command.IorCommand` (one that writes then
    reads, split at its phase boundary by :func:`phases`) or sequence of
    them (IO500's read after read, :mod:`.reread`), with fincore on every
    node right before the last read.  IOR's own output goes to the
    witness's standard error.'''
    last = runs[-1]
    steps = list(phases(last.argv)) if len(runs) == 1 else [
        run.argv for run in runs]
    start = rounds.launch_options(variant)

    def step(argv):
        return (rounds.ranks(*start, *argv, nodes=last.nodes,
                             per_node=last.tasks_per_node) + ' >&2')

    look = residency.command(rounds.ranks(nodes=last.nodes, per_node=1),
                             rounds.stagedir)
    return ' && '.join([*map(step, steps[:-1]), look, step(steps[-1])])


def reads(asked):
    '''``reads(node)``: the files IOR's node ``node`` (0-based, in the
    launcher's order) reads, by base name, for :func:`.residency.seen`.'''
    base = 'testfile'
    if not asked.file_per_process:
        return lambda node: [base]

    shift = asked.task_offset * asked.tasks_per_node if asked.reorder else 0
    per_node = asked.tasks_per_node

    def files(node):
        return [f'{base}.{(rank + shift) % asked.tasks:08d}'
                for rank in range(node * per_node, (node + 1) * per_node)]

    return files


def direct(asked):
    '''Whether IOR reads with O_DIRECT.'''
    return '--posix.odirect' in asked.argv


def seen(rounds, variant, check, shared_cache):
    ''':func:`.residency.seen` of ``variant``'s witness (read by
    ``rounds``, failing ``check`` where its output is garbage):
    ``shared_cache``, why the nodes share one page cache or None.'''
    asked = rounds.ior_command(variant).asked
    found = rounds.read_witness(
        variant, f'witness-{variant}.txt',
        lambda text: fincore.parse_nodes(text, asked.nodes), check)
    return residency.seen(found, reads(asked),
                          shared=not asked.file_per_process,
                          one_kernel=shared_cache is not None)


def agreement(found, origins, asked, shared_cache):
    '''None where the residency witness (``found``, :func:`seen`'s) and
    Darshan (``origins``, bytes read by whose data they got,
    :func:`microbench.suite.dxt.read_origins`) agree on ``asked``'s
    read; else the failure that says how they disagree.

    Darshan's expectation: the bytes read whose data the reading node's
    kernel wrote (the same rank or node, or another node where the nodes
    share one kernel: ``shared_cache``) through its page cache (none with
    O_DIRECT) are resident.  They agree when both are on the same side of
    :data:`.residency.THRESHOLD`, and where Darshan expects resident data
    that fincore did not find under ``-M`` (its memory hog may evict it).
    The witnesses ran on samples of their own, of one command.'''
    if found is None or not found.judged:
        return None

    read = sum(origins.values())
    own = origins['same rank'] + origins['same node']
    if shared_cache is not None:
        own += origins['other node']
    expected = 0.0 if direct(asked) else own / read
    cached = expected > residency.THRESHOLD
    if cached == found.resident or (cached and asked.memory):
        return None

    return (f'the residency witness and Darshan disagree: fincore found '
            f'{residency.percent(found.largest)} % of what the read reads '
            f'in the page cache before it, Darshan saw '
            f'{residency.percent(expected)} % of the bytes read written '
            f'through the reading kernel\'s page cache '
            f'({"O_DIRECT" if direct(asked) else "buffered"} writes'
            f'{"; " + shared_cache if shared_cache else ""})')
