'''Readings the twelfth corpus's development half taught (issue 46;
tests/data/audit/corpus12.yaml, labelled blind to the audit), each held
on its input.  No held-out input is named here.'''

import shlex

import pytest

from later_corpora import audited as audited_in, pitfalls
from microbench.audit import iorargs, judge, shellloops, words
from microbench.audit.findings import CERTAIN


def audited(name, data=None):
    return audited_in('corpus12', name, data)


def test_a_wrapper_s_own_options_before_the_launcher():
    # cmd_write=(time_json -o FILE "${cmd_mpirun[@]}" "${cmd_ior[@]}" -w)
    # with LD_PRELOAD=.../libunifyfs_mpi_gotcha.so in cmd_mpirun
    report = audited('batch-redirect-tsukuba-pmembb-ior-unifyfs.sh')
    assert report.error is None and report.invocations
    first = report.invocations[0]
    assert first.tool == 'IOR' and pitfalls(first) == {'M1': CERTAIN}
    assert any(note.startswith('LD_PRELOAD=libunifyfs_mpi_gotcha: its calls '
                               'go to UnifyFS') for note in first.not_judged)


@pytest.mark.parametrize('line, launcher', [
    ('time_json -o f.json mpirun -np 4 ior -w', 'mpirun'),
    ('lrun -N2 -T8 ior -w -r -C', 'lrun'),
    ('mywrap -v ior -w', 'mywrap')])     # a runner of its own options
def test_runners_with_options_of_their_own(line, launcher):
    launch = words.launch(shlex.split(line), judge._known)
    assert launch.program == 'ior' and launch.launcher == launcher


def test_lrun_s_nodes_and_a_counting_while_loop():
    # while [ $iteration -le $max_iteration ] (max_iteration=25) around
    # lrun -N$num_nodes -T$tasks_per_node $ior_executable ... -C ...
    (invocation, *_) = audited(
        'batch-script-llnl-wemul-storage-variability.bsub').invocations
    assert pitfalls(invocation) == {'S4': CERTAIN}   # 1 node first; 25 runs


@pytest.mark.parametrize('line, env, count', [
    ('while [ $iteration -le $max_iteration ]', {'iteration': '1',
                                                  'max_iteration': '25'}, 25),
    ('while (( i < 3 ))', {'i': '0'}, 3),
    ('while [ $i -lt $n ]', {'i': '1'}, None),         # n not set
    ('while true', {}, None)])
def test_a_while_loop_that_counts(line, env, count):
    assert shellloops.while_count(line, env)[1] == count


def test_romio_s_striping_hint_from_the_environment():
    # export IOR_HINT__MPI__striping_factor=$stripe; ... ior -a MPIIO ...
    report = audited('batch-script-radix-io-sleuthing-polaris-stripes.sh')
    assert report.invocations
    assert not any('S5' in pitfalls(inv) for inv in report.invocations)


def test_an_ansible_task_s_loop_repeats_its_command():
    # shell: fio --name=randread ... ; with_sequence: count=5
    report = audited('other-vps-comparison-ansible-fio.yml')
    assert [inv.where.line for inv in report.invocations] == [11, 37]
    assert not any(inv.findings for inv in report.invocations)


@pytest.mark.parametrize('prefix, env, said', [
    (['mpirun', '-x', 'LD_PRELOAD=/opt/daos/lib64/libioil.so'], {},
     ('libioil', 'DAOS')),
    (['srun'], {'LD_PRELOAD': '/x/libpil4dfs.so'}, ('libpil4dfs', 'DAOS')),
    (['mpirun', '-x', 'LD_PRELOAD=/x/libdarshan.so'], {}, None)])
def test_an_interception_library(prefix, env, said):
    launch = words.launch([*prefix, 'ior', '-w'], judge._known)
    assert iorargs.interposed(launch, env) == said
