'''S6. Data reduction: a benchmark's data that a file system does not store.

Pitfall catalogue S6; IO500's rules (rule 7: data must be written in its
entirety, not reduced based on its contents); elbencho's default fill
(fully random blocks since 2.2.1, for this reason).

fio fills a job's write buffers once unless told otherwise; with
``zero_buffers`` (or a compressible fill) a file system that compresses or
deduplicates (ZFS with lz4, btrfs with zstd, VAST) stores a fraction of the
bytes, and the bandwidth counts bytes it never wrote.  A data service writes
its users' data, which such a file system cannot shrink at will:
``refill_buffers`` with ``buffer_compress_percentage=0`` is that data.  The
witness, on a short sample of its own, counts what the file system stored
(st_blocks; btrfs' compsize where st_blocks hides compression).  The gap's
direction is checked only where the partition declares a reducing file
system (``extras.reduces_data``); elsewhere it is reported with the
witness.  elbencho's ``--blockvarpct`` is the same knob:
``elbencho_data_reduction`` (``elbencho_data_reduction.py``).
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench import knobs
from microbench.suite.gap import rounds_of
from microbench.suite.reduction import Claim, ReductionGapCheck
from microbench.suite.skeleton import SCRATCH
from microbench.tools.fio.reduction import (FioReductionRounds,
                                            FioReductionVariantCheck)

#: Mechanisms that reduce data: compression and deduplication both
BOTH = ('compression', 'deduplication')


class fio_data_reduction_rounds(FioReductionRounds):
    '''``numjobs`` writers, a file each, ``block_size`` sequential O_DIRECT
    writes sustained for ``runtime_s``, the files growing as they are
    written (``fallocate=none``), of zeros, fio's default buffers, or
    incompressible data.'''

    #: zero_buffers, fio's default, refill_buffers with
    #: buffer_compress_percentage=0
    #: (:data:`microbench.knobs.FIO_DATA_REDUCTION`, which the audit shares)
    fills = knobs.FIO_DATA_REDUCTION
    variants = tuple(fills)

    #: Zeros: no more than half stored where anything reduces data;
    #: incompressible data: stored whole everywhere; fio's default buffers
    #: are reported only (fio scrambles them a little, against dedupe)
    claims = {'zeros': Claim(0.5, None, BOTH),
              'incompressible': Claim(None, 0.95, ())}

    #: Writers, one file each.
    #:
    #: :type: :class:`int`
    #: :default: ``4``
    numjobs = variable(int, value=4)

    #: Size of each writer's file: large enough that none wraps within
    #: the runtime (the check fails if one does).
    #:
    #: :type: :class:`str`
    #: :default: ``'16g'``
    file_size = variable(str, value='16g')

    def fio_options(self, variant):
        return {'name': 'fio_data_reduction', 'directory': SCRATCH,
                'rw': 'write', 'bs': self.block_size, 'direct': 1,
                'fallocate': 'none', 'numjobs': self.numjobs, 'thread': None,
                'size': self.file_size, 'runtime': self.runtime_s,
                'time_based': None, 'group_reporting': None,
                **self.fills[variant]}


@rfm.simple_test
class fio_data_reduction(FioReductionVariantCheck):
    '''Write bandwidth of data of one content, and what was stored of it.'''

    #: ``zeros`` (``zero_buffers``), ``default`` (fio's buffers, filled
    #: once per job), ``incompressible`` (``refill_buffers``,
    #: ``buffer_compress_percentage=0``).
    fill = parameter(fio_data_reduction_rounds.variants)
    knob = 'fill'
    rounds = fixture(fio_data_reduction_rounds, scope='environment')
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('darshan', 'stored_bytes', 'overwrite_factor',
                 'data_to_memory', 'cold_start')


@rfm.simple_test
class fio_data_reduction_gap(ReductionGapCheck):
    '''How much reducible data flatters a write bandwidth.'''

    pitfall = fio_data_reduction
    rounds = rounds_of(fio_data_reduction)
    gaps = {
        # Zeros over data no file system can reduce (IO500 rule 7)
        'zeros_over_incompressible': ('zeros', 'incompressible'),
        # fio's own buffers over incompressible data
        'default_over_incompressible': ('default', 'incompressible'),
    }
    # Where the direction is checked: zeros compress and deduplicate;
    # fio's default buffers do not reliably do either
    directions = {'zeros_over_incompressible': BOTH}
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)
