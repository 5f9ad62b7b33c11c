'''Darshan: the witness of what a storage benchmark's processes really did.

Darshan's runtime, preloaded into a program (``LD_PRELOAD``), counts every
POSIX call the program makes on every file (bytes, access sizes,
sequentiality, alignment, syncs) and writes one log per process when it ends
(per MPI job for the MPI runtime).  Like strace it runs on a short sample of
its own (:meth:`microbench.suite.rounds.Rounds.darshan_command`), never
on a sample that counts.  Its logs go to ``darshan-<variant>/`` of the
stage directory.

Logs are read with pydarshan (PyPI ``darshan``), in a child process: its C
library aborts the process on some corrupted logs, which must fail the check,
not ReFrame.  What is read is validated like every output of the suite: a
log that cannot be read, a partial log, a module that ran out of memory, a
negative counter, or no log at all is an :class:`OutputError`.
'''

import glob
import json
import os
import subprocess
import sys

import pandas as pd

from microbench.paths import CHECKS
from microbench.suite.output import OutputError

#: The counters the checks read, summed over processes and files
SUMMED = ('POSIX_OPENS', 'POSIX_STATS', 'POSIX_READS', 'POSIX_WRITES',
          'POSIX_BYTES_READ', 'POSIX_BYTES_WRITTEN', 'POSIX_SEQ_WRITES',
          'POSIX_CONSEC_WRITES', 'POSIX_SEQ_READS', 'POSIX_FILE_NOT_ALIGNED',
          'POSIX_MEM_NOT_ALIGNED', 'POSIX_FSYNCS', 'POSIX_FDSYNCS')

#: Directories whose files Darshan never records unless told otherwise
#: (``darshan_path_exclusions`` of darshan-runtime/lib/darshan-config.c,
#: 3.4.7): a scratch below one of them (``/var/tmp``) is invisible to it
DARSHAN_EXCLUDED = ('/etc/', '/dev/', '/usr/', '/bin/', '/boot/', '/lib/',
                    '/opt/', '/sbin/', '/sys/', '/proc/', '/var/')


def excluded_dirs(scratch):
    '''Darshan's excluded directories without those that hold
    ``scratch``; None where none does (Darshan's default then stands).'''
    under = os.path.join(os.path.normpath(scratch), '')
    kept = [d for d in DARSHAN_EXCLUDED if not under.startswith(d)]
    return None if len(kept) == len(DARSHAN_EXCLUDED) else kept


def preload(log_dir, mpi=False, traced=False, scratch=None):
    '''``env`` setting the job's Darshan runtime (``$darshan_lib``, found by
    the job) for the program that follows it, its logs into ``log_dir``.
    Only that program is preloaded: not the launcher, not a wrapper.
    ``traced`` adds DXT (every access's offset, rank and host) and keeps
    per-rank records of shared files.  A ``scratch`` under a directory
    Darshan leaves out by default is let in (``DARSHAN_EXCLUDE_DIRS``).'''
    env = ['env', 'LD_PRELOAD=$darshan_lib', f'DARSHAN_LOG_DIR_PATH={log_dir}',
           'DARSHAN_MODMEM=256', 'DARSHAN_NAMEMEM=64']
    excluded = excluded_dirs(scratch) if scratch else None
    if excluded is not None:
        env.append(f'DARSHAN_EXCLUDE_DIRS={",".join(excluded)}')
    if not mpi:
        env.append('DARSHAN_ENABLE_NONMPI=1')

    if traced:
        env += ['DXT_ENABLE_IO_TRACE=1', 'DARSHAN_DISABLE_SHARED_REDUCTION=1']

    return env


def _dump(path):
    '''One log as plain data (runs in the child process).'''
    import darshan   # pydarshan: only the child process loads its C library

    report = darshan.DarshanReport(path, read_all=True)
    job = report.metadata['job']
    data = {'path': path, 'exe': report.metadata.get('exe', ''),
            'jobid': job['jobid'], 'nprocs': job['nprocs'],
            'start': [job.get('start_time_sec'), job.get('start_time_nsec')],
            'fork_parent': job.get('metadata', {}).get('fork_parent'),
            'partial': sorted(m for m, info in report.modules.items()
                              if info.get('partial_flag')),
            'posix': [], 'dxt': []}
    if 'POSIX' in report.records:
        counters = report.records['POSIX'].to_df()['counters']
        counters['file'] = counters['id'].map(report.name_records)
        data['posix'] = counters.drop(columns='id').to_dict('records')

    for rec in (report.records['DXT_POSIX'].to_df()
                if 'DXT_POSIX' in report.records else []):
        data['dxt'].append({
            'rank': rec['rank'], 'hostname': rec['hostname'],
            'file': report.name_records.get(rec['id'], str(rec['id'])),
            'write': _segments(rec['write_segments']),
            'read': _segments(rec['read_segments']),
        })

    return data


