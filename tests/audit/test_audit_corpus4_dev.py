'''Readings the fourth corpus's development half taught (issue 46;
tests/data/audit/corpus4.yaml, labelled blind to the audit, 6 of its 21
first refused), each on its input.  No held-out input is named.'''

import os

from microbench.audit import judge
from microbench.audit.findings import CERTAIN

import probesets
from later_corpora import audited as audited_in, pitfalls


def audited(name):
    return audited_in('corpus4', name)


def test_an_external_engine_s_options_are_its_own():
    # ioengine=external:target/debug/libbfffs_fio.so; pool=, vdevs=
    report = audited('fio-sync-bfffs-ci.fio')
    assert report.error is None
    (invocation,) = report.invocations
    assert any('ioengine=external:' in note
               for note in invocation.not_judged)


def test_a_configmap_s_fio_job_is_read_where_it_is_written():
    # data: fio.job: |- [global] ... rw=randrw direct=1 size=1G
    # time_based runtime=60 ... [testjob]
    report = audited('plain-fio-fio-kubernetes-configmap.yaml')
    assert report.error is None
    (invocation,) = report.invocations
    assert invocation.tool == 'fio' and invocation.where.line == 22
    assert pitfalls(invocation)['S3'] == CERTAIN
    (s3,) = invocation.findings
    assert s3.where.line == 20                       # time_based


def test_a_wrapper_script_named_for_fio_given_fio_s_options():
    # sh /benchmark/fio/common/run_fio.sh -rw=write ... -direct=0
    # -fsync_on_close=1 -time_based=1 -runtime=100
    (invocation,) = audited(
        'fio-sync-asterinas-ext2-buffered-seq-write.sh').invocations
    assert invocation.tool == 'fio'
    assert set(pitfalls(invocation)) == {'S2', 'S3', 'M1'}
    assert any('read as fio' in note for note in invocation.not_judged)


def test_a_branch_false_on_the_script_s_values_does_not_run():
    # IOR_MDTEST="${IOR_MDTEST:-0}" ... if [ "${IOR_MDTEST}" = "1" ] &&
    # [ -x "${MDTEST_BIN}" ]; then mpirun ... mdtest ...; fi
    report = audited('batch-script-awssamples-hpcapps-ior.sbatch')
    assert [inv.tool for inv in report.invocations] == ['IOR']
    assert report.invocations[0].findings == []      # -e -C -i 3, 2 nodes


def test_a_read_after_an_o_direct_write_phase_reads_storage():
    # [ior-hard-write] API = POSIX --posix.odirect, [ior-hard-read] API =
    # (buffered): the write left nothing in a page cache
    report = audited('io500-ini-autoio-lustre-iorhard-odirect.ini')
    (read,) = [inv for inv in report.invocations
               if inv.where.text.startswith('[ior-hard-read]')]
    assert 'S4' not in pitfalls(read)
    assert any('ior-hard-write wrote with O_DIRECT' in note
               for note in read.not_judged)
    (easy,) = [inv for inv in report.invocations
               if inv.where.text.startswith('[ior-easy-read]')]
    assert pitfalls(easy)['S4'] != CERTAIN       # -C -Q 1: the nodes'


def test_a_configmap_job_fio_would_refuse_costs_only_itself():
    # probe4's OCS spec, its ConfigMap job broken: the Job's command is
    # still judged, the broken job said not read
    path = os.path.join(probesets.directory('probe4'),
                        'ocs_workload_cephfs_job.yaml')
    with open(path) as fp:
        text = fp.read().replace('fill_fs=1', 'fill_fs_nosuch=1')
    report = judge.audit_bytes(path, text.encode(), judge.new_context(
        path, 24 * 2**30, directory=os.path.dirname(path)))
    assert report.error is None
    assert [inv.where.line for inv in report.invocations] == [48]
    assert any("fio has no option 'fill_fs_nosuch'" in said
               for said in report.not_read)
