'''IOR's standard output: a failure marker (IOR's ``FAILED in``,
``ERROR``, MPI's abort, bad termination and fatal error, MPICH's abort
before MPI is up) anywhere in ``ior.out`` or in its standard error, and an
``ior.out`` that is empty, cut, NUL-padded or of another run while
``ior.json`` is intact: rejected, naming what was wrong (the cases:
tests/helpers/ior_cases.py).
'''

import re

import pytest

from fixtures import text
from ior_cases import (EXACT, PAIRS, PATHS, asked, assert_rejected,
                       by_parsers, stdout_of, summary_of)
from microbench.suite.output import OutputError
from microbench.tools import ior


# --- 3. Failure markers, and an ior.out that is gone -------------------------

def _line(name, needle):
    return next(ln for ln in text(name).splitlines() if needle in ln)


#: Real failure lines: IOR's own, MPI's and MPICH's
FAILURES = {
    'FAILED in': _line('ior/failed-summaryfile.stdout.txt', 'FAILED in'),
    'ERROR': _line('ior/error-nonexistent-dir.txt', 'ERROR: open64'),
    'MPI_Abort': _line('ior/error-block-not-multiple.txt', 'MPI_Abort'),
    'MPICH abort before MPI is up': _line(
        'ior/failed-summaryfile.stderr.txt', 'internal_Abort'),
    'bad termination': _line('mdtest/error-disk-full.txt',
                             'BAD TERMINATION'),
    'fatal error': _line('mdtest/error-mpi-init-stderr.txt',
                         'Fatal error in'),
}


def _insert(stdout, at, line):
    lines = stdout.splitlines(keepends=True)
    return ''.join(lines[:at] + [line + '\n'] + lines[at:])


def failures_in(name):
    stdout = stdout_of(name)
    count = len(stdout.splitlines())
    for kind, line in FAILURES.items():
        for label in ('', '0: '):
            for at in range(count + 1):
                yield (f'{kind} line at {at}', _insert(stdout, at,
                                                       label + line),
                       ['printed an error', line.strip()[:40]])


@pytest.mark.parametrize('name', PAIRS)
def test_a_failure_line_in_ior_out(name):
    for how, stdout, says in failures_in(name):
        assert_rejected('3 a failure line', name, how, summary_of(name),
                        stdout, asked(name), says)


@pytest.mark.parametrize('name', PAIRS)
@pytest.mark.parametrize('kind', FAILURES)
def test_a_failure_line_on_stderr(name, kind):
    assert_rejected('3 a failure line', name, f'{kind} on stderr',
                    summary_of(name), stdout_of(name), asked(name),
                    ['printed an error'], stderr=FAILURES[kind] + '\n',
                    paths=['sample'])


def gone(name):
    '''(how, an ior.out that is empty, cut, padded or another run's,
    words) while ior.json stays intact.'''
    real = stdout_of(name).encode()
    yield 'empty', b'', ['empty']
    yield 'a newline', b'\n', ['empty']
    ends = [i + 1 for i, byte in enumerate(real) if byte == ord('\n')]
    for end in ends[:-1]:
        yield f'cut after byte {end}', real[:end], ['ior.out']
    for end in range(1, len(real)):
        if end not in ends:
            yield f'cut at byte {end}', real[:end], ['cut']
    for count in (1, 511, 4096):
        yield f'{count} NULs after it', real + b'\0' * count, ['NUL']
    for count in (1, 100, len(real) // 2):
        yield (f'its last {count} bytes NULs',
               real[:-count] + b'\0' * count, ['NUL'])
    yield 'all NULs', b'\0' * len(real), ['NUL']
    for other in PAIRS:
        if other != name:
            yield f'the ior.out of {other}', stdout_of(other).encode(), \
                ['ior.out']


@pytest.mark.parametrize('name', PAIRS)
def test_ior_out_gone_while_ior_json_is_intact(name):
    for how, stdout, says in gone(name):
        paths = PATHS if not how.startswith('cut at byte') or \
            int(how.split()[-1]) % 17 == 0 else ['parse']
        # by_parsers takes text; a sample keeps the bytes
        assert_rejected('3 ior.out gone', name, how, summary_of(name),
                        stdout.decode(), asked(name), says, paths=paths)


def test_the_messages_say_what_is_wrong():
    name = 'ior/easy-reorder-fsync'
    real = stdout_of(name)
    cases = {
        '': 'the output is empty',
        real[:real.index('Pairs')]: 'ior.out ends before IOR\'s last line '
                                    'of a stonewalled run',
        real[:-5]: 'does not end: the output was cut',
        real + '\0' * 8: 'holds 8 NUL bytes',
    }
    for stdout, says in cases.items():
        with pytest.raises(OutputError, match=re.escape(says)):
            by_parsers(summary_of(name), stdout, asked(name))


def test_every_rank_says_where_its_summary_goes():
    '''IOR reads its options before MPI is up: every process prints
    "Writing output to" (2 lines for 2 ranks, 4 on 2 nodes x 2).'''
    for name in EXACT:
        out = ior.parse_stdout(stdout_of(name))
        assert len(out.summary_files) == asked(name).tasks
        assert set(out.summary_files) == {'ior.json'}
