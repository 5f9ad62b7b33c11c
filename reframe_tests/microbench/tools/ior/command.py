'''The one IOR command builder of every IOR check, and what it asks.

``ior_page_cache`` and ``ior_scaling`` build their IOR command lines here,
measured samples and Darshan witnesses alike, and the readers of their
samples are told what was asked from the same command line
(:func:`asked_of`): the spelling of a shape or a cache defence cannot
drift between a check and its witness, or between a command and the check
of its output.

IO500's shapes: ``easy``, a file per process and 1 MiB transfers; ``hard``,
one shared file and interleaved 47008-byte transfers.  Both stonewalled
(``-D``, with ``stoneWallingWearOut`` so that every task writes as much).
Where a task's buffer lives (host, managed or device memory: :mod:`.gpu`)
is a part of the command too.
'''

from dataclasses import dataclass

from microbench import knobs
from microbench.suite.skeleton import SCRATCH
from microbench.tools.ior import gpu, ranks
from microbench.tools.ior.summary import PHASES
from microbench.units import size_bytes

#: IOR's task reordering, one node away: each task reads what a task of
#: the next node wrote.  IOR 4's ``-Q`` counts nodes: it multiplies it by
#: the tasks of node 0 where tasks are placed by node, so ``-Q <tasks per
#: node>`` wraps around to every task's own data on two nodes (IO500 passes
#: ``-Q 1``).  Described once, in :mod:`microbench.knobs`, which the audit
#: shares
REORDER = knobs.IOR_REORDER

#: fsync at the end of each phase, its time counted
FSYNC = knobs.IOR_FSYNC

#: IO500's read after read, two nodes away (:func:`build_reread`); a
#: repeated ``-C`` would shift no further in IOR 4.0.0 (described once, in
#: :mod:`microbench.knobs`)
REREAD = knobs.IOR_REREAD

#: The cache defence whose sample is IO500's sequence of IOR runs
#: (:func:`build_reread`), not one run
REREAD_DEFENCE = 'reread'

#: The least nodes a read two nodes away reads another node's data on
REREAD_NODES = 3

#: The options of every cache defence but ``memory`` (its share of the
#: node's memory is a check's variable); IO500's rules are
#: ``reorder_fsync``
DEFENCES = knobs.IOR_DEFENCES

#: The transfer size of IO500's hard shape, bytes
HARD_TRANSFER = 47008

#: Where a sample's summary goes (``-O summaryFile=...``), kept per sample
SUMMARY_FILE = 'ior.json'

#: Where the sample's standard output goes (the rounds' ``stdout_file``)
STDOUT_FILE = 'ior.out'

#: The summary and standard output files of each read of IO500's sequence
#: (:func:`build_reread`), by run: the write's are the sample's own
SEQUENCE_FILES = {'read': ('ior-read.json', 'ior-read.out'),
                  'reread': ('ior-reread.json', 'ior-reread.out')}

#: IOR's count of what the stonewalled write wrote, which the reads of
#: IO500's sequence read back (``-O stoneWallingStatusFile``; IOR writes
#: it when its run ends): in the stage directory, not the scratch one
STATUS_FILE = 'ior-stonewall.txt'

#: The file (or the files' prefix, ``-F``) every IOR run writes and reads,
#: in the job's private scratch directory
TESTFILE = f'{SCRATCH}/testfile'


def shape_options(shape, easy_block_size, hard_segments):
    '''IOR options of IO500's ``easy`` or ``hard`` shape.'''
    if shape == 'easy':
        return ('-F', '-t', '1m', '-b', easy_block_size, '-s', '1')

    if shape == 'hard':
        return ('-t', str(HARD_TRANSFER), '-b', str(HARD_TRANSFER), '-s',
                str(hard_segments))

    raise ValueError(f'no IOR shape {shape!r} (easy or hard)')


