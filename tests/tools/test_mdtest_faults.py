'''Validation by class for mdtest, part 2: the faults the output shows by
itself, whatever the parser was told.  Real outputs broken these ways are
rejected on both paths (the parser, and
:func:`microbench.suite.samples.read_runs` on a sample's files; see
tests/helpers/mdtest_cases.py) with a message that says what is wrong:

2. *a redundant figure changed*: a rate of one iteration that is not its
   max, min and mean alike (or has a deviation), the files that are not the
   tasks times the command's ``-n``, the tasks said twice, ``-F`` and what
   was handled, the stride and the command's ``-N``, the nodemap and the
   tasks and nodes;
3. *a failure line*: mdtest's ``FAILED in`` and ``ERROR``, MPI's abort,
   bad termination and fatal error, a crash's, inserted anywhere in its
   output or on its standard error.

The output of *another command* than the one asked is
tests/tools/test_mdtest_asked.py's.
'''

import re

import pytest

from microbench.tools import mdtest
from microbench.suite import output
from microbench.suite.output import OutputError

from catalogue import mdtest_asked
from classes import CRASH_LINES, MPI_LINES, insert_line, line_of
from fixtures import text
from mdtest_cases import REAL, assert_rejected, edit

#: Real failure lines, each with where it comes from
FAILURES = {
    'FAILED in': ('mdtest/error-read-more-than-written.txt', 'FAILED in'),
    'ERROR': ('mdtest/error-nonexistent.txt', 'ERROR: open64'),
    **MPI_LINES, **CRASH_LINES,
}


# --- 2. A redundant figure changed -------------------------------------------

def _rows(case_id):
    '''(line index, operation) of every row of the summary table.'''
    lines = text(case_id).splitlines()
    rows = [(i, re.match(r'^\s+((File|Directory|Tree) \w+)\s+\d', ln))
            for i, ln in enumerate(lines)]
    return [(i, match[1]) for i, match in rows if match]


@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('column', [0, 1, 2, 3])
@pytest.mark.parametrize('factor', [0.5, 0.8, 1.25, 2.0])
def test_a_rate_of_one_iteration_changed(case_id, column, factor):
    lines = text(case_id).splitlines(keepends=True)
    for num, operation in _rows(case_id):
        head, values = lines[num][:22], lines[num][22:].split()
        mean = float(values[2])
        values[column] = (f'{mean * factor:.3f}' if column < 3
                          else f'{mean * abs(factor - 1):.3f}')
        mutated = [*lines]
        mutated[num] = head + ''.join(f'{v:>15}' for v in values) + '\n'
        for told in (mdtest_asked(case_id), {}):
            assert_rejected(
                '2 a redundant figure changed', case_id,
                f'{operation} column {column} x {factor}',
                rf'the "{operation}" (row says .* of one iteration, which '
                rf'has one rate|mean .* is not between)',
                data=''.join(mutated).encode(), told=told)


