'''microbench.strace.parse_summary on real strace -c summaries.'''

import pytest

from microbench import strace
from microbench.output import OutputError

from fixtures import section, text

DEFAULT = 'strace/strace-fallocate-logwrite-default.txt'
NONE = 'strace/strace-fallocate-logwrite-none.txt'
FAILED = 'strace/strace-fallocate-ramfs-failed.txt'


def test_fio_default_preallocates():
    assert strace.parse_summary(section(DEFAULT, 'strace -c summary')) == {
        'fallocate': strace.Calls(1, 0)
    }


def test_fallocate_none_makes_no_call():
    summary = section(NONE, 'strace -c summary')
    assert summary == ''
    assert strace.parse_summary(summary) == {}


def test_truncated_summary_is_rejected():
    summary = section(DEFAULT, 'strace -c summary')
    cut = ''.join(summary.splitlines(keepends=True)[:-2])
    with pytest.raises(OutputError, match='no total row'):
        strace.parse_summary(cut)


def test_corrupted_summary_is_rejected():
    summary = section(DEFAULT, 'strace -c summary')
    with pytest.raises(OutputError, match="'one', not a number"):
        strace.parse_summary(summary.replace('         1 ', '       one '))

    with pytest.raises(OutputError, match='not an strace -c'):
        strace.parse_summary(section(DEFAULT, 'fio write summary'))


def test_rows_must_add_up_to_the_total():
    summary = section(DEFAULT, 'strace -c summary')
    lines = summary.splitlines(keepends=True)
    lines[-1] = lines[-1].replace(' 1 ', ' 2 ')
    with pytest.raises(OutputError, match='add up'):
        strace.parse_summary(''.join(lines))


def test_command():
    assert strace.command('fallocate', 'out.txt') == [
        'strace', '-f', '-c', '-e', 'trace=fallocate', '-o', 'out.txt'
    ]


def test_a_failed_call_did_not_happen():
    # fio on a ramfs: its one fallocate() failed (EOPNOTSUPP)
    calls = strace.parse_summary(text(FAILED))['fallocate']
    assert (calls.calls, calls.errors, calls.succeeded) == (1, 1, 0)


def test_errors_must_add_up_too():
    lines = text(FAILED).splitlines(keepends=True)
    lines[2] = lines[2].replace(' 1 fallocate', ' 0 fallocate')
    with pytest.raises(OutputError, match='errors of the strace -c rows add '
                                          'up to 0, not the total 1'):
        strace.parse_summary(''.join(lines))
