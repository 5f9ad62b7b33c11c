'''Every parser against broken copies of the real outputs it reads.

A parser of the suite turns a tool's output into figures; a figure from an
output that was cut, corrupted, appended to or edited is a wrong figure in a
perflog.  So every parser must, for any output, either return exactly the
figures of the real output it came from, or raise
:class:`~microbench.output.OutputError`.  Any other exception (``KeyError``,
``TypeError``, a plain ``ValueError``, ...) or any other figures is a bug.

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

and check the property on two paths: the parser on the decoded text
(bytes go through :func:`microbench.output.decode`, as the suite reads
them), and :func:`microbench.samples.read_runs` on the files of a sample as a
rounds job keeps them, which must return the real figures or raise a
:class:`~microbench.samples.SampleError` naming sample 1 and one of its
files.  Explicit cases add outputs that must be rejected: the last line cut
inside its last number, two runs in one file, and every real error output.

Hypothesis runs derandomized (the same examples every run, as CI wants) under
the profile ``mutations``; ``MUTATIONS_PROFILE=mutations-long`` runs many
more examples.  Known library bugs are ``xfail(strict=True)``: when one is
fixed, its test passes, fails as XPASS, and its mark must go.
'''

import functools
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from microbench.tools import elbencho, fabtests, fio, ior, mdtest, osu
from microbench.suite import output, samples, strace
from microbench.suite.output import OutputError

from fixtures import section, text

settings.register_profile(
    'mutations', max_examples=100, deadline=None, derandomize=True,
    database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    'mutations-long', max_examples=1000, deadline=None, derandomize=True,
    database=None, suppress_health_check=[HealthCheck.too_slow])
MUTATIONS = settings.get_profile(
    os.environ.get('MUTATIONS_PROFILE', 'mutations'))

#: The variant every sample of these tests belongs to
VARIANT = 'v'


# --- The catalogue of real outputs ------------------------------------------

@dataclass(frozen=True)
class Case:
    '''One real output, its parser, and how a sample keeps it.'''

    id: str
    #: the output as the tool wrote it
    data: bytes
    #: 'json' (one document), 'jsonl' (one per line) or 'lines'
    kind: str
    #: text -> the run (or what the parser returns)
    parse: Callable
    #: run -> its figures
    figures_of: Callable = lambda run: run.figures
    #: the name a sample keeps this output as, and its other files
    kept: str = None
    others: dict = field(default_factory=dict)
    #: read_sample(sample) of the tool
    read_sample: Callable = None
    #: the case whose figures a sample gives, if not this one (a sample
    #: gives its client's figures, not its server's)
    sample_gives: str = None

    def figures(self, text):
        return self.figures_of(self.parse(text))


def _osu_parse(size, text):
    run = osu.parse(text)
    name, value, _ = osu.figure(run, size)
    return osu.OsuSample(run, {name: value})


def _fabtests_figures(run):
    '''The figures the suite reports of a fabtests run: its row's, and a
    timed run's CPU use (its user and system seconds are no figures: either
    may truly be 0)'''
    cpu = {'cpu_percent': run.usage['cpu_percent']} \
        if 'cpu_percent' in run.usage else {}
    return {**run.figures, **cpu}


