'''A script's lines read as the shell runs them (microbench/audit/batch.py,
shellflow.py): redirects and a final ``&`` are the shell's, a
documentation's ``<placeholder>`` and a template's ``{{ name }}`` are
words, a command substitution runs its command, test expressions run
none, ``NAME+=`` appends; programs named by a variable, renamed or in
OSU's tree under a variable's name.  Real files of the second corpus's
development half (tests/data/audit/corpus2, sources in corpus2.yaml).'''

import shlex

import pytest

from microbench.audit import batch, commandwords, fiojob, programs, words

from corpus2 import audited, text


def pitfalls(report):
    return sorted({f.pitfall for f in report.findings})


def test_redirects_are_the_shells_not_the_programs():
    report = audited('batch-redirect-io500-dev-core.sh')
    assert report.error is None
    # `$mpirun $ior_cmd -w $params_ior_easy > $result_dir/... 2>&1`
    ior = [inv for inv in report.invocations if inv.tool == 'IOR']
    assert ior and all('>' not in inv.realistic for inv in ior)
    # the mdtest phases have no -N: each task stats its own files
    assert 'S4' in pitfalls(report)


def test_a_documentations_placeholder_is_a_word_not_a_redirect():
    report = audited('plain-osu-p2p-hpe-get-bw.txt')
    assert report.error is None
    (invocation,) = report.invocations
    assert '<system_name>n001' in invocation.where.text
    # a one-sided benchmark: one buffer, no release rotates them
    (n1,) = [f for f in invocation.findings if f.pitfall == 'N1']
    assert 'no OSU release' in n1.evidence and n1.realistic is None


def test_a_template_placeholder_names_an_osu_program_in_its_family():
    report = audited('batch-redirect-aws-osu-mbw-mr-openmpi.sh')
    assert report.error is None
    (n1,) = [f for f in report.findings if f.pitfall == 'N1']
    assert '<benchmark_name>' in n1.evidence and 'pt2pt' in n1.evidence
    assert n1.certainty.startswith('depends')
    collective = audited('batch-redirect-aws-osu-collective-openmpi.sh')
    assert collective.error is None
    assert 'N1' not in pitfalls(collective)
    assert any('N1: which OSU benchmark' in note for inv in
               collective.invocations for note in inv.not_judged)


def test_a_command_substitution_runs_its_command():
    report = audited('batch-script-jyamamoto-dbench.sh')
    assert report.error is None
    # READ_IOPS=$(fio ...), WRITE_IOPS=$(fio ...) and the others
    assert len([inv for inv in report.invocations if inv.tool == 'fio']) >= 4


def test_appended_variables_and_a_program_in_osus_tree():
    name = 'shell-variable-program-azurehpc-hpcx-coll.lsf'
    report = audited(name)
    assert report.error is None and report.kind == 'script'
    (invocation,) = report.invocations
    assert invocation.tool == 'OSU' and 'M1' in pitfalls(report)
    # mpi_options+=" --mca ..." lines appended into the launcher's words
    run = [command for command in batch.commands(name, text(name))
           if 'mpirun' in command.words[0]]
    line = ' '.join(run[-1].words)
    assert '--mca btl self --mca pml ucx --mca osc ucx' in line
    assert 'osu-micro-benchmarks-5.3.2/$1 -f' in line


def test_a_renamed_binary_is_read_by_its_name():
    report = audited('renamed-or-glob-program-datawarp-ior-bin.sh')
    assert report.error is None
    assert any("read as ior" in note for inv in report.invocations
               for note in inv.not_judged)
    assert 'S4' in pitfalls(report)


@pytest.mark.parametrize('word, name', [
    ('$ior_cmd', 'ior'), ('${IOR_EXE}', 'ior'), ('$io500_mdtest_cmd',
                                                 'mdtest'),
    ('$IOR_DIR', None), ('$FIO_SIZE', None), ('$BENCH', None),
    ('osu_bw.x', 'osu_bw'), ('ior_bin', 'ior'), ('fio-3.33', 'fio'),
    ('ior.exe', 'ior'), ('ior', None), ('mpirun', None)])
def test_what_a_program_word_names_otherwise(word, name):
    assert programs.canonical(word) == name


def test_a_test_expression_runs_no_command():
    script = text('batch-redirect-io500-dev-core.sh')
    assert '"$ior_cmd" == ""' in script          # its first test line
    report = audited('batch-redirect-io500-dev-core.sh')
    assert all(inv.where.line != 8 for inv in report.invocations)


def test_a_commands_output_in_a_word_is_one_word():
    '''IOR's README names its file test_`date +"%Y%m%d_%H%M%S"`: the
    shell fills it in, one word.'''
    report = audited('plain-ior-readme-s3-debug.cmd')
    assert report.error is None
    (invocation,) = report.invocations
    assert invocation.tool == 'IOR'
    # -a S3: objects over HTTP, no page cache to judge
    assert report.findings == []


@pytest.mark.parametrize('text, said', [
    # a placeholder of several words is one word; a redirect is not one
    ('elbencho -t <threads per node> -w', 'elbencho -t <threads_per_node> -w'),
    ('ior -w <in.txt >out.txt', 'ior -w <in.txt >out.txt'),
    ('ior -w < in > out', 'ior -w < in > out'),
    # a whole line in backticks is a document's inline code, not $(...)
    ('`srun -n 2 ior -w`', 'srun -n 2 ior -w'),
    ('x=`hostname` ior -w', 'x=<hostname> ior -w')])
def test_what_a_document_s_words_become(text, said):
    assert commandwords.substituted(text) == said


@pytest.mark.parametrize('line, runs', [
    ('./run_guest.sh fio --name=t --rw=write --size=1g', True),
    ('./build.sh ior', False),          # builds it: no option follows
    ('./run.py fio --name=t', False)])  # not a shell script
def test_a_script_given_a_benchmark_s_command_line(line, runs):
    launch = words.launch(line.split(), lambda p: p in ('fio', 'ior'))
    assert (launch.program in ('fio', 'ior')) is runs


@pytest.mark.parametrize('line, said', [
    ('bash -c "fio --name=t --rw=write > log"',
     ['fio', '--name=t', '--rw=write']),
    ("docker exec c1 sh -c 'cd /x; ior -w -r'",
     ['docker', 'exec', 'c1', 'ior', '-w', '-r']),
    ('srun -n 2 bash -lc "ior -w"', ['srun', '-n', '2', 'ior', '-w']),
    ('bash run.sh -c 3', ['bash', 'run.sh', '-c', '3'])])  # no -c string
def test_a_shell_given_a_command_string(line, said):
    assert commandwords.program_words(shlex.split(line)) == said


@pytest.mark.parametrize('lines, job', [
    (['[global]', 'rw=write', '[t] ; a job'], True),
    (['[global', 'rw=write'], True),           # cut short: said as such
    (['[mpiexec] -n 4 ior -w -F'], False)])    # a template's launcher
def test_a_section_header_is_a_line_of_its_own(lines, job):
    assert fiojob.is_job_text(lines) is job
