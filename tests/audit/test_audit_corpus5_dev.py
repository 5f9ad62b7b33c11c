'''Readings the fifth corpus's development half taught (issue 46;
tests/data/audit/corpus5.yaml, labelled blind to the audit, 5 of its 18
first refused), each held on the input that taught it.  The held-out
half is never named here.'''

from microbench.audit.findings import CERTAIN

from later_corpora import audited as audited_in, pitfalls


def audited(name):
    return audited_in('corpus5', name)


def test_ssh_options_after_the_host_and_the_remote_shell_s_own_steps():
    # ssh -l liu localhost -p 8080 "cd uNVMe/app/fio_plugin; sudo
    # ./fio-3.3 workloads/${workload}_load.fio &>~/log/..."
    report = audited('renamed-or-glob-program-kvemu-fio-3.3.sh')
    assert [inv.tool for inv in report.invocations] == ['fio'] * 3
    first = report.invocations[0]
    # the job file is not here: how often fio repeats it is the file's,
    # and whether it keeps fio's buffered writes and layout
    assert pitfalls(first)['M1'] != CERTAIN
    assert any('not found here' in note for note in first.not_judged)
    for invocation in report.invocations:
        assert pitfalls(invocation)['S1'] != CERTAIN
        assert pitfalls(invocation)['S2'] != CERTAIN
        assert 'S3' not in pitfalls(invocation)     # not fio's default


def test_a_check_s_f_string_options_and_its_parameters():
    # f"--rw={self.mode}", mode = parameter(["read", "write"]): a test
    # each, as ReFrame makes them
    report = audited('reframe-check-charmed-hpc-fio.py')
    texts = [inv.where.text for inv in report.invocations]
    assert [t.split(':')[0] for t in texts] == [
        'fio_check_home %mode=read', 'fio_check_home %mode=write',
        'fio_check_nfs %mode=read', 'fio_check_nfs %mode=write']
    write = report.invocations[1]
    assert '--rw=write' in write.where.text.split()
    assert 'S2' in pitfalls(write) and 'S2' not in pitfalls(
        report.invocations[0])


def test_a_command_a_document_wrapped_is_joined_again():
    # mpirun ... ~/bin/mdtest -i 3 -b
    # $Directories -z 1 -L -I 1024 -y -u -t -F
    report = audited('plain-mdtest-dell-beegfs.txt')
    assert report.error is None
    (invocation,) = report.invocations
    assert invocation.where.text.endswith('-b $Directories -z 1 -L -I 1024 '
                                          '-y -u -t -F')


def test_romio_s_user_space_driver_has_no_client_page_cache():
    # for rep in `seq 1 $REP` (REP=1): mpiexec ... $IOR_BIN -a MPIIO ...
    # -o pvfs2://mnt/nvme/...
    report = audited('shell-variable-program-utility-scripts-orangefs-'
                     'ior.sh')
    assert report.invocations
    for invocation in report.invocations:
        assert 'S4' not in pitfalls(invocation)
        assert 'S5' not in pitfalls(invocation)
        assert pitfalls(invocation)['M1'] == CERTAIN    # seq 1 1: once
    # the writes (no -e) reach OrangeFS's servers, whose cache is theirs
    writes = [i for i in report.invocations if 'S1' in pitfalls(i)]
    assert writes and all(pitfalls(i)['S1'] != CERTAIN for i in writes)
    assert 'pvfs2' in writes[0].findings[0].certainty


def test_a_mixed_job_reads_what_its_own_writes_cached():
    # ./fio -ioengine=psync -bs=32k -fdatasync=1 -rw=randrw
    # -percentage_random=100,0 -size={{ benchmark_size }} ...
    report = audited('other-tidb-ansible-fio-latency-task.yml')
    (invocation,) = report.invocations
    assert pitfalls(invocation)['S4'] != CERTAIN       # randrw: depends