@dataclass(frozen=True)
class IorAsked:
    '''What one IOR run was asked: its command line and what the summary
    must say back.  Built with the command by :mod:`.command`.'''

    #: The IOR command line, program first; words with a ``$`` are
    #: expanded by the job's shell (the scratch directory) and match any
    #: text in their place
    argv: tuple
    tasks: int
    nodes: int
    tasks_per_node: int
    #: transfer size and block size in bytes, segments
    transfer: int
    block: int
    segments: int
    file_per_process: bool
    #: the stonewall (-D, 0: none) and its wear-out
    deadline_s: int
    wear_out: bool
    #: fsync after each phase (-e), task reordering (-C: how often it is
    #: given, which IOR 4.0.0 counts in reorderTasks but does not shift
    #: by) and its -Q
    fsync: bool
    reorder: int
    task_offset: int
    #: whether -M hogs the node's memory
    memory: bool = False
    #: whether the files are kept (-k), and the stonewall status file
    #: (-O stoneWallingStatusFile) or ''
    keep: bool = False
    status_file: str = ''
    #: IOR 4.0.0's buffer (ior_memory_flags: 0 host, 1 managed, 2 device:
    #: -O allocateBufferOnGPU, --gpuDirect) and whether --gpuDirect was
    #: asked (:mod:`.gpu`)
    gpu_memory: int = 0
    gpu_direct: bool = False
    repetitions: int = 1
    phases: tuple = PHASES
    #: where IOR writes every rank's figures (-O
    #: saveRankPerformanceDetailsCSV: :mod:`.ranks`), or ''
    rank_file: str = ''


@dataclass(frozen=True)
class IorCommand:
    '''One IOR command line: IOR's own words (program first), the ranks
    that start it, and what it asks.'''

    argv: tuple
    nodes: int
    tasks_per_node: int
    asked: IorAsked
    #: the figure its read is (``read``, ``reread``), the file its
    #: summary goes to, and the file its standard output goes to (None:
    #: the sample's, :data:`STDOUT_FILE`)
    figure: str = 'read'
    summary: str = None
    stdout: str = None


def build(ior, shape, defence, deadline_s, nodes, tasks_per_node,
          summary=True, buffer=()):
    '''The IOR command of one sample (``summary``: with its JSON summary
    file) or of a witness (without): write then read :data:`TESTFILE` in
    ``shape`` (:func:`shape_options`' options), stonewalled after
    ``deadline_s`` s, with the options of a cache ``defence`` and of a
    ``buffer`` (:data:`.gpu.BUFFERS`; none: host memory), on ``nodes`` x
    ``tasks_per_node`` ranks.'''
    argv = (ior, '-w', '-r', '-o', TESTFILE, *shape, '-D', str(deadline_s),
            '-O', 'stoneWallingWearOut=1', *defence, *buffer)
    if summary:
        argv += (*_summary_options(SUMMARY_FILE), *ranks.options())

    return IorCommand(argv, nodes, tasks_per_node,
                      asked_of(argv, nodes, tasks_per_node),
                      summary=SUMMARY_FILE if summary else None)


def _summary_options(name):
    return ('-O', 'summaryFormat=JSON', '-O', f'summaryFile={name}')


def build_reread(ior, shape, deadline_s, nodes, tasks_per_node,
                 summary=True, buffer=()):
    '''IO500's read after read, as IO500 runs it: three IOR runs of one
    sample (or, without ``summary``, of a witness), each keeping the files
    (``-k``) for the next.  The write, stonewalled after ``deadline_s`` s
    under IO500's rules (``-e``), leaves its count of transfers in
    :data:`STATUS_FILE`; the read one node away (``-C -Q 1 -e``) reads
    them back, as IO500's ior-easy-read does, leaving every node's page
    cache holding its neighbour's data; the second read, two nodes away
    (:data:`REREAD`), reads them again: storage again only where that is
    neither the node itself nor its neighbour, on
    :data:`REREAD_NODES` nodes or more.  IOR writes the status file when
    its run ends, so the write cannot read back in the same run.  With
    ``summary`` each run writes its summary and standard output to files
    of its own (:data:`SEQUENCE_FILES`; the write's are the sample's).'''
    common = ('-o', TESTFILE, *shape)
    kept = (*FSYNC, '-k', '-O', f'stoneWallingStatusFile={STATUS_FILE}',
            *buffer)
    runs = [('write', (ior, '-w', *common, '-D', str(deadline_s), '-O',
                       'stoneWallingWearOut=1', *kept),
             SUMMARY_FILE, None),
            ('read', (ior, '-r', *common, *REORDER, *kept),
             *SEQUENCE_FILES['read']),
            ('reread', (ior, '-r', *common, *REREAD, *kept),
             *SEQUENCE_FILES['reread'])]
    commands = []
    for figure, argv, summary_file, stdout in runs:
        if summary:
            argv += _summary_options(summary_file)

        commands.append(IorCommand(
            argv, nodes, tasks_per_node,
            asked_of(argv, nodes, tasks_per_node), figure,
            summary_file if summary else None, stdout if summary else None))

    return tuple(commands)


