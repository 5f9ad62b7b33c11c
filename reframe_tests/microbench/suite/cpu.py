'''What a node's CPUs did over a sample: ``/proc/stat`` before and after.

A benchmark reports its own processes' CPU; a kernel thread working for it
(io_uring's submission-queue poller, a provider's progress thread) is
counted by no one but the node.  The busy share of every CPU over the
sample, from the ``cpu`` lines of ``/proc/stat`` read right before and
right after it, counts them all: busy cores = busy ticks over all ticks,
times the CPUs.  A file holds, in order::

    ## variant <the variant whose sample it is>
    ## before <the clock, seconds since the epoch, when it was read>
    cpu ... and cpuN ... (/proc/stat's cpu lines)
    ## after <the clock>
    cpu ... and cpuN ...
    ## clk_tck N (clock ticks per second, getconf CLK_TCK)
    ## <the caller's section>, where it has one
    ## end

The kernel prints the ``cpu`` line as the sum of the ``cpuN`` lines it
prints right after it: they must agree, but for the ticks that passed in
between (:data:`SLACK`).  Every CPU counts :data:`~CpuTime.clk_tck` ticks
a second, busy or idle: the ticks between the readings are their span, and
must be the span the clock says (:data:`SPAN_SLACK_S`).  The variant it
names is the reader's (another variant's file is another figure), and the
caller holds the span against the sample's run (:func:`held_to_run`).
'''

import collections

from microbench.suite.output import OutputError, lines, number, once

#: The fields of a ``cpu`` line the suite reads, in order (guest time is
#: already in user and nice)
FIELDS = ('user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq',
          'steal')

#: Fields of a CPU that is not working
IDLE = ('idle', 'iowait')

#: Ticks per CPU by which the ``cpu`` line may differ from the sum of the
#: ``cpuN`` lines read right after it (measured here: 1)
SLACK = 4

#: How far (seconds) the span of the readings by their ticks may be from
#: the span by the clock, beside :data:`SPAN_SHARE` of it: the clock is read
#: right before ``/proc/stat``, by another process a busy node may hold
#: back (measured here: 0.01 s)
SPAN_SLACK_S = 0.5

#: The share of the span by which its ticks and the clock may differ
SPAN_SHARE = 0.1

#: The node's CPUs over a sample: how many, and the ticks they were busy
#: and in all; ``clk_tck``: ticks per second; the variant the file names;
#: the clock (seconds since the epoch) at the two readings; and every CPU's
#: (busy, all) ticks, in the order of their numbers
CpuTime = collections.namedtuple(
    'CpuTime', 'cpus busy total clk_tck variant start end per_cpu')


def busy_cores(cpu):
    '''Cores busy on average over the sample (0 to ``cpu.cpus``).'''
    return cpu.cpus * cpu.busy / cpu.total


def idle_cores(cpu, number=None):
    '''Cores idle on average over the sample; of CPU ``number`` alone
    (0 to 1) where one is given and the file lists it.'''
    if number is not None and 0 <= number < len(cpu.per_cpu):
        busy, total = cpu.per_cpu[number]
        return 1 - busy / total if total else 0.0

    return cpu.cpus - busy_cores(cpu)


def span_s(cpu):
    '''Seconds between the readings, by the CPUs' ticks.'''
    return cpu.total / cpu.cpus / cpu.clk_tck


def held_to_run(cpu, started, ended, seconds):
    '''Raise unless ``cpu``'s readings hold a run that ended at ``ended``
    (seconds since the epoch, the run's own clock) after ``seconds``, and
    ``started`` (seconds) at most before it: the file is another sample's,
    or its span is not the run's (a busy share over a longer span is
    another figure).'''
    slack = SPAN_SLACK_S
    if cpu.start > ended - seconds + slack or ended > cpu.end + slack:
        raise OutputError(
            f'the readings span {cpu.start:.3f} to {cpu.end:.3f} s (the '
            f'clock), the run {ended - seconds:.3f} to {ended:.3f} s: the '
            f'file is another sample\'s')

    longest = seconds + started
    if cpu.end - cpu.start > longest + slack:
        raise OutputError(
            f'the readings are {cpu.end - cpu.start:.3g} s apart, the run '
            f'{seconds:.3g} s (its start and end at most {started:.3g} s '
            f'more): the busy cores are not the run\'s')


def _heading(rows, title):
    '''The index of the one ``## title`` or ``## title <value>`` line.'''
    heads = [i for i, row in enumerate(rows)
             if row == f'## {title}' or row.startswith(f'## {title} ')]
    return once(heads, f'"## {title}" line')


def _clock(rows, title):
    '''The clock (seconds since the epoch) of the reading ``## title
    <seconds>``.'''
    value = rows[_heading(rows, title)][len(f'## {title}'):].strip()
    if not value:
        raise OutputError(f'"## {title}" holds no clock: a file of an older '
                          f'polling.sh, or an edited one')

    return number(value, f'the clock of the reading {title}')