def _catalogue():
    cases = []
    for name in ('fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default'
                 '.json',
                 'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_none.json',
                 'fio/seqwrite-16j-32k-buffered.json',
                 'fio/seqwrite-16j-32k-odirect.json'):
        cases.append(Case(name, text(name).encode(), 'json', fio.parse,
                          kept='fio.json', others={'stderr.txt': b''},
                          read_sample=fio.read_sample))

    # The witness's summaries (-e trace=fallocate,execve)
    for name in ('strace/strace-fallocate-execve-default.txt',
                 'strace/strace-fallocate-execve-none.txt',
                 'strace/strace-fallocate-ramfs-failed.txt'):
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(strace.parse_summary,
                                            syscall='fallocate'),
                          lambda calls: calls))

    for name in ('ior/basic-F.summary.json',
                 'ior/easy-stonewalled.summary.json',
                 'ior/easy-ended-before-stonewall.summary.json',
                 'ior/ior-np2-F-json.json'):
        cases.append(Case(name, text(name).encode(), 'json',
                          ior.parse_summary, kept='ior.json',
                          others={'ior.out': b'', 'stderr.txt': b''},
                          read_sample=ior.read_sample))

    for name in ('mdtest/n200.txt', 'mdtest/n200-F.txt', 'mdtest/n200-N1.txt',
                 'mdtest/mdtest-np2-n100.txt'):
        cases.append(Case(name, text(name).encode(), 'lines', mdtest.parse,
                          kept='mdtest.out', others={'stderr.txt': b''},
                          read_sample=mdtest.read_sample))

    # Every OSU output at 32 KiB, the suite's message size
    for name in ('osu/osu_bw-7.2-default.txt',
                 'osu/osu_latency-7.2-default.txt',
                 'osu/osu_bw-5.6.1-default.txt', 'osu/osu-7.2-bw.out',
                 'osu/osu-5.6.3-bw.out', 'osu/osu-5.6.3-latency.out'):
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(_osu_parse, 32768),
                          kept='osu.out', others={'stderr.txt': b''},
                          read_sample=functools.partial(osu.read_sample,
                                                        size=32768)))

    # fabtests: a client under time -v with its server, and a server (the
    # sample keeps the matching client); fi_msg_bw's default sweep has no
    # 32 KiB row, its 64 KiB row is used.  The .client.out files ran
    # without time -v: no sample path (read_sample wants time -v)
    for name, size in (('fabtests/fi_msg_pingpong-tcp-S100-c_fd.txt', 100),
                       ('fabtests/fi_msg_pingpong-tcp-S100-default.txt', 100),
                       ('fabtests/fi_msg_bw-tcp-default.txt', 65536)):
        client = section(name, 'client output').encode()
        server = section(name, 'server output').encode()
        sample = functools.partial(fabtests.read_sample, size=size)
        parse = functools.partial(fabtests.parse, size=size, timed=True)
        cases.append(Case(f'{name}:client', client, 'lines', parse,
                          _fabtests_figures, kept='client.out',
                          others={'server.out': server}, read_sample=sample))
        if name.endswith('c_fd.txt'):
            cases.append(Case(f'{name}:server', server, 'lines', parse,
                              _fabtests_figures, kept='server.out',
                              others={'client.out': client},
                              read_sample=sample,
                              sample_gives=f'{name}:client'))

    for name, size in (('fabtests/bw_32k.client.out', 32768),
                       ('fabtests/pingpong_sread.client.out', 100)):
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(fabtests.parse, size=size,
                                            timed=False), _fabtests_figures))

    for name in ('elbencho/buffered_allfiles.res.json',
                 'elbencho/direct.res.json', 'elbencho/preallocfile.res.json',
                 'elbencho/service_client_write_allfiles.res.json',
                 'elbencho/elbencho-t2-1g-buffered-jsonfile.json'):
        cases.append(Case(name, text(name).encode(), 'jsonl', elbencho.parse,
                          kept='elbencho.json',
                          others={'elbencho.out': b'', 'stderr.txt': b''},
                          read_sample=elbencho.read_sample))

    return {case.id: case for case in cases}


CASES = _catalogue()
SAMPLED = {i: case for i, case in CASES.items() if case.read_sample}


@functools.cache
def expected(case_id, reader='parse'):
    '''The figures of the real output, or of the sample it is kept in.'''
    case = CASES[case_id]
    if reader == 'sample' and case.sample_gives:
        return expected(case.sample_gives)

    return case.figures(case.data.decode())


# --- Reading a mutated output on both paths ---------------------------------

#: What a reader returns for an output it rejected
REJECTED = 'rejected'


def parsed(case, data):
    '''The figures of ``data`` (bytes) through the parser, or REJECTED.'''
    try:
        return case.figures(output.decode(data))
    except OutputError:
        return REJECTED


def keep(directory, files):
    '''Keep ``files`` (name -> bytes) as sample 1's, as a rounds job does;
    their paths.'''
    paths = set()
    for name, content in files.items():
        path = os.path.join(directory, samples.kept_name(name, VARIANT, 1))
        with open(path, 'wb') as fp:
            fp.write(content)

        paths.add(path)

    return paths


def sampled(case, data):
    '''The figures of ``data`` kept as the output of sample 1, through
    read_runs, or REJECTED; a rejection must name sample 1 and one of its
    files.'''
    with tempfile.TemporaryDirectory() as directory:
        paths = keep(directory, {**case.others, case.kept: data})
        try:
            runs = samples.read_runs(directory, VARIANT, 1, case.read_sample)
        except samples.SampleError as err:
            assert err.number == 1, err
            assert err.file in paths, err
            return REJECTED

    assert len(runs) == 1
    return case.figures_of(runs[0])


READERS = {'parse': parsed, 'sample': sampled}


def assert_holds(case, data, how, reader='parse'):
    '''The property: the real figures, or a rejection.'''
    got = READERS[reader](case, data)
    want = expected(case.id, reader)
    assert got == REJECTED or got == want, (
        f'{case.id}, {how}: {got!r}, not {want!r}')


# --- Mutations ---------------------------------------------------------------
# Each takes hypothesis' draw and the output (bytes) and returns (what it
# did, the mutated bytes).

_CONTROL = bytes([*range(0x00, 0x09), 0x0b, 0x0c, *range(0x0e, 0x20)])
_LETTERS = bytes(c for c in b'ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ'
                 if c not in b'eE')
#: Bytes that cannot silently form another valid number
GARBAGE = bytes(range(0x80, 0x100)) + _CONTROL + _LETTERS + \
    b'@#!?*&^%$~|<>;"{}[]'

_NUMBER = re.compile(rb'\d+(\.\d+)?')

