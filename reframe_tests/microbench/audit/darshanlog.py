'''A Darshan log of an IOR, fio or elbencho run, judged with the suite's
own witness rules (:mod:`microbench.suite.darshan`, docs/authors/witnesses.md,
"Darshan"):

- a file written more than once over (bytes written over the highest byte
  written + 1, above 1): S3;
- reads served by the node that wrote the data (DXT: whose data every
  read got): S4;
- no fsync between a write and another node's read of it: S4;
- one process reading back its own data (its record of a file both
  written and read): S4.

Darshan 3.4 records no open flags (O_DIRECT), does not wrap fallocate()
and sees neither io_uring nor Linux AIO (io_submit): S1, S2 and S7 cannot
be judged from a log, and the report says so.  The log's command line
(its ``exe``) is judged as a command too, for the realistic form.
'''

import os
import shutil
import tempfile

from microbench.audit import words
from microbench.audit.findings import (CERTAIN, Finding, Invocation,
                                       Unreadable, Where, depends)
from microbench.suite import darshan, dxt
from microbench.suite.output import OutputError

#: What a Darshan 3.4 log cannot show
UNSEEN = ('O_DIRECT: Darshan 3.4 records no open flags (S1 not judged from '
          'the log)',
          'fallocate(): Darshan 3.4 does not wrap it (S2 not judged from '
          'the log)',
          'io_uring and Linux AIO (io_submit): Darshan 3.4 wraps neither; '
          'their I/O is missing from the counters (S7 not judged)')

#: What only the command line can say (Darshan 3.4 cannot see it)
UNSEEN_PITFALLS = ('S1', 'S2', 'S7')

#: How the benchmarks' command lines ask for O_DIRECT (the log's exe
#: says it where Darshan's counters cannot)
ODIRECT_WORDS = ('direct=1', '--posix.odirect', '--direct', 'useO_DIRECT',
                 'buffered=0')

#: A Darshan log's first bytes: its version string, "3.41" for 3.4.x
_MAGIC = (b'3.41', b'3.21', b'3.10', b'3.00')


def is_log(data):
    return data[:4] in _MAGIC and b'\0' in data[:16]


def read(name, data):
    '''The logs of ``data`` (one Darshan log), read by pydarshan in a
    child process.

    :raises Unreadable: where pydarshan cannot read it.
    '''
    directory = tempfile.mkdtemp(prefix='microbench-audit-')
    try:
        path = os.path.join(directory, 'input.darshan')
        with open(path, 'wb') as fp:
            fp.write(data)
        try:
            return darshan.read_logs(directory, timeout=120)
        except OutputError as err:
            said = str(err).replace(path, name)
            raise Unreadable(f'{name}: {said}') from None
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def judge(name, data, context, audit_command):
    '''The invocations of a Darshan log's bytes; ``audit_command(argv,
    context)`` audits the log's command line (its ``exe``).'''
    logs = read(name, data)
    return [_judge_log(name, log, context, audit_command) for log in logs]


def _judge_log(name, log, context, audit_command):
    exe = str(log.get('exe') or '').strip()
    where = Where(name, None, exe)
    program = words.program_name(exe.split()[0]) if exe else '?'
    found = Invocation(f'Darshan log of {program}', where)
    found.unseen.extend(UNSEEN)
    frame = darshan.files([log], '/')
    frame = frame[(frame['POSIX_BYTES_WRITTEN'] > 0)
                  | (frame['POSIX_BYTES_READ'] > 0)]
    if frame.empty:
        found.not_judged.append('no file was read or written through '
                                'POSIX in this log')
        return found
    command = _command(exe, context, audit_command)
    if command is not None:
        for finding in command.findings:
            if finding.pitfall in UNSEEN_PITFALLS:
                found.not_judged.append(
                    f'{finding.pitfall} from the log\'s command line, not '
                    f'its counters: {finding.evidence}')
    _overwrite(found, frame, command)
    _own_data(found, frame, log, command)
    _origins(found, log, frame, command)
    if found.findings and command is not None:
        found.realistic = command.realistic
    return found


