'''S3. time_based overwrite: a small file written again and again.

Pitfall catalogue S3; "Keeping It Real" (PDSW 2020) section II-E, Fig. 7.

With ``time_based=1`` fio wraps around at the end of a small file and writes
it again until the runtime is over, without ever reallocating it: later passes
overwrite blocks that are already allocated and gain from caching.  Paper:
824 MiB/s on a 1 GiB file vs 530 MiB/s on a 64 GiB one.  Witness: the
overwrite factor, bytes written over the final size of the file (> 1 means
overwrite), a figure of every sample.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench import knobs
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.fio import FioLogRounds, FioVariantCheck


class fio_time_based_overwrite_rounds(FioLogRounds):
    '''The log workload of fio_fallocate (libaio, iodepth 16,
    O_DIRECT+O_SYNC, 32 KiB) on a large file for ``runtime_s`` (the
    baseline, it must not wrap), or on a small file with ``time_based=1``
    (it must wrap).'''

    variants = ('large', 'small')
    overwrite_variants = ('small',)

    #: Size of the baseline's file (paper: 64 GiB).
    #:
    #: :type: :class:`str`
    #: :default: ``'64g'``
    large_file_size = variable(str, value=knobs.FIO_LARGE_FILE_SIZE)

    #: Size of the overwritten file (paper: 1 GiB).
    #:
    #: :type: :class:`str`
    #: :default: ``'1g'``
    small_file_size = variable(str, value=knobs.FIO_SMALL_FILE_SIZE)

    def fio_options(self, variant):
        # time_based=1 for ``small`` (microbench.knobs, which the audit
        # shares)
        size = (self.small_file_size if variant == 'small'
                else self.large_file_size)
        return {**self.log_options(), 'size': size,
                **knobs.FIO_TIME_BASED[variant]}


@rfm.simple_test
class fio_time_based_overwrite(FioVariantCheck):
    '''Write bandwidth of a log on a large file, or overwriting a small one.'''

    #: ``large``: the baseline; ``small``: a small file with ``time_based=1``.
    file = parameter(fio_time_based_overwrite_rounds.variants)
    knob = 'file'
    rounds = fixture(fio_time_based_overwrite_rounds, scope='environment')
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('darshan', 'overwrite_factor', 'data_to_memory', 'cold_start')


@rfm.simple_test
class fio_time_based_overwrite_gap(GapCheck):
    '''How much overwriting a small file flatters the baseline.'''

    pitfall = fio_time_based_overwrite
    rounds = rounds_of(fio_time_based_overwrite)
    gaps = {'overwrite_over_baseline': ('small', 'large')}
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)
