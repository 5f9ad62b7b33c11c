'''Every pitfall's knob, described once: the options that make each
variant of a check.

The checks build their variants from these tables (``reframe_tests/<check>.py``
and the tools' rounds classes), and ``microbench audit`` rewrites anyone's
benchmark into its realistic form from the very same tables: a check's
variants and the audit's rewrite cannot drift apart
(``tests/audit/test_audit_knobs.py`` holds them together).  Each entry
names its catalogue entry (S1-S7, N1-N3: :mod:`microbench.catalogue`)
and the check that measures it.
'''

#: S1, ``fio_cache_flags``: the open() flags of every write: none (fio's
#: default), O_DIRECT, O_SYNC, both; and S1's fourth answer, buffered
#: writes whose pages are dropped once written back (``RWF_DONTCACHE``,
#: Linux 6.14+; fio 3.40+'s ``uncached=1``, an option of the ``pvsync2``
#: and ``io_uring`` engines only: ``pvsync2`` is ``psync``'s pwrite() as
#: pwritev2(), which takes the flag)
FIO_CACHE_FLAGS = {'buffered': {'direct': 0, 'sync': 0},
                   'direct': {'direct': 1, 'sync': 0},
                   'sync': {'direct': 0, 'sync': 1},
                   'both': {'direct': 1, 'sync': 1},
                   'dontcache': {'direct': 0, 'sync': 0,
                                 'ioengine': 'pvsync2', 'uncached': 1}}

#: S1: the first fio release whose ``uncached=1`` is RWF_DONTCACHE (fio
#: 3.17-3.37 spelled it RWF_UNCACHED, 0x40, which Linux 6.11+ reads as
#: RWF_ATOMIC; 3.38 and 3.39 ignore the option)
FIO_DONTCACHE_SINCE = '3.40'

#: S2, ``fio_fallocate``: fio's own preallocation (fallocate() before the
#: timed phase) or none, the file growing as it is written
FIO_FALLOCATE = {'default': {}, 'none': {'fallocate': 'none'}}

#: S3, ``fio_time_based_overwrite``: a small file written again and again
#: (``time_based``) against a large one that the runtime cannot fill
FIO_TIME_BASED = {'large': {}, 'small': {'time_based': 1}}

#: S3: the sizes of the check's files and its runtime (the paper's: a 64 GiB
#: baseline, a 1 GiB file overwritten, 10 s)
FIO_LARGE_FILE_SIZE = '64g'
FIO_SMALL_FILE_SIZE = '1g'
FIO_RUNTIME_S = 10

#: S6, ``fio_data_reduction``: what fio writes: zeros
#: (``zero_buffers``), its default (a buffer filled once per job), or data
#: no file system can reduce (refilled before every write, 0 %
#: compressible).  ``fallocate=none`` in every variant: btrfs writes into
#: preallocated extents in place, uncompressed (measured here: zeros
#: preallocated by fio were stored whole)
FIO_DATA_REDUCTION = {
    'zeros': {'zero_buffers': None},
    'default': {},
    'incompressible': {'refill_buffers': None,
                       'buffer_compress_percentage': 0},
}

#: S6 with elbencho, ``elbencho_data_reduction``: the share of every block
#: refilled with random data before each write (``--blockvarpct``): 0, the
#: same block every time (elbencho's default before 2.2.1); 50, half of
#: each block one repeated value (compressible); 100, its default since
ELBENCHO_BLOCK_VARIANCE = {'same': ('--blockvarpct', '0'),
                           'half': ('--blockvarpct', '50'),
                           'random': ('--blockvarpct', '100')}

#: S7, ``fio_completion_polling``: how fio's io_uring engine learns of a
#: completion: an interrupt (its default), polling the device's poll
#: queues (``hipri``), or a kernel thread polling the submission queue
#: (``sqthread_poll``; ``sqthread_poll_cpu`` pins it)
FIO_COMPLETION_POLLING = {'interrupt': {},
                          'hipri': {'hipri': None},
                          'sqpoll': {'sqthread_poll': 1}}

#: S4, ``ior_page_cache``: IOR's task reordering, one node away (each task
#: reads what a task of the next node wrote; IOR 4's ``-Q`` counts nodes)
IOR_REORDER = ('-C', '-Q', '1')

#: S4: fsync at the end of each phase, its time counted
IOR_FSYNC = ('-e',)

#: S4, IO500's read after read: a second read two nodes away, after the
#: read one node away has left every node's neighbour's data in its page
#: cache.  ``-Q 2``, not a repeated ``-C``: IOR 4.0.0 reads ``-Q`` nodes
#: away however often ``-C`` is given (commit 4a34dfc multiplied it by the
#: count of ``-C``, 5fcf0ba reverted that), and ``-Q 2`` means two nodes
#: in all three
IOR_REREAD = ('-C', '-Q', '2')

#: S4: the options of every cache defence but ``memory``; IO500's rules are
#: ``reorder_fsync``
IOR_DEFENCES = {
    'none': (),
    'fsync': IOR_FSYNC,
    'reorder': IOR_REORDER,
    'reorder_fsync': (*IOR_REORDER, *IOR_FSYNC),
    'odirect': ('--posix.odirect',),
}

#: S4: the share of every node's memory IOR's ``-M`` fills, so that the
#: page cache cannot hold the data (the ``memory`` defence)
IOR_MEMORY_PER_NODE = '80%'

#: S4 for metadata, ``mdtest_metadata``: no stride (a task stats its own
#: files) or one node's worth (``-N 1``, which mdtest multiplies by the
#: tasks of a node)
MDTEST_STRIDES = {'none': (), 'node': ('-N', '1')}

#: S1 with elbencho, ``elbencho_storage``: buffered or O_DIRECT
ELBENCHO_IO = {'buffered': (), 'direct': ('--direct',)}

#: S2 with elbencho: a growing file or one preallocated with
#: posix_fallocate()
ELBENCHO_ALLOCATION = {'grow': (), 'prealloc': ('--preallocfile',)}

#: N1, ``osu_buffer_reuse``: every message from one buffer (OSU's default)
#: or a buffer of its own for every message of a window
OSU_BUFFERS = {'single': (), 'multiple': ('-b', 'multiple')}

#: N1: the first OSU release with ``-b``/``--buffer-num``
OSU_MULTIPLE_SINCE = '5.7.1'

#: N2, ``fabtests_completion``: how a fabtests program waits for a
#: completion: busy polling (its default), a file descriptor, the
#: provider's blocking read, yielding the CPU
FABTESTS_COMPLETION = {'spin': (), 'fd': ('-c', 'fd'),
                       'sread': ('-c', 'sread'), 'yield': ('-c', 'yield')}

#: N3, ``fabtests_binding``: launcher flavour -> (options binding each
#: process to one core, options leaving it unbound); aprun binds to a core
#: by default, ``local`` binds with taskset
BINDING = {
    'srun': (['--cpu-bind=cores'], ['--cpu-bind=none']),
    'openmpi': (['--bind-to', 'core'], ['--bind-to', 'none']),
    'hydra': (['-bind-to', 'core'], ['-bind-to', 'none']),
    'aprun': ([], ['--cc', 'none']),
    'local': ([], []),
}
