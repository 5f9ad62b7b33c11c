'''Validation by class for elbencho, part 2: the faults the results show by
themselves, whatever the parser was told.  Real results broken these ways
are rejected on both paths (the parser, and
:func:`microbench.suite.samples.read_runs` on a sample's files; see
tests/helpers/elbencho_cases.py) with a message that says what is wrong:

2. *a redundant figure changed*: a phase's bytes/s, bytes, elapsed time or
   IOPS (first or last thread done), a figure of the console table, one
   phase's configuration, or phases of two runs spliced;
3. *a failure line*: elbencho's real error lines, a crash's, MPI's,
   inserted into the results file, the console output or standard error.

Results of *another command* than the one asked are
tests/tools/test_elbencho_asked.py's.
'''

import re

import pytest

from microbench.tools import elbencho
from microbench.suite import output

from catalogue import elbencho_asked
from classes import CRASH_LINES, MPI_LINES, insert_line, line_of
from elbencho_cases import REAL, assert_rejected, edit, real

#: Real failure lines, each with where it comes from
FAILURES = {
    'elbencho error': ('elbencho/error-nonexistent-dir.txt', 'ERROR: '),
    'elbencho O_DIRECT error': ('elbencho/error-direct-ramfs.txt',
                                'ERROR: '),
    'elbencho service error': ('elbencho/error-service-nonexistent-dir.txt',
                               'phase error: '),
    **CRASH_LINES, **MPI_LINES,
}


# --- 2. A redundant figure changed -----------------------------------------

MEMBERS = ('bytes/s', 'bytes', 'elapsed_time_ms', 'iops')


def _phase_lines(data):
    return data.splitlines(keepends=True)


def _scaled(data, phase, moment, name, factor):
    '''The results with one figure of one phase scaled (None if that
    leaves it as it was).'''
    lines = _phase_lines(data)
    num = next(i for i, ln in enumerate(lines)
               if f'"phase_type":"{phase}"'.encode() in ln)
    key = name.replace('/', '\\/').encode()
    pattern = (rb'("' + moment.encode() + rb'":\{[^}]*"' + re.escape(key)
               + rb'":")(\d+)"')
    match = re.search(pattern, lines[num])
    old = int(match[2])
    new = int(old * factor)
    if new == old:
        return None

    lines[num] = (lines[num][:match.start(2)] + str(new).encode()
                  + lines[num][match.end(2):])
    return b''.join(lines)


@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('name', MEMBERS)
@pytest.mark.parametrize('factor', [0.5, 0.8, 1.25, 2.0])
def test_redundant_figure_changed(case_id, name, factor):
    data, _ = real(case_id)
    tried = 0
    for phase in elbencho.PHASES:
        for moment in elbencho.MOMENTS:
            mutated = _scaled(data, phase, moment, name, factor)
            if mutated is None:
                continue

            tried += 1
            for told in (elbencho_asked(case_id), {}):
                assert_rejected(
                    '2 a redundant figure changed', case_id,
                    f'{phase} {moment} {name} x {factor}',
                    rf'the {phase} phase( {moment})?: .*(the results are '
                    rf'corrupted|ended early)|the {phase} phase moved',
                    data=mutated, told=told)

    assert tried


def _console_rows(console):
    '''(line index, phase, row) of every figure row of a console table.'''
    found, phase = [], None
    for num, line in enumerate(console.decode().splitlines()):
        left, colon, _ = line.partition(' : ')
        if not colon:
            continue

        words = left.split()
        if line[:1].strip():
            phase, words = words[0], words[1:]

        found.append((num, phase, ' '.join(words)))

    return found


def _scale_printed(printed, factor):
    if printed.endswith('ms'):
        return f'{int(int(printed[:-2]) * factor)}ms'

    if printed.endswith('s'):
        return f'{float(printed[:-1]) * factor:.3f}s'

    return str(int(int(printed) * factor))


