'''strace: a witness that a benchmark made (or did not make) a system call.

strace stops the traced process at every system call, so it distorts what it
watches: the suite runs it on a short sample of its own, never on a sample
that counts.  ``strace -f -c`` writes a summary table, one row per system
call seen; with no call seen it writes nothing at all.
'''

from microbench import records
from microbench.checks import STDERR_MARK


class StraceOutputError(ValueError):
    '''The strace summary cannot be trusted; the message says why.'''


def command(syscall, output):
    '''argv prefix tracing ``syscall`` in every thread, summary to ``output``.'''
    return ['strace', '-f', '-c', '-e', f'trace={syscall}', '-o', output]


def parse_summary(text):
    '''Calls per system call in a ``strace -c`` summary.

    An empty summary means no traced call was seen.

    :raises StraceOutputError: if the table is truncated or malformed.
    '''
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return {}

    if not lines[0].lstrip().startswith('% time'):
        raise StraceOutputError('not an strace -c summary '
                                f'(first line: {lines[0]!r})')

    counts, total = {}, None
    for line in lines[1:]:
        if line.startswith('---'):
            continue

        fields = line.split()
        try:
            calls = int(fields[3])
        except (IndexError, ValueError):
            raise StraceOutputError(f'malformed strace -c row: {line!r}') from None

        if fields[-1] == 'total':
            total = calls
        else:
            counts[fields[-1]] = calls

    if total is None:
        raise StraceOutputError('strace -c summary has no total row '
                                '(truncated?)')

    if total != sum(counts.values()):
        raise StraceOutputError(f'strace -c rows add up to '
                                f'{sum(counts.values())} calls, not the '
                                f'total {total}')

    return counts


def witness_commands(check, variant, argv, syscall, output):
    '''Shell lines running ``argv`` of ``variant`` under strace through the
    check's launcher, if strace exists on the node; a record says either
    way.'''
    line = check.launch(*command(syscall, output), *argv)
    return [
        'if command -v strace >/dev/null 2>&1; then',
        '    ' + records.echo('witness', f'{variant}: {line}'),
        f'    echo "{STDERR_MARK}{variant} witness" >&2',
        *('    ' + ln for ln in check.checked(line, f'{variant} witness')),
        'else',
        '    ' + records.echo('witness_missing', f'{variant}: strace'),
        'fi',
    ]