def reread_skipped(nodes):
    '''Why IO500's read after read cannot be measured on ``nodes`` nodes,
    or None: two nodes away is the writing node itself on two nodes, and
    every task's own node on one.'''
    if nodes >= REREAD_NODES:
        return None

    where = ('two nodes away is the writing node itself' if nodes == 2
             else 'every task reads what its own node wrote')
    return (f'a read two nodes away (-C -Q 2) needs {REREAD_NODES} nodes or '
            f'more: on {nodes} node{"s" if nodes > 1 else ""} {where}, '
            f'whose page cache holds it')


#: IOR options that take a value, and those that do not, of the commands
#: the builder writes (and of the real outputs the tests read)
_VALUED = {'-o', '-t', '-b', '-s', '-D', '-O', '-Q', '-M', '-i', '-a',
           '-G'}
_FLAGS = {'-w', '-r', '-F', '-C', '-e', '-k', '-g', '--posix.odirect',
          '--gpuDirect'}


def asked_of(argv, nodes, tasks_per_node):
    '''What IOR command line ``argv`` (program first) asks of a run on
    ``nodes`` x ``tasks_per_node`` ranks (:class:`IorAsked`).

    :raises ValueError: on an option the builder never writes.
    '''
    values, flags, extra = {}, set(), {}
    words = list(argv[1:])
    reorders = 0
    while words:
        word = words.pop(0)
        if word in _FLAGS:
            flags.add(word)
            reorders += word == '-C'
        elif word in _VALUED and words:
            value = words.pop(0)
            if word == '-O':
                key, _, setting = value.partition('=')
                extra[key] = setting
            else:
                values[word] = value
        else:
            raise ValueError(f'IOR option {word!r} of {" ".join(argv)!r} is '
                             f'not one the builder writes')

    phases = tuple(op for op, flag in (('write', '-w'), ('read', '-r'))
                   if flag in flags)
    gpu_memory, gpu_direct = _buffer(argv, extra, flags)
    return IorAsked(
        argv=tuple(argv),
        tasks=nodes * tasks_per_node,
        nodes=nodes,
        tasks_per_node=tasks_per_node,
        transfer=size_bytes(values.get('-t', '256k')),
        block=size_bytes(values.get('-b', '1m')),
        segments=int(values.get('-s', 1)),
        file_per_process='-F' in flags,
        deadline_s=int(values.get('-D', 0)),
        wear_out=extra.get('stoneWallingWearOut', '0') == '1',
        fsync='-e' in flags,
        reorder=reorders,
        task_offset=int(values.get('-Q', 1)),
        memory='-M' in values,
        keep='-k' in flags,
        status_file=extra.get('stoneWallingStatusFile', ''),
        rank_file=extra.get('saveRankPerformanceDetailsCSV', ''),
        repetitions=int(values.get('-i', 1)),
        phases=phases or ('write', 'read'),
        gpu_memory=gpu_memory,
        gpu_direct=gpu_direct,
    )


def _buffer(argv, directives, flags):
    '''(ior_memory_flags, --gpuDirect) of a command line, which IOR 4.0.0
    runs: device memory only with --gpuDirect (its buffer is then always
    device memory), and --gpuDirect only with --posix.odirect.'''
    try:
        memory = gpu.memory_flags(directives)
    except ValueError as err:
        raise ValueError(f'{err}: {" ".join(argv)!r}') from None

    direct = '--gpuDirect' in flags
    if direct and '--posix.odirect' not in flags:
        raise ValueError(f'--gpuDirect without --posix.odirect in '
                         f'{" ".join(argv)!r}: IOR aborts ("GPUDirect '
                         f'required direct I/O to be used!")')

    if memory == 2 and not direct:
        raise ValueError(f'device memory (allocateBufferOnGPU=2) without '
                         f'--gpuDirect in {" ".join(argv)!r}: IOR\'s POSIX '
                         f'calls cannot read a device pointer')

    return (2 if direct else memory), direct