#: class -> what may replace a number (``{n}``: the number itself)
REPLACEMENTS = {
    'nonfinite': [b'NaN', b'nan', b'inf', b'-inf', b'Infinity',
                  b'-Infinity'],
    'negative': [b'-{n}', b'-1'],
    'zero': [b'0'],
    'non-number': [b'abc'],
}


def cut(draw, data):
    # A cut to nothing is a test of its own (test_cut_to_nothing)
    at = draw(st.integers(1, len(data) - 1))
    return f'cut at byte {at} ({data[at - 20:at]!r})', data[:at]


def garbage(draw, data):
    at = draw(st.integers(0, len(data) - 1))
    byte = draw(st.sampled_from([b for b in GARBAGE if b != data[at]]))
    new = data[:at] + bytes([byte]) + data[at + 1:]
    return (f'byte {at} {data[at:at + 1]!r} -> {bytes([byte])!r} in '
            f'{new[max(0, at - 30):at + 30]!r}'), new


def non_utf8(draw, data):
    at = draw(st.integers(0, len(data)))
    byte = bytes([draw(st.integers(0x80, 0xff))])
    if at < len(data) and draw(st.booleans()):
        return f'byte {at} -> {byte!r}', data[:at] + byte + data[at + 1:]

    return f'{byte!r} inserted at {at}', data[:at] + byte + data[at:]


def _lines(data):
    return data.splitlines(keepends=True)


def dup_line(draw, data):
    lines = _lines(data)
    i = draw(st.integers(0, len(lines) - 1))
    return (f'line {i} {lines[i]!r} twice',
            b''.join(lines[:i + 1] + lines[i:]))


def drop_line(draw, data):
    lines = _lines(data)
    i = draw(st.integers(0, len(lines) - 1))
    return (f'line {i} {lines[i]!r} dropped',
            b''.join(lines[:i] + lines[i + 1:]))


class Pairs(list):
    '''A JSON object as its (key, value) pairs: order and duplicates kept.'''


def load_pairs(data):
    return json.loads(data, object_pairs_hook=Pairs)


def dump_pairs(node):
    if isinstance(node, Pairs):
        return '{' + ', '.join(f'{json.dumps(k)}: {dump_pairs(v)}'
                               for k, v in node) + '}'

    if isinstance(node, list):
        return '[' + ', '.join(map(dump_pairs, node)) + ']'

    return json.dumps(node)


def _objects(node, depth=0):
    '''(depth, object) of every non-empty object in ``node``.'''
    if isinstance(node, Pairs):
        if node:
            yield depth, node

        for _, value in node:
            yield from _objects(value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value, depth + 1)


def _member(draw, data, kind, change):
    '''``change(draw, object)`` on one object at a drawn depth, in the
    document (json) or one line of it (jsonl).'''
    lines = _lines(data) if kind == 'jsonl' else [data]
    i = draw(st.integers(0, len(lines) - 1))
    tree = load_pairs(lines[i])
    found = list(_objects(tree))
    depth = draw(st.sampled_from(sorted({d for d, _ in found})))
    obj = draw(st.sampled_from([o for d, o in found if d == depth]))
    what = change(draw, obj)
    lines[i] = dump_pairs(tree).encode() + (b'\n' if kind == 'jsonl' else b'')
    return f'line {i}: {what} at depth {depth}', b''.join(lines)


def _dup(draw, obj):
    j = draw(st.integers(0, len(obj) - 1))
    obj.insert(j + 1, obj[j])
    return f'member {obj[j][0]!r} twice'


def _drop(draw, obj):
    j = draw(st.integers(0, len(obj) - 1))
    return f'member {obj.pop(j)[0]!r} dropped'


def dup_member(draw, data, kind):
    return _member(draw, data, kind, _dup)


def drop_member(draw, data, kind):
    return _member(draw, data, kind, _drop)


def number(replacements):
    def replace(draw, data):
        matches = list(_NUMBER.finditer(data))
        m = draw(st.sampled_from(matches))
        new = draw(st.sampled_from(replacements)).replace(b'{n}', m[0])
        start, end = m.span()
        return (f'number {m[0]!r} at {start} -> {new!r} in '
                f'{data[max(0, start - 30):end + 10]!r}'), \
            data[:start] + new + data[end:]

    return replace


MUTATIONS_OF_ANY = {
    'cut': cut, 'garbage': garbage, 'non-utf8': non_utf8,
    'dup-line': dup_line, 'drop-line': drop_line,
    **{f'number-{name}': number(r) for name, r in REPLACEMENTS.items()},
}
MUTATIONS_OF_JSON = {'dup-member': dup_member, 'drop-member': drop_member}


def mutate(draw, case, mutation):
    if mutation in MUTATIONS_OF_JSON:
        return MUTATIONS_OF_JSON[mutation](draw, case.data, case.kind)

    return MUTATIONS_OF_ANY[mutation](draw, case.data)


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
            again = dump_pairs(load_pairs(case.data)).encode()
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
    'ior': ('ior/basic-F.summary.json',
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
