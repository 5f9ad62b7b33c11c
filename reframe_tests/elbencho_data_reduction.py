'''S6. Data reduction, through elbencho: blocks a file system stores in a
fraction of their size.

Pitfall catalogue S6, as ``fio_data_reduction`` measures it with fio;
elbencho's own history: its blocks were the same every time
(``--blockvarpct 0``) until 2.2.1, which made every block random by
default for this reason.  A deduplicating file system stores one block
written over and over once; a compressing one stores half-constant blocks
in part; a data service's blocks are its users' data.  ``--blockvarpct``
is the knob: 0, 50, 100.  The witness, on a short sample of its own,
counts what the file system stored (st_blocks; btrfs' compsize where
st_blocks hides compression).  The gap's direction is checked only where
the partition declares a deduplicating file system
(``extras.reduces_data``); elsewhere it is reported with the witness.
Generated where elbencho is installed.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench import knobs
from microbench.suite.gap import rounds_of
from microbench.suite.reduction import Claim, ReductionGapCheck
from microbench.tools.elbencho.reduction import (ElbenchoReductionRounds,
                                                 ElbenchoReductionCheck)


class elbencho_data_reduction_rounds(ElbenchoReductionRounds):
    '''elbencho writes, then reads, one file with O_DIRECT, every block
    refilled with random data before its write in part, in whole or not
    at all (``--blockvarpct``).'''

    #: --blockvarpct 0, 50, 100
    #: (:data:`microbench.knobs.ELBENCHO_BLOCK_VARIANCE`)
    blocks = knobs.ELBENCHO_BLOCK_VARIANCE
    variants = tuple(blocks)

    #: The same block every time: at most half stored where the file
    #: system deduplicates; half of each block one value: at most 3/4
    #: where it compresses; random blocks: stored whole everywhere
    claims = {'same': Claim(0.5, None, ('deduplication',)),
              'half': Claim(0.75, None, ('compression',)),
              'random': Claim(None, 0.95, ())}

    def variant_options(self, variant):
        return ['--direct', *self.blocks[variant]]


@rfm.simple_test
class elbencho_data_reduction(ElbenchoReductionCheck):
    '''elbencho's write and read throughput of blocks of one variance.'''

    #: ``same`` (``--blockvarpct 0``, elbencho's default before 2.2.1),
    #: ``half`` (``50``), ``random`` (``100``, its default since).
    blocks = parameter(elbencho_data_reduction_rounds.variants)
    knob = 'blocks'
    rounds = fixture(elbencho_data_reduction_rounds, scope='environment')
    reference = {'$ref': 'references/elbencho.yaml'}
    witnesses = ('darshan', 'stored_bytes', 'data_to_memory', 'cold_start')


@rfm.simple_test
class elbencho_data_reduction_gap(ReductionGapCheck):
    '''How much reducible blocks flatter elbencho's write throughput.'''

    pitfall = elbencho_data_reduction
    rounds = rounds_of(elbencho_data_reduction)
    gaps = {
        # The same block over and over: one block to a deduplicating one
        'write_same_over_random': ('same', 'random', 'write'),
        # Half of every block one value: compressible
        'write_half_over_random': ('half', 'random', 'write'),
    }
    # Where the direction is checked: the same block over and over where
    # the file system deduplicates.  Half-compressible blocks are not
    # robust: measured on btrfs (zstd), half was stored at 52 % and still
    # written no faster than random (0.99, then 1.07): compressing costs
    # the CPU what it saves the drive
    directions = {'write_same_over_random': ('deduplication',)}
    reference = {'$ref': 'references/elbencho.yaml'}
    witnesses = ('cold_start',)
