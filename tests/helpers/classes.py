'''What the validation-by-class tests share: reading a mutated real output
on both paths with the parser told what was asked, and the tally of every
example they try.

The tests of tests/test_validation_*.py break real outputs the ways real
outputs go wrong, one class of fault per test (the output of another
program or size, a redundant figure changed, a failure line, a copy of a
Darshan log, a huge integer, a long line, a valid output a parser must not
reject).  Where ``VALIDATION_TALLY`` names a file, every example appends
one JSON line to it: its class, case, reader, whether it was rejected and
the seconds the reader took; ``bench/validation.py`` counts them.
'''

import dataclasses
import json
import os
import time

from catalogue import REJECTED, expected, parsed, sampled
from fixtures import text

#: Real lines of crashed programs, every tool's to reject: name -> (the
#: real output holding one, a word of it)
CRASH_LINES = {
    'assertion': ('mdtest/error-disk-full-stderr.txt', 'Assertion'),
    'segmentation fault': ('crash/shell-segfault.txt', 'Segmentation'),
    'core dumped': ('crash/shell-abort-core.txt', 'core dumped'),
}

#: Real lines of a failed MPI run (MPICH's abort, its launcher's)
MPI_LINES = {
    'MPI abort': ('mdtest/error-read-more-than-written.txt', 'MPI_Abort'),
    'bad termination': ('mdtest/error-disk-full.txt', 'BAD TERMINATION'),
    'fatal error': ('mdtest/error-mpi-init-stderr.txt', 'Fatal error in'),
}


def insert_line(data, at, line):
    '''``data`` (bytes) with ``line`` inserted as its line ``at``.'''
    lines = data.splitlines(keepends=True)
    return b''.join(lines[:at] + [line.encode() + b'\n'] + lines[at:])


def line_of(name, needle):
    '''The first line of real output ``name`` holding ``needle``.'''
    return next(ln for ln in text(name).splitlines() if needle in ln)


#: Longest a reader may take on any mutated output, long lines included
#: (seconds; what it does take is measured by bench/validation.py)
SECONDS = 5.0


def record(klass, case_id, reader, rejected, seconds):
    '''One example of the tally, where ``VALIDATION_TALLY`` asks for it.'''
    path = os.environ.get('VALIDATION_TALLY')
    if not path:
        return

    with open(path, 'a') as fp:
        fp.write(json.dumps({'class': klass, 'case': case_id,
                             'reader': reader, 'rejected': rejected,
                             'seconds': seconds}) + '\n')


def told(case, parse=None, read_sample=None):
    '''``case`` with its parser (and sample reader) told something else.'''
    sample = case.read_sample and (read_sample or case.read_sample)
    return dataclasses.replace(case, parse=parse or case.parse,
                               read_sample=sample)


def read(klass, case, data, reader):
    '''The figures of ``data`` through ``reader`` ('parse' or 'sample'),
    or REJECTED; timed, bounded and tallied.'''
    start = time.perf_counter()
    got = (parsed if reader == 'parse' else sampled)(case, data)
    seconds = time.perf_counter() - start
    record(klass, case.id, reader, got == REJECTED, seconds)
    assert seconds < SECONDS, (f'{case.id}: {reader} took {seconds:.1f} s '
                               f'on a {len(data)}-byte output')
    return got


def readers(case):
    return ('parse', 'sample') if case.read_sample else ('parse',)


def assert_rejected(klass, case, data, how, paths=None):
    '''Both paths (or ``paths``) reject the mutated output.'''
    for reader in paths or readers(case):
        got = read(klass, case, data, reader)
        assert got == REJECTED, f'{case.id}, {how}: {reader} gave {got!r}'


def assert_same_or_rejected(klass, case, data, how):
    '''Both paths give the real output's figures, or reject it.'''
    for reader in readers(case):
        got = read(klass, case, data, reader)
        want = expected(case.id, reader)
        assert got in (REJECTED, want), (f'{case.id}, {how}: {reader} gave '
                                         f'{got!r}, not {want!r}')


def assert_accepted(klass, case, data, how, figures=None):
    '''Both paths give ``figures`` (the real output's by default).'''
    for reader in readers(case):
        got = read(klass, case, data, reader)
        want = figures or expected(case.id, reader)
        assert got == want, f'{case.id}, {how}: {reader} gave {got!r}'
