'''Readings the ninth corpus's development half taught (issue 46;
tests/data/audit/corpus9.yaml, labelled blind to the audit, 9 of its 20
first refused), each held on its input.  No held-out input is named
here.'''

import pytest

from later_corpora import audited as audited_in, pitfalls, text
from microbench.audit import measure
from microbench.audit.findings import CERTAIN


def audited(name, data=None):
    return audited_in('corpus9', name, data)


def test_a_container_that_runs_a_shell_script():
    # command: ["/bin/bash", "-c", "|\n set -eux ... fio ... fio ..."]
    name = 'other-cluster-toolkit-tpu7x-fio-jobset.yaml'
    report = audited(name)
    assert [inv.tool for inv in report.invocations] == ['fio'] * 3
    assert [inv.where.line for inv in report.invocations] == [63, 68, 73]
    assert text('corpus9', name).splitlines()[62].strip().startswith('fio')
    write = report.invocations[1]
    assert '--readwrite=write' in write.where.text
    assert pitfalls(write)['M1'] == CERTAIN           # the job runs once


def test_a_script_a_configmap_holds():
    # osu-launcher: "#!/bin/bash\n ... mpirun ... osu_latency ..."
    report = audited('other-metrics-operator-osu-configmap.yaml')
    programs = [inv.where.text.rsplit('/', 1)[-1] for inv in
                report.invocations]
    assert 'osu_latency' in programs and 'osu_bw' in programs
    assert all(inv.where.line == 8 for inv in report.invocations)


def test_a_dockerfile_s_cmd():
    # CMD ["mpiexec", "-n", "2", "-bind-to", "core", "./osu_latency"],
    # OSU 5.6.1 from its RUN's tarball
    report = audited('plain-osu-p2p-sarus-mpich314-osu.Dockerfile')
    assert report.kind == 'dockerfile'
    (invocation,) = report.invocations
    assert invocation.where.line == 17
    assert pitfalls(invocation)['N1'] == CERTAIN
    assert any('5.6.1' in f.note for f in invocation.findings if f.note)
    assert 'M1' not in pitfalls(invocation)           # an image, not a run


@pytest.mark.parametrize('name', [
    'plain-osu-p2p-aws-do-eks-efa.yaml-template'])
def test_a_yaml_template_is_yaml(name):
    report = audited(name)
    assert report.kind == 'yaml'
    (invocation,) = report.invocations
    assert invocation.tool == 'OSU'


def test_lustre_s_mpi_run_launches():
    # Lustre's sanity.sh: mpi_run -np $np $MDTEST -T -F -n 1000 -d ...
    report = audited('plain-mdtest-lustre-sanity-statahead.txt')
    (invocation,) = report.invocations
    assert invocation.tool == 'mdtest'
    assert 'S4' in pitfalls(invocation)               # no -N


@pytest.mark.parametrize('data, said', [
    ('FROM x\nCMD ["mpiexec", "-n", \n', 'none of whose RUN, CMD'),
    ('FROM x\nENV\nRUN\nCMD []\n', 'none of whose RUN, CMD'),
    ('\x00\x01garbage\n', None),
    ('', 'empty')])
def test_a_broken_dockerfile_is_one_line_of_refusal(data, said):
    report = audited('plain-osu-p2p-sarus-mpich314-osu.Dockerfile', data)
    assert report.error and not report.invocations
    assert said is None or said in report.error


def test_a_script_that_goes_to_lustre_and_runs_ior_through_mpiio():
    # cd "${LUSTRE_SCRATCH_DIR}" (/expanse/lustre/scratch/...), then
    # ior -a MPIIO ... -C -e on one node, its shared file there
    report = audited('batch-script-sdsc-si2022-ior.sh')
    (invocation,) = report.invocations
    found = pitfalls(invocation)
    assert found['S5'] != CERTAIN                 # the directory's layout
    assert found['S4'] == CERTAIN                 # one node: -C stays
    # MPIIO ignores O_DIRECT: the realistic form fills memory instead;
    # --measure, which measures a read on one node against O_DIRECT,
    # says it cannot here
    assert '--posix.odirect' not in invocation.realistic
    assert '-M 80%' in invocation.realistic
    (s4,) = [f for f in invocation.findings if f.pitfall == 'S4']
    said = measure._ior_forms(invocation, s4)
    assert said.startswith('its back end, MPIIO, ignores O_DIRECT')


def test_a_template_s_launcher_in_brackets():
    # JUBE's " [mpiexec] -n $nodes ... ior -a POSIX -C -Q ... -r -w -F":
    # a command whose launcher the template fills in, not a job file
    report = audited('plain-ior-jubench-ior-posix-easy.txt')
    assert report.kind == 'command'
    (invocation,) = report.invocations
    assert invocation.tool == 'IOR'
    assert 'S4' in pitfalls(invocation)


def test_a_go_program_is_refused_as_one():
    # PINGPONG_COMMAND = "fi_pingpong": a Go test builds its commands
    report = audited('fi-pingpong-aws-k8s-tester-efa.go')
    assert report.error.endswith('a Go program, not a ReFrame check: the '
                                 'audit parses ReFrame checks and runs no Go')
