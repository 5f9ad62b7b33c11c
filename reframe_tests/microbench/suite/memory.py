'''The data a storage figure touched over the memory of its nodes.

A read of data that fits in a node's memory may be answered by its page
cache: DLIO's maintainers found checkpoint reads served 100 % from it, and
MLPerf Storage requires the data set to be at least 5 times the node's
memory.  So every storage figure records its data over the memory of a
node, and over the partition's client cache where one is declared:

- the job records the memory of every node it runs on (the ``memory``
  record, :func:`command`: ``<node> MemTotal: <kB> kB`` per node,
  comma-separated);
- the tool's variant check says what each figure touched
  (:meth:`~microbench.suite.variant.VariantCheck.data_touched`): the
  working set, the distinct bytes of the files it wrote or read, not the
  bytes a time-based run moved again and again;
- a partition may declare its client cache (``extras.client_cache``: a
  size, ``'32g'``, ``'32GiB'``, or bytes), a cache on the node besides
  the page cache (a Lustre client's, a burst buffer's).

:func:`judge` sets the ``data_to_memory`` record field,
``<figure>=<ratio>x memory[, <ratio>x client cache]`` joined by ``;``,
and gives a read that claims storage a note where its data is smaller
than memory, or below the floor (``memory_floor``, MLPerf Storage's 5 by
default).  The ratio never demotes a figure: data smaller than memory may
be in the page cache, or not; the residency witness
(:mod:`microbench.suite.residency`) sees what is.
'''

import collections
import statistics

from microbench import fields
from microbench.suite import launchers, limits, node
from microbench.suite.output import OutputError
from microbench.units import GIB, size_bytes

#: The record of every node's memory
RECORD = 'memory'

#: The partition's extra declaring its client cache
CLIENT_CACHE = 'client_cache'

#: One line on one node: its name (``/proc/sys/kernel/hostname``, what
#: ``hostname`` prints) and its ``MemTotal`` line; no ``$``: the job
#: expands a fact when it declares it
MEMINFO = ("awk 'NR == 1 {ORS = \" \"; print} /^MemTotal:/ "
           "{ORS = \"\\n\"; print}' /proc/sys/kernel/hostname /proc/meminfo")

#: What a figure touched on one node: bytes, and whether it reads them
Touched = collections.namedtuple('Touched', 'per_node read')


def command(flavour, nodes):
    '''The shell command printing the memory of each of ``nodes`` nodes
    (one: the node running the job, whatever the launcher), comma-
    separated; ``flavour``: the launcher's (:mod:`.launchers`), a function
    called only for several nodes.'''
    if nodes == 1:
        return MEMINFO

    start = launchers.spread(flavour(), nodes, 1)
    return f'{start} {MEMINFO} | paste -sd, -'


def memories(text):
    '''``{node: bytes of memory}`` of the ``memory`` record.  A node listed
    twice with the same memory is one node (the launcher started two of
    the command's processes on it); with another, the record is wrong.

    :raises OutputError: a node's line is not its name and its
        ``MemTotal`` line (:func:`.node.memory_gib`: at most 1 PiB), a
        node listed twice with two memories, or no node is named.
    '''
    found = {}
    for item in filter(None, (i.strip() for i in text.split(','))):
        name, _, line = item.partition(' ')
        memory = round(node.memory_gib(line) * GIB)
        if found.setdefault(name, memory) != memory:
            raise OutputError(f'node {name[:60]} is listed twice, with '
                              f'{gib(found[name])} and {gib(memory)} of '
                              f'memory: two machines under one name, or an '
                              f'edited record')
    if not found:
        raise OutputError('the job recorded no node\'s memory')
    return found


def client_cache(extras):
    '''Bytes of the client cache a partition's ``extras`` declare, or
    None.

    :raises ValueError: it is not a size.
    '''
    declared = extras.get(CLIENT_CACHE)
    if declared is None:
        return None
    found = size_bytes(declared)
    if not found:
        raise ValueError(f'{CLIENT_CACHE} {declared!r} is no cache')
    return found


def touched(per_sample, nodes, read):
    '''A :class:`Touched` of a figure's bytes (all nodes) in each sample:
    their median, divided among its ``nodes``.'''
    return Touched(statistics.median(per_sample) / nodes, read)


def gib(size):
    return f'{size / GIB:.3g} GiB'


def ratios(per_node, memory, cache=None):
    '''``<ratio>x memory[, <ratio>x client cache]`` of ``per_node`` bytes
    over ``memory`` and the ``cache`` (None: none declared).'''
    said = f'{per_node / memory:.3g}x memory'
    if cache:
        said += f', {per_node / cache:.3g}x client cache'
    return said


def read_note(name, per_node, memory, floor, cache=None,
              memory_words="the node's memory"):
    '''What a storage read of ``per_node`` bytes a node says of its data,
    or '': smaller than ``memory`` (the page cache can hold it), below
    ``floor`` times it (MLPerf Storage would not call it a storage read),
    smaller than the declared client ``cache``.'''
    ratio = per_node / memory
    said = []
    data = (f'{name}: the data ({gib(per_node)} a node) is {ratio:.2g}x '
            f'{memory_words} ({gib(memory)})')
    mlperf = (f'MLPerf Storage (the data at least {floor:g}x memory) '
              f'would not call it a storage read')
    if ratio < 1:
        said.append(f'{data}: the page cache can hold all of it'
                    + (f', and {mlperf}' if floor > 1 else ''))
    elif ratio < floor:
        said.append(f'{data}, below the floor of {floor:g}x: {mlperf}')
    if cache and per_node < cache:
        said.append(f'{name}: the data is {per_node / cache:.2g}x the '
                    f'client cache the partition declares ({gib(cache)}): '
                    f'it can hold all of it')
    return '; '.join(said)


def judge(check, found):
    '''Set ``check``'s ``data_to_memory`` from ``found``, ``{figure:
    Touched}`` (:func:`touched`), and add to its note what each read that
    claims storage says of its data (:func:`read_note`); never demote.'''
    found = {name: seen for name, seen in found.items()
             if name in check.figures}
    if not found:
        return
    try:
        nodes = memories(check.rounds.records.get(RECORD, [''])[0])
        cache = client_cache(check.current_partition.extras)
    except (OutputError, ValueError) as err:
        check.note = '; '.join(filter(None, [
            check.note, f'no data-to-memory ratio: {err}']))
        return

    memory = max(nodes.values())
    words = ("the node's memory" if len(set(nodes.values())) == 1
             else "the largest memory of the job's nodes")
    pairs, notes = {}, []
    for name, seen in found.items():
        figure = limits.reported(check, name, check.figures[name].unit)
        pairs[figure] = ratios(seen.per_node, memory, cache)
        if seen.read and name not in check.cached:
            notes.append(read_note(name, seen.per_node, memory,
                                   check.memory_floor, cache, words))
    check.data_to_memory = fields.DATA_TO_MEMORY.encode(pairs)
    check.note = '; '.join(filter(None, [check.note, *notes]))
