'''Readings the tenth corpus's development half taught (issue 46;
tests/data/audit/corpus10.yaml, labelled blind to the audit, 5 of its 19
first refused), each held on its input.  No held-out input is named
here.'''

import shlex

import pytest

from later_corpora import audited as audited_in, pitfalls
from microbench.audit import words
from microbench.audit.findings import CERTAIN


def audited(name, data=None):
    return audited_in('corpus10', name, data)


def _osu(program):
    return program.startswith('osu_')


@pytest.mark.parametrize('line, nodes, tasks, binding', [
    ('flux run -N4 -n 352 -o cpu-affinity=per-task ./osu_allreduce',
     4, 352, 'bound'),
    ('flux mini run -N 2 -n 2 ./osu_bw', 2, 2, None),
    ('flux submit -N2 -n4 -o cpu-affinity=off ./osu_bw', 2, 4, 'unbound')])
def test_flux_launches(line, nodes, tasks, binding):
    launch = words.launch(shlex.split(line), _osu)
    assert (launch.launcher, launch.nodes, launch.tasks, launch.binding) == \
        ('flux', nodes, tasks, binding)


def test_flux_s_job_around_a_container():
    # time flux run ... -N4 -n 352 ... singularity exec IMAGE .../osu_allreduce
    report = audited('plain-osu-collective-google-perf-study-allreduce.txt')
    (invocation,) = report.invocations
    assert invocation.tool == 'OSU' and invocation.findings == []


def test_a_wrapper_function_of_another_file():
    # justcmd ${TEST_DIR}/bin/runfabtests.sh -vvv -g ... -t all ...
    (invocation,) = audited(
        'plain-fabtests-hpe-zhpe-runfabtests.txt').invocations
    assert pitfalls(invocation) == {'N2': CERTAIN}


@pytest.mark.parametrize('line, runs', [
    ('justcmd runfabtests.sh -vvv -t all verbs', True),
    ('echo fio --name=t', False),          # prints it
    ('spack install fio', False)])
def test_a_wrapper_runs_what_follows_it(line, runs):
    launch = words.launch(line.split(), lambda p: p in ('fio',
                                                        'runfabtests.sh'))
    assert (launch.program in ('fio', 'runfabtests.sh')) is runs


def test_a_command_string_a_function_runs_on_a_host():
    # local cmd="/usr/bin/runfabtests.sh"; ...
    # tp $host "${cmd} -v -t short ${verbs_options} verbs $server_ip ..."
    report = audited('shell-variable-program-suse-hpc-testing-libfabric.sh')
    assert [inv.where.line for inv in report.invocations] == [70, 73]
    assert all(pitfalls(inv)['N2'] == CERTAIN for inv in report.invocations)


def test_a_job_file_the_caller_names():
    # JOBFILE=$1 ... $FIO "$JOBFILE" --output-format=json ...
    report = audited('renamed-or-glob-program-benchfioplot-FIO-var.sh')
    assert report.error is None
    first = report.invocations[0]
    assert {'S1', 'S2', 'M1'} <= set(pitfalls(first))
    assert any('job file $1: a variable the input does not set' in note
               for note in first.not_judged)


def test_mdtest_s_written_bytes_are_said_not_judged():
    # mdtest -CLF -w 1024 ...: 0x23 repeated up to IOR 3.2, 1..255 in 3.3
    (invocation,) = audited('plain-mdtest-csdn-clf.txt').invocations
    assert 'S6' not in pitfalls(invocation)
    assert any(note.startswith('S6: -w 1024: mdtest up to IOR 3.3')
               for note in invocation.not_judged)
    changed = audited('plain-mdtest-csdn-clf.txt',
                      'mdtest -CLF -w 1024 -d ./ --dataPacketType=random\n')
    assert not any(note.startswith('S6') for note in
                   changed.invocations[0].not_judged)


def test_a_script_that_names_its_file_system():
    # echo dimensions: '{... "filesystem": {"name": "quobyte", ...}'; io500
    report = audited('io500-sh-jasmin-quobyte-1node.sh')
    ior = [inv for inv in report.invocations if inv.tool == 'IOR']
    assert ior and not any('S5' in pitfalls(inv) for inv in ior)
    assert all(any('names quobyte' in note for note in inv.not_judged)
               for inv in ior)