@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('column', [0, 1])
@pytest.mark.parametrize('factor', [0.5, 1.25, 2.0])
def test_console_figure_changed(case_id, column, factor):
    _, console = real(case_id)
    lines = console.decode().splitlines(keepends=True)
    tried = 0
    for num, phase, row in _console_rows(console):
        left, _, right = lines[num].partition(' : ')
        values = right.split()
        new = _scale_printed(values[column], factor)
        if new == values[column]:
            continue

        values[column] = new
        mutated = [*lines]
        mutated[num] = f'{left} : ' + '  '.join(
            f'{v:>10}' for v in values) + '\n'
        tried += 1
        assert_rejected('2 a redundant figure changed', case_id,
                        f'console {phase} {row} column {column} x {factor}',
                        rf'the console says {phase} {re.escape(row)} '
                        rf'(first|last) done {re.escape(new)}, the results '
                        rf'file \d+: they disagree',
                        console=''.join(mutated).encode())

    assert tried


@pytest.mark.parametrize('case_id', REAL)
def test_one_phase_of_another_configuration(case_id):
    data, _ = real(case_id)
    lines = _phase_lines(data)
    told = elbencho_asked(case_id)
    for pattern, replacement in (
            (rb'"threads":"\d+"', f'"threads":"{told["threads"] * 2}"'),
            (rb'"io_depth":"1"', '"io_depth":"16"'),
            (rb'"random_offsets":"false"', '"random_offsets":"true"'),
            (rb'"truncate_files":"false"', '"truncate_files":"true"')):
        for num in range(len(lines)):
            mutated = [*lines]
            mutated[num] = edit(lines[num], pattern, replacement.encode())
            key = pattern.split(b'"')[1].decode()
            for told_now in (told, {}):
                assert_rejected('2 a redundant figure changed', case_id,
                                f'{key} of line {num + 1} edited',
                                rf'the WRITE and READ phases state another '
                                rf'{key} .*: results of two runs',
                                data=b''.join(mutated), told=told_now)


@pytest.mark.parametrize('first', REAL)
@pytest.mark.parametrize('second', REAL)
def test_phases_of_two_runs_spliced(first, second):
    if first == second:
        pytest.skip('one run')

    write = _phase_lines(real(first)[0])[0]
    read = _phase_lines(real(second)[0])[1]
    assert_rejected('2 a redundant figure changed', first,
                    f'WRITE of {first}, READ of {second}',
                    r'phases state another .*: results of two runs',
                    data=write + read, told={})


# --- 3. A failure line -----------------------------------------------------

@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('kind', FAILURES)
def test_a_failure_line_in_any_kept_file(case_id, kind):
    line = line_of(*FAILURES[kind])
    data, console = real(case_id)
    # quoted from where elbencho's error (or the crash) starts
    said = (output.error_lines(line, elbencho.ERRORS)
            or output.error_lines(line, output.CRASHES))[0]
    match = rf'elbencho printed an error: {re.escape(said)}$'
    for at in range(len(data.splitlines()) + 1):
        assert_rejected('3 a failure line', case_id,
                        f'{kind} at results line {at}', match,
                        data=insert_line(data, at, line))

    for at in range(len(console.splitlines()) + 1):
        assert_rejected('3 a failure line', case_id,
                        f'{kind} at console line {at}', match,
                        console=insert_line(console, at, line),
                        paths=['sample'])

    for label in ('', '0: '):
        assert_rejected('3 a failure line', case_id, f'{kind} on stderr',
                        match, stderr=f'{label}{line}\n'.encode(),
                        paths=['sample'])


def test_the_fatal_error_alone_is_a_failure_line():
    # MPICH's line without its "Abort(...): " prefix
    line = line_of(*FAILURES['fatal error'])
    alone = line[line.index('Fatal error in'):]
    assert output.error_lines(alone, output.CRASHES) == [alone]
    case_id = 'elbencho/suite-direct-grow.json'
    assert_rejected('3 a failure line', case_id, 'fatal error on stderr',
                    r'elbencho printed an error: Fatal error in internal_Init',
                    stderr=f'{alone}\n'.encode(), paths=['sample'])
