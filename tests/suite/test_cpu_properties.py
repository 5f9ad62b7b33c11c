'''The CPU witness's readers against every input: ``/proc/stat`` files as
polling.sh writes them (microbench.suite.cpu.parse), made by Hypothesis
and the real ones (tests/data/polling: samples and witnesses of
fio_completion_polling, made on this busy 2-core machine) broken by every
mutation of tests/helpers/mutations.py; a sample's CPU file held to its
fio run (microbench.tools.fio.polling_files); and the sqpoll witness's
judgement (microbench.tools.fio.polling.judge_poller) over every load.

Each file is read right (what a plain reading of its counters says) or
rejected in one line; never another exception.  The cases the issue found:
the span between the readings never held to the sample's run, another
variant's file accepted, the witness failing the check on a saturated
node.'''

import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from reframe.core.exceptions import SanityError

from microbench.suite import cpu, output
from microbench.tools.fio import polling, polling_files

from fixtures import fio_options, text
from mutations import MUTATIONS_OF_ANY
from plain import cpu_ticks
from witness_tally import COUNTS, PROPERTIES, dump, holds, one_line, rejects

READER = 'CPU: /proc/stat file (cpu.parse)'
SAMPLE = 'CPU: a polling sample, fio JSON and CPU file (parse_sample)'
POLLER = 'CPU: the sqpoll witness (judge_poller)'


@pytest.fixture(scope='module', autouse=True)
def _tally():
    yield
    dump()


def read_right(found_text):
    def check(node):
        assert (node.variant, node.cpus, node.busy, node.total) == \
            cpu_ticks(found_text)
        assert 0 <= cpu.busy_cores(node) <= node.cpus
        clock = node.end - node.start
        assert abs(cpu.span_s(node) - clock) <= \
            cpu.SPAN_SLACK_S + cpu.SPAN_SHARE * clock
    return check


# --- Real files, mutated -----------------------------------------------------

#: real CPU files -> their section of the caller's
REAL = {
    'polling/cpu-sqpoll-1.txt': None, 'polling/cpu-sqpoll-2.txt': None,
    'polling/cpu-interrupt-1.txt': None, 'polling/cpu-interrupt-2.txt': None,
    'polling/witness-sqpoll-cpu.txt': 'iou-sqp',
    'polling/witness-interrupt-cpu.txt': 'iou-sqp',
}


def test_the_real_files_are_read():
    for name, extra in REAL.items():
        found = text(name)
        holds(READER, lambda data: cpu.parse(data, extra), found,
              read_right(found))


@pytest.mark.parametrize('name', REAL)
@pytest.mark.parametrize('mutation', MUTATIONS_OF_ANY)
@PROPERTIES
@given(st.data())
def test_a_mutated_real_file_is_read_right_or_rejected(name, mutation,
                                                       data):
    how, mutated = MUTATIONS_OF_ANY[mutation](data.draw, text(name).encode())
    note(how)
    holds(READER, lambda raw: cpu.parse(output.decode(raw), REAL[name]),
          mutated, lambda node: read_right(mutated.decode())(node))


SAMPLES = {variant: (f'fio/polling-{variant}-1.json',
                     f'polling/cpu-{variant}-1.txt')
           for variant in ('sqpoll', 'interrupt')}


@pytest.mark.parametrize('variant', SAMPLES)
@pytest.mark.parametrize('mutation', MUTATIONS_OF_ANY)
@PROPERTIES
@given(st.data())
def test_a_sample_with_a_mutated_cpu_file_is_read_right_or_rejected(
        variant, mutation, data):
    name, cpu_file = SAMPLES[variant]
    how, mutated = MUTATIONS_OF_ANY[mutation](data.draw,
                                              text(cpu_file).encode())
    note(how)

    def read(raw):
        return polling_files.parse_sample(text(name), output.decode(raw),
                                          fio_options(name), variant)

    def right(run):
        _, cpus, busy, total = cpu_ticks(mutated.decode())
        assert run.figures['busy'] == cpus * busy / total

    holds(SAMPLE, read, mutated, right)


