'''fio: the catalogue's rules on a job, and its realistic rewrite.

The rewrite of every knob comes from :mod:`microbench.knobs`, the tables
the fio checks build their variants from: S1 ``direct=1`` (the
``direct`` variant of ``fio_cache_flags``), S2 ``fallocate=none``
(``fio_fallocate``), S3 no ``time_based`` on a file the runtime cannot
fill (``fio_time_based_overwrite``'s ``large``).
'''

import re

from microbench import knobs
from microbench.audit import fiodata, fiojob, fioprofile, fiorewrite
from microbench.audit.bounds import integer
from microbench.audit.context import memory_text, repeated, size_text
from microbench.audit.fiofindings import all_fixes, finding, where_of
from microbench.audit.findings import (CERTAIN, Finding, Invocation,
                                       depends)

#: rw values that write, and those that write sequentially
WRITES = {'write', 'randwrite', 'rw', 'readwrite', 'randrw', 'trimwrite'}
SEQUENTIAL_WRITES = {'write', 'rw', 'readwrite', 'trimwrite'}
READS = {'read', 'randread', 'rw', 'readwrite', 'randrw'}

#: Engines whose I/O goes through the kernel's page cache unless O_DIRECT
PAGE_CACHE_ENGINES = {'sync', 'psync', 'vsync', 'pvsync', 'pvsync2',
                      'libaio', 'posixaio', 'io_uring', 'mmap', 'splice',
                      'windowsaio', 'solarisaio'}

#: The rate below which a file of ``size`` over ``runtime`` surely wraps:
#: the check's own small file over its runtime (1 GiB in 10 s)
WRAP_RATE = (fiojob.size_bytes(knobs.FIO_SMALL_FILE_SIZE)
             / knobs.FIO_RUNTIME_S)

#: Options that flush what a buffered job wrote, its time counted
FLUSHES = ('end_fsync', 'fsync_on_close', 'fsync', 'fdatasync')

#: An rw the input leaves to its shell or template (``$RW``, ``<rw>``,
#: Jinja's ``{{ item.rw }}`` read as ``<item.rw>``)
UNSAID = re.compile(r'^(\$\{?\w+\}?|<[^<>\s]+>)$')


def rw_of(job):
    return (job.value('rw', 'read') or 'read').split(':')[0].strip().lower()


def engine_of(job):
    return (job.value('ioengine', 'psync') or 'psync').strip().lower()


def on_device(job):
    name = job.value('filename') or ''
    return name.startswith('/dev/')


def job_bytes(job):
    '''(bytes of each of the job's files, of all its processes), None each
    where the size is not known.'''
    base = job.kb_base()
    size = fiojob.size_bytes(job.value('size'), base)
    file_size = fiojob.size_bytes(job.value('filesize'), base)
    per_file = file_size or size
    numjobs = int(fiojob.size_bytes(job.value('numjobs', '1'), 1000) or 1)
    shared = bool(job.value('filename')) and ':' not in (
        job.value('filename') or '')
    total = (size or per_file or 0) * (1 if shared else numjobs)
    return per_file, (total or None)


def judge_job(job, context, source, written=None):
    '''The findings of one fio job; ``source`` rewrites the input;
    ``written``: the job before it that left the file it reads dirty,
    and the file (:mod:`.fioacross`).'''
    found = Invocation('fio', job.where)
    rw = rw_of(job)
    unsaid = UNSAID.match(job.value('rw') or '')
    if unsaid:
        rw = 'write'            # judged as the write it may be, said so
    engine = engine_of(job)
    direct, direct_option = job.direct()
    per_file, total = job_bytes(job)
    runtime = fiojob.seconds(job.value('runtime'))
    time_based = job.flag('time_based')
    if engine not in PAGE_CACHE_ENGINES:
        found.not_judged.append(f'ioengine={engine}: the audit judges the '
                                f'engines of files (S1-S4 not judged)')
    else:
        _cache_flags(found, job, context, source, rw, direct, direct_option,
                     total, time_based)
        _allocation(found, job, source, rw)
        _overwrite(found, job, source, rw, per_file, runtime, time_based)
        _read_back(found, job, context, source, rw, direct, per_file, total,
                   runtime, time_based, written)
    if unsaid:
        for one in found.findings:
            one.certainty = depends(f'what rw={unsaid[0]} holds: a write '
                                    f'(a read has none of S1-S3)')
    found.not_judged.extend(fioprofile.unused(job))
    fiodata.reduction(found, job, source, rw in WRITES)
    fiodata.polling(found, job, source, engine)
    said = repeated(context, found)
    if said:
        found.findings.append(Finding(
            'M1', f'{said[0]}: fio reports one figure per job', job.where,
            said[1], source.looped(job), measure=None))
    if found.findings:
        found.realistic = source.rewrite(job, all_fixes(found))
        if said and '\n' not in found.realistic:
            found.realistic = fiorewrite.loop(found.realistic)
    return found


