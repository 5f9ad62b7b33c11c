'''What a node's CPUs did over a sample: ``/proc/stat`` before and after.

A benchmark reports its own processes' CPU; a kernel thread working for it
(io_uring's submission-queue poller, a provider's progress thread) is
counted by no one but the node.  The busy share of every CPU over the
sample, from the ``cpu`` lines of ``/proc/stat`` read right before and
right after it, counts them all: busy cores = busy ticks over all ticks,
times the CPUs.  A file holds ``## before`` and ``## after``, each
followed by ``/proc/stat``'s ``cpu`` (all CPUs) and ``cpuN`` lines,
``## clk_tck N`` (clock ticks per second, ``getconf CLK_TCK``), perhaps
more, and ends with ``## end``.  The kernel prints the ``cpu`` line as the
sum of the ``cpuN`` lines it prints right after it: they must agree, but
for the ticks that passed in between (:data:`SLACK`).
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

#: The node's CPUs over a sample: how many, and the ticks they were busy
#: and in all; ``clk_tck``: ticks per second
CpuTime = collections.namedtuple('CpuTime', 'cpus busy total clk_tck')


def busy_cores(cpu):
    '''Cores busy on average over the sample (0 to ``cpu.cpus``).'''
    return cpu.cpus * cpu.busy / cpu.total


def _block(rows, title):
    '''{name: [ticks of FIELDS]} of the lines under ``## title``.'''
    heads = [i for i, row in enumerate(rows) if row == f'## {title}']
    start = once(heads, f'"## {title}" line') + 1
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
    '''Raise unless ``rows`` are laid out as a CPU file: ``## before``
    first, ``## after``, ``## clk_tck N`` right after its block, then the
    section ``## <extra>`` (the caller's) where one is named, and ``## end``
    last.'''
    if rows[0] != '## before':
        raise OutputError(f'the first line is {rows[0][:60]!r}, not '
                          f'"## before": not a CPU file')

    if rows[-1] != '## end':
        raise OutputError(f'the last line is {rows[-1][:60]!r}, not "## end":'
                          f' the file was cut')

    heads = [i for i, row in enumerate(rows) if row.startswith('## ')]
    names = [rows[i][3:].split(' ', 1)[0] for i in heads]
    want = ['before', 'after', 'clk_tck', *([extra] if extra else []), 'end']
    if names != want:
        raise OutputError(f'the sections are {names}, not {want}: a cut, '
                          f'edited or other file')

    # The clock ticks are one line: the next section follows it
    clk_tck = heads[2]
    if heads[3] != clk_tck + 1:
        raise OutputError(f'{rows[clk_tck + 1][:60]!r} follows the clock '
                          f'ticks: no line of a CPU file')


def parse(text, extra=None):
    ''':class:`CpuTime` of a file as :mod:`this module <microbench.suite.cpu>`
    describes; ``extra``: the name of the caller's section between the
    clock ticks and the end, whose lines the caller reads.

    :raises OutputError: a section missing, out of order or twice, a line
        that belongs to none, a line cut or listed twice, other CPUs after
        than before, a counter that went back, or no tick in between.
    '''
    rows = lines(text)
    _layout(rows, extra)
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
    return CpuTime(len(before) - 1, total - idle, total,
                   number(ticks[0], 'the clock ticks per second',
                          integer=True))
