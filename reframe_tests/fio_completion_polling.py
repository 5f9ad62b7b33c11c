'''S7. Polled storage completions: the core a poller holds, uncounted.

Pitfall catalogue S7, the storage form of N2 ("Keeping It Real", PDSW
2020, section II-B: busy polling for completions).

fio's io_uring engine can poll the device for completions (``hipri``,
which needs a device with poll queues) or let a kernel thread poll the
submission queue (``sqthread_poll``).  Either may raise IOPS; fio's own
report then shows its job's CPU (a public report: ``usr=86 %, sys=0 %``)
but not the kernel thread ``iou-sqp-<pid>`` that holds a whole core.  A
data service pays that core: the figures are IOPS, the node's busy cores
over the sample (``/proc/stat``) and IOPS per busy core.  The witness, on
a short sample of its own, reads the polling thread's own ticks.  Where
the scratch's device has no poll queues, ``hipri`` is skipped, naming the
device.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.fio.polling import PollingRounds, PollingVariantCheck


class fio_completion_polling_rounds(PollingRounds):
    '''4 KiB random O_DIRECT reads of one file through io_uring (iodepth
    32), for ``runtime_s``: completions by interrupt (fio's default), by
    polling the device (``hipri``), or with a kernel thread polling the
    submission queue (``sqthread_poll``; ``-S sqpoll_cpu=N`` pins it).'''


@rfm.simple_test
class fio_completion_polling(PollingVariantCheck):
    '''Read IOPS of one completion mode, and the cores it kept busy.'''

    #: ``interrupt`` (fio's default), ``hipri`` (polled completions),
    #: ``sqpoll`` (``sqthread_poll``).
    completion = parameter(fio_completion_polling_rounds.variants)
    knob = 'completion'
    rounds = fixture(fio_completion_polling_rounds, scope='environment')
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('busy_cores', 'poller_threads', 'data_to_memory',
                 'cold_start')


@rfm.simple_test
class fio_completion_polling_gap(GapCheck):
    '''What a submission-queue poller buys in IOPS, and costs per core.'''

    pitfall = fio_completion_polling
    rounds = rounds_of(fio_completion_polling)
    gaps = {
        # IOPS with a kernel thread polling over interrupts
        'sqpoll_over_interrupt': ('sqpoll', 'interrupt', 'read'),
        # IOPS per busy core: the poller's core counted (< 1 where it
        # holds a core for little gain)
        'sqpoll_over_interrupt_per_core': ('sqpoll', 'interrupt',
                                           'per_core'),
    }
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)


@rfm.simple_test
class fio_completion_polling_hipri_gap(GapCheck):
    '''What polled completions buy in IOPS, and cost per core (only where
    the device has poll queues: elsewhere ``hipri``, and this gap, are
    skipped).'''

    pitfall = fio_completion_polling
    rounds = rounds_of(fio_completion_polling)
    gaps = {
        'hipri_over_interrupt': ('hipri', 'interrupt', 'read'),
        'hipri_over_interrupt_per_core': ('hipri', 'interrupt', 'per_core'),
    }
    reference = {'$ref': 'references/fio.yaml'}
    witnesses = ('cold_start',)
