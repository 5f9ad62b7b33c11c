'''elbencho's console output (``elbencho.out``): its results table, held to
the results file (:mod:`.output`), and the reader of a sample, which reads
both.

elbencho prints on its standard output the table of what each phase did at
its first thread done and its last: the elapsed time, IOPS, MiB/s and MiB
moved, the rates and sizes in whole MiB rounded down, the time in the unit
elbencho picks.  A console that disagrees with the results file means one
of them is corrupted.
'''

from dataclasses import replace

from microbench.suite import samples
from microbench.suite.output import OutputError, lines, number
from microbench.tools.elbencho import services
from microbench.tools.elbencho.output import ERRORS, MOMENTS, parse
from microbench.units import MIB

#: The console table's rows the results file states too (MiB rounded down)
_CONSOLE_ROWS = ('Elapsed time', 'IOPS', 'Throughput MiB/s', 'Total MiB')


def _elapsed_ms(printed):
    '''Milliseconds of the console's elapsed time (``125ms``, ``2.004s``,
    ``1m2.004s``; hours in whole seconds), and how many it may be off.'''
    hours, _, rest = printed.rpartition('h') if 'h' in printed else (
        '', '', printed)
    if hours:
        minutes, _, seconds = rest.partition('m')
        return (number(hours, 'the elapsed hours', positive=False) * 3600
                + number(minutes, 'the elapsed minutes', positive=False) * 60
                + number(seconds.rstrip('s'), 'the elapsed seconds',
                         positive=False)) * 1000, 999

    if printed.endswith('ms'):
        return number(printed[:-2], 'the elapsed time', positive=False), 0

    minutes, _, seconds = printed.rpartition('m')
    if not seconds.endswith('s'):
        raise OutputError(f'the elapsed time {printed!r} is not a time')

    # Rounded to the printed milliseconds: 1.007 s is 1006.9999... ms in
    # binary floating point, which no results file's 1007 would equal
    return round((number(minutes or '0', 'the elapsed minutes',
                         positive=False) * 60
                  + number(seconds[:-1], 'the elapsed seconds',
                           positive=False)) * 1000, 3), 0


def _console_table(text):
    '''{phase: {row: (first done, last done)}} of elbencho's console
    results table; {} where the console has none.'''
    rows = lines(text) if text.strip() else []
    headers = [ln for ln in rows if ln.startswith('OPERATION ')]
    if not headers:
        return {}

    if len(headers) > 1:
        raise OutputError(f'the console holds {len(headers)} results '
                          f'tables: more than one run')

    table, phase = {}, None
    for line in rows[rows.index(headers[0]) + 1:]:
        left, colon, right = line.partition(' : ')
        if not colon:
            phase = None if line.startswith('---') else phase
            continue

        words = left.split()
        if line[:1].strip():
            phase, words = words[0], words[1:]
            if phase in table:
                raise OutputError(f'the console states the {phase} phase '
                                  f'twice: more than one run')
            table[phase] = {}

        row = ' '.join(words)
        if row == services.ROW and phase is not None:
            # every service's completion time (--svcelapsed): one text
            table[phase][row] = (right.strip(),)
            continue
        values = right.split()
        if phase is None or len(values) != 2:
            raise OutputError(f'the console row {line.strip()!r} is not a '
                              f'phase\'s first and last done: the console '
                              f'is corrupted')

        table[phase][row] = tuple(values)

    return table


def check_console(text, run):
    '''Raise unless elbencho's console results table (where its standard
    output holds one) states the figures of ``run``'s results file: the
    same phases, elapsed times, IOPS, MiB/s and MiB moved.'''
    table = _console_table(text)
    if not table:
        return

    if set(table) != set(run.moments):
        raise OutputError(f'the console states the phases '
                          f'{", ".join(table)}, the results file '
                          f'{", ".join(run.moments)}: not the same run')

    for phase, moments in run.moments.items():
        for row in _CONSOLE_ROWS:
            printed = table[phase].get(row)
            if printed is None:
                raise OutputError(f'the console has no {row} row of the '
                                  f'{phase} phase: it is not complete')

            for moment, said in zip(MOMENTS, printed):
                found = moments[moment]
                where = f'{phase} {row} {moment.replace("_", " ")}'
                if row == 'Elapsed time':
                    value, slack = _elapsed_ms(said)
                    want = found.elapsed_ms
                else:
                    value, slack = number(said, where, positive=False), 0
                    want = {'IOPS': found.iops,
                            'Throughput MiB/s': found.rate // MIB,
                            'Total MiB': found.moved // MIB}[row]

                if abs(value - want) > slack:
                    raise OutputError(f'the console says {where} {said}, the '
                                      f'results file {want}: they disagree, '
                                      f'one of them is corrupted')


def service_times(text, run):
    '''``{phase: {node: milliseconds}}`` of every phase of ``run`` from
    the console's rows of the services' completion times
    (:mod:`.services`).

    :raises OutputError: a phase without its row, or a row that is
        wrong.'''
    table = _console_table(text)
    out = {}
    for phase in run.moments:
        row = table.get(phase, {}).get(services.ROW)
        if row is None:
            raise OutputError(f'the console has no {services.ROW} row of '
                              f'the {phase} phase ({services.OPTION} was '
                              f'asked)')
        out[phase] = services.parse_services(row[0], run.hosts, _elapsed_ms)
    return out


def read_sample(sample, asked=None):
    '''One elbencho sample, which was ``asked`` what :func:`parse` takes as
    keywords (None: nothing checked) and, under ``services``, whether it
    asked every service's completion time: its results, held to its
    console table, and no error on its standard output or error.'''
    sample.reject_errors(ERRORS, 'elbencho', ('elbencho.out', samples.STDERR))
    asked = dict(asked or {})
    per_service = asked.pop('services', False)
    run = sample.parse('elbencho.json', parse, **asked)
    sample.parse('elbencho.out', check_console, run)
    if per_service:
        run = replace(run, services=sample.parse('elbencho.out',
                                                 service_times, run))
    return run