@pytest.mark.parametrize('variant, other', [
    ('sqpoll', 'polling/cpu-interrupt-1.txt'),
    ('sqpoll', 'polling/cpu-sqpoll-2.txt'),
    ('interrupt', 'polling/cpu-sqpoll-1.txt'),
    ('interrupt', 'polling/cpu-interrupt-2.txt'),
    # files of the polling.sh that named neither variant nor clock
    ('sqpoll', 'polling/cpu-sqpoll.txt'),
    ('interrupt', 'polling/cpu-interrupt.txt')])
def test_another_variants_or_samples_file_is_rejected(variant, other):
    name, _ = SAMPLES[variant]
    rejects(SAMPLE,
            lambda found: polling_files.parse_sample(
                text(name), found, fio_options(name), variant), text(other))


# --- Made files --------------------------------------------------------------

@st.composite
def cpu_files(draw):
    '''(text, CpuTime) of a CPU file polling.sh could write: ``cpus``
    CPUs whose ticks over the readings add up to the clock's span.'''
    cpus = draw(st.integers(1, 6))
    clk_tck = draw(st.sampled_from([100, 250, 1000]))
    start = draw(st.floats(1e9, 2e9))
    span = draw(st.floats(0.01, 600))
    ticks = round(span * clk_tck)
    befores, afters, per_cpu = [], [], []
    for _ in range(cpus):
        old = draw(st.lists(st.integers(0, 2 ** 40), min_size=10,
                            max_size=10))
        # the CPU's ticks split among its eight fields
        cuts = sorted(draw(st.lists(st.integers(0, ticks), min_size=7,
                                    max_size=7)))
        delta = [b - a for a, b in zip([0, *cuts], [*cuts, ticks])] + [0, 0]
        befores.append(old)
        afters.append([a + d for a, d in zip(old, delta)])
        per_cpu.append((ticks - delta[3] - delta[4], ticks))

    def block(counters):
        summed = [sum(column) for column in zip(*counters)]
        return [f'cpu  {" ".join(map(str, summed))}'] + [
            f'cpu{n} {" ".join(map(str, values))}'
            for n, values in enumerate(counters)]

    variant = draw(st.sampled_from(['sqpoll', 'interrupt', 'hipri',
                                    'a.b-c_d']))
    rows = [f'## variant {variant}', f'## before {start:.9f}',
            *block(befores), f'## after {start + span:.9f}',
            *block(afters), f'## clk_tck {clk_tck}', '## end']
    busy = sum(b for b, _ in per_cpu)
    found = cpu.CpuTime(cpus, busy, ticks * cpus, clk_tck, variant,
                        float(f'{start:.9f}'), float(f'{start + span:.9f}'),
                        tuple(per_cpu))
    return '\n'.join(rows) + '\n', found


@PROPERTIES
@given(cpu_files())
def test_a_made_file_is_read_as_made(made):
    found_text, expected = made
    note(found_text)

    def right(node):
        assert node[:5] == expected[:5]
        assert node.per_cpu == expected.per_cpu
        assert node.start == pytest.approx(expected.start)
        assert node.end == pytest.approx(expected.end)

    holds(READER, lambda data: cpu.parse(data, variant=expected.variant),
          found_text, right)


def _break(draw, found_text, node):
    rows = found_text.split('\n')[:-1]
    after = rows.index(next(r for r in rows if r.startswith('## after')))
    edits = ['another variant', 'the clock far from the ticks',
             'the clock back', 'a counter back', 'a cpu line not the sum',
             'a cpuN line dropped', 'the sections swapped', 'cut']
    edit = draw(st.sampled_from(edits))
    if edit == 'another variant':
        return edit, found_text, 'zzz'
    if edit == 'the clock far from the ticks':
        span = node.end - node.start
        rows[after] = (f'## after '
                       f'{node.end + 1 + cpu.SPAN_SLACK_S + span:.9f}')
    elif edit == 'the clock back':
        rows[after] = f'## after {node.start - 1:.9f}'
    elif edit == 'a counter back':
        at = draw(st.integers(after + 1, after + 1 + node.cpus))
        name, *values = rows[at].split()
        values[0] = str(int(values[0]) - 10 ** 12)
        rows[at] = ' '.join([name, *values])
    elif edit == 'a cpu line not the sum':
        name, *values = rows[after + 1].split()
        values[2] = str(int(values[2]) + cpu.SLACK * node.cpus + 1)
        rows[after + 1] = ' '.join([name, *values])
    elif edit == 'a cpuN line dropped':
        rows.pop(after + 1 + draw(st.integers(1, node.cpus)))
    elif edit == 'the sections swapped':
        rows = [rows[0], *rows[after:2 * after - 1], *rows[1:after],
                *rows[2 * after - 1:]]
    else:
        rows = rows[:draw(st.integers(1, len(rows) - 1))]
    return edit, '\n'.join(rows) + '\n', node.variant


