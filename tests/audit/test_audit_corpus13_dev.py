'''Readings the thirteenth corpus's development half taught (issue 46;
tests/data/audit/corpus13.yaml, labelled blind to the audit), each held
on its input.  No held-out input is named here.'''

import shlex

import pytest

from later_corpora import audited as audited_in, pitfalls
from microbench.audit import getopt, judge, programs, words


def audited(name, data=None):
    return audited_in('corpus13', name, data)


@pytest.mark.parametrize('name, tool', [
    ('_fio_perf', 'fio'), ('run_fio', 'fio'), ('do_fio_run', 'fio'),
    ('run_ior.sh', 'ior'), ('fio_plot', None), ('fio', None)])
def test_a_function_named_for_the_tool_it_runs(name, tool):
    assert programs.canonical(name) == tool


def test_blktests_runs_fio_through_its_functions():
    # _fio_perf --bs=4k --rw=randwrite ... --fsync=1 "${opts[@]}" ...
    (invocation,) = audited('fio-sync-blktests-flushes.txt').invocations
    assert invocation.tool == 'fio'
    assert 'S1' not in pitfalls(invocation)          # fsync=1
    assert any("'${opts[@]}' hold" in note
               for note in invocation.not_judged)


@pytest.mark.parametrize('word, name', [
    ('${opts[@]}', 'opts'), ('${o[*]}', 'o'), ('${a[1]}', None)])
def test_an_array_s_elements_the_input_does_not_set(word, name):
    match = getopt.UNSET.match(word)
    assert (match[1] if match else None) == name


def test_a_variable_of_launcher_options_and_a_path_named_program():
    # mpiexec ${HOSTS} --map-by node -n ${PROC} -x LD_PRELOAD=${PRELOAD}
    # ${IOR_PATH} -a POSIX -i ${ITER} -o ... -w -r -F
    (invocation,) = audited('plain-ior-gekkofs-benchmark-check.txt'
                            ).invocations
    assert invocation.tool == 'IOR' and 'S4' in pitfalls(invocation)
    launch = words.launch(shlex.split(
        'mpiexec ${HOSTS} --map-by node -n 4 ${IOR_PATH} -w'), judge._known)
    assert launch.launcher == 'mpiexec' and launch.tasks == 4
    assert launch.argv[0] == '${IOR_PATH}'
    assert programs.canonical('${IOR_PATH}') == 'ior'    # the binary's path
    # a variable followed by the program's options is the program
    launch = words.launch(shlex.split('mpirun -np 4 $EXE -w -r'),
                          judge._known)
    assert launch.argv[0] == '$EXE'
