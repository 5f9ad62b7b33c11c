'''A sixth set of real public inputs (tests/data/audit/probe4; each
file's source and what the audit does with it in its SOURCES.tsv): 23
documents, YAML specs, scripts and programs of mdtest, elbencho,
fabtests, fio, IOR and OSU, gathered after issue 46's rules and apart
from every corpus (near copies dropped unseen).  On its first run the
audit refused 11 and misread one (prose of a Python program taken for
fi_pingpong commands); what it now reads of each is held here.'''

import pytest

import probesets


def audited(name):
    return probesets.audited('probe4', name)


def tools(report):
    return [inv.tool for inv in report.invocations]


def test_markdown_code_blocks_and_lines_of_code_never_prose():
    # uknss: prose says "mdtest will execute ..."; its code is
    # `mdtest -F -C -T -r -n <n> -d <dir> -N <N>` and a fenced block
    report = audited('uknss_README.mdtest.UKNSS.md')
    assert report.kind == 'markdown' and report.not_read == []
    assert [inv.where.line for inv in report.invocations] == [37, 39, 64]
    # ar545: `sudo ./fi_pingpong -p sockets` alone on its lines
    assert tools(audited('ar545_libfabric.md')) == ['fi_pingpong'] * 3


def test_a_console_transcripts_root_prompt_and_an_images_tag():
    # amaczuga: `# docker run ... ug1ybob/elbencho:v1.8-1 -r ... --direct`
    report = audited('amaczuga_elbencho_docker_README.md')
    last = report.invocations[-1]
    assert last.where.line == 34 and last.tool == 'elbencho'
    assert last.findings == []                      # --direct: no S1
    assert any('read as elbencho' in said for said in last.not_judged)


def test_fio_version_in_a_guide_runs_no_job_and_is_not_refused():
    # arm: ```bash fio --version``` before the runs
    report = audited('arm_using_fio.md')
    assert report.not_read == [] and tools(report) == ['fio', 'fio']


def test_kubectl_exec_runs_its_command_in_the_pod():
    report = audited('azurelustre_ior_test.sh')
    assert tools(report) == ['IOR', 'mdtest']
    assert report.invocations[1].where.text.startswith('kubectl exec $pod')


@pytest.mark.parametrize('name, lines', [
    # command: [/usr/bin/fio ...]; its ConfigMap's workload.fio job, judged
    # where it is written (line 16: [simple-write])
    ('ocs_workload_cephfs_job.yaml', [48, 16]),
    ('playbench_fio_tasks.yml', [14]),         # shell: fio ...
    ('rafmoshe_elbencho_job-override.yaml', [8])])   # args: [-t, 1, ...]
def test_yaml_values_that_run_and_not_names(name, lines):
    report = audited(name)
    assert report.not_read == []
    assert [inv.where.line for inv in report.invocations] == lines


def test_fio_pre_read_reads_from_the_page_cache():
    # juicefs: fio ... --rw=randread --size=${default_size} --pre_read=1
    report = audited('juicefs_fio_benchmark.yml')
    (s4,) = [f for inv in report.invocations for f in inv.findings
             if f.pitfall == 'S4']
    assert 'pre_read=1' in s4.evidence and s4.realistic.endswith(
        '--direct=1')


def test_python_programs_are_refused_as_such():
    # modal's docstrings say "fi_pingpong server. Node rank 1 waits ..."
    report = audited('modal_pingpong_efa.py')
    assert 'a Python program, not a ReFrame check' in report.error


def test_a_placeholder_that_may_hold_options_makes_a_finding_depend():
    # `-N <N>`: the stride is what the reader puts there; `mdtest
    # <mdtest_options>`: the options may give -N
    stride, again, options = audited(
        'uknss_README.mdtest.UKNSS.md').invocations
    assert not stride.findings and any(
        said.startswith('S4: -N <N>') for said in stride.not_judged)
    (s4,) = options.findings
    assert s4.certainty.startswith('depends on what <mdtest_options> hold')