def _redundant_edits(case_id):
    '''(name, pattern, replacement, what the message says) of one of two
    statements of the same fact changed.'''
    told = mdtest_asked(case_id)
    argv = told['command']
    items = told['items']
    edits = [
        ('files', r'^2 tasks, \d+ ', f'2 tasks, {items * 3} ',
         rf'2 tasks handled {items * 3} files, {items * 3 // 2} each, but '
         rf"its command asked -n {items}"),
        ('files odd', r'^2 tasks, \d+ ', f'2 tasks, {items * 2 + 1} ',
         r'files are not a whole number per task of 2'),
        ('tasks', r'^2 tasks, ', '3 tasks, ',
         r'mdtest says 3 tasks handled the files, but was launched with 2'),
        ('command -n', r"'-n' '\d+'", f"'-n' '{items * 2}'",
         rf'{items} each, but its command asked -n {items * 2}'),
        ('nodemap short', r'^Nodemap: 11$', 'Nodemap: 1',
         r"the nodemap '1' is not one 1"),
        ('nodemap long', r'^Nodemap: 11$', 'Nodemap: 111',
         r"the nodemap '111' is not one 1"),
        ('nodemap other node', r'^Nodemap: 11$', 'Nodemap: 10',
         r"the nodemap '10' is not one 1 .* on 1 node"),
        ('nodemap rank 0', r'^Nodemap: 11$', 'Nodemap: 01',
         r"the nodemap '01' is not one 1"),
        ('nodes', r'on 1 node\(s\)', 'on 2 node(s)',
         r"the nodemap '11' is not one 1 .* on 2 node"),
    ]
    if '-F' in argv:
        edits.append(('command -F', r" '-F'", '',
                      r'handled files, but its command lacks -F'))
    else:
        edits.append(('command -F', r"('-d' '[^']*')", r"\1 '-F'",
                      r'handled files/directories, but its command asked '
                      r'-F'))
    if '-N' in argv:
        edits += [
            ('command -N', r"'-N' '(\d+)'", "'-N' '3'",
             r'shifted ranks by \d, but its command asked -N 3'),
            ('shift', r'Shifting ranks by \d+', 'Shifting ranks by 3',
             r'shifted ranks by 3, but its command asked -N'),
            ('no shift', r'^.*Shifting ranks by.*\n', '',
             r'no "Shifting ranks by" line'),
        ]
    else:
        edits.append(('shift', r'^(Nodemap: 11\n)',
                      r'\1V-0: Rank   0 Line  2537 Shifting ranks by 1 for '
                      r'each phase.\n',
                      r'shifted ranks by 1, but its command asked no -N'))
    return edits


@pytest.mark.parametrize('case_id', REAL)
def test_a_fact_stated_twice_changed_once(case_id):
    for name, pattern, replacement, match in _redundant_edits(case_id):
        mutated = edit(case_id, pattern, replacement)
        # Told nothing: what the output states twice rejects it
        assert_rejected('2 a redundant figure changed', case_id,
                        f'{name} edited', match, data=mutated, told={})
        # Told what was asked: rejected too (another command, or the same)
        assert_rejected('2 a redundant figure changed', case_id,
                        f'{name} edited, told what was asked', '.',
                        data=mutated)


# --- 3. A failure line -------------------------------------------------------

@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('kind', FAILURES)
def test_a_failure_line_anywhere(case_id, kind):
    line = line_of(*FAILURES[kind])
    data = text(case_id).encode()
    # quoted from where mdtest's error (or the crash) starts
    said = (output.error_lines(line, mdtest.ERRORS)
            or output.error_lines(line, output.CRASHES))[0]
    match = rf'mdtest printed an error: {re.escape(said)}$'
    for at in range(len(data.splitlines()) + 1):
        for label in ('', '0: ', '[1] '):
            assert_rejected('3 a failure line', case_id,
                            f'{kind} at line {at}', match,
                            data=insert_line(data, at, label + line))

    for label in ('', '0: ', '[1,0]<stderr>:'):
        assert_rejected('3 a failure line', case_id, f'{kind} on stderr',
                        match, stderr=f'{label}{line}\n'.encode(),
                        paths=['sample'])


def test_the_fatal_error_alone_is_a_failure_line():
    # MPICH's line without its "Abort(...): " prefix
    line = line_of(*FAILURES['fatal error'])
    alone = line[line.index('Fatal error in'):]
    case_id = 'mdtest/suite-hard-node.txt'
    data = insert_line(text(case_id).encode(), 3, alone)
    assert_rejected('3 a failure line', case_id, 'fatal error alone',
                    r'mdtest printed an error: Fatal error in internal_Init',
                    data=data)
    assert_rejected('3 a failure line', case_id, 'fatal error on stderr',
                    r'mdtest printed an error: Fatal error in internal_Init',
                    stderr=f'{alone}\n'.encode(), paths=['sample'])


def test_the_real_failed_runs_are_rejected():
    told = mdtest_asked('mdtest/suite-hard-none.txt')
    for name, match in (
            ('mdtest/error-mpi-init.txt', r'no "mdtest-\.\.\. was launched"'),
            ('mdtest/error-mpi-init-stderr.txt',
             r'printed an error: Abort\(\d+\): Fatal error in internal_Init'),
            ('mdtest/error-disk-full.txt', r'printed an error: =   BAD '
                                           r'TERMINATION')):
        with pytest.raises(OutputError, match=match):
            mdtest.parse(text(name), **told)
