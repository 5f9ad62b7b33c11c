'''Every parser against broken copies of the real outputs it reads.

A parser of the suite turns a tool's output into figures; a figure from an
output that was cut, corrupted, appended to or edited is a wrong figure in a
perflog.  So every parser must, for any output, either return exactly the
figures of the real output it came from, or raise
:class:`~microbench.suite.output.OutputError`.  Any other exception
(``KeyError``, ``TypeError``, a plain ``ValueError``, ...) or any other
figures is a bug.

From every real output under tests/data that parses, the tests make:

- cuts at every line boundary (exhaustively) and at arbitrary bytes;
- one byte replaced by a garbage byte (one that cannot silently form another
  valid number: not a digit, ``.``, ``e``, a sign, whitespace, ``,`` or
  ``:``), and bytes that are not UTF-8, inserted or replacing one;
- a line duplicated or dropped; for JSON, a member duplicated or dropped at
  some depth (parsed keeping every pair, written back with one pair more or
  less);
- one number (a match of ``\\d+(\\.\\d+)?``) replaced by NaN or an
  infinity, a negative number, zero, or a non-number;

and check the property on two paths: the parser on the decoded text (bytes go
through :func:`microbench.suite.output.decode`, as the suite reads them), and
:func:`microbench.suite.samples.read_runs` on the files of a sample as a rounds
job keeps them, which must return the real figures or raise a
:class:`~microbench.suite.samples.SampleError` naming sample 1 and one of its
files.  Explicit cases add outputs that must be rejected: the last line cut
inside its last number, two runs in one file, and every real error output.

Hypothesis runs derandomized (the same examples every run, as CI wants) under
the profile ``mutations``; ``MUTATIONS_PROFILE=mutations-long`` runs many
more examples.  Known library bugs are ``xfail(strict=True)``: when one is
fixed, its test passes, fails as XPASS, and its mark must go.
'''


import functools
import os
import re
import tempfile

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from microbench.tools import elbencho, fabtests, fio, ior, mdtest, osu
from microbench.suite import output, samples, strace
from microbench.suite.output import OutputError

from catalogue import (CASES, READERS, REJECTED, SAMPLED, VARIANT,
                       assert_holds, expected, keep, parsed, sampled)
from fixtures import section, text
from mutations import (MUTATIONS, MUTATIONS_OF_ANY, MUTATIONS_OF_JSON,
                       _NUMBER, _lines, dump_pairs, json_prefix,
                       load_pairs, mutate)


# --- Known bugs ------------------------------------------------------------
# (case id, mutation) -> the bug; both paths unless the reader is named

BUGS = {}


def _params(cases, readers):
    params = []
    for reader in readers:
        for case_id, case in cases.items():
            mutations = list(MUTATIONS_OF_ANY)
            if case.kind in ('json', 'jsonl'):
                mutations += list(MUTATIONS_OF_JSON)

            for mutation in mutations:
                bug = (BUGS.get((case_id, mutation, reader))
                       or BUGS.get((case_id, mutation)))
                marks = [pytest.mark.xfail(strict=True, reason=bug)] \
                    if bug else []
                params.append(pytest.param(
                    reader, case_id, mutation, marks=marks,
                    id=f'{reader}-{case_id}-{mutation}'))

    return params


# --- The property, by hypothesis -------------------------------------------

@pytest.mark.parametrize('reader, case_id, mutation',
                         _params(CASES, ['parse']) +
                         _params(SAMPLED, ['sample']))
@MUTATIONS
@given(st.data())
def test_mutated_output_gives_the_figures_or_is_rejected(reader, case_id,
                                                          mutation, data):
    case = CASES[case_id]
    how, mutated = mutate(data.draw, case, mutation)
    note(how)
    assert_holds(case, mutated, how, reader)


# --- The property, exhaustively --------------------------------------------

def _cuts_at_line_boundaries(data):
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord('\n')]
    return [end for end in ends if end < len(data)]