def _segments(frame):
    '''[[offset, length], ...] of a DXT record's segments.  pydarshan
    (3.4.7) gives a file a rank only wrote, or only read, an empty frame
    without columns (every file of IOR's task reordering on two nodes).'''
    if frame is None or not len(frame):
        return []

    return frame[['offset', 'length']].values.tolist()


#: What the child prints on its standard error before reading a log: its
#: C library's error lines that follow are about that log
_READING = '# reading '


def _main(paths):
    for path in paths:
        print(f'{_READING}{path}', file=sys.stderr, flush=True)
        print(json.dumps(_dump(path), default=int), flush=True)


def read_logs(directory, timeout=300):
    '''Every log of ``directory``, read by pydarshan in a child process:
    a list of dicts (``exe``, ``jobid``, ``fork_parent``, ``posix`` rows,
    ``dxt`` records).

    :raises OutputError: if there is no log, a partial one, or one that
        pydarshan cannot read.
    '''
    partial = glob.glob(os.path.join(directory, '*.darshan_partial'))
    if partial:
        raise OutputError(f'{partial[0]}: a partial Darshan log: the process '
                          f'did not end cleanly, or Darshan could not finish '
                          f'its log')

    paths = sorted(glob.glob(os.path.join(directory, '*.darshan')))
    if not paths:
        raise OutputError(f'Darshan wrote no log in {directory} (a runtime '
                          f'configured without --with-log-path-by-env='
                          f'DARSHAN_LOG_DIR_PATH writes its logs elsewhere)')

    # The package's parent is the child's path and directory: ``darshan``
    # is pydarshan there, not this module
    top = CHECKS
    try:
        child = subprocess.run([sys.executable, '-m', __name__, *paths],
                               capture_output=True, cwd=top,
                               env={**os.environ, 'PYTHONPATH': top},
                               timeout=timeout)
    except subprocess.TimeoutExpired:
        raise OutputError(f'pydarshan did not read the logs of {directory} '
                          f'in {timeout} s') from None

    out = child.stdout.decode('utf-8', errors='replace').splitlines()
    said = [ln for ln in child.stderr.decode('utf-8', errors='replace')
            .splitlines() if ln.strip()]
    logs = [json.loads(line) for line in out if line.startswith('{')]
    if child.returncode != 0 or len(logs) != len(paths):
        failed = paths[min(len(logs), len(paths) - 1)]
        said = [ln for ln in said if not ln.startswith(_READING)]
        why = said[-1] if said else f'exit code {child.returncode}'
        raise OutputError(f'{failed}: pydarshan could not read this Darshan '
                          f'log ({why}): is it cut or corrupted?')

    reading = directory
    for line in said:
        if line.startswith(_READING):
            reading = line[len(_READING):]
        elif line.startswith('Error'):
            raise OutputError(f'{reading}: pydarshan: {line}: is it cut or '
                              f'corrupted?')

    for log in logs:
        if log['partial']:
            raise OutputError(f'{log["path"]}: Darshan ran out of memory for '
                              f'{", ".join(log["partial"])}: its counters '
                              f'are incomplete (raise DARSHAN_MODMEM)')

    _reject_copies(logs)
    return logs


def _reject_copies(logs):
    '''Raise if two logs are of one process (its job id, executable and
    start time): a copy, or a log written twice, counts its I/O twice.'''
    seen = {}
    for log in logs:
        key = (str(log['jobid']), log['exe'], tuple(log['start']))
        if key in seen:
            raise OutputError(
                f'{log["path"]} and {seen[key]} are one Darshan log (job '
                f'{log["jobid"]} of {log["exe"] or "?"}, started at '
                f'{log["start"][0]}): a copy counts its I/O twice')

        seen[key] = log['path']


