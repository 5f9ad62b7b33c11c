'''mdtest's output, held to what the run was asked.

Every sample is one mdtest run (files only, ``-F``) in a directory below the
scratch directory; its rates are the "SUMMARY rate" table (operations per
second, mean over the run's one iteration).  An error is an ``ERROR`` or
``FAILED in`` line, or a crash or MPI abort line, whatever the exit code
(mdtest goes on through thousands of warnings first).

A parser is told what the sample asked
(:meth:`~microbench.tools.mdtest.checks.MdtestRounds.asked`: the operations,
items per task, tasks, nodes, iterations and the command line) and holds the
output to it: mdtest echoes its command line, and says how many tasks on how
many nodes handled how many files.  What it states twice must agree: its
tasks, its items per task and its command's ``-n``, files only or not and
its command's ``-F``, its stride and its command's ``-N``, the one
iteration's max, min and mean.
'''

import re
from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import (OutputError, lines, number, once,
                                     reject_errors)

_LAUNCHED = re.compile(r'^mdtest-(?P<version>\S+) was launched with '
                       r'(?P<tasks>\S+) total task\(s\) on (?P<nodes>\S+) '
                       r'node\(s\)')
#: A row of the rate table; its leading blanks taken atomically (a
#: lookahead and its backreference), so a long blank line costs one pass
_ROW = re.compile(r'^(?=(\s+))\1(?P<op>(File|Directory|Tree) \w+)\s+'
                  r'(?P<values>.*)$')
_COMMAND = 'Command line used: '
_ARGUMENT = re.compile(r" '([^']*)'")
_ITEMS = re.compile(r'^(?P<tasks>\d+) tasks, (?P<items>\d+) '
                    r'(?P<what>files/directories|files|directories)$')
_SUMMARY = re.compile(r'^SUMMARY rate: \(of (?P<iterations>\S+) iterations\)$')
_NODEMAP = re.compile(r'^Nodemap: (?P<map>\S+)$')
_SHIFT = re.compile(r'Shifting ranks by (?P<stride>\S+) for each phase\.$')

#: What mdtest prints when it fails, and its warnings
ERRORS = re.compile(r'^(ERROR\b|.*: FAILED in )')
WARNINGS = re.compile(r'^WARNING: ')

#: mdtest's operation names -> the suite's figure names
OPERATIONS = {'File creation': 'create', 'File stat': 'stat',
              'File read': 'read', 'File removal': 'remove'}

#: Rows every run prints, whatever its operations (rank 0's tree)
TREE = ('Tree creation', 'Tree removal')


@dataclass(frozen=True)
class MdtestRun:
    '''One mdtest run, as it printed it.'''

    version: str
    tasks: int
    nodes: int
    #: figure name (create, stat, read, remove) -> mean rate, ops/s
    rates: dict
    #: ranks a task's stat is shifted by (``-N``, as mdtest applied it; 0:
    #: none), and which ranks run on rank 0's node (``1``) or not (``0``)
    stride: int = 0
    nodemap: str = ''

    @property
    def figures(self):
        return dict(self.rates)

    def other_node(self, shift):
        '''Whether rank 0's files, ``shift`` ranks on, are another node's
        (mdtest stats at the stride, reads at twice it).'''
        return self.nodemap[shift % self.tasks] == '0'


def _summary_rows(rows):
    '''The rows of the one "SUMMARY rate" table, up to its end, and the
    iterations it is of.'''
    starts = [i for i, ln in enumerate(rows) if ln.startswith('SUMMARY rate')]
    start = once(starts, '"SUMMARY rate" table')
    said = _SUMMARY.match(rows[start])
    if not said:
        raise OutputError(f'the summary line {rows[start][:80]!r} does not '
                          f'say its iterations')

    iterations = number(said['iterations'], 'the iterations', integer=True)
    table = []
    for line in rows[start + 1:]:
        if line.startswith(('SUMMARY', '-- finished at')):
            return table, iterations

        table.append(line)

    raise OutputError('the "SUMMARY rate" table has no end: no "-- finished '
                      'at" line, the run did not finish')


