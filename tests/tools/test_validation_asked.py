'''Validation by class, part 1: a parser is told what was asked and holds
the output to it; figures a tool states twice agree; valid real outputs of
an unusual form are read.

1. *another program, size or option* than the command asked for is
   rejected: the parser told other options, sizes or programs than the real
   output's, or the output edited to say it ran with others;
2. *a redundant figure changed* beyond what the tool's printing rounds
   (by a factor of 0.25-0.8 or 1.25-4) is rejected;
7. *valid outputs* are read: fio's warnings before its JSON (kept in the
   run), OSU 5.6's 0-byte row, fabtests' ``?%`` CPU share (a missing CPU
   figure, not garbage).

Every example reads the output both ways (parser, sample) where the tool
keeps samples; see tests/helpers/classes.py.  Hypothesis runs
derandomized under the profile of tests/helpers/mutations.py.
'''

import functools
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from microbench.tools import fabtests, fio, osu
from microbench.units import size_bytes

from catalogue import CASES, expected
from classes import assert_accepted, assert_rejected, told
from fixtures import fio_options, text
from mutations import MUTATIONS

FIO = [i for i in CASES if i.startswith('fio/')]
OSU = [i for i in CASES if i.startswith('osu/')]
FABTESTS = [i for i in CASES if i.startswith('fabtests/')]
TIMED = [i for i in FABTESTS if i.endswith(':client')]

#: Values an option, a size or a program may be swapped for
OTHER_VALUES = ['4k', '47008', '1m', '3', '0', '1', 'randwrite', 'read',
                'psync', '2g', 'none']
OTHER_SIZES = [1, 8, 4096, 65536, 1 << 20, 4 << 20]


def _fabtests_rows(data):
    '''{message size: line index} of a fabtests output's result rows.'''
    lines = data.decode().splitlines()
    return {size_bytes(ln.split()[0]): i for i, ln in enumerate(lines)
            if len(ln.split()) == 7 and ln.split()[0][:1].isdigit()}


def _size_of(case_id):
    return (CASES[case_id].parse.args[0] if case_id.startswith('osu/')
            else CASES[case_id].parse.keywords['size'])


# --- 1. Another program, size or option --------------------------------------

@pytest.mark.parametrize('case_id', FIO)
@MUTATIONS
@given(st.data())
def test_fio_told_other_options(case_id, data):
    asked = fio_options(case_id)
    name = data.draw(st.sampled_from(
        sorted(k for k, v in asked.items() if v is not None)))
    value = data.draw(st.sampled_from(OTHER_VALUES).filter(
        lambda v: v != asked[name]))
    other = {**asked, name: value}
    case = told(CASES[case_id], functools.partial(fio.parse, asked=other),
                functools.partial(fio.read_sample, asked=other))
    assert_rejected('1 another program or size', case, case.data,
                    f'told {name}={value}')


@pytest.mark.parametrize('case_id', FIO)
@MUTATIONS
@given(st.data())
def test_fio_output_of_other_options(case_id, data):
    case = CASES[case_id]
    found = list(re.finditer(rb'"(bs|rw|numjobs|size|direct|sync|iodepth)"'
                             rb' : "([^"]*)"', case.data))
    match = data.draw(st.sampled_from(found))
    value = data.draw(st.sampled_from(OTHER_VALUES).filter(
        lambda v: v.encode() != match[2]))
    start, end = match.span(2)
    mutated = case.data[:start] + value.encode() + case.data[end:]
    assert_rejected('1 another program or size', case, mutated,
                    f'{match[1]} {match[2]} -> {value}')


@pytest.mark.parametrize('case_id', FIO)
def test_fio_told_more_jobs(case_id):
    asked = fio_options(case_id)
    if 'group_reporting' in asked:
        pytest.skip('a group report lists one job for all of them')

    other = {**asked, 'numjobs': str(int(asked.get('numjobs', 1)) + 1)}
    case = told(CASES[case_id], functools.partial(fio.parse, asked=other),
                functools.partial(fio.read_sample, asked=other))
    assert_rejected('1 another program or size', case, case.data,
                    'one job more asked')


def _osu_told(case_id, size, benchmark):
    parse = functools.partial(CASES[case_id].parse.func, size, benchmark)
    sample = functools.partial(osu.read_sample, size=size,
                               benchmark=benchmark)
    return told(CASES[case_id], parse, sample)


@pytest.mark.parametrize('case_id', OSU)
def test_osu_output_of_another_benchmark(case_id):
    _, benchmark = CASES[case_id].parse.args
    other = 'osu_bw' if benchmark == 'osu_latency' else 'osu_latency'
    for told_benchmark in (other, 'osu_bibw'):
        case = _osu_told(case_id, _size_of(case_id), told_benchmark)
        assert_rejected('1 another program or size', case, case.data,
                        f'told {told_benchmark}')


@pytest.mark.parametrize('case_id', OSU)
@pytest.mark.parametrize('size', OTHER_SIZES)
def test_osu_output_without_the_asked_size(case_id, size):
    case = CASES[case_id]
    _, benchmark = case.parse.args
    if re.search(rf'^{size}\s'.encode(), case.data, re.M):
        pytest.skip(f'the output has a {size}-byte row')

    assert_rejected('1 another program or size',
                    _osu_told(case_id, size, benchmark), case.data,
                    f'told {size} bytes')


def _fabtests_told(case_id, size, program):
    case = CASES[case_id]
    timed = case.parse.keywords['timed']
    return told(case, functools.partial(fabtests.parse, size=size,
                                        timed=timed, program=program),
                functools.partial(fabtests.read_sample, size=size,
                                  program=program))


