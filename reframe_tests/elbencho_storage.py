'''S1 and S2 with elbencho: the page cache and preallocation.

Pitfall catalogue S1, S2; "Keeping It Real" (PDSW 2020) sections II-D and
II-E; Nolte et al., "Understanding Storage Performance using Benchmarking"
(GWDG).

elbencho writes, then reads, one file with many threads (on several
nodes, the threads of every host share it).  Buffered
(its default) both go through the page cache: the read comes back from
memory.  ``--direct`` is O_DIRECT.  ``--preallocfile`` reserves the file with
posix_fallocate() first, hiding the block allocation a growing file pays.  On
several nodes, elbencho services run on every node and one client drives
them (``--hosts``).  A witness sample of every variant, split between
its phases, asks fincore what of the file the read is about to read is in
the page cache (:mod:`microbench.tools.elbencho.residency`): a buffered
read found resident is a cache figure, as designed; an O_DIRECT read's
share is recorded.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench import knobs
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.elbencho.residency import (ResidencyCheck,
                                                 ResidencyRounds)

IO = ('buffered', 'direct')
ALLOCATION = ('grow', 'prealloc')


class elbencho_storage_rounds(ResidencyRounds):
    '''Write then read with and without O_DIRECT, growing the file or
    preallocating it.'''

    variants = tuple(f'{io}.{allocation}' for io in IO
                     for allocation in ALLOCATION)

    def variant_options(self, variant):
        # --direct, --preallocfile (microbench.knobs, which the audit
        # shares)
        io, allocation = variant.split('.')
        return [*knobs.ELBENCHO_IO[io], *knobs.ELBENCHO_ALLOCATION[allocation]]


@rfm.simple_test
class elbencho_storage(ResidencyCheck):
    '''Write and read throughput of one I/O mode and allocation.'''

    #: ``buffered`` (elbencho's default) or ``direct`` (``--direct``).
    io = parameter(IO)

    #: ``grow`` (elbencho's default: the file grows as it is written) or
    #: ``prealloc`` (``--preallocfile``).
    allocation = parameter(ALLOCATION)

    knob = ('io', 'allocation')
    rounds = fixture(elbencho_storage_rounds, scope='environment')
    reference = {'$ref': 'references/elbencho.yaml'}
    witnesses = ('darshan', 'residency', 'data_to_memory', 'cold_start')

    def cache_figures(self):
        # Buffered writes are not flushed, and read back from memory
        return ('write', 'read') if self.io == 'buffered' else ()


@rfm.simple_test
class elbencho_storage_gap(GapCheck):
    '''How much the page cache and preallocation flatter elbencho.'''

    pitfall = elbencho_storage
    rounds = rounds_of(elbencho_storage)
    gaps = {
        'write_buffered_over_direct': ('buffered.grow', 'direct.grow',
                                       'write'),
        'read_buffered_over_direct': ('buffered.grow', 'direct.grow', 'read'),
        # A preallocated file over a growing one, with O_DIRECT
        'write_prealloc_over_grow': ('direct.prealloc', 'direct.grow',
                                     'write'),
    }
    reference = {'$ref': 'references/elbencho.yaml'}
    witnesses = ('cold_start',)
