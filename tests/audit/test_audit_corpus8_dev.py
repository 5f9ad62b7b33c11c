'''Readings the eighth corpus's development half taught (issue 46;
tests/data/audit/corpus8.yaml, labelled blind to the audit, 7 of its 19
first refused), each held on its input.  No held-out input is named
here.'''

from later_corpora import audited as audited_in, pitfalls, text
from microbench.audit.findings import CERTAIN


def audited(name, data=None):
    return audited_in('corpus8', name, data)


def only(name, data=None):
    report = audited(name, data)
    assert report.error is None, report.error
    (invocation,) = report.invocations
    return invocation


def test_a_distribution_s_packaged_osu_program():
    # Fedora's and RHEL's mpitests-openmpi: mpitests-osu_get_bw
    invocation = only('renamed-or-glob-program-ompi-devel-mpitests-get-bw.txt')
    assert invocation.tool == 'OSU'
    assert 'N1' in pitfalls(invocation)


def test_placeholders_of_several_words_and_rotated_hosts():
    # elbencho --hosts <hosts> --rotatehosts=1 -t <threads per node> ...
    name = 'elbencho-args-liu-arrhenius-seq.txt'
    invocation = only(name)
    assert invocation.tool == 'elbencho'
    # each host reads what the host next to it wrote, unless the hosts
    # are as many as the rotation: depends on <hosts>
    assert pitfalls(invocation)['S4'] != CERTAIN
    assert '<hosts>' in [f for f in invocation.findings
                         if f.pitfall == 'S4'][0].certainty
    plain = text('corpus8', name).replace('--rotatehosts=1 ', '')
    assert 'S4' in pitfalls(only(name, plain))
    two = text('corpus8', name).replace('<hosts>', 'n1,n2')
    assert 'S4' not in pitfalls(only(name, two))       # n2 reads n1's


def test_a_command_given_as_one_inline_code_span():
    # `srun --ntasks=100 ... ior -v -a POSIX -g -w -r -e -z ...`
    invocation = only('plain-ior-esifhpc-posix-random.txt')
    assert invocation.tool == 'IOR'
    assert invocation.where.text.startswith('`srun')


def test_a_back_end_s_own_options():
    # mdtest -a=CUBEFS --cubefs.conf=FILE: CubeFS's option, not refused
    invocation = only('plain-mdtest-yuangcao-cubefs.txt')
    assert any(note.startswith('--cubefs.conf: an option of IOR\'s cubefs')
               for note in invocation.not_judged)
    # an option of a back end the table knows is still checked
    bad = text('corpus8', 'plain-mdtest-yuangcao-cubefs.txt').replace(
        '-a=CUBEFS', '-a=POSIX').replace('--cubefs.conf', '--posix.conf')
    assert 'has no option --posix.conf' in audited(
        'plain-mdtest-yuangcao-cubefs.txt', bad).error


def test_a_script_given_a_benchmark_s_command_line():
    # ./run_guest.sh $cmd --direct=1: cmd="fio --minimal --rw=$rw ..."
    report = audited('shell-variable-program-cpc-qemu-fio.sh')
    (invocation,) = report.invocations
    assert invocation.tool == 'fio'
    found = pitfalls(invocation)
    assert found['S2'] != CERTAIN and found['S3'] != CERTAIN  # rw=$rw
    assert 'S1' not in found                        # --sync=1


def test_the_script_a_transcript_shows_with_cat():
    # $ cat ior_snx_slurm.sh, then the script, then $ sbatch ...
    report = audited('other-farhanma-shaheen2-ior.md')
    (invocation,) = report.invocations
    assert invocation.tool == 'IOR'
    assert invocation.where.line == 98


def test_mpiio_ignores_o_direct():
    # api=MPIIO, useO_DIRECT=1: "O_DIRECT not implemented in MPIIO"
    report = audited('ior-script-banisharif-ior-script.txt')
    assert 'S4' in pitfalls(report.invocations[0])
    posix = text('corpus8', 'ior-script-banisharif-ior-script.txt').replace(
        'api=MPIIO', 'api=POSIX')
    assert 'S4' not in pitfalls(audited(
        'ior-script-banisharif-ior-script.txt', posix).invocations[0])


def test_the_io500_of_2017_run_with_options():
    # srun io500 -w $workdir -r $resdir -s 300 ... -e "-F -t 1m -b 128g"
    report = audited('batch-redirect-vi4io-dkrz-io500.slurm')
    phases = [inv.where.text.split(']')[0][1:] for inv in report.invocations]
    assert phases == ['ior-easy-write', 'mdtest-easy-write',
                      'ior-hard-write', 'mdtest-hard-write', 'ior-easy-read',
                      'mdtest-hard-stat', 'ior-hard-read',
                      'mdtest-hard-read', 'mdtest-easy-stat']
    easy_read = report.invocations[4]
    assert '-F -t 1m -b 128g' in easy_read.where.text     # -e's options
    assert 'S4' in pitfalls(easy_read)                    # no -C
    # the script runs lfs setstripe on ior_hard first: no S5
    assert all('S5' not in pitfalls(inv) for inv in report.invocations)
