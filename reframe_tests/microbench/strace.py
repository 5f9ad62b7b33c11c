'''strace: a witness that a benchmark made (or did not make) a system call.

strace stops the traced process at every system call, so it distorts what it
watches: the suite runs it on a short sample of its own, never on a sample
that counts.  ``strace -f -c`` writes a summary table, one row per system
call seen, with the calls that failed in the ``errors`` column; with no call
seen it writes nothing at all.  A call that failed did not happen: a failed
``fallocate()`` preallocated nothing.
'''

from dataclasses import dataclass

from microbench.output import OutputError, lines, number


@dataclass(frozen=True)
class Calls:
    '''The calls of one system call in a summary.'''

    calls: int
    errors: int

    @property
    def succeeded(self):
        return self.calls - self.errors


def command(syscall, output):
    '''argv prefix tracing ``syscall`` in every thread, summary to ``output``.'''
    return ['strace', '-f', '-c', '-e', f'trace={syscall}', '-o', output]


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


def parse_summary(text):
    '''{system call: :class:`Calls`} of a ``strace -c`` summary; an empty
    summary means no traced call was seen.

    :raises OutputError: if the table is cut, malformed or does not add up.
    '''
    if not text.strip():
        return {}

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
        else:
            counts[name] = calls

    if total is None:
        raise OutputError('the strace -c summary has no total row (cut '
                          'short?)')

    for field in ('calls', 'errors'):
        added = sum(getattr(c, field) for c in counts.values())
        if added != getattr(total, field):
            raise OutputError(f'the {field} of the strace -c rows add up to '
                              f'{added}, not the total {getattr(total, field)}')

    return counts
