'''Readings the eleventh corpus's development half taught (issue 46;
tests/data/audit/corpus11.yaml, labelled blind to the audit, 5 of its 23
first refused), each held on its input.  No held-out input is named
here.'''

import pytest

from later_corpora import audited as audited_in, pitfalls
from microbench.audit import fiocommand, shellloops
from microbench.audit.findings import CERTAIN


def audited(name, data=None):
    return audited_in('corpus11', name, data)


@pytest.mark.parametrize('word, read', [
    ('-o', '--output'),                 # fio's option string, not a prefix
    ('-ofile.json', '--output=file.json'),
    ('-output=x', '--output=x'),        # a long option with one dash
    ('-rw=read', '--rw=read'),
    ('--rw=read', '--rw=read')])
def test_fio_s_short_options(word, read):
    assert fiocommand._short_or_long(word) == read


def test_a_loop_that_counts_runs_into_numbered_outputs():
    # for i in {1..3}; do fio -o ../res_host$i r1.fio r64.fio ...; done
    report = audited('batch-script-rooshm-benchmark.sh')
    (run,) = [inv for inv in report.invocations if inv.tool == 'fio'][:1]
    assert 'M1' not in pitfalls(run)         # three runs of one command


@pytest.mark.parametrize('count, items, command, counted', [
    (3, None, 'fio -o ../res_host$i r1.fio', True),
    (3, ['1', '2', '3'], 'ior -w -o /s/file.$i', True),
    (3, ['1', '2', '4'], 'mpirun -np $i ior -w', False),    # a value
    (2, ['1', '2'], 'fio --bs=${i}k --name=t', False),
    (2, ['a', 'b'], 'fio --output=out$i --name=t', False),  # not numbers
    (3, None, 'fio -n$i --name=t', False)])
def test_a_counter_is_used_in_names_only(count, items, command, counted):
    assert shellloops.counted('i', count, items, command) is counted


def test_a_windows_console_s_prompt_and_path():
    # D:\>c:\fio\fio\fio --name=random-write --ioengine=windowsaio ...
    (invocation,) = audited(
        'renamed-or-glob-program-yunion-windows-fio.txt').invocations
    assert invocation.tool == 'fio' and 'S3' in pitfalls(invocation)


def test_a_program_the_caller_names_with_fio_s_options():
    # sudo $1 -directory=/mnt/pmem -direct=1 -iodepth 1 -rw=rw ... -name=rw
    (invocation,) = audited(
        'renamed-or-glob-program-light-dedup-raw-perf.sh').invocations
    assert invocation.tool == 'fio'
    assert pitfalls(invocation)['M1'] == CERTAIN
    assert "'$1' read as fio (its options are fio's)" in \
        invocation.not_judged


@pytest.mark.parametrize('argv, fio', [
    (['$1', '-name=rw', '-rw=rw', '-iodepth', '1', '-bs=4k'], True),
    (['$1', '-rw=rw', '-bs=4k', '-size=1g'], False),     # no job named
    (['$CMD', '-name=x', '-w', '-r', '-t', '1m'], False)])
def test_fio_s_options_only(argv, fio):
    assert fiocommand.fio_options_only(argv) is fio


def test_a_makefile_s_recipes_are_runs():
    # readtest: sudo fio --filename=/dev/sda ... (make readtest: one run)
    report = audited('other-nas-iosched-Makefile')
    assert report.kind == 'script'
    assert [inv.where.line for inv in report.invocations] == [19, 23, 30]
    assert all(pitfalls(inv)['M1'] == CERTAIN for inv in report.invocations)


def test_elbencho_s_switches_declared_with_their_help_only():
    # --s3fastput (ProgArgs.cpp declares it with its help text alone);
    # the fork's own --thrdelay is still refused, as elbencho refuses it
    name = 'plain-elbencho-mkogan1-s3-shaping.txt'
    assert '--thrdelay' in audited(name).error
    report = audited(name, 'elbencho --s3endpoints http://h:8000 -w -t 4 '
                           '-n 1 -N 2 -s 8m -b 8m --s3fastput bucket\n')
    assert report.error is None