@pytest.mark.parametrize('case_id', FABTESTS)
def test_fabtests_output_of_another_program(case_id):
    program = CASES[case_id].parse.keywords['program']
    other = ({'fi_msg_bw', 'fi_msg_pingpong'} - {program}).pop()
    case = _fabtests_told(case_id, _size_of(case_id), other)
    assert_rejected('1 another program or size', case, case.data,
                    f'told {other}')


@pytest.mark.parametrize('case_id', FABTESTS)
@pytest.mark.parametrize('size', OTHER_SIZES)
def test_fabtests_output_without_the_asked_size(case_id, size):
    case = CASES[case_id]
    program = case.parse.keywords['program']
    if size in _fabtests_rows(case.data):
        pytest.skip(f'the output has a {size}-byte row')

    assert_rejected('1 another program or size',
                    _fabtests_told(case_id, size, program), case.data,
                    f'told {size} bytes')


@pytest.mark.parametrize('case_id', TIMED)
def test_fabtests_timed_command_of_another_program(case_id):
    case = CASES[case_id]
    program = case.parse.keywords['program'].encode()
    line = next(ln for ln in case.data.splitlines(keepends=True)
                if b'Command being timed' in ln)
    for other in (b'fi_rdm_pingpong', b'fi_msg_bw_x', b'osu_bw'):
        mutated = case.data.replace(line, line.replace(program, other))
        assert_rejected('1 another program or size', case, mutated,
                        f'timed command names {other.decode()}')


# --- 2. A redundant figure changed -------------------------------------------

FACTORS = st.one_of(st.floats(0.25, 0.8), st.floats(1.25, 4.0))
#: fabtests' columns that follow from the others, and their printed form
DERIVED = {3: '{:.2f}s', 4: '{:.2f}', 5: '{:.2f}', 6: '{:.2f}'}


@pytest.mark.parametrize('case_id', FABTESTS)
@MUTATIONS
@given(st.data())
def test_fabtests_redundant_figure_changed(case_id, data):
    case = CASES[case_id]
    size = _size_of(case_id)
    lines = case.data.decode().splitlines(keepends=True)
    row = _fabtests_rows(case.data)[size]
    fields = lines[row].split()
    column = data.draw(st.sampled_from(sorted(DERIVED)))
    factor = data.draw(FACTORS)
    old = float(fields[column].rstrip('s'))
    new = DERIVED[column].format(old * factor)
    assume(float(new.rstrip('s')) != old)
    fields[column] = new
    lines[row] = '  '.join(fields) + '\n'
    mutated = ''.join(lines).encode()
    assert_rejected('2 a redundant figure changed', case, mutated,
                    f'column {column} {old} x {factor:.3g} -> {new}')


@pytest.mark.parametrize('case_id', FIO)
@MUTATIONS
@given(st.data())
def test_fio_redundant_figure_changed(case_id, data):
    case = CASES[case_id]
    found = list(re.finditer(rb'"bw_bytes" : (\d+)', case.data))
    match = data.draw(st.sampled_from(found))
    factor = data.draw(FACTORS)
    old = int(match[1])
    assume(old > 0)
    start, end = match.span(1)
    mutated = (case.data[:start] + str(int(old * factor)).encode()
               + case.data[end:])
    assert_rejected('2 a redundant figure changed', case, mutated,
                    f'bw_bytes {old} x {factor:.3g}')


# --- 7. Valid real outputs of an unusual form --------------------------------

WARNINGS = 'fio/warning-verify-time_based.json'


def test_fio_warnings_before_the_json_are_kept():
    run = fio.parse(text(WARNINGS), asked=fio_options(WARNINGS))
    assert run.notes == ('fio: verification read phase will never start '
                         'because write phase uses all of runtime',)
    assert run.figures['write'] > 0


@pytest.mark.parametrize('case_id', FIO)
def test_fio_warnings_before_any_output_are_read(case_id):
    case = CASES[case_id]
    warning = text(WARNINGS).split('\n{', 1)[0].encode() + b'\n'
    assert_accepted('7 a valid output', case, warning + case.data,
                    'a warning before the JSON')
    error = b'fio: pid=4242, err=28/file:io_u.c:1889, func=io_u error\n'
    assert_rejected('3 a failure line', case, error + case.data,
                    'an error line before the JSON')


def test_osu_zero_byte_row_is_read():
    case = CASES['osu/osu-5.6.1-latency-m4096.out']
    assert b'\n0 ' in case.data
    assert_accepted('7 a valid output', case, case.data, 'a 0-byte row')


@pytest.mark.parametrize('case_id', TIMED)
def test_fabtests_unmeasured_cpu_share_is_a_missing_figure(case_id):
    case = CASES[case_id]
    mutated = re.sub(rb'(Percent of CPU this job got: )\d+%', rb'\g<1>?%',
                     case.data)
    figures = {**expected(case_id), 'cpu_percent': None}
    assert_accepted('7 a valid output', case, mutated, 'CPU share ?%',
                    figures)
    assert case.parse(mutated.decode()).usage['cpu_percent'] is None


def test_fabtests_row_of_a_run_shorter_than_its_printing_is_read():
    # -I 1: 10 us, printed as 0.00 s
    run = CASES['fabtests/pingpong_I1.client.out'].figures(
        text('fabtests/pingpong_I1.client.out'))
    assert run == {'bandwidth': 20.0 * 1e6 / 2**20, 'rtt': 10.0,
                   'cpu_percent': 44}