@pytest.mark.parametrize('case_id', CASES)
def test_cut_at_every_line_boundary(case_id):
    case = CASES[case_id]
    wrong = []
    for at in _cuts_at_line_boundaries(case.data):
        got = parsed(case, case.data[:at])
        if got != REJECTED and got != expected(case_id):
            wrong.append((at, case.data[at - 40:at], got))

    assert not wrong


@pytest.mark.parametrize('case_id', CASES)
def test_cut_to_nothing(case_id):
    assert parsed(CASES[case_id], b'') == REJECTED


def test_the_json_mutations_keep_what_they_do_not_change():
    # Written back without a change, every JSON output gives its figures
    for case_id, case in CASES.items():
        if case.kind == 'json':
            prefix, document = json_prefix(case.data)
            again = prefix + dump_pairs(load_pairs(document)).encode()
        elif case.kind == 'jsonl':
            again = b''.join(dump_pairs(load_pairs(line)).encode() + b'\n'
                             for line in _lines(case.data))
        else:
            continue

        assert again != case.data
        assert parsed(case, again) == expected(case_id), case_id


@pytest.mark.parametrize('case_id', CASES)
def test_real_outputs_give_figures(case_id):
    figures = expected(case_id)
    assert figures
    if CASES[case_id].read_sample:
        assert sampled(CASES[case_id], CASES[case_id].data) == \
            expected(case_id, 'sample')


# --- Known bugs, by their smallest example -------------------------------
# (and the same replacement where the library catches it)

@pytest.mark.parametrize('label', ['User time (seconds)',
                                   'System time (seconds)',
                                   'Percent of CPU this job got'])
@pytest.mark.parametrize('reader', READERS)
def test_time_v_figure_replaced_by_zero(reader, label):
    case = CASES['fabtests/fi_msg_pingpong-tcp-S100-c_fd.txt:client']
    data = re.sub(rf'({re.escape(label)}: )[\d.]+'.encode(), rb'\g<1>0',
                  case.data)
    assert data != case.data
    assert_holds(case, data, f'{label} -> 0', reader)


# --- Outputs that must be rejected -----------------------------------------

