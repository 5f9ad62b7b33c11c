'''What one fabtests run printed: its result row and GNU time's report.

A parser is told what was asked, the program, the message size and the
client's options, and holds the output to it: the row of that size (once),
every figure of the row following from the others for that program
(:mod:`.table`), and where the run was timed, ``/usr/bin/time -v``'s report
naming that program with exactly the asked options (completion mode,
provider, domain, iterations: both ways), its exit status 0 and no
signal.  fabtests print sizes with binary suffixes
(``32k``), counts with decimal ones (``10k``), "MB/sec" meaning 10^6 bytes
per second, and for a ping-pong "usec/xfer" as half a round trip (two
transfers per iteration).
'''

import os
import re
from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import OutputError, lines, number, once
from microbench.tools.fabtests import table
from microbench.units import MB_S_IN_MIB_S

_COLUMNS = ['bytes', 'iters', 'total', 'time', 'MB/sec', 'usec/xfer',
            'Mxfers/sec']

#: What fabtests print when a run went wrong
ERRORS = re.compile(r'^(.*ret=-\d+|\[error\]|.*timeout expired)')

#: /usr/bin/time -v's lines the suite reads: key -> (label, whether it is
#: an integer, whether it must be positive)
_TIME_V = {'user_s': ('User time (seconds)', False, False),
           'system_s': ('System time (seconds)', False, False),
           # a process that exchanged messages used some CPU
           'cpu_percent': ('Percent of CPU this job got', True, True),
           'exit_status': ('Exit status', True, False)}

#: What GNU time prints where it cannot measure a share (no elapsed time)
_UNMEASURED = '?'

#: GNU time's lines about how the command ended, before its report: a
#: signal (its ``Exit status`` then says 0) or a failed exit
_ENDED = re.compile(r'^Command (terminated by signal \d+|exited with '
                    r'non-zero status \d+)$')

_TIMED = 'Command being timed'

#: How a probe's output gives the CPUs a process may run on
_CPUS = re.compile(r'^Cpus_allowed_list:\s+(\S+)$')


@dataclass(frozen=True)
class FabtestsRun:
    '''One client (or server) run: its result row and, if it ran under
    ``/usr/bin/time -v``, its resource use.'''

    size: int
    iterations: str
    mb_s: float
    usec_per_xfer: float
    #: user_s, system_s, cpu_percent (None where time could not measure
    #: it), exit_status; empty without time -v
    usage: dict

    @property
    def mib_s(self):
        return self.mb_s * MB_S_IN_MIB_S

    @property
    def figures(self):
        return {'bandwidth': self.mib_s, 'rtt': 2 * self.usec_per_xfer}


def _options(words):
    '''{option: value} of a fabtests command's words (every option the
    suite asks takes a value; a flag is True).'''
    found = {}
    for index, word in enumerate(words):
        if not word.startswith('-'):
            continue

        value = words[index + 1] if index + 1 < len(words) else None
        found[word] = True if value is None or value.startswith('-') \
            else value
    return found


def _timed_program(rows, program, options=None):
    '''Raise unless time -v's "Command being timed" names ``program``, and
    (where ``options`` are given: the words the client was asked between
    the program and the server's address) ran with exactly those options:
    a client of another completion mode, provider or iteration count is
    another variant's run.'''
    found = [ln.split(':', 1)[1].strip(' \t') for ln in rows
             if ln.strip(' \t').startswith(_TIMED + ':')]
    command = once(found, f'"{_TIMED}" line')
    # GNU time quotes the words it ran, joined by spaces, unescaped
    if len(command) < 2 or command[0] != '"' or command[-1] != '"':
        raise OutputError(f'the timed command {command!r} is cut or '
                          f'corrupted')

    words = command[1:-1].split()
    ran = [os.path.basename(word) for word in words
           if os.path.basename(word).startswith('fi_')]
    if ran != [program]:
        raise OutputError(f'the timed command is {command!r}: it ran '
                          f'{" ".join(ran) or "no fabtests program"}, not '
                          f'the asked {program}')

    if options is None:
        return

    start = next(i for i, word in enumerate(words)
                 if os.path.basename(word) == program)
    # the last word is the server's address
    said, asked = _options(words[start + 1:-1]), _options(list(options))
    for name in sorted(set(said) | set(asked)):
        if name not in said:
            raise OutputError(f'the timed command {command!r} has no '
                              f'{name}, which was asked: the output is of '
                              f'another run')
        if name not in asked:
            raise OutputError(f'the timed command {command!r} ran with '
                              f'{name} {said[name]}, which was not asked: '
                              f'the output is of another run')
        if '$' not in str(asked[name]) and said[name] != asked[name]:
            raise OutputError(f'the timed command {command!r} ran with '
                              f'{name} {said[name]}, not the asked {name} '
                              f'{asked[name]}: the output is of another run')


