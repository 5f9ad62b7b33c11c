'''S2. File allocation: fio preallocates the file a real log grows.

Pitfall catalogue S2; "Keeping It Real" (PDSW 2020) section II-E, Fig. 7.

Before its timed phase fio calls fallocate() on the file, so the figure leaves
out the block allocation and size updates that a service appending to a log
pays on every write.  Paper: 530 MiB/s preallocated vs 330 MiB/s without.
Witness: strace counts fallocate() calls on a short sample of its own.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench import knobs
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.fio import FioLogRounds, FioVariantCheck


class fio_fallocate_rounds(FioLogRounds):
    '''A shared log file (libaio, iodepth 16, O_DIRECT+O_SYNC, 32 KiB
    writes) for ``runtime_s``, on a file too large to finish, with fio's
    default preallocation and with ``fallocate=none``.'''

    variants = ('default', 'none')
    witness_syscall = 'fallocate'
    witness_expect = {'default': True, 'none': False}

    #: Size of the log file (paper: 64 GiB): large enough that the runtime
    #: ends before the file does (the check fails otherwise).
    #:
    #: :type: :class:`str`
    #: :default: ``'64g'``
    file_size = variable(str, value='64g')

    def fio_options(self, variant):
        # fallocate=none for ``none`` (microbench.knobs, which the audit
        # shares)
        return {**self.log_options(), 'size': self.file_size,
                **knobs.FIO_FALLOCATE[variant]}


@rfm.simple_test
class fio_fallocate(FioVariantCheck):
    '''Write bandwidth of a log with or without preallocation.'''

    #: ``default`` (fio's own choice: fallocate() on Linux) or ``none``
    #: (``fallocate=none``: the file grows as it is written).
    fallocate = parameter(fio_fallocate_rounds.variants)
    knob = 'fallocate'
    rounds = fixture(fio_fallocate_rounds, scope='environment')
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('strace', 'darshan', 'overwrite_factor', 'data_to_memory',
                 'cold_start')


@rfm.simple_test
class fio_fallocate_gap(GapCheck):
    '''How much preallocation flatters a log's write bandwidth.'''

    pitfall = fio_fallocate
    rounds = rounds_of(fio_fallocate)
    gaps = {'preallocated_over_none': ('default', 'none')}
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)
