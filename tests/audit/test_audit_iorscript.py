'''IOR scripts (``ior -f``) read as IOR reads them
(microbench/audit/iorscript.py): IOR's own test scripts
(tests/data/audit/iorscript, hpc/ior testing/ @ 5fcf0ba9), and scripts of
other sites in the second corpus's development half; broken copies.'''

import os

import pytest

from microbench.audit import iorscript, judge, kinds

import fixtures
from corpus2 import GIB, audited

DIR = os.path.join(fixtures.path('audit'), 'iorscript')


def read(name):
    with open(os.path.join(DIR, name)) as fp:
        return fp.read()


def audit_text(name, data):
    return judge.audit_bytes(name, data.encode(), judge.new_context(
        name, 24 * GIB, directory=DIR))


def test_each_run_keeps_the_directives_before_it():
    script = read('test_comments.ior')
    assert kinds.kind_of('test_comments.ior', script) == 'ior-script'
    tests = iorscript.commands('test_comments.ior', script)
    first, second = (command.words for command in tests)
    # comments and blanks before a directive, names without case
    assert first == ['mpirun', 'ior', '-a', 'posix', '-w', '-z', '-C', '-F',
                     '-k', '-e', '-i', '1', '-t', '10k', '-b', '20k']
    # after RUN: api changes, every other directive stays
    assert second[:4] == ['mpirun', 'ior', '-a', 'dummy']
    assert second[4:] == first[4:]
    # what the audit does not judge, said of the test that has it
    assert tests[0].not_judged == ['IOR directive multiFile=1: not judged']
    assert tests[1].not_judged == [
        'IOR directive --dummy.delay-create=1000: not judged',
        'IOR directive multiFile=1: not judged']


def test_a_script_without_an_order_reads_back_its_own_writes():
    report = audit_text('bug-multi-node.conf', read('bug-multi-node.conf'))
    assert report.error is None and report.kind == 'ior-script'
    (invocation,) = report.invocations
    assert invocation.where.line == 17            # its RUN
    assert 'S4' in {f.pitfall for f in invocation.findings}


def test_other_sites_scripts():
    tokio = audited('other-ior-script-tokio-mpiio1m2.in')
    assert tokio.error is None
    # no writeFile nor readFile: IOR writes then reads back, no reorder
    assert {f.pitfall for f in tokio.findings} >= {'S4', 'S5'}
    lanl = audited('other-ior-script-lanl-load1-mpiio-shared.ior')
    found = {f.pitfall: f for f in lanl.findings}
    # reorderTasksConstant=1 and fsync=1: not S4; one shared file: S5
    assert 'S4' not in found
    assert found['S5'].certainty.startswith('depends')


@pytest.mark.parametrize('line, said', [
    ('nosuchdirective=1', "IOR knows no directive 'nosuchdirective'"),
    ('blockSize', 'IOR reads no directive'),
])
def test_a_directive_ior_refuses_is_refused_naming_it(line, said):
    script = read('bug-multi-node.conf').replace('RUN', f'{line}\nRUN')
    report = audit_text('broken.ior', script)
    assert report.invocations == [] and said in report.error


def test_a_script_without_its_start_line_is_not_ior_s():
    script = read('bug-multi-node.conf').replace('IOR START', '')
    assert not iorscript.is_script(script)
    with pytest.raises(judge.Unreadable, match='no "IOR START"'):
        iorscript.commands('x.ior', script)


def argv_report(*argv, directory=DIR):
    return judge.audit_argv(list(argv), judge.new_context(
        'argv', 24 * GIB, directory=directory))


def test_a_command_line_runs_the_script_it_names():
    '''``ior -W -f script``: the script's tests, each under the command's
    launcher with the options before -f (IOR's scripts.rst: those after
    it do not apply to the script's runs).'''
    report = argv_report('srun', '-N', '2', '-n', '8', 'ior', '-W', '-f',
                         'bug-multi-node.conf', '-k')
    assert report.error is None
    (invocation,) = report.invocations
    assert invocation.where.file == 'bug-multi-node.conf'
    realistic = invocation.realistic.split()
    assert realistic[:6] == ['srun', '-N', '2', '-n', '8', 'ior']
    assert '-k' not in realistic         # after -f: not the script's


def test_a_script_that_is_not_here_is_said_not_judged(tmp_path):
    report = argv_report('ior', '-f', 'bug-multi-node.conf',
                         directory=str(tmp_path))
    assert report.error is None
    assert any('-f: an IOR script file' in note for inv in
               report.invocations for note in inv.not_judged)


def test_tasks_shuffled_are_not_read_as_shifted():
    '''LANL's example script (tests/data/audit/probe): its first test
    reorders the tasks at random (reordertasksrandom=1), not by -Q.'''
    path = os.path.join(fixtures.path('audit'), 'probe',
                        'lanl-ior-exampleScript')
    with open(path) as fp:
        report = audit_text(path, fp.read())
    first = report.invocations[0]
    (s4,) = [f for f in first.findings if f.evidence.startswith('-Z')]
    assert s4.evidence == '-Z: a task reads the data of a task drawn at random'
    assert s4.certainty.startswith('depends')