def _usage(rows, timed):
    '''What ``/usr/bin/time -v`` reported; every line once where
    ``timed``.'''
    ended = output.error_lines('\n'.join(rows), _ENDED)
    if ended:
        raise OutputError(f'time -v says "{ended[0]}": the program did not '
                          f'end by itself, whatever its exit status says')

    usage = {}
    for key, (label, integer, positive) in _TIME_V.items():
        found = [ln.split(':', 1)[1].strip(' \t') for ln in rows
                 if ln.strip(' \t').startswith(label + ':')]
        if not (found or timed):
            continue

        token = once(found, f'"{label}" line')
        if key == 'cpu_percent' and token == _UNMEASURED + '%':
            usage[key] = None       # the run was too short to tell
            continue

        usage[key] = number(token.removesuffix('%'), label,
                            positive=positive, integer=integer)

    if usage.get('exit_status', 0) != 0:
        raise OutputError(f'exit status {usage["exit_status"]}')

    return usage


def parse(text, size=None, timed=False, program=None, options=None):
    '''Parse one fabtests run: its row of ``size`` (the last row where
    ``size`` is None), consistent for ``program`` (any program the suite
    runs where None), and its ``/usr/bin/time -v`` report (required where
    ``timed``, naming ``program`` where given, with exactly the
    ``options`` where given).

    :raises OutputError: on empty, cut or error output, a size missing or
        given twice, figures that do not follow from one another, another
        program than the asked one, a signal or a failed exit status.
    '''
    found = lines(text)
    output.reject_errors(text, ERRORS, 'fabtests')
    header = once([i for i, ln in enumerate(found)
                   if ln.split() == _COLUMNS], 'result table')
    results = []
    for line in found[header + 1:]:
        fields = line.split()
        if len(fields) != len(_COLUMNS) or not fields[0][:1].isdigit():
            break

        row = table.Row(fields)
        table.check(row, program)
        results.append((row, fields))

    if not results:
        raise OutputError('no result row (cut short?)')

    if size is None:
        row, fields = results[-1]
    else:
        row, fields = once([r for r in results if r[0].size == size],
                           f'result row of {size} bytes')

    usage = _usage(found, timed)
    if timed and program:
        _timed_program(found, program, options)

    return FabtestsRun(row.size, fields[1],
                       number(fields[4], 'the MB/sec of a row'),
                       number(fields[5], 'the usec/xfer of a row'), usage)


def read_sample(sample, size, program=None, options=None):
    '''One fabtests sample of ``program``: the client's row of ``size``
    under ``time -v``, run with the ``options`` asked where given, and the
    server's row of ``size``.'''
    client = sample.parse('client.out', parse, size, timed=True,
                          program=program, options=options)
    sample.parse('server.out', parse, size, program=program)
    return client


def cpu_count(cpu_list):
    '''Number of CPUs in a Linux CPU list such as ``0-3,8``.'''
    count = 0
    for part in cpu_list.strip().split(','):
        low, _, high = part.partition('-')
        if not (low.isdigit() and (high or low).isdigit()):
            raise OutputError(f'{cpu_list!r} is not a CPU list')

        count += int(high or low) - int(low) + 1

    return count


def parse_cpusets(text):
    '''(server CPUs, client CPUs) from the CPU-set witness's two lines.'''
    found = [m[1] for m in map(_CPUS.match, lines(text)) if m]
    if len(found) != 2:
        raise OutputError(f'{len(found)} CPU lists, not the server\'s and '
                          f'the client\'s')

    for cpus in found:
        cpu_count(cpus)

    return tuple(found)