def _cache_flags(found, job, context, source, rw, direct, direct_option,
                 total, time_based):
    if rw not in WRITES or direct:
        return
    if job.flag('sync') or job.value('sync', '0') in ('sync', 'dsync'):
        return      # O_SYNC: write-through, the check's realistic sync
    if job.flag('uncached') and job.value('uncached') not in (None, '0'):
        return      # RWF_DONTCACHE: pages dropped, writeback started
    said = (f'{direct_option.name}={direct_option.value}'
            if direct_option is not None else 'no direct=1 (fio\'s default, '
            'buffered)')
    flushes = [name for name in fiojob_flushes(job)]
    memory = context.memory
    if flushes:
        # fsync=N and fdatasync=N flush every N writes; end_fsync and
        # fsync_on_close end the job's runtime after the last flush (fio's
        # backend.c: update_runtime() after do_io(), which runs it): the
        # figure is the storage's, not the page cache's
        found.not_judged.append(
            f'S1: {flushes[0]}: fio counts the flush to storage in the '
            f'job\'s time, so its figure is not the page cache\'s')
        return
    if total is not None and memory and total < memory:
        certainty = CERTAIN
    else:
        certainty = depends(f'the files\' size ({_size(total)}) against '
                            f'the memory of {context.memory_of} '
                            f'({memory_text(memory)}): files larger than '
                            f'memory throttle buffered writes to the '
                            f'storage\'s rate')
    fix = {'direct': str(knobs.FIO_CACHE_FLAGS['direct']['direct'])}
    bs = fiojob.size_bytes(job.value('bs', '4k'), job.kb_base())
    note = None
    if bs is not None and bs % 4096:
        note = (f'O_DIRECT needs block sizes aligned to the device\'s '
                f'(bs={job.value("bs")} is not a multiple of 4 KiB)')
    if job.value('write_barrier') not in (None, '0'):
        # io_u.c: a barrier only under an engine flagged FIO_BARRIER
        said += (f', write_barrier={job.value("write_barrier")} (fio sets '
                 f'no barrier under an engine that takes none)')
    found.findings.append(finding(
        source, job, 'S1', f'rw={rw} with {said}: every write lands in '
        f'the page cache', where_of(job, direct_option), certainty, fix,
        note, {'check': 'fio_cache_flags', 'gap': 'buffered_over_direct',
               'yours': 'buffered', 'realistic': 'direct'}))


def fiojob_flushes(job):
    out = []
    for name in FLUSHES:
        value = job.value(name)
        if value is not None and fiojob.truth(value):
            out.append(f'{name}={value}' if value else name)
    return out


def _size(total):
    return size_text(total) if total else 'unknown'


def _allocation(found, job, source, rw):
    if rw not in SEQUENTIAL_WRITES or on_device(job):
        return
    option = job.last('fallocate')
    mode = (option.value or '').lower() if option is not None else 'native'
    if mode in ('none', '0'):
        return
    if option is None:
        said = ('no fallocate option: fio preallocates every file it lays '
                'out (fallocate=native, its default)')
        certainty = depends('the file system (fallocate(): ext4, XFS, '
                            'Btrfs, Lustre 2.14 and later) and on the file '
                            'not existing before the run')
    else:
        said = f'fallocate={option.value}: fio preallocates every file'
        certainty = depends('the file not existing before the run (fio '
                            'preallocates the files it lays out)')
    found.findings.append(finding(
        source, job, 'S2', f'rw={rw}, {said}', where_of(job, option),
        certainty, dict(knobs.FIO_FALLOCATE['none']), measure={
            'check': 'fio_fallocate', 'gap': 'preallocated_over_none',
            'yours': 'default', 'realistic': 'none'}))