def _rate(table, operation, iterations):
    '''The mean rate of ``operation``; its max, min, mean and standard
    deviation must be numbers, min <= mean <= max, and of one iteration
    all the same rate (no deviation).'''
    rows = [m for m in map(_ROW.match, table) if m and m['op'] == operation]
    row = once(rows, f'"{operation}" row')
    values = row['values'].split()
    if len(values) != 4:
        raise OutputError(f'the "{operation}" row has {len(values)} values, '
                          f'not max, min, mean and standard deviation')

    high, low, mean = (number(v, f'{operation} rate') for v in values[:3])
    deviation = number(values[3], f'{operation} standard deviation',
                       positive=False)
    if not low <= mean <= high:
        raise OutputError(f'the "{operation}" mean {mean:g} is not between '
                          f'its min {low:g} and max {high:g}')

    if iterations == 1 and (deviation or not high == low == mean):
        raise OutputError(f'the "{operation}" row says max {values[0]}, min '
                          f'{values[1]}, mean {values[2]}, standard deviation '
                          f'{values[3]} of one iteration, which has one rate: '
                          f'the output is corrupted')

    return mean


def command_argv(rows):
    '''The argv mdtest echoes on its "Command line used" line.'''
    line = once([ln for ln in rows if ln.startswith(_COMMAND)],
                '"Command line used" line')[len(_COMMAND):]
    program, _, rest = line.partition(" '")
    argv = [program, *_ARGUMENT.findall(" '" + rest if rest else '')]
    if not program or ''.join(f" '{a}'" for a in argv[1:]) != (
            " '" + rest if rest else ''):
        raise OutputError(f'the command line {line[:200]!r} is not the '
                          f'quoted arguments mdtest echoes: the output is '
                          f'corrupted')

    return argv


def _option(argv, flag):
    '''The value of option ``flag`` in ``argv`` (``-n 100`` or ``-n100``),
    True for a flag without one, None if absent.'''
    found = None
    for num, word in enumerate(argv[1:], start=1):
        if word == flag:
            found = (argv[num + 1] if num + 1 < len(argv)
                     and not argv[num + 1].startswith('-') else True)
        elif word.startswith(flag) and len(flag) == 2:
            found = word[2:]

    return found


def _items_line(rows):
    '''(tasks, files in all, what: ``files``, ``directories`` or both) of
    mdtest's "... tasks, ... files" line.'''
    said = once([m for m in map(_ITEMS.match, rows) if m],
                '"... tasks, ... files" line')
    return (number(said['tasks'], 'the tasks', integer=True),
            number(said['items'], 'the files', integer=True), said['what'])


