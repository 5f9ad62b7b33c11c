'''S1. Cache flags: which cache does a write bandwidth measure?

Pitfall catalogue S1; "Keeping It Real" (PDSW 2020) section II-D, Fig. 6.

Buffered writes (fio's default) land in the page cache: the figure measures
system calls and memcpy, not storage.  O_DIRECT bypasses the page cache but not
the device's write-back cache; O_SYNC flushes both on every write.  A data
service that must be durable sees the O_DIRECT+O_SYNC figure (paper: about
1.5 GiB/s on a Summit NVMe drive), and opposite conclusions about O_DIRECT
follow from the sync setting.  A fourth answer (Linux 6.14+, fio 3.40+):
buffered writes whose pages are dropped once written back
(``RWF_DONTCACHE``), skipped saying so where fio or the kernel is older.
The witness, on a short sample of each variant of its own, says how much
of what it wrote the page cache still holds (util-linux fincore).
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench import knobs
from microbench.suite.gap import GapCheck, rounds_of
from microbench.suite.skeleton import SCRATCH
from microbench.tools.fio.cache import (CacheFlagsRounds,
                                        CacheFlagsVariantCheck)


class fio_cache_flags_rounds(CacheFlagsRounds):
    '''16 threads, 32 KiB sequential writes, one file per thread, sustained
    (``time_based``) for ``runtime_s``, under each set of open() flags, and
    buffered with RWF_DONTCACHE.'''

    #: open() flags of every write: none (fio's default), O_DIRECT, O_SYNC,
    #: both; and ``dontcache`` (pvsync2 with ``uncached=1``).  No name
    #: starts another, so ``-n '%mode=direct'`` selects one.
    #: (:data:`microbench.knobs.FIO_CACHE_FLAGS`, which the audit shares)
    flags = knobs.FIO_CACHE_FLAGS
    variants = tuple(flags)
    # dontcache's write() returns once its data is in the page cache, as
    # buffered's does: only the pages are dropped after their writeback
    page_cache_variants = ('buffered', 'dontcache')

    #: Writer threads, one file each (paper: 16).
    #:
    #: :type: :class:`int`
    #: :default: ``16``
    numjobs = variable(int, value=16)

    #: Size of each thread's file: large enough that no storage variant
    #: wraps around within the runtime (the check fails if one does).
    #:
    #: :type: :class:`str`
    #: :default: ``'4g'``
    file_size = variable(str, value='4g')

    def fio_options(self, variant):
        return {'name': 'fio_cache_flags', 'directory': SCRATCH,
                'rw': 'write', 'bs': self.block_size,
                'numjobs': self.numjobs, 'thread': None,
                'size': self.file_size, 'runtime': self.runtime_s,
                'time_based': None, 'group_reporting': None,
                **self.flags[variant]}


@rfm.simple_test
class fio_cache_flags(CacheFlagsVariantCheck):
    '''Write bandwidth under one set of open() flags.'''

    #: ``buffered`` (fio's default), ``direct`` (O_DIRECT), ``sync``
    #: (O_SYNC), ``both`` (O_DIRECT and O_SYNC), ``dontcache``
    #: (RWF_DONTCACHE: fio 3.40+, Linux 6.14+).
    mode = parameter(fio_cache_flags_rounds.variants)
    knob = 'mode'
    rounds = fixture(fio_cache_flags_rounds, scope='environment')
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('darshan', 'cache_after_write', 'overwrite_factor',
                 'data_to_memory', 'cold_start')


@rfm.simple_test
class fio_cache_flags_gap(GapCheck):
    '''How much each cache flatters the durable figure.'''

    pitfall = fio_cache_flags
    rounds = rounds_of(fio_cache_flags)
    gaps = {
        # The page cache over storage: "O_DIRECT is slow"
        'buffered_over_direct': ('buffered', 'direct'),
        # The device's write-back cache over write-through
        'direct_over_both': ('direct', 'both'),
        # O_DIRECT under O_SYNC: the opposite conclusion about O_DIRECT
        'both_over_sync': ('both', 'sync'),
    }
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)


@rfm.simple_test
class fio_cache_flags_dontcache_gap(GapCheck):
    '''What dropping the written pages costs buffered writes (apart from
    fio_cache_flags_gap: where fio or the kernel cannot ask RWF_DONTCACHE,
    only this gap is skipped).'''

    pitfall = fio_cache_flags
    rounds = rounds_of(fio_cache_flags)
    gaps = {
        # The page cache kept over the page cache dropped after writeback
        'buffered_over_dontcache': ('buffered', 'dontcache'),
        # Buffered without a cache left behind over O_DIRECT
        'dontcache_over_direct': ('dontcache', 'direct'),
    }
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)
