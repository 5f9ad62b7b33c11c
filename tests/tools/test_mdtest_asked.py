'''Validation by class for mdtest, part 1: the output held to what the run
was asked.  Real outputs told what their run was asked are read (and the
stride judged as mdtest applied it); the output of *another command* is
rejected on both paths (the parser, and
:func:`microbench.suite.samples.read_runs` on a sample's files; see
tests/helpers/mdtest_cases.py) with a message that says what is wrong:

1. *another command*: the parser told other operations, items per task,
   tasks, nodes, iterations or another command line than the run's; or the
   output edited to say another (both values named).

The faults the output shows by itself (a redundant figure changed, a
failure line) are tests/tools/test_mdtest_faults.py's.
'''

import time

import pytest

from microbench.tools import mdtest

from catalogue import mdtest_asked
from classes import record
from fixtures import text
from mdtest_cases import REAL, assert_rejected, edit, figures


# --- The real outputs are read -----------------------------------------------

@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('path', ['parse', 'sample'])
def test_real_outputs_told_what_was_asked_are_read(case_id, path):
    want = mdtest.parse(text(case_id)).figures
    start = time.perf_counter()
    got = figures(case_id, told=mdtest_asked(case_id), path=path)
    record('7 a valid output', case_id, path, False,
           time.perf_counter() - start)
    assert {name: got[name] for name in want} == want
    assert set(got) == set(mdtest_asked(case_id)['operations'])


@pytest.mark.parametrize('case_id, stride', [
    ('mdtest/suite-easy-none.txt', 0), ('mdtest/suite-easy-node.txt', 2),
    ('mdtest/suite-hard-node.txt', 2), ('mdtest/n200-N1.txt', 1)])
def test_the_stride_as_mdtest_applied_it(case_id, stride):
    run = mdtest.parse(text(case_id), **mdtest_asked(case_id))
    assert (run.stride, run.nodemap, run.tasks) == (stride, '11', 2)
    # One node: every task's files are on it
    assert not run.other_node(stride) and not run.other_node(2 * stride)


class _Check:
    '''What MdtestVariantCheck.judge_stride uses of a check.'''

    def __init__(self):
        self.seen = []

    def demote_seen(self, name, seen, consequence):
        self.seen.append((name, seen, consequence))


def test_a_stride_that_stays_on_the_node_demotes_the_rates():
    # -N 2 of 2 tasks, as mdtest applied it: task 0 stats and reads the
    # files task 0 created
    check = _Check()
    run = mdtest.parse(text('mdtest/suite-hard-node.txt'))
    mdtest.MdtestVariantCheck.judge_stride(check, [run])
    assert check.seen == [
        ('stat', 'mdtest shifted ranks by 2 of 2: task 0 stats the files of '
                 'task 0, on its own node (Nodemap 11)',
         'the stat rate is a client cache figure'),
        ('read', 'mdtest shifted ranks by 2 of 2: task 0 reads the files of '
                 'task 0, on its own node (Nodemap 11)',
         'the read rate is a client cache figure')]
    # -N 1: task 0 stats task 1's files, reads (twice the stride) its own
    check = _Check()
    run = mdtest.parse(text('mdtest/n200-N1.txt'))
    mdtest.MdtestVariantCheck.judge_stride(check, [run])
    assert [name for name, *_ in check.seen] == ['stat', 'read']
    assert 'stats the files of task 1, on its own node' in check.seen[0][1]


# --- 1. Another command ------------------------------------------------------