def _overwrite(found, job, source, rw, per_file, runtime, time_based):
    if rw not in WRITES or on_device(job):
        return
    if not time_based:
        _io_size(found, job, source, per_file)
        return
    option = job.last('time_based')
    if per_file is None or not runtime:
        certainty = depends('the file\'s size against what the runtime '
                            'writes (size or runtime not known)')
        needed = None
    else:
        needed = per_file / runtime
        certainty = (CERTAIN if needed <= WRAP_RATE else depends(
            f'the write rate: a job wraps once it writes faster than '
            f'{needed / 2**20:.0f} MiB/s (its {_size(per_file)} file in '
            f'{runtime:g} s)'))
    size = fiojob.size_bytes(knobs.FIO_LARGE_FILE_SIZE)
    fix = {'time_based': None}
    if per_file is None or per_file < size:
        fix['size'] = knobs.FIO_LARGE_FILE_SIZE
    evidence = (f'time_based with a {_size(per_file)} file and runtime='
                f'{job.value("runtime")}: fio wraps at the end of the file '
                f'and writes it again' if per_file and runtime else
                'time_based: fio wraps at the end of the file and writes it '
                'again')
    found.findings.append(finding(
        source, job, 'S3', evidence, where_of(job, option), certainty, fix,
        note=('without time_based fio stops at the runtime or at the end '
              'of the file, whichever comes first: a file the runtime '
              'cannot fill (the check\'s large file)'),
        measure={'check': 'fio_time_based_overwrite',
                 'gap': 'overwrite_over_baseline', 'yours': 'small',
                 'realistic': 'large'}))


def _io_size(found, job, source, per_file):
    '''S3 without time_based: io_size (or loops) past the file's size
    writes it again.'''
    option = job.last('io_size', 'io_limit')
    io_size = fiojob.size_bytes(option.value, job.kb_base()) \
        if option is not None else None
    loops = job.last('loops')
    times = (integer(loops.value) if loops is not None and
             str(loops.value).isdigit() else None) or 1
    if per_file and io_size and io_size > per_file:
        said, where = (f'{option.name}={option.value} on a '
                       f'{_size(per_file)} file', option.where)
    elif per_file and times > 1:
        said, where = f'loops={loops.value}', loops.where
    else:
        return
    found.findings.append(finding(
        source, job, 'S3', f'{said}: fio writes the file again over blocks '
        f'already allocated', where, CERTAIN,
        {'io_size': None, 'io_limit': None, 'loops': None}))


def _read_back(found, job, context, source, rw, direct, per_file, total,
               runtime, time_based, written):
    if rw not in READS or direct:
        return
    pre_read = job.last('pre_read')
    if pre_read is not None and fiojob.truth(pre_read.value):
        memory = context.memory
        fits = total and memory and total < memory
        certainty = CERTAIN if fits else depends(
            f'the files fitting in the page cache of the node '
            f'({memory_text(memory)})')
        found.findings.append(finding(
            source, job, 'S4', f'rw={rw}, pre_read={pre_read.value}: fio '
            f'reads the files into the page cache before the timed reads, '
            f'and does not drop them (it clears invalidate; fio\'s HOWTO, '
            f'pre_read)', pre_read.where, certainty,
            {'direct': '1', 'pre_read': None}))
        return
    invalidate = job.last('invalidate')
    if invalidate is not None and not fiojob.truth(invalidate.value):
        found.findings.append(finding(
            source, job, 'S4', f'rw={rw}, invalidate={invalidate.value}: '
            f'fio reads the file it laid out without dropping its pages',
            invalidate.where, CERTAIN, {'direct': '1', 'invalidate': None}))
        return
    memory = context.memory
    if time_based and per_file and runtime and total and not (
            memory and total >= memory):
        needed = per_file / runtime
        certainty = CERTAIN if needed <= WRAP_RATE else depends(
            f'the read rate: past {needed / 2**20:.0f} MiB/s a job reads '
            f'its {_size(per_file)} file again, from the page cache')
        found.findings.append(finding(
            source, job, 'S4', f'rw={rw}, time_based on {_size(total)} of '
            f'files (this node: {memory_text(memory)}) without direct=1: '
            f'after the first pass the page cache serves every read',
            where_of(job, job.last('time_based')), certainty,
            {'direct': '1'}))
    elif rw in WRITES:        # rw, readwrite, randrw: one job, one file
        # fio drops the file's pages once, before the job (invalidate);
        # sequential reads then follow the writes block by block (each
        # direction its own offset), random ones land where writes were
        found.findings.append(finding(
            source, job, 'S4', f'rw={rw} without direct=1: the job reads '
            f'the file its own writes go through the page cache into',
            where_of(job, job.last('rw', 'readwrite')), CERTAIN
            if rw != 'randrw' else depends(
                f'the share of the file ({_size(total)}) the job has '
                f'written when it reads, and the page cache of the node '
                f'({memory_text(memory)})'), {'direct': '1'}))
    elif written is not None:
        writer, name = written
        found.findings.append(finding(
            source, job, 'S4', f'rw={rw} of {name}, which job {writer.name} '
            f'wrote through the page cache with no flush: invalidate drops '
            f'only the pages already written back', where_of(
                job, job.last('rw', 'readwrite')), depends(
                f'the pages of {name} still dirty when job {job.name} '
                f'starts (the kernel writes them back within '
                f'dirty_expire_centisecs, 30 s by default)'),
            {'direct': '1'}))
