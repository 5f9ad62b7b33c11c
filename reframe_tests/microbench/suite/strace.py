'''strace: a witness that a benchmark made (or did not make) a system call.

strace stops the traced process at every system call, so it distorts what it
watches: the suite runs it on a short sample of its own, never on a sample
that counts.  ``strace -f -c`` writes a summary table, one row per system
call seen, with the calls that failed in the ``errors`` column; with no call
seen it writes nothing at all, which a file cut to nothing would look like.
So the witness also traces ``execve``, which strace always sees (it starts
the program): its row is the summary's success marker.  A call that failed
did not happen: a failed ``fallocate()`` preallocated nothing.
'''

from dataclasses import dataclass

from microbench.suite.output import OutputError, lines, number


@dataclass(frozen=True)
class Calls:
    '''The calls of one system call in a summary.'''

    calls: int
    errors: int

    @property
    def succeeded(self):
        return self.calls - self.errors


#: The call strace always sees: the start of the program it traces
MARKER = 'execve'


def command(syscall, output):
    '''argv prefix tracing ``syscall`` (and the marker) in every thread,
    summary to ``output``.'''
    return ['strace', '-f', '-c', '-e', f'trace={syscall},{MARKER}', '-o',
            output]


def _row(line):
    '''(name, Calls) of a row: % time, seconds, usecs/call, calls, [errors],
    name.'''
    fields = line.split()
    if len(fields) not in (5, 6):
        raise OutputError(f'malformed strace -c row: {line!r}')

    number(fields[0], 'the % time of a row', positive=False)
    number(fields[1], 'the seconds of a row', positive=False)
    number(fields[2], 'the usecs/call of a row', positive=False)
    calls = number(fields[3], f'the calls of {fields[-1]}', integer=True)
    errors = (number(fields[4], f'the errors of {fields[-1]}',
                     positive=False, integer=True) if len(fields) == 6 else 0)
    if errors > calls:
        raise OutputError(f'{fields[-1]}: {errors} errors of {calls} calls')

    return fields[-1], Calls(calls, errors)


def parse_summary(text, syscall=None):
    '''{system call: :class:`Calls`} of a ``strace -c`` summary of
    :func:`command` tracing ``syscall`` (None: any).

    :raises OutputError: if the table is empty, cut, malformed, does not
        add up, has no row of the marker, or a row of a call that was not
        traced.
    '''
    rows = [ln for ln in lines(text) if ln.strip()]
    if not rows[0].lstrip().startswith('% time'):
        raise OutputError(f'not an strace -c summary (first line: '
                          f'{rows[0]!r})')

    counts, total = {}, None
    for line in rows[1:]:
        if line.startswith('---'):
            continue

        if total is not None:
            raise OutputError(f'a row after the total row: {line!r}')

        name, calls = _row(line)
        if name == 'total':
            total = calls
        elif name in counts:
            raise OutputError(f'{name} appears twice: two summaries in one '
                              f'file?')
        elif syscall and name not in (syscall, MARKER):
            raise OutputError(f'a row of {name!r}, which was not traced: '
                              f'the summary is corrupted')
        else:
            counts[name] = calls

    if total is None:
        raise OutputError('the strace -c summary has no total row (cut '
                          'short?)')

    if MARKER not in counts:
        raise OutputError(f'the strace -c summary has no {MARKER} row: '
                          f'strace did not see the program start (was the '
                          f'summary cut?)')

    for field in ('calls', 'errors'):
        added = sum(getattr(c, field) for c in counts.values())
        if added != getattr(total, field):
            raise OutputError(f'the {field} of the strace -c rows add up to '
                              f'{added}, not the total '
                              f'{getattr(total, field)}')

    return counts