def _others(case_id):
    '''(name, what the parser is told instead, what the message says).'''
    told = mdtest_asked(case_id)
    argv = told['command']
    items = told['items']
    unique = ([w for w in argv if w != '-u'] if '-u' in argv
              else [*argv, '-u'])
    stride = ([*argv[:-1], '4'] if '-N' in argv else [*argv, '-N', '1'])
    other_items = [*argv]
    other_items[argv.index('-n') + 1] = str(items * 10)
    file_ops = tuple(mdtest.OPERATIONS.values())
    return [
        ('items', items * 2, rf'mdtest says {items} items per task, not the '
                             rf'asked {items * 2} \(-n\)'),
        ('items', items + 1, rf'{items} items per task, not the asked '
                             rf'{items + 1}'),
        ('tasks', 4, r'mdtest says 2 tasks, not the asked 4 \(tasks\)'),
        ('tasks', 1, r'mdtest says 2 tasks, not the asked 1 \(tasks\)'),
        ('nodes', 2, r'mdtest says 1 nodes, not the asked 2 \(nodes\)'),
        ('iterations', 3, r'mdtest says 1 iterations, not the asked 3 '
                          r'\(-i\)'),
        ('operations', ('create', 'stat'), r'the output has a "(File read|'
                                           r'Directory creation)" row, an '
                                           r'operation not asked'),
        ('operations', file_ops, r'"Directory creation" row, an operation '
                                 r'not asked' if '-F' not in argv else None),
        ('command', unique, r'mdtest ran as ".*", \d+ arguments, not the '
                            r'asked'),
        ('command', stride, r"its argument \d+ is '[12]', not the asked '4'"
                            if '-N' in argv else r'\d+ arguments, not the '
                                                 r'asked'),
        ('command', other_items, rf"its argument \d+ is '{items}', not the "
                                 rf"asked '{items * 10}'"),
        ('command', ['ior', *argv[1:]], r"not of the asked 'ior': another "
                                        r"program"),
    ]


@pytest.mark.parametrize('case_id', REAL)
def test_told_another_value(case_id):
    for name, value, match in _others(case_id):
        if match is None:
            continue

        assert_rejected('1 another program or size', case_id,
                        f'told {name}={value}', match,
                        told={**mdtest_asked(case_id), name: value})


def _output_edits(case_id):
    '''(name, pattern, replacement, what the message says) of the output
    edited to say it ran another command.'''
    told = mdtest_asked(case_id)
    items = told['items']
    edits = [
        ('tasks', r'with 2 total task', 'with 4 total task',
         r'mdtest says 4 tasks, not the asked 2 \(tasks\)'),
        ('nodes', r'on 1 node\(s\)', 'on 2 node(s)',
         r'mdtest says 2 nodes, not the asked 1 \(nodes\)'),
        ('files', r'^2 tasks, \d+ ', f'2 tasks, {items * 4} ',
         rf'mdtest says {items * 2} items per task, not the asked {items} '
         rf'\(-n\)'),
        ('iterations', r'\(of 1 iterations\)', '(of 3 iterations)',
         r'mdtest says 3 iterations, not the asked 1 \(-i\)'),
        ('command -n', r"'-n' '\d+'", "'-n' '7'",
         rf"its argument \d+ is '7', not the asked '{items}'"),
        ('command program', r'^(Command line used: )\S+', r'\1ior',
         r"the output is of 'ior', not of the asked"),
        ('command -d', r"'-d' '[^']*'", "'-d' '/elsewhere'",
         r"its argument \d+ is '/elsewhere', not the asked '/"),
        ('rows', r'^(\s+)File stat', r'\1Directory stat',
         r'"Directory stat" row, an operation not asked|no "File stat" '
         r'row'),
    ]
    if '-u' in told['command']:
        edits.append(('command -u', r" '-u'", '',
                      r'\d+ arguments, not the asked'))
    if '-N' in told['command']:
        edits.append(('command -N', r"'-N' '(\d+)'", "'-N' '5'",
                      r"its argument \d+ is '5', not the asked"))
    return edits


@pytest.mark.parametrize('case_id', REAL)
def test_output_of_another_command(case_id):
    for name, pattern, replacement, match in _output_edits(case_id):
        mutated = edit(case_id, pattern, replacement)
        assert_rejected('1 another program or size', case_id,
                        f'{name} edited', match, data=mutated)


@pytest.mark.parametrize('case_id', REAL)
def test_a_word_the_shell_expands_may_be_any(case_id):
    # The rounds ask -d $scratch/mdtest: the job's scratch directory
    told = mdtest_asked(case_id)
    argv = [*told['command']]
    argv[argv.index('-d') + 1] = '$scratch/mdtest'
    told = {**told, 'command': argv}
    mutated = edit(case_id, r"'-d' '[^']*'", "'-d' '/elsewhere'")
    for path in ('parse', 'sample'):
        assert figures(case_id, mutated, told=told, path=path) == figures(
            case_id, told=mdtest_asked(case_id), path=path)