def _check_stated(rows, tasks, nodes, argv):
    '''(stride, nodemap) as the output states them; raise unless what it
    states twice agrees: its tasks and nodes, its files and its command
    line's ``-n`` and ``-F``, its stride and the command's ``-N``.'''
    handled, total, what = _items_line(rows)
    if handled != tasks:
        raise OutputError(f'mdtest says {handled} tasks handled the files, '
                          f'but was launched with {tasks}: the output is '
                          f'corrupted')

    if total % tasks:
        raise OutputError(f'{total} files are not a whole number per task of '
                          f'{tasks}: the output is corrupted')

    items = _option(argv, '-n')
    if items is not None and str(total // tasks) != items:
        raise OutputError(f'mdtest says {tasks} tasks handled {total} files, '
                          f'{total // tasks} each, but its command asked -n '
                          f'{items}: the output is corrupted')

    files_only = what == 'files'
    if files_only != (_option(argv, '-F') is True):
        raise OutputError(f'mdtest says it handled {what}, but its command '
                          f'{"lacks" if files_only else "asked"} -F (files '
                          f'only): the output is corrupted')

    nodemap = once([m['map'] for m in map(_NODEMAP.match, rows) if m],
                   '"Nodemap" line')
    if len(nodemap) != tasks or set(nodemap) - {'0', '1'} or (
            (nodes > 1) != ('0' in nodemap)) or nodemap[0] != '1':
        raise OutputError(f'the nodemap {nodemap!r} is not one 1 (rank 0\'s '
                          f'node) or 0 (another) per task of {tasks} on '
                          f'{nodes} node(s): the output is corrupted')

    shifts = [m['stride'] for m in (_SHIFT.search(ln) for ln in rows) if m]
    asked = _option(argv, '-N')
    if not shifts and asked in (None, '0'):
        return 0, nodemap

    stride = number(once(shifts, '"Shifting ranks by" line'), 'the stride',
                    integer=True)
    per_node = nodemap.count('1')
    allowed = set()
    if asked not in (None, True):
        given = number(asked, '-N', integer=True, positive=False)
        # mdtest multiplies -N by the tasks of a node when they are placed
        # node by node on several
        allowed = {given, given * per_node} if nodes > 1 else {given}

    if stride not in allowed:
        asked = 'asked no -N' if asked is None else f'asked -N {asked}'
        raise OutputError(f'mdtest says it shifted ranks by {stride}, but its '
                          f'command {asked} ({tasks} tasks, {per_node} on '
                          f'rank 0\'s node of {nodes}): the output is '
                          f'corrupted')

    return stride, nodemap


def _check_asked(said, asked):
    '''Raise unless every stated value of ``said`` ({what: (value,
    option)}) is the asked one (None: not asked).'''
    for what, (value, option) in said.items():
        wanted = asked.get(what)
        if wanted is not None and value != wanted:
            raise OutputError(f'mdtest says {value:g} {what}, not the asked '
                              f'{wanted} ({option}): the output is of another '
                              f'command')


def parse(text, *, operations=None, items=None, tasks=None, nodes=None,
          iterations=None, command=None):
    '''Parse the output of one mdtest run.  What the run was asked (None:
    not checked) must be what it states: the ``operations`` (figure names of
    :data:`OPERATIONS`, or mdtest's own names of other rows: only their
    rows, and the tree's, may be in its table), ``items`` per task
    (``-n``), ``tasks``, ``nodes``, ``iterations`` (``-i``) and
    ``command``, the argv asked (a word with a ``$`` is one the shell
    expanded).

    :raises OutputError: on empty, cut, error or incomplete output, the
        output of another command than the asked one, or figures that
        disagree.
    '''
    rows = lines(text)
    reject_errors(text, ERRORS, 'mdtest')
    launched = once([m for m in map(_LAUNCHED.match, rows) if m],
                    '"mdtest-... was launched" line')
    table, said_iterations = _summary_rows(rows)
    if not any(ln.startswith('-- finished at') for ln in rows):
        raise OutputError('no "-- finished at" line: the run did not finish')

    said_tasks = number(launched['tasks'], 'the tasks', integer=True)
    said_nodes = number(launched['nodes'], 'the nodes', integer=True)
    argv = command_argv(rows)
    names = {name: op for op, name in OPERATIONS.items()}
    asked_ops = [names.get(name, name) for name in (
        operations if operations is not None else OPERATIONS.values())]
    found_ops = [m['op'] for m in map(_ROW.match, table) if m]

    # What was asked first: the output of another command is that,
    # whatever else is wrong with it
    _check_asked({'tasks': (said_tasks, 'tasks'),
                  'nodes': (said_nodes, 'nodes'),
                  'items per task': (_items_line(rows)[1] / said_tasks, '-n'),
                  'iterations': (said_iterations, '-i')},
                 {'tasks': tasks, 'nodes': nodes, 'items per task': items,
                  'iterations': iterations})
    if command is not None:
        output.same_command(argv, [str(word) for word in command],
                            'mdtest')

    if operations is not None:
        others = [op for op in found_ops if op not in (*asked_ops, *TREE)]
        if others:
            raise OutputError(f'the output has a "{others[0]}" row, an '
                              f'operation not asked (only '
                              f'{", ".join(operations)}): the output is of '
                              f'another command')

    if said_nodes > said_tasks:
        raise OutputError(f'{said_tasks} tasks on {said_nodes} nodes: the '
                          f'output is corrupted')

    stride, nodemap = _check_stated(rows, said_tasks, said_nodes, argv)
    rates = {op: _rate(table, op, said_iterations)
             for op in dict.fromkeys([*asked_ops, *found_ops])}
    return MdtestRun(
        launched['version'], said_tasks, said_nodes,
        {OPERATIONS.get(op, op): rates[op] for op in asked_ops},
        stride, nodemap
    )


def read_sample(sample, asked=None):
    '''One mdtest sample, which was ``asked`` what :func:`parse` takes as
    keywords (None: nothing checked): its standard output, and no error on
    its standard error.'''
    sample.reject_errors(ERRORS, 'mdtest')
    return sample.parse('mdtest.out', parse, **(asked or {}))
