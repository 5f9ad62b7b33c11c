'''A fifth set of real public inputs (tests/data/audit/probe3; each
file's source and what the audit does with it in its SOURCES.tsv): 23
fio job files and scripts and 16 scripts and files of IOR, mdtest, OSU
and fabtests, gathered after issue 46's rules and apart from every
corpus (files sharing more than 40 % of their lines with a corpus or
probe file were dropped unseen).  On its first run the audit refused or
misread 13 of them; what it now reads of each is held here.'''

import os

import pytest

from microbench.audit import batch, shellflow

import probesets


def audited(name):
    return probesets.audited('probe3', name)


DIR = probesets.directory('probe3')


def programs(report):
    return [inv.tool for inv in report.invocations]


@pytest.mark.parametrize('name', ['mirrordisk_bs_sweep.sh',
                                  'vm_rtt_8kread.sh'])
def test_fio_options_with_one_dash_as_getopt_long_only_reads_them(name):
    # fio -filename=/dev/$line -direct=1 -rw=read ... -name=...
    report = audited(name)
    assert set(programs(report)) == {'fio'} and report.not_read == []


def test_a_fio_job_file_named_job_with_comments_after_its_headers():
    report = audited('fiosets_thread_rw.job')
    assert report.kind == 'fio'          # not a batch job: sections only
    # `[job_read]  # job name`: fio --showcmd names the job job_read
    assert [inv.where.line for inv in report.invocations] == [6, 26]
    assert audited('ketor_multidev.job').kind == 'fio'


def test_a_command_substitution_with_pipes_runs_its_command():
    # RESULT=$(fio ... --runtime=${TIME} | grep iops | cut -d "=" -f4)
    report = audited('panticz_param_sweep.sh')
    assert set(programs(report)) == {'fio'} and len(programs(report)) == 81
    assert shellflow.parts('R=$(fio --x | grep a); b') == [
        'R=$(fio --x | grep a)', ' b']


def test_numactl_membind_then_the_program():
    report = audited('dpfs_workload_fio.sh')
    assert programs(report) == ['fio', 'fio']
    assert 'numactl -m 1 -C 27 fio --ramp_time=10s' in \
        report.invocations[0].realistic


def test_a_container_image_named_for_its_tool_runs_it():
    # podman run -it --rm -v A:B:Z ljishen/fio --output-format=json ...
    (invocation,) = audited('etcd_thin_thick_fio.sh').invocations
    assert invocation.tool == 'fio'
    # its options are fio's: --fdatasync=1 flushes every write
    assert any(said.startswith('S1: fdatasync=1')
               for said in invocation.not_judged)


def test_a_program_found_by_which_is_that_program():
    # IOR="$(which ior)"; runTest "$WLM $IOR -s $S ..." (a function);
    # WLM="... -np $(($NN*$PPN))" set in the loops: a sweep of them
    report = audited('joobog-batch_job.sh')
    assert set(programs(report)) == {'IOR'}
    assert sorted({inv.where.line for inv in report.invocations}) == [
        238, 242, 248, 252]
    assert not any('read as ior' in said for inv in report.invocations
                   for said in inv.not_judged)


def test_a_command_run_over_ssh_is_read_as_the_remote_shell_reads_it():
    # ssh cn$j "nohup .../IOR -a POSIX ... >/WORK/... 2>&1 &"
    report = audited('jayyuchina-ior.sh')
    assert programs(report) == ['IOR', 'IOR']
    with open(os.path.join(DIR, 'jayyuchina-ior.sh')) as fp:
        (command,) = [c for c in batch.commands('x.sh', fp.read())
                      if c.where.line == 25]
    assert command.words[:3] == ['ssh', 'cn$j', 'nohup']
    assert command.words[-1] == '1'          # -i 1; no redirect, no &


def test_a_yaml_specs_command_and_not_its_keys():
    # Flux Operator: `command: ./osu_get_latency` on line 29
    (invocation,) = audited('fluxop-osu-minicluster.yaml').invocations
    assert invocation.tool == 'OSU' and invocation.where.line == 29
    # ramble: `osu_latency:` is a workload's name, not a command
    ramble = audited('benchpark-osu-ramble.yaml')
    assert 'none of whose values runs a benchmark' in ramble.error


def test_bash_arrays_are_their_elements_each_a_word():
    # fio_jobs=( seq-1m-q8t1.fio ... ) over lines, with comments;
    # fio_args=("--filename=${testfile}" "--size=${size}");
    # for job in "${fio_jobs[@]}"; do fio ... "${fio_args[@]}"
    with open(os.path.join(DIR, 'crystaldiskmark_fio.sh')) as fp:
        run = [c for c in batch.commands('x.sh', fp.read())
               if c.where.line == 127]
    assert len(run) == 8                      # a sweep of the 8 jobs
    assert run[0].words[1].endswith('/jobs/seq-1m-q8t1.fio')
    # the else branch's array, the last set; each element its own word
    # (declare size="5g": the default the script declares)
    assert run[0].words[-2:] == ['--filename=$1', '--size=5g']