def job_logs(logs):
    '''The logs of the benchmark's own processes: without a parent that
    forked them (fio's, which only lays out files), and without a process
    that touched no file (a wrapper).'''
    parents = {str(log['fork_parent']) for log in logs if log['fork_parent']}
    return [log for log in logs if log['posix'] and (
        log['fork_parent'] or str(log['jobid']) not in parents)]


def of_scratch(logs, kind, scratch):
    '''(log, record) of every ``kind`` record (``posix``, ``dxt``) of the
    benchmark's processes about a file below ``scratch``.'''
    prefix = scratch.rstrip('/') + '/'
    return [(log, rec) for log in job_logs(logs) for rec in log[kind]
            if str(rec['file']).startswith(prefix)]


def files(logs, scratch):
    '''POSIX counters of every (file, rank, process) below ``scratch``, a
    :class:`pandas.DataFrame`.

    :raises OutputError: if a counter the checks read is negative.
    '''
    rows = [{**row, 'log': log['path']}
            for log, row in of_scratch(logs, 'posix', scratch)]
    frame = pd.DataFrame(rows, columns=['log', 'rank', 'file', *SUMMED,
                                        'POSIX_MAX_BYTE_WRITTEN',
                                        *ACCESS_COLUMNS])
    for name in SUMMED:
        bad = frame[frame[name] < 0]
        if len(bad):
            raise OutputError(f'{bad["log"].iloc[0]}: {name} of '
                              f'{bad["file"].iloc[0]} is '
                              f'{bad[name].iloc[0]}: not monitored or '
                              f'corrupted')

    return frame


#: The four most common access sizes of a record, and their counts
ACCESS_COLUMNS = tuple(f'POSIX_ACCESS{i}_{what}' for i in range(1, 5)
                       for what in ('ACCESS', 'COUNT'))


def access_sizes(frame):
    '''{access size in bytes: accesses} over every record.'''
    sizes = {}
    for i in range(1, 5):
        for size, count in zip(frame[f'POSIX_ACCESS{i}_ACCESS'],
                               frame[f'POSIX_ACCESS{i}_COUNT']):
            if count > 0:
                sizes[int(size)] = sizes.get(int(size), 0) + int(count)

    return sizes


def overwrite_factors(frame):
    '''{file: bytes written over the highest byte written + 1}, over every
    process that wrote it (> 1: the file was written again).'''
    by_file = frame.groupby('file').agg(
        written=('POSIX_BYTES_WRITTEN', 'sum'),
        extent=('POSIX_MAX_BYTE_WRITTEN', 'max'))
    by_file = by_file[by_file['written'] > 0]
    return {name: row.written / (row.extent + 1)
            for name, row in by_file.iterrows()}


def summary(frame):
    '''What the processes did, in a line (as Snyder's job summaries do):
    files and processes, reads and writes, access sizes, sequentiality,
    alignment, syncs.'''
    total = frame[list(SUMMED)].sum()
    sizes = access_sizes(frame)
    ops = total['POSIX_READS'] + total['POSIX_WRITES']
    common = ', '.join(f'{size} B x {count}' for size, count in
                       sorted(sizes.items(), key=lambda kv: -kv[1])[:4])

    def share(part, whole):
        return f'{100 * part / whole:.1f} %' if whole else 'n/a'

    return (f'{frame["file"].nunique()} files, '
            f'{frame["log"].nunique()} logs, '
            f'{frame["rank"].nunique()} ranks; '
            f'{total["POSIX_WRITES"]} writes ({total["POSIX_BYTES_WRITTEN"]} '
            f'B, {share(total["POSIX_SEQ_WRITES"], total["POSIX_WRITES"])} '
            f'sequential, '
            f'{share(total["POSIX_CONSEC_WRITES"], total["POSIX_WRITES"])} '
            f'consecutive), {total["POSIX_READS"]} reads '
            f'({total["POSIX_BYTES_READ"]} B); access sizes {common or "none"}'
            f' ({share(sum(sizes.values()), ops)} of accesses); not aligned: '
            f'{total["POSIX_FILE_NOT_ALIGNED"]} in file, '
            f'{total["POSIX_MEM_NOT_ALIGNED"]} in memory; '
            f'{total["POSIX_FSYNCS"]} fsync, {total["POSIX_FDSYNCS"]} '
            f'fdatasync; {total["POSIX_OPENS"]} opens, '
            f'{total["POSIX_STATS"]} stats')


if __name__ == '__main__':
    _main(sys.argv[1:])
