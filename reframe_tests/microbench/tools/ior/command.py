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
from microbench.suite.rounds import SCRATCH
from microbench.tools.ior import gpu
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

#: The options of every cache defence but ``memory`` (its share of the
#: node's memory is a check's variable); IO500's rules are
#: ``reorder_fsync``
DEFENCES = knobs.IOR_DEFENCES

#: The transfer size of IO500's hard shape, bytes
HARD_TRANSFER = 47008

#: Where a sample's summary goes (``-O summaryFile=...``), kept per sample
SUMMARY_FILE = 'ior.json'

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
    #: fsync after each phase (-e), task reordering (-C) and its -Q
    fsync: bool
    reorder: bool
    task_offset: int
    #: whether -M hogs the node's memory
    memory: bool = False
    #: IOR 4.0.0's buffer (ior_memory_flags: 0 host, 1 managed, 2 device:
    #: -O allocateBufferOnGPU, --gpuDirect) and whether --gpuDirect was
    #: asked (:mod:`.gpu`)
    gpu_memory: int = 0
    gpu_direct: bool = False
    repetitions: int = 1
    phases: tuple = PHASES


@dataclass(frozen=True)
class IorCommand:
    '''One IOR command line: IOR's own words (program first), the ranks
    that start it, and what it asks.'''

    argv: tuple
    nodes: int
    tasks_per_node: int
    asked: IorAsked


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
        argv += ('-O', 'summaryFormat=JSON', '-O',
                 f'summaryFile={SUMMARY_FILE}')

    return IorCommand(argv, nodes, tasks_per_node,
                      asked_of(argv, nodes, tasks_per_node))


#: IOR options that take a value, and those that do not, of the commands
#: the builder writes (and of the real outputs the tests read)
_VALUED = {'-o', '-t', '-b', '-s', '-D', '-O', '-Q', '-M', '-i'}
_FLAGS = {'-w', '-r', '-F', '-C', '-e', '--posix.odirect', '--gpuDirect'}


def asked_of(argv, nodes, tasks_per_node):
    '''What IOR command line ``argv`` (program first) asks of a run on
    ``nodes`` x ``tasks_per_node`` ranks (:class:`IorAsked`).

    :raises ValueError: on an option the builder never writes.
    '''
    values, flags, extra = {}, set(), {}
    words = list(argv[1:])
    while words:
        word = words.pop(0)
        if word in _FLAGS:
            flags.add(word)
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
        reorder='-C' in flags,
        task_offset=int(values.get('-Q', 1)),
        memory='-M' in values,
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

