'''Readings the seventh corpus's development half taught (issue 46;
tests/data/audit/corpus7.yaml, labelled blind to the audit), each held
on its input.  No held-out input is named here.'''

import pytest

from later_corpora import audited as audited_in, pitfalls, text
from microbench.audit.findings import CERTAIN

#: libfabric's Jenkins step: srun of Cray's wrapper of runfabtests.sh
WRAPPER = 'fi-pingpong-shs-libfabric-srun-fabtests.txt'
#: a batch script whose commands are strings it runs with eval, in a
#: function called with a launcher as its argument
EVAL = 'renamed-or-glob-program-libhear-osu-allreduce-float.sh'
#: an Ansible role's Jinja template: fio's rw and the rounds of a while
#: loop are the role's variables
TEMPLATE = 'other-ansible-role-fio-benchmark-template.sh.j2'


def audited(name, data=None):
    return audited_in('corpus7', name, data)


def test_fabtests_own_driver_runs_its_benchmarks_polling():
    (invocation,) = audited(WRAPPER).invocations
    assert invocation.tool == 'fabtests'
    assert pitfalls(invocation)['N2'] == CERTAIN    # the short set spins
    assert pitfalls(invocation)['N3'] != CERTAIN    # srun: the site's
    assert 'fi_msg_pingpong -I 5' in invocation.findings[0].evidence


@pytest.mark.parametrize('words, n2', [
    ("-C '-c fd' -L '-c fd'", False),      # both sides wait
    ("-C '-c fd'", True),                   # the server still spins
    ('-t unit,functional', False),          # no benchmark set
    ('-t all', True)])
def test_what_the_driver_s_options_change(words, n2):
    line = text('corpus7', WRAPPER)
    assert 'fabtest_wrapper.sh -p' in line
    report = audited(WRAPPER, line.replace(
        'fabtest_wrapper.sh -p', f'fabtest_wrapper.sh {words} -p'))
    (invocation,) = report.invocations
    assert ('N2' in pitfalls(invocation)) is n2


def test_a_command_string_run_by_eval_in_a_function():
    # BASELINE_CMD="${SRUN_CMD} ${OSU_PATH} -m ... &> log"; eval
    # $BASELINE_CMD, SRUN_CMD="${2}" given by the loop's call
    report = audited(EVAL)
    assert report.error is None
    (invocation,) = report.invocations
    assert invocation.tool == 'OSU'
    assert 'mpirun' in invocation.where.text or invocation.realistic
    assert pitfalls(invocation)['M1'] == CERTAIN
    assert 'N1' not in pitfalls(invocation)         # a collective


def test_template_variables_leave_the_pitfalls_depending():
    report = audited(TEMPLATE)
    for invocation in report.invocations:
        found = pitfalls(invocation)
        # --rw={{ item.rw }}: judged as the write it may be, depends
        assert found['S2'] != CERTAIN and found['S3'] != CERTAIN
        assert 'S1' not in found                    # --direct=1
        # while [ "$i" -lt {{ fiotest_rounds }} ]: a count not said
        assert found['M1'] != CERTAIN
        (s2,) = [f for f in invocation.findings if f.pitfall == 'S2']
        assert 'rw=<item.rw>' in s2.certainty