@PROPERTIES
@given(cpu_files(), st.data())
def test_a_made_file_edited_is_rejected(made, data):
    edit, broken, variant = _break(data.draw, *made)
    note(f'{edit}:\n{broken}')
    rejects(READER, lambda found: cpu.parse(found, variant=variant), broken)


# --- The span against the run ------------------------------------------------

@PROPERTIES
@given(st.floats(0.1, 100), st.floats(-5, 50), st.floats(-5, 50),
       st.floats(0, 10))
def test_readings_hold_the_run_or_are_rejected(seconds, before, after,
                                               started):
    '''A run of ``seconds`` ending at 1000 s, readings ``before`` s before
    its start and ``after`` s after its end: held where they hold it (but
    for the slack) and span no more than the run and ``started``.'''
    node = cpu.CpuTime(1, 0, 1, 100, 'v', 1000 - seconds - before,
                       1000 + after, ((0, 1),))
    margins = (before + cpu.SPAN_SLACK_S, after + cpu.SPAN_SLACK_S,
               started + cpu.SPAN_SLACK_S - before - after)
    if any(abs(margin) < 1e-6 for margin in margins):
        return          # on an edge: either answer is right
    holds_run = all(margin > 0 for margin in margins)
    try:
        cpu.held_to_run(node, started, 1000, seconds)
    except output.OutputError as err:
        assert not holds_run, str(err)
        rejects(SAMPLE,
                lambda _: cpu.held_to_run(node, started, 1000, seconds),
                None)
        return
    assert holds_run


# --- The sqpoll witness over every load --------------------------------------

@PROPERTIES
@given(st.integers(1, 8), st.floats(0, 1), st.lists(st.integers(0, 200),
                                                  max_size=2),
       st.sampled_from(['sqpoll', 'interrupt']))
def test_the_sqpoll_witness_over_every_load(cpus, load, ticks, variant):
    '''Pass, inconclusive (a saturated node), or fail with one line: a
    poller where none was asked, none where the node had room for one.'''
    total = 100 * cpus
    node = cpu.CpuTime(cpus, round(load * total), total, 100, variant, 0.0,
                       1.0, ((round(load * 100), 100),) * cpus)
    threads = [polling_files.Thread(n, f'iou-sqp-{n}', tick)
               for n, tick in enumerate(ticks)]
    run, _ = polling_files.read_fio(
        text('fio/polling-witness-sqpoll.json'),
        {**fio_options('fio/polling-witness-sqpoll.json'), 'runtime': '1'})
    held = sum(ticks) / 100 / (run.runtime_ms['read'] / 1000)
    idle = cpu.idle_cores(node)
    try:
        said = polling.judge_poller(variant, node, threads, run, 10.0)
    except SanityError as err:
        one_line(str(err))
        assert (variant != 'sqpoll' and threads) or (
            variant == 'sqpoll' and idle >= polling.POLLER_CORES
            and (not threads or held < polling.POLLER_CORES))
        COUNTS[POLLER, 'rejected'] += 1
        return
    COUNTS[POLLER, 'read right'] += 1
    inconclusive = 'inconclusive' in said
    assert inconclusive == (variant == 'sqpoll' and idle <
                            polling.POLLER_CORES and (
                                not threads or held < polling.POLLER_CORES))
    assert f'busy {cpu.busy_cores(node):.2f} of its {cpus} cores' in said
