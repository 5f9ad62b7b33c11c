'''Readings the sixth corpus's development half taught (issue 46;
tests/data/audit/corpus6.yaml, labelled blind to the audit), each held
on its input.  No held-out input is named here.'''

import pytest

from later_corpora import audited as audited_in, pitfalls
from microbench.audit import judge
from microbench.audit.findings import CERTAIN


def audited(name):
    return audited_in('corpus6', name)


def test_an_osu_benchmark_built_under_a_machine_s_name():
    # $ srun -n2 -c8 --cpu-bind=thread ... ./osu_bw-tioga -m ... D D
    (invocation,) = audited(
        'renamed-or-glob-program-mpibind-osu-bw-tioga.txt').invocations
    assert 'N1' in pitfalls(invocation)             # osu_bw's one buffer


def test_a_container_s_args_that_start_with_the_program():
    # image: mayadata/fio, args: [fio, /config/fio.conf]: fio runs the
    # job file, not a job file named fio; the ConfigMap's job is judged
    # where it is written
    report = audited('other-mayastor-k8s-fio.yaml')
    command, *jobs = report.invocations
    assert command.where.text == 'fio /config/fio.conf'
    assert any('/config/fio.conf: not found here' in note
               for note in command.not_judged)
    # the missing file is the ConfigMap's, mounted: its jobs, judged
    # where they are written, say what fio's defaults do
    assert any('ConfigMap' in note for note in command.not_judged)
    assert {'S1', 'S2'}.isdisjoint(pitfalls(command))
    assert [job.where.text for job in jobs] == [
        f'[volume-{k}]' for k in range(1, 5)]


@pytest.mark.parametrize('name, api', [
    ('batch-script-mochi-polaris-ior.qsub', 'RADOS'),
    ('batch-script-mochi-cooley-mobject.qsub', 'RADOS'),
    ('plain-ior-chfs-dev-readme.txt', 'CHFS'),
    ('plain-ior-chfs-test-sh.txt', 'CHFS')])
def test_a_write_to_a_storage_service_depends_on_its_servers(name, api):
    # ior -a RADOS to a Mochi mobject server the job starts; ior -a CHFS
    # to the ad hoc file system's servers: no client page cache (no S4
    # certain), but the write figure is what the servers acknowledge
    invocations = [i for i in audited(name).invocations
                   if i.tool == 'IOR']
    assert invocations
    for invocation in invocations:
        assert pitfalls(invocation)['S1'] != CERTAIN
        assert pitfalls(invocation).get('S4', 'depends') != CERTAIN
        (finding,) = [f for f in invocation.findings if f.pitfall == 'S1']
        assert f'-a {api}' in finding.evidence
        assert f'servers of {api}' in finding.certainty


@pytest.mark.parametrize('line, s1', [
    ('ior -a CHFS -w -o /chfs/f', True),
    ('ior -a RADOS -w -r -o f', True),
    ('ior -a RADOS -w -e -o f', False),         # flushed in the phase
    ('ior -a DFS -w -o /f', False),             # DAOS: persistent on ack
    ('ior -a S3-libs3 -w -o bucket', False),    # S3: durable on ack
    ('ior -a MPIIO -w -o pvfs2://mnt/f', True),
    ('ior -a MPIIO -w -o daos:/f', False),
    ('ior -a RADOS -r -o f', False),            # no write phase
    ('ior -a POSIX -w -o /scratch/f', False)])  # the client's: S4
def test_which_service_writes_depend_on_their_servers(line, s1):
    path = 'line.txt'
    report = judge.audit_bytes(path, line.encode(), judge.new_context(
        path, 24 * 2**30))
    (invocation,) = report.invocations
    assert ('S1' in pitfalls(invocation)) is s1
    if line.startswith('ior -a POSIX'):
        assert 'S4' in pitfalls(invocation)     # the unflushed write


def test_a_here_document_written_to_a_variable_s_file():
    # CONFIG_FILE=".../config-$SLURM_JOBID.ini"; cat <<EOF > "$CONFIG_FILE"
    # (datadir = $DW_JOB_STRIPED, transferSize = 8m); srun io500 "$CONFIG_FILE"
    report = audited('io500-sh-glennklockwood-10node-hsw.sbatch')
    easy = report.invocations[0]
    assert '-t 8m' in easy.where.text
    assert '$DW_JOB_STRIPED/ior-easy' in easy.where.text
    # a DataWarp allocation is striped by DataWarp, not Lustre's layout
    assert not any('S5' in pitfalls(inv) for inv in report.invocations)
