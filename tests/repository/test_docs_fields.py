'''The record fields page names a perflog's columns as the perflogs do.

ReFrame's perflog handler writes each column of its format,
``%(check_<column>)s``, under its name without ``check_`` in the file's
header line (what ``pandas.read_csv(path, sep='|')`` and every reader
see).  Two real perflogs hold the page to it: those of a real quick run of
``fio_fallocate`` kept in tests/data/perflogs (a run's values under the
documented names), and those a dry run of the suite writes now with the
suite's configuration (every documented column, in order: a field added
since the recording is there too).
'''

import glob
import os
import re

import pandas as pd
import pytest

import perflog
from microbench import fields, paths

#: The partitions' dry runs, shared (tests/helpers/dryruns.py)
pytestmark = pytest.mark.dry_runs

RECORDED = os.path.join(paths.ROOT, 'tests', 'data', 'perflogs')
FIELDS_PAGE = os.path.join(paths.ROOT, 'docs', 'reference', 'fields.md')


def documented():
    '''The perflog columns the record fields page names, in its order.'''
    with open(FIELDS_PAGE, encoding='utf-8') as fp:
        text = fp.read()
    line = next(line for line in text.splitlines()
                if line.startswith("A perflog's columns"))
    return re.findall(r'`(\w+)`', line.split('): ', 1)[1].split('.  ')[0])


def header(path):
    with open(path, encoding='utf-8') as fp:
        return fp.readline().rstrip('\n').split('|')


def recorded_logs():
    found = sorted(glob.glob(os.path.join(RECORDED, '*', '*', '*.log')))
    assert len(found) == 3, found
    return found


def test_the_page_names_the_columns_of_the_code():
    assert documented() == fields.perflog_header()
    assert all(not name.startswith('check_') for name in documented())


def test_every_column_of_a_real_runs_perflog_is_documented_in_place():
    '''Every column of the recorded run, under the same name and in the
    same place; the columns documented after them are fields appended
    since (a perflog's earlier columns keep their places).'''
    page = documented()
    for path in recorded_logs():
        columns = header(path)
        assert columns == page[:len(columns)], path
        assert set(page[len(columns):]) <= set(fields.FIELDS), path


def test_the_documented_names_read_the_real_runs_values():
    frame = perflog.load(RECORDED)
    medians = frame[frame['perf_var'] == 'write_median_mib_s']
    assert sorted(medians['variant']) == ['default', 'none']
    assert set(medians['tool']) == {'fio'}
    assert set(medians['tool_version']) == {'fio-3.33'}
    witness = dict(zip(medians['variant'], medians['witness']))
    assert witness['default'].startswith('1 fallocate() calls in strace')
    assert witness['none'].startswith('0 fallocate() calls in strace')
    assert (pd.to_numeric(medians['perf_value']) > 0).all()


def test_the_prefixed_names_are_not_a_perflogs():
    '''What the page said before: ReFrame's attribute names, which no
    perflog's header has.'''
    prefixed = fields.perflog_columns()
    for path in recorded_logs():
        assert not set(header(path)) & set(prefixed)


def test_a_dry_runs_perflog_has_every_documented_column(dry_runs):
    proc, prefix, _ = dry_runs.of('local:default')
    assert proc.returncode == 0, proc.stdout + proc.stderr
    logs = {os.path.basename(log): log for log in glob.glob(
        str(prefix / 'perflogs' / '*' / '*' / '*.log'))}
    # a variant check, a gap and a rounds fixture, and every other log
    assert {'fio_fallocate.log', 'fio_fallocate_gap.log',
            'fio_fallocate_rounds.log'} <= set(logs)
    for log in logs.values():
        assert header(log) == documented(), log