def _command(exe, context, audit_command):
    '''The audit of the log's command line, or None.'''
    if not exe:
        return None
    try:
        report = audit_command(words.split(exe), context.with_(
            whole_run=False))
    except Unreadable:
        return None
    if report.error or not report.invocations:
        return None
    return report.invocations[-1]


def _realistic(command, pitfall):
    if command is None:
        return None
    for finding in command.findings:
        if finding.pitfall == pitfall and finding.realistic:
            return finding.realistic
    return None


def _overwrite(found, frame, command):
    factors = darshan.overwrite_factors(frame)
    over = {name: factor for name, factor in factors.items() if factor > 1}
    if not over:
        return
    name, factor = max(over.items(), key=lambda kv: kv[1])
    found.findings.append(Finding(
        'S3', f'{name} written {factor:.3g}x its size (POSIX_BYTES_WRITTEN '
        f'over POSIX_MAX_BYTE_WRITTEN + 1; {len(over)} file'
        f'{"s" if len(over) > 1 else ""} above 1)', found.where, CERTAIN,
        _realistic(command, 'S3')))


def _own_data(found, frame, log, command):
    both = frame[(frame['POSIX_BYTES_WRITTEN'] > 0)
                 & (frame['POSIX_BYTES_READ'] > 0) & (frame['rank'] >= 0)]
    if both.empty:
        return
    read = int(both['POSIX_BYTES_READ'].sum())
    total = int(frame['POSIX_BYTES_READ'].sum())
    exe = found.where.text
    if any(word in exe for word in ODIRECT_WORDS):
        found.not_judged.append(
            f'{len(both)} record(s) of a process reading back its own file: '
            f'with O_DIRECT, as the log\'s command line asks, not from the '
            f'page cache (Darshan 3.4 does not record the flag itself)')
        return
    certainty = (CERTAIN if command is not None else depends(
        'O_DIRECT, which Darshan 3.4 does not record: without it the page '
        'cache served those reads'))
    found.findings.append(Finding(
        'S4', f'{len(both)} record{"s" if len(both) > 1 else ""} of a '
        f'process reading back the file it wrote itself ({read} of {total} '
        f'bytes read)', found.where, certainty, _realistic(command, 'S4')))


def _origins(found, log, frame, command):
    if not log['dxt']:
        found.not_judged.append('whose data each read got: the log has no '
                                'DXT trace (DXT_ENABLE_IO_TRACE)')
        return
    try:
        origins = dxt.read_origins([log], '/')
    except OutputError as err:
        found.not_judged.append(f'whose data each read got: {err}')
        return
    read = sum(origins.values())
    if not read:
        return
    local = origins['same rank'] + origins['same node']
    said = ', '.join(f'{o} {100 * b / read:.1f} %' for o, b in
                     origins.items() if b)
    if local and any(word in found.where.text for word in ODIRECT_WORDS):
        found.not_judged.append(f'whose data each read got (DXT: {said}): '
                                f'read with O_DIRECT, as the log\'s command '
                                f'line asks, not from the page cache')
        return
    if local:
        if any(f.pitfall == 'S4' for f in found.findings) and \
                not origins['same node']:
            return          # already said: a process read its own data
        found.findings.append(Finding(
            'S4', f'reads served by the node that wrote the data (DXT: '
            f'{said})', found.where, CERTAIN, _realistic(command, 'S4')))
        return
    writers = frame[frame['POSIX_BYTES_WRITTEN'] > 0]
    synced = writers['POSIX_FSYNCS'] + writers['POSIX_FDSYNCS']
    if origins['other node'] and (synced == 0).any():
        found.findings.append(Finding(
            'S4', f'another node read the data (DXT: {said}), but '
            f'{int((synced == 0).sum())} writing record(s) called no fsync '
            f'before it: the write figure ends while the data is in the '
            f'writer\'s page cache', found.where, CERTAIN,
            _realistic(command, 'S4')))