def _block(rows, title):
    '''{name: [ticks of FIELDS]} of the lines under ``## title``.'''
    start = _heading(rows, title) + 1
    block = {}
    for row in rows[start:]:
        if row.startswith('## '):
            break

        if not row.split():
            raise OutputError(f'a blank line under "## {title}": /proc/stat '
                              'has none')

        name, *values = row.split()
        if not name.startswith('cpu'):
            raise OutputError(f'{row[:60]!r} is no cpu line of /proc/stat')

        if len(values) < len(FIELDS):
            raise OutputError(f'{name} has {len(values)} fields, not the '
                              f'{len(FIELDS)} or more of /proc/stat: cut')

        if name in block:
            raise OutputError(f'{name} is listed twice under "## {title}"')

        block[name] = [number(value, f'{name} {field} ({title})',
                              positive=False, integer=True)
                       for value, field in zip(values, FIELDS)]

    if 'cpu' not in block:
        raise OutputError(f'no "cpu" line under "## {title}"')

    cpus = [values for name, values in block.items() if name != 'cpu']
    for index, field in enumerate(FIELDS):
        summed = sum(values[index] for values in cpus)
        if abs(summed - block['cpu'][index]) > SLACK * max(len(cpus), 1):
            raise OutputError(f'the cpu line\'s {field} ({title}) is '
                              f'{block["cpu"][index]} ticks, its CPUs\' '
                              f'{summed}: the lines are not one reading')

    return block


def _layout(rows, extra):
    '''Raise unless ``rows`` are laid out as a CPU file: ``## variant``
    first, ``## before``, ``## after``, ``## clk_tck N`` right after its
    block, then the section ``## <extra>`` (the caller's) where one is
    named, and ``## end`` last.'''
    if not rows[0].startswith('## variant '):
        raise OutputError(f'the first line is {rows[0][:60]!r}, not '
                          f'"## variant <name>": not a CPU file, or one '
                          f'that does not say whose sample it is')

    if rows[-1] != '## end':
        raise OutputError(f'the last line is {rows[-1][:60]!r}, not "## end":'
                          f' the file was cut')

    heads = [i for i, row in enumerate(rows) if row.startswith('## ')]
    names = [rows[i][3:].split(' ', 1)[0] for i in heads]
    want = ['variant', 'before', 'after', 'clk_tck',
            *([extra] if extra else []), 'end']
    if names != want:
        shown = ', '.join(name[:20] for name in names[:8])
        raise OutputError(f'the sections are [{shown}], not {want}: a cut, '
                          f'edited or other file')

    # The variant and the clock ticks are one line: the next section
    # follows each
    if heads[1] != heads[0] + 1:
        raise OutputError(f'{rows[1][:60]!r} follows the variant: no line '
                          f'of a CPU file')

    clk_tck = heads[3]
    if heads[4] != clk_tck + 1:
        raise OutputError(f'{rows[clk_tck + 1][:60]!r} follows the clock '
                          f'ticks: no line of a CPU file')


def parse(text, extra=None, variant=None):
    ''':class:`CpuTime` of a file as :mod:`this module <microbench.suite.cpu>`
    describes; ``extra``: the name of the caller's section between the
    clock ticks and the end, whose lines the caller reads; ``variant``:
    the variant the file must name (None: any).

    :raises OutputError: a section missing, out of order or twice, a line
        that belongs to none, a line cut or listed twice, another variant,
        other CPUs after than before, a counter that went back, no tick in
        between, or ticks that do not span the time the clock says.
    '''
    rows = lines(text)
    _layout(rows, extra)
    named = rows[0][len('## variant '):]
    if variant is not None and named != variant:
        raise OutputError(f'the file is of variant {named[:40]!r}, not '
                          f'{variant[:40]!r}: another variant\'s CPU file')

    start, end = _clock(rows, 'before'), _clock(rows, 'after')
    before, after = _block(rows, 'before'), _block(rows, 'after')
    if len(before) < 2:
        raise OutputError('no cpuN line: the CPUs cannot be counted')

    if set(before) != set(after):
        raise OutputError(f'the CPUs before ({len(before) - 1}) and after '
                          f'({len(after) - 1}) differ: two nodes\' files')

    for name in before:
        for field, old, new in zip(FIELDS, before[name], after[name]):
            if new < old:
                raise OutputError(f'{name} {field} went from {old} to {new} '
                                  f'ticks: the counters are not one node\'s')

    ticks = once([row.split()[2:] for row in rows
                  if row.startswith('## clk_tck ')], '"## clk_tck" line')
    if len(ticks) != 1:
        raise OutputError(f'the clock ticks are {" ".join(ticks)!r}')

    delta = [new - old for old, new in zip(before['cpu'], after['cpu'])]
    total = sum(delta)
    if total <= 0:
        raise OutputError('no tick passed between "before" and "after"')

    idle = sum(delta[FIELDS.index(field)] for field in IDLE)
    found = CpuTime(len(before) - 1, total - idle, total,
                    number(ticks[0], 'the clock ticks per second',
                           integer=True), named, start, end,
                    _per_cpu(before, after))
    _spans(found)
    return found


def _per_cpu(before, after):
    '''(busy, all) ticks of every ``cpuN`` between the readings, by N.'''
    found = []
    for name in sorted((n for n in before if n != 'cpu'),
                       key=lambda n: int(n[3:]) if n[3:].isdigit() else -1):
        delta = [new - old for old, new in zip(before[name], after[name])]
        idle = sum(delta[FIELDS.index(field)] for field in IDLE)
        found.append((sum(delta) - idle, sum(delta)))
    return tuple(found)


def _spans(cpu):
    '''Raise unless the readings' ticks span the time their clock says.'''
    if cpu.end < cpu.start:
        raise OutputError(f'the clock went back from {cpu.start:.3f} to '
                          f'{cpu.end:.3f} s between the readings')

    clock = cpu.end - cpu.start
    ticks = span_s(cpu)
    if abs(ticks - clock) > SPAN_SLACK_S + SPAN_SHARE * clock:
        raise OutputError(f'the readings are {clock:.3g} s apart by the '
                          f'clock but {ticks:.3g} s by the ticks of the '
                          f'{cpu.cpus} CPUs: they are not one node\'s '
                          f'readings of this sample')
