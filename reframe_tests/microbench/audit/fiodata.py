'''fio's data and completions: data a compressing or deduplicating store
reduces (S6: ``zero_buffers``, ``buffer_compress_percentage``,
``dedupe_percentage``, a ``buffer_pattern``, a ``verify_pattern``), and
polled completions whose CPU fio's figures leave out (S7: io_uring's
``hipri``, ``sqthread_poll``).  fio's default fill is not judged (S6 on
explicit reducing options only).'''

from microbench import knobs
from microbench.audit import fiojob
from microbench.audit.findings import CERTAIN, depends
from microbench.audit.fiofindings import finding

#: Options that make data a compressing or deduplicating store reduces
REDUCERS = ('zero_buffers', 'buffer_compress_percentage',
            'dedupe_percentage', 'buffer_pattern', 'verify_pattern')

#: io_uring's polled completions (fio_completion_polling's variants)
POLLERS = tuple(name for options in knobs.FIO_COMPLETION_POLLING.values()
                for name in options)


def reduction(found, job, source, writes):
    '''S6 of a job (``writes``: whether it writes).'''
    if not writes:
        return
    for name in REDUCERS:
        option = job.last(name)
        if option is None:
            continue
        if name in ('buffer_compress_percentage', 'dedupe_percentage') and \
                (fiojob.size_bytes(option.value, 1000) or 0) == 0:
            continue
        if name == 'zero_buffers' and not fiojob.truth(option.value):
            continue
        # the check's incompressible data (fio_data_reduction)
        fix = {name: None, **_fix_of(
            knobs.FIO_DATA_REDUCTION['incompressible'])}
        said = f'{name}={option.value}' if option.value else name
        found.findings.append(finding(
            source, job, 'S6', f'{said}: data a compressing or '
            f'deduplicating store keeps in a fraction of its size',
            option.where,
            depends('the storage compressing or deduplicating (ZFS lz4, '
                    'Btrfs zstd, VAST, some SSDs)'), fix))
        return


def polling(found, job, source, engine):
    '''S7 of a job run by ``engine``.'''
    for name in POLLERS:
        option = job.last(name)
        if option is None or not fiojob.truth(option.value):
            continue
        left_out = ('the kernel thread iou-sqp' if name == 'sqthread_poll'
                    else 'the polling')
        found.findings.append(finding(
            source, job, 'S7', f'ioengine={engine} with {name}: a core '
            f'polls for completions, and fio\'s CPU figures leave out '
            f'{left_out}',
            option.where, CERTAIN, _interrupts()))
        return


def _fix_of(options):
    '''A knob's fio options as a fix (``None`` in a knob is a bare
    option).'''
    return {name: '' if value is None else str(value)
            for name, value in options.items()}


def _interrupts():
    '''The fix of S7: fio_completion_polling's ``interrupt``, every
    option of its polling variants dropped (and the poller's CPU).'''
    polled = {name for options in knobs.FIO_COMPLETION_POLLING.values()
              for name in options}
    return {**{name: None for name in polled | {'sqthread_poll_cpu'}},
            **_fix_of(knobs.FIO_COMPLETION_POLLING['interrupt'])}
