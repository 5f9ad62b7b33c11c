'''microbench.strace.parse_summary on real strace -c summaries.'''

import pytest

from microbench import strace

from fixtures import section

DEFAULT = 'strace/strace-fallocate-logwrite-default.txt'
NONE = 'strace/strace-fallocate-logwrite-none.txt'


def test_fio_default_preallocates():
    assert strace.parse_summary(section(DEFAULT, 'strace -c summary')) == {
        'fallocate': 1
    }


def test_fallocate_none_makes_no_call():
    summary = section(NONE, 'strace -c summary')
    assert summary == ''
    assert strace.parse_summary(summary) == {}


def test_truncated_summary_is_rejected():
    summary = section(DEFAULT, 'strace -c summary')
    cut = ''.join(summary.splitlines(keepends=True)[:-2])
    with pytest.raises(strace.StraceOutputError, match='no total row'):
        strace.parse_summary(cut)


def test_corrupted_summary_is_rejected():
    summary = section(DEFAULT, 'strace -c summary')
    with pytest.raises(strace.StraceOutputError, match='malformed'):
        strace.parse_summary(summary.replace('         1 ', '       one '))

    with pytest.raises(strace.StraceOutputError, match='not an strace -c'):
        strace.parse_summary(section(DEFAULT, 'fio write summary'))


def test_rows_must_add_up_to_the_total():
    summary = section(DEFAULT, 'strace -c summary')
    lines = summary.splitlines(keepends=True)
    lines[-1] = lines[-1].replace(' 1 ', ' 2 ')
    with pytest.raises(strace.StraceOutputError, match='add up'):
        strace.parse_summary(''.join(lines))


def test_command():
    assert strace.command('fallocate', 'out.txt') == [
        'strace', '-f', '-c', '-e', 'trace=fallocate', '-o', 'out.txt'
    ]
