'''What one fio job leaves in the page cache for another: a read job of a
file that an earlier job of the same run wrote through the page cache
(S4 across jobs).

fio's ``invalidate`` (true by default) asks the kernel to drop a file's
pages when a job opens it (``posix_fadvise(POSIX_FADV_DONTNEED)``): the
kernel drops the clean pages only, and starts writing back the dirty
ones.  A writer that flushed before it ended (``end_fsync``,
``fsync_on_close``, ``fsync``/``fdatasync``, ``sync``) or wrote O_DIRECT
left nothing dirty; one that did not leaves the pages the kernel has not
written back yet, which the reader then reads from memory.  Which pages
those are depends on the kernel's writeback (``dirty_expire_centisecs``,
30 s by default) and on when the reader starts (``stonewall``,
``wait_for``, or at once beside the writer).

Files are matched by their ``filename`` (and ``directory``) as the jobs
give them; fio's default names (``jobname.jobnum.filenum``) differ from
job to job.
'''

import posixpath

from microbench.audit import fio


def _files(job):
    '''The files a job names (``filename``, split at fio's ``:``, under
    its ``directory``), or ().'''
    named = job.value('filename')
    if not named:
        return ()
    directory = job.value('directory') or ''
    out = []
    for name in named.replace('\\:', '\0').split(':'):
        name = name.replace('\0', ':').strip()
        if name:
            out.append(posixpath.normpath(posixpath.join(directory, name))
                       if directory and not name.startswith('/') else name)
    return tuple(out)


def _leaves_dirty(job):
    '''Whether a write job ends with pages of its files still dirty.'''
    direct, _ = job.direct()
    return not (direct or fio.fiojob_flushes(job) or job.flag('sync')
                or job.value('sync', '0') in ('sync', 'dsync'))


def written_before(jobs):
    '''{id(job): (the writer job, the file)} of every buffered read job
    of a file an earlier job of ``jobs`` wrote and left dirty.'''
    dirty, out = {}, {}
    for job in jobs:
        files = _files(job)
        if not files or fio.engine_of(job) not in fio.PAGE_CACHE_ENGINES:
            continue
        rw = fio.rw_of(job)
        direct, _ = job.direct()
        if rw in fio.READS and not direct:
            hit = next((name for name in files if name in dirty), None)
            if hit is not None:
                out[id(job)] = (dirty[hit], hit)
        if rw in fio.WRITES:
            for name in files:
                if _leaves_dirty(job):
                    dirty[name] = job
                else:
                    dirty.pop(name, None)
    return out