def _last_line_cut_inside_its_last_number(data):
    last = data.rstrip(b'\n').rsplit(b'\n', 1)[-1]
    numbers = list(_NUMBER.finditer(last))
    if not numbers:
        return None

    start, end = numbers[-1].span()
    return data[:len(data.rstrip(b'\n')) - len(last)
                + start + max(1, (end - start) // 2)]


@pytest.mark.parametrize('case_id', [
    i for i, case in CASES.items()
    if _last_line_cut_inside_its_last_number(case.data) is not None])
def test_last_line_cut_inside_its_last_number(case_id):
    case = CASES[case_id]
    cut_data = _last_line_cut_inside_its_last_number(case.data)
    assert parsed(case, cut_data) == REJECTED
    if case.read_sample:
        assert sampled(case, cut_data) == REJECTED


def _two_runs():
    by_tool = {}
    for case_id, case in CASES.items():
        tool = case_id.split('/')[0]
        if tool in ('fio', 'ior', 'elbencho', 'osu', 'mdtest'):
            by_tool.setdefault(tool, []).append(case_id)

    pairs = []
    for ids in by_tool.values():
        for first, second in zip(ids, ids[1:] + ids[:1]):
            pairs += [(first, first), (first, second)]

    return pairs


@pytest.mark.parametrize('first, second', _two_runs())
def test_two_runs_in_one_file_are_rejected(first, second):
    case = CASES[first]
    both = case.data + CASES[second].data
    assert parsed(case, both) == REJECTED
    assert sampled(case, both) == REJECTED


def _rejects(pattern, tool):
    return lambda text: output.reject_errors(text, pattern, tool)


#: Every real error output, and the reader a sample applies to it
ERROR_OUTPUTS = {
    'fio/odirect-ramfs.json': fio.parse,
    # Summaries without the witness's execve marker: one of a fallocate()
    # call, and an empty one (no call), as a summary cut to nothing would be
    'strace/strace-fallocate-logwrite-default.txt': functools.partial(
        strace.parse_summary, syscall='fallocate'),
    'strace/strace-fallocate-logwrite-none.txt': functools.partial(
        strace.parse_summary, syscall='fallocate'),
    # IOR's standard output: read_sample looks for its error lines
    'ior/error-block-not-multiple.txt': _rejects(ior.ERRORS, 'IOR'),
    'ior/error-nonexistent-dir.txt': _rejects(ior.ERRORS, 'IOR'),
    'mdtest/error-disk-full.txt': mdtest.parse,
    'mdtest/error-nonexistent.txt': mdtest.parse,
    'mdtest/error-read-more-than-written.txt': mdtest.parse,
    # mdtest's standard error: read_sample looks for its error lines
    'mdtest/error-disk-full-stderr.txt': _rejects(mdtest.ERRORS, 'mdtest'),
    # elbencho's console output: read_sample looks for its error lines
    'elbencho/error-direct-ramfs.txt': _rejects(elbencho.ERRORS, 'elbencho'),
    'elbencho/error-nonexistent-dir.txt': _rejects(elbencho.ERRORS,
                                                   'elbencho'),
    'elbencho/error-service-nonexistent-dir.txt': _rejects(elbencho.ERRORS,
                                                           'elbencho'),
    'elbencho/timelimit2_infloop.res.json': elbencho.parse,
    'fabtests/noprov_server.out': functools.partial(fabtests.parse, size=100),
    'fabtests/noserver_client.out': functools.partial(fabtests.parse,
                                                      size=100),
    'fabtests/stall_timeout5.client.out': functools.partial(fabtests.parse,
                                                            size=100),
    'osu/osu_bw-5.6.1-b_multiple-rejected.txt': osu.parse,
    'osu/osu-5.6.3-bw-bmultiple.out': osu.parse,
}


def _error_text(name):
    if name.startswith('strace/'):
        return section(name, 'strace -c summary')

    return text(name)


@pytest.mark.parametrize('name, reader', [
    pytest.param(name, *reader.values, marks=reader.marks, id=name)
    if isinstance(reader, type(pytest.param(0))) else
    pytest.param(name, reader, id=name)
    for name, reader in ERROR_OUTPUTS.items()])
def test_error_outputs_are_rejected(name, reader):
    with pytest.raises(OutputError):
        reader(_error_text(name))


def _error_line(name, pattern):
    '''The first line of real error output ``name`` that ``pattern`` finds.'''
    return next(ln for ln in text(name).splitlines() if pattern.search(ln))


#: tool -> (a real output of it, an error line of it: real where one is kept)
ERROR_LINES = {
    'fio': (
        'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default.json',
        'fio: pid=1, err=5/file:x'),
    'ior': ('ior/easy-reorder-fsync.summary.json',
            _error_line('ior/error-block-not-multiple.txt', ior.ERRORS)),
    'mdtest': ('mdtest/n200.txt',
               _error_line('mdtest/error-read-more-than-written.txt',
                           mdtest.ERRORS)),
    'elbencho': ('elbencho/direct.res.json',
                 _error_line('elbencho/error-nonexistent-dir.txt',
                             elbencho.ERRORS)),
    'osu': ('osu/osu-7.2-bw.out',
            _error_line('osu/osu-5.6.3-bw-bmultiple.out', osu.ERRORS)),
}


@pytest.mark.parametrize('label', ['0: ', '[0] ', '[1,0]<stderr>:'])
@pytest.mark.parametrize('tool', ERROR_LINES)
def test_an_error_line_on_stderr_rejects_the_sample(tool, label):
    case_id, line = ERROR_LINES[tool]
    case = CASES[case_id]
    assert sampled(case, case.data) == expected(case_id)
    with tempfile.TemporaryDirectory() as directory:
        keep(directory, {**case.others, case.kept: case.data,
                         'stderr.txt': f'{label}{line}\n'.encode()})
        with pytest.raises(samples.SampleError) as err:
            samples.read_runs(directory, VARIANT, 1, case.read_sample)

        assert err.value.number == 1
        assert err.value.file == os.path.join(directory, samples.kept_name(
            'stderr.txt', VARIANT, 1))
