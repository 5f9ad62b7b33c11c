'''microbench.suite.strace.parse_summary on real strace -c summaries.'''

import pytest

from microbench.suite import strace
from microbench.suite.output import OutputError

from fixtures import section, text

# strace -f -c -e trace=fallocate,execve around fio's log workload
DEFAULT = 'strace/strace-fallocate-execve-default.txt'
NONE = 'strace/strace-fallocate-execve-none.txt'
FAILED = 'strace/strace-fallocate-ramfs-failed.txt'
# The same without the execve marker (the shared fixture set): with no
# fallocate() the summary is empty, as a file cut to nothing would be
UNMARKED = 'strace/strace-fallocate-logwrite-default.txt'
UNMARKED_NONE = 'strace/strace-fallocate-logwrite-none.txt'


def test_fio_default_preallocates():
    assert strace.parse_summary(text(DEFAULT)) == {
        'execve': strace.Calls(1, 0), 'fallocate': strace.Calls(1, 0)
    }


def test_fallocate_none_makes_no_call():
    assert strace.parse_summary(text(NONE)) == {'execve': strace.Calls(1, 0)}


def test_a_failed_call_did_not_happen():
    # fio on a ramfs: its one fallocate() failed (EOPNOTSUPP)
    calls = strace.parse_summary(text(FAILED))['fallocate']
    assert (calls.calls, calls.errors, calls.succeeded) == (1, 1, 0)


def test_a_summary_without_its_marker_is_rejected():
    with pytest.raises(OutputError, match='no execve row'):
        strace.parse_summary(section(UNMARKED, 'strace -c summary'))

    assert section(UNMARKED_NONE, 'strace -c summary') == ''
    with pytest.raises(OutputError, match='empty'):
        strace.parse_summary(section(UNMARKED_NONE, 'strace -c summary'))


def test_truncated_summary_is_rejected():
    cut = ''.join(text(DEFAULT).splitlines(keepends=True)[:-2])
    with pytest.raises(OutputError, match='no total row'):
        strace.parse_summary(cut)


def test_corrupted_summary_is_rejected():
    summary = text(DEFAULT)
    with pytest.raises(OutputError, match="'one', not a number"):
        strace.parse_summary(summary.replace('         1 ', '       one ', 1))

    with pytest.raises(OutputError, match='not an strace -c'):
        strace.parse_summary(section(UNMARKED, 'fio write summary'))


def test_rows_must_add_up_to_the_total():
    lines = text(DEFAULT).splitlines(keepends=True)
    lines[-1] = lines[-1].replace(' 2 ', ' 3 ')
    with pytest.raises(OutputError, match='add up'):
        strace.parse_summary(''.join(lines))


def test_errors_must_add_up_too():
    lines = text(FAILED).splitlines(keepends=True)
    lines[3] = lines[3].replace(' 1 fallocate', ' 0 fallocate')
    with pytest.raises(OutputError, match='errors of the strace -c rows add '
                                          'up to 0, not the total 1'):
        strace.parse_summary(''.join(lines))


def test_a_row_given_twice_is_rejected():
    lines = text(DEFAULT).splitlines(keepends=True)
    with pytest.raises(OutputError, match='twice|add up'):
        strace.parse_summary(''.join([*lines[:4], lines[3], *lines[4:]]))


def test_a_call_that_was_not_traced_is_rejected():
    summary = text(DEFAULT).replace(' fallocate', ' fallocatz')
    assert 'fallocatz' in strace.parse_summary(summary)
    with pytest.raises(OutputError, match="a row of 'fallocatz', which was "
                                          "not traced"):
        strace.parse_summary(summary, 'fallocate')


def test_command():
    assert strace.command('fallocate', 'out.txt') == [
        'strace', '-f', '-c', '-e', 'trace=fallocate,execve', '-o', 'out.txt'
    ]
