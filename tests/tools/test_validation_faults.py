'''Validation by class, part 2: the faults a run leaves in its output.

3. *a failure line* inserted anywhere in an output (C's assertion, a shell's
   segmentation fault or core dump, MPI's abort, mdtest's and IOR's
   ``FAILED in``, GNU time's ``Command terminated by signal``): rejected
   whatever the exit status said; in the sample's standard error too;
4. *the same Darshan log twice* (a copy under another name): rejected, one
   process's I/O is not counted twice;
5. *a huge integer* in place of any number (more digits than a float holds,
   or than Python reads from a string): the real figures or a rejection,
   never another exception;
6. *a long line* (1-10 MB of a pattern that makes a careless regex
   backtrack) inserted anywhere: the real figures or a rejection, each read
   within tests/helpers/classes.py's bound; and a NUL-padded tail is rejected.

The failure lines are real: tests/data/mdtest (assertion, ``FAILED in``,
MPI's abort, MPICH's bad termination) and tests/data/crash
(bash's segmentation fault and core dump, GNU time's signal line).
'''

import dataclasses
import shutil
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench.suite import darshan
from microbench.suite.output import OutputError

from catalogue import CASES, SAMPLED
from classes import (CRASH_LINES, MPI_LINES, assert_rejected,
                     assert_same_or_rejected, insert_line, line_of, record)
from fixtures import path, text
from mutations import MUTATIONS, _NUMBER, _lines


#: Real failure lines, each with the tools whose output may hold it
CRASHES = {kind: line_of(*where) for kind, where in CRASH_LINES.items()}
MPI_FAILURES = {kind: line_of(*where) for kind, where in MPI_LINES.items()}
#: IOR's and mdtest's own failure line (their aiori library's)
FAILED_IN = line_of('mdtest/error-read-more-than-written.txt', 'FAILED in')
SIGNAL = line_of('crash/time-v-killed.txt', 'terminated by signal')
#: the tools that run under MPI and may print its failures
MPI_TOOLS = ('osu/', 'mdtest/', 'ior/')

LINES = [i for i, case in CASES.items() if case.kind == 'lines']


def _failures(case_id):
    found = dict(CRASHES)
    if case_id.startswith(MPI_TOOLS):
        found.update(MPI_FAILURES)
    if case_id.startswith(('mdtest/', 'ior/')):
        found['FAILED in'] = FAILED_IN
    if case_id.endswith(':client') or 'pingpong_I1' in case_id:
        found['signal'] = SIGNAL
    return found


# --- 3. A failure line -------------------------------------------------------

@pytest.mark.parametrize('case_id', LINES)
@MUTATIONS
@given(st.data())
def test_a_failure_line_anywhere_rejects_the_output(case_id, data):
    case = CASES[case_id]
    kind, line = data.draw(st.sampled_from(sorted(
        _failures(case_id).items())))
    at = data.draw(st.integers(0, len(_lines(case.data))))
    label = data.draw(st.sampled_from(['', '0: ', '[1] ']))
    assert_rejected('3 a failure line', case,
                    insert_line(case.data, at, label + line),
                    f'{kind} line inserted at line {at}')


@pytest.mark.parametrize('case_id', sorted(SAMPLED))
@pytest.mark.parametrize('kind', sorted({**CRASHES, **MPI_FAILURES}))
def test_a_failure_line_on_stderr_rejects_the_sample(case_id, kind):
    case = SAMPLED[case_id]
    line = {**CRASHES, **MPI_FAILURES}[kind]
    if kind in MPI_FAILURES and not case_id.startswith(MPI_TOOLS):
        pytest.skip('not an MPI program')
    if 'stderr.txt' not in case.others:
        pytest.skip('the tool keeps no standard error of its own')

    others = {**case.others, 'stderr.txt': (line + '\n').encode()}
    sample = dataclasses.replace(case, others=others)
    assert_rejected('3 a failure line', sample, case.data,
                    f'{kind} on stderr', paths=['sample'])


def test_the_signal_line_is_what_gnu_time_prints():
    # a killed command: GNU time says so first, then "Exit status: 0"
    killed = text('crash/time-v-killed.txt')
    assert killed.startswith('Command terminated by signal 9\n')
    assert '\tExit status: 0\n' in killed


# --- 4. The same Darshan log twice -------------------------------------------

LOGS = ['darshan/fio-nonmpi-jobproc1.darshan',
        'darshan/fio-nonmpi-parent.darshan',
        'darshan/ior-np2-posix-mpi.darshan',
        'darshan/ior-hard-reorder-dxt.darshan']


def test_distinct_real_logs_are_all_read(tmp_path):
    for name in LOGS:
        shutil.copy(path(name), tmp_path)
    assert len(darshan.read_logs(str(tmp_path))) == len(LOGS)


@pytest.mark.parametrize('name', LOGS)
@pytest.mark.parametrize('copy', ['copy.darshan', 'a-copy-first.darshan',
                                  'z_0_1234-5678.darshan'])
def test_a_copy_of_a_log_is_rejected(tmp_path, name, copy):
    for other in LOGS:
        shutil.copy(path(other), tmp_path)
    shutil.copy(path(name), tmp_path / copy)
    start = time.perf_counter()
    with pytest.raises(OutputError, match='one Darshan log .* a copy '
                                          'counts its I/O twice'):
        darshan.read_logs(str(tmp_path))
    record('4 a Darshan log twice', name, 'read_logs', True,
           time.perf_counter() - start)


# --- 5. A huge integer -------------------------------------------------------

@pytest.mark.parametrize('case_id', sorted(CASES))
@MUTATIONS
@given(st.data())
def test_a_huge_integer_is_a_figure_or_a_rejection(case_id, data):
    case = CASES[case_id]
    match = data.draw(st.sampled_from(list(_NUMBER.finditer(case.data))))
    digits = data.draw(st.sampled_from([309, 400, 4300, 4301, 6000]))
    huge = b'9' * digits
    start, end = match.span()
    assert_same_or_rejected('5 a huge integer', case,
                            case.data[:start] + huge + case.data[end:],
                            f'{match[0]!r} -> {digits} nines')


# --- 6. A long line, a NUL-padded tail ---------------------------------------

#: What a long line repeats: what a careless pattern backtracks over
PATTERNS = [': Assertion ', 'Segmentation faul', '9', '9.', ' ', 'ERROR ',
            'fio: pid=1, err=', 'ret=-', '{"a": ', '[', '0: ', 'x']


@pytest.mark.parametrize('case_id', sorted(CASES))
@settings(parent=MUTATIONS, max_examples=3)
@given(st.data())
def test_a_long_line_is_read_in_bounded_time(case_id, data):
    case = CASES[case_id]
    pattern = data.draw(st.sampled_from(PATTERNS))
    megabytes = data.draw(st.integers(1, 10))
    at = data.draw(st.integers(0, len(_lines(case.data))))
    line = pattern * (megabytes * 2**20 // len(pattern))
    assert_same_or_rejected('6 a long line', case,
                            insert_line(case.data, at, line),
                            f'{megabytes} MB of {pattern!r} at line {at}')


@pytest.mark.parametrize('case_id', sorted(CASES))
@pytest.mark.parametrize('size', [1, 7, 4096, 65536])
def test_a_nul_padded_tail_is_rejected(case_id, size):
    case = CASES[case_id]
    assert_rejected('6 a NUL-padded tail', case, case.data + b'\0' * size,
                    f'{size} NUL bytes appended')

