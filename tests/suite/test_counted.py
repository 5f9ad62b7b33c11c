'''Counted figures (microbench/suite/counted.py): the scratch disk's counts
of a real job on the development VM (tests/data/counts: its ``counts``
records and the fio outputs of the same samples) turned into bytes and
requests per byte; counts that cannot be read, a disk gone, a counter
that went backwards: no counted figure, and the reason; the rule that
judges them night against nights (microbench/verdicts/behaviour.py).'''

import pandas as pd
import pytest

from microbench import fields
from microbench.suite import counted, records
from microbench.tools.fio import output
from microbench.verdicts import behaviour, compare_json

from fixtures import text

RECS = records.parse(text('counts/fio-cache-flags-vm.out'))


def runs(variant):
    return [output.parse(text(f'counts/fio-{variant}-{i}.json'))
            for i in (1, 2)]


def values(variant):
    return records.of_variant(RECS, variant)[counted.RECORD]


def test_an_o_direct_write_is_what_the_disk_wrote():
    found = counted.figures(values('direct'), runs('direct'))
    assert set(found) == {'device_write_per_byte', 'device_ios_per_mib',
                          'device_merges_per_mib'}       # no read asked
    # O_DIRECT: every byte once on the disk (and a little metadata)
    assert all(0.99 <= v <= 1.1 for v in found['device_write_per_byte'])
    # fio's 32 KiB blocks, each a request of its own
    assert all(30 <= v <= 34 for v in found['device_ios_per_mib'])


def test_a_buffered_write_reaches_the_disk_in_large_requests():
    found = counted.figures(values('buffered'), runs('buffered'))
    assert all(0.5 <= v <= 1.1 for v in found['device_write_per_byte'])
    assert all(v < 2 for v in found['device_ios_per_mib'])


def test_a_sync_write_journals():
    found = counted.figures(values('sync'), runs('sync'))
    assert all(v > 1.0 for v in found['device_write_per_byte'])
    assert all(v > 50 for v in found['device_ios_per_mib'])


class Check:
    note = ''
    counted = ''


def test_the_field_and_its_codec():
    check = Check()
    counted.judge(check, records.of_variant(RECS, 'direct'), runs('direct'))
    found = fields.COUNTED.decode(check.counted)
    assert len(found['device_write_per_byte']) == 2 and not check.note


def one(value):
    '''The direct variant's first record with its values changed.'''
    first = values('direct')[0]
    return [value(first)] + values('direct')[1:]


@pytest.mark.parametrize('records_, said', [
    (one(lambda v: v.split(' / ')[0] + ' / gone'), 'could not be read'),
    (one(lambda v: v.replace(' / ', ' ')), 'is not <round>'),
    (one(lambda v: v.split(' / ')[0] + ' / 1 2 3'), '3 stat fields'),
    (one(lambda v: v.split(' / ')[0] + ' / ' + ' '.join(
        ['x'] * 17)), 'not a count'),
    (one(lambda v: v.split(' / ')[0] + ' / ' + ' '.join(['0'] * 17)),
     'went backwards'),
    (values('direct')[:1], r'samples \[2\] have no disk counts'),
    (values('direct')[:1] * 2, 'counted twice'),
    (['', 'x', '\x00'], 'is not <round>'),
])
def test_counts_that_cannot_be_read_say_why(records_, said):
    with pytest.raises(counted.CountsError, match=said):
        counted.figures(records_, runs('direct'))
    check = Check()
    counted.judge(check, {counted.RECORD: records_}, runs('direct'))
    assert check.counted == '' and 'no counted figures: ' in check.note


def test_no_counts_or_no_bytes_is_no_figure():
    check = Check()
    counted.judge(check, {}, runs('direct'))
    assert check.counted == '' and check.note == ''
    assert counted.figures(values('direct'), [object(), object()]) == {}


# -- the rule ----------------------------------------------------------------

def test_the_rule_and_its_edges():
    history = [32.0, 32.1, 31.9, 32.05]
    assert behaviour.judge_one(32.2, history, 'device_ios_per_mib')[0] == \
        behaviour.SAME
    assert behaviour.judge_one(8.0, history, 'device_ios_per_mib')[0] == \
        behaviour.CHANGE
    assert behaviour.judge_one(64.0, history, 'device_ios_per_mib')[0] == \
        behaviour.CHANGE
    # within the tolerance of the range, and the slack near zero
    assert behaviour.judge_one(40.0, history, 'device_ios_per_mib')[0] == \
        behaviour.SAME
    assert behaviour.judge_one(0.9, [0.003, 0.004, 0.002],
                               'device_merges_per_mib')[0] == behaviour.SAME
    verdict, why, _, _ = behaviour.judge_one(8.0, history[:2],
                                             'device_ios_per_mib')
    assert verdict == behaviour.UNDECIDED and 'needs 3' in why


def nights(series):
    '''A frame of nights of one variant's counted figures.'''
    rows = []
    for night, value in enumerate(series):
        rows.append({'session': f's{night}', 'system': 'vm',
                     'partition': 'default', 'environ': 'builtin',
                     'check': 'fio_cache_flags', 'variant': 'direct',
                     'counted': fields.COUNTED.encode(
                         {'device_ios_per_mib': [value, value]})})
    return pd.DataFrame(rows)


def test_a_night_against_its_nights():
    frame = nights([32.0, 32.1, 31.9, 32.0, 8.1])
    order = [f's{i}' for i in range(5)]
    (row,) = behaviour.judge(frame, order)
    assert row['verdict'] == behaviour.CHANGE
    assert row['before_low'] == 31.9 and row['nights'] == 4
    assert behaviour.judge(frame, order[:4])[0]['verdict'] == behaviour.SAME
    # rows of the compare JSON, as its reader holds them
    compare_json._members(row, compare_json.BEHAVIOUR, 'behaviour[0]')
    (line, total) = behaviour.lines([row])
    assert line.startswith('behaviour change: fio_cache_flags direct '
                           'device_ios_per_mib: 8.1 against 31.9 to 32.1')
    # a value that is no count is left out
    frame.loc[4, 'counted'] = 'device_ios_per_mib=nan,-1,inf'
    assert behaviour.judge(frame, order) == []
    # older records, with no counted figures: no rows
    frame['counted'] = ''
    assert behaviour.judge(frame, order) == []
