'''Every witness of the suite, declared once: what it sees, when it runs,
and where its code is.

A *witness* checks that a figure is what its variant claims, from what
the benchmark itself does not report (a system call made, the files'
pages in the page cache, the bytes a file system stored, the cores a
poller held, round 1 against the others).  Every check of
``reframe_tests/`` names the witnesses it runs in a class attribute,
``witnesses = ('strace', 'darshan', ...)``, by the names of
:data:`WITNESSES`; the checks page of the documentation is written from
these declarations (``docs/generate.py``), and
``tests/repository/test_docs_witnesses.py`` fails where a check runs a
witness it does not declare, or declares one it does not run (from the
job scripts of a dry run and the code of the check).  A rounds fixture
declares none: it runs the witnesses its checks judge.

How each one works, and what it found: docs/authors/witnesses.md.  This
module imports nothing: the documentation's generator and the tests read
it as data.
'''

from typing import NamedTuple


class Witness(NamedTuple):
    '''One witness: what it sees (one line), when it runs, and the module
    of the library that runs or reads it.'''

    sees: str
    runs: str
    code: str


#: When a witness runs: never on a sample that counts
OWN_SAMPLE = 'a short sample of its own, before the rounds'
EVERY_SAMPLE = 'around every sample, costing it nothing it measures'
JOB_FACT = 'once, before the rounds (a record of the job)'
AFTER = 'after the rounds, from the samples'

#: name -> :class:`Witness`, in the order the documentation lists them
WITNESSES = {
    'strace': Witness(
        'strace counts the system call a variant claims to make or not to '
        'make (fallocate()): only calls that succeeded count',
        OWN_SAMPLE, 'suite/strace.py'),
    'darshan': Witness(
        "Darshan's counters of what the benchmark's processes did with "
        'their files (bytes, access sizes, fsyncs, whose data each read '
        'got), held against the variant\'s claims',
        OWN_SAMPLE, 'suite/witnessed.py, suite/darshan.py'),
    'cache_after_write': Witness(
        'util-linux fincore: how much of what a write left the page cache '
        'still holds (O_DIRECT must leave nothing)',
        OWN_SAMPLE, 'tools/fio/cache.py'),
    'residency': Witness(
        'util-linux fincore on every reading node, right before the read: '
        'what of the files it will read the page cache holds (a buffered '
        'read found resident is a cache figure)',
        'before every read: a short sample of its own split between the '
        'phases, or before every sample', 'suite/residency.py'),
    'stored_bytes': Witness(
        'the bytes the file system stored of what was written (st_blocks; '
        "btrfs' compsize where st_blocks hides compression)",
        OWN_SAMPLE, 'suite/reduction.py'),
    'busy_cores': Witness(
        "/proc/stat before and after every sample: the node's busy cores, "
        "a poller's included, a figure beside the IOPS",
        EVERY_SAMPLE, 'suite/cpu.py, tools/fio/polling.sh'),
    'poller_threads': Witness(
        "the ticks of io_uring's iou-sqp threads, held to their schedstat: "
        'the core a submission-queue poller held that fio does not report',
        OWN_SAMPLE, 'tools/fio/polling.py'),
    'cpuset': Witness(
        'Cpus_allowed_list of each process under the same launcher and '
        'options: the CPU set it really had, against the binding claimed',
        'a command of its own under the same launcher, before the rounds',
        'tools/fabtests/checks.py'),
    'stripe_count': Witness(
        'lfs getstripe reads back the stripe count Lustre gave a probe '
        'file of the same layout',
        'a probe file of its own, before the rounds', 'tools/lustre.py'),
    'client_cpu': Witness(
        "GNU time around the client: its CPU use (% of a core, a figure), "
        "and busy pollers against the node's cores",
        EVERY_SAMPLE, 'tools/fabtests/checks.py'),
    'one_kernel': Witness(
        "the nodes' boot ids: nodes that share one kernel share one page "
        'cache and talk through shared memory, not storage or network',
        JOB_FACT, 'suite/mpi.py'),
    'overwrite_factor': Witness(
        "bytes written over the files' final size, every sample: above 1 "
        'fio wrapped around and wrote its files again',
        AFTER, 'tools/fio/checks.py'),
    'data_to_memory': Witness(
        "the data a storage figure touched on a node over the node's "
        'memory (MemTotal): a read the page cache could hold says so',
        AFTER, 'suite/memory.py'),
    'cold_start': Witness(
        'round 1 of every figure with samples against the range of the '
        'other rounds: a cold or warm first round is flagged',
        AFTER, 'suite/coldstart.py'),
}


def unknown(declared):
    '''The names of ``declared`` that are no witness of
    :data:`WITNESSES`, in their order.'''
    return [name for name in declared if name not in WITNESSES]
