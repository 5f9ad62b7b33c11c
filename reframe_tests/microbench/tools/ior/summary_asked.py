'''IOR's JSON summary held to what the run was asked.

Told what was asked (:class:`~microbench.tools.ior.command.IorAsked`), the
summary must say back every size, count, shape and option of it in its
Parameters (the task offset in its summary entry, the tasks in numTasks),
memoryPerNode exactly when ``-M`` was asked, and print the asked command
line, a ``$`` word of which, expanded by the shell, matches any text.
'''

import re
import shlex
from fnmatch import fnmatchcase

from microbench.suite.output import OutputError
from microbench.tools.ior.summary_fields import int_of, text_of


def _command_words(command):
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _check_command(command, asked):
    '''The command line IOR printed is the asked one (a ``$`` word, which
    the shell expanded, matches any text in its place).'''
    words = _command_words(command)
    wanted = list(asked.argv)
    if len(words) == len(wanted) and all(
            fnmatchcase(word, re.sub(r'\$\{?\w+\}?', '*', want))
            if '$' in want else word == want
            for word, want in zip(words, wanted)):
        return

    raise OutputError(f'the summary says IOR ran "{command}", not the asked '
                      f'"{" ".join(wanted)}": the output is of another run')


def _asked_values(asked):
    '''(what, Parameters key or None for the summary's numTasks, asked
    value) of everything a summary must say back.'''
    values = [
        ('transfer size', 'transferSize', asked.transfer),
        ('block size', 'blockSize', asked.block),
        ('segments', 'segmentCount', asked.segments),
        ('nodes', 'nodes', asked.nodes),
        ('tasks per node', 'tasksPerNode', asked.tasks_per_node),
        ('file per process', 'filePerProc', int(asked.file_per_process)),
        ('stonewall seconds', 'deadlineForStonewall', asked.deadline_s),
        ('stonewall wear-out', 'stoneWallingWearOut', int(asked.wear_out)),
        ('fsync', 'fsync', int(asked.fsync)),
        ('task reordering', 'reorderTasks', int(asked.reorder)),
        ('repetitions', 'repetitions', asked.repetitions),
        ('kept files (-k)', 'keepFile', int(asked.keep)),
        ('write phase', 'writeFile', int('write' in asked.phases)),
        ('read phase', 'readFile', int('read' in asked.phases)),
    ]
    if asked.reorder:
        values.append(('task offset (-Q)', 'taskPerNodeOffset',
                       asked.task_offset))

    return values


def check_asked(data, params, entry, tasks, asked):
    '''The summary says it ran what was asked (``entry``: the summary
    entry of an operation, which alone says the task offset).'''
    for what, key, value in _asked_values(asked):
        said = (int_of(entry, key, 'the summary') if key == 'taskPerNodeOffset'
                else int_of(params, key, 'the Parameters'))
        if said != value:
            raise OutputError(f'the summary says {key} {said}, not the asked '
                              f'{what} {value}: the output is of another '
                              f'run')

    if tasks != asked.tasks:
        raise OutputError(f'the summary says numTasks {tasks}, not the asked '
                          f'{asked.tasks} tasks: the output is of another '
                          f'run')

    hogged = int_of(params, 'memoryPerNode', 'the Parameters') > 0
    if hogged != asked.memory:
        raise OutputError(f'the summary says memoryPerNode '
                          f'{params["memoryPerNode"]}, but -M was '
                          f'{"" if asked.memory else "not "}asked')

    _check_command(text_of(data, 'Command line', 'the summary'), asked)


def summary_file(command, key='summaryFile'):
    '''The summary file a command line names (or the file of another
    ``-O`` directive ``key``), or None.'''
    words = _command_words(command)
    for before, word in zip(words, words[1:]):
        if before == '-O' and word.startswith(f'{key}='):
            return word.split('=', 1)[1]

    return None

