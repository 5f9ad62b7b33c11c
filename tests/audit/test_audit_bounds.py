'''``microbench audit``'s caps (microbench/audit/bounds.py), each at its
edge: what it reads (regular files only, bytes per file and per input,
include depth, count and cycles), what a script expands (loop depth,
sweeps, variables), what it writes (a fio input's realistic forms), and
the one line of every input it refuses.  No test here is timed: the time
and memory against input size are measured by bench/audit_bounds.py.'''

import io
import os
import subprocess
import sys

import pytest

from microbench.audit import bounds, fiojob, judge, render, words
from microbench.cli import main

GIB = 2**30


def audit_file(path, **context):
    with open(path, 'rb') as fp:
        data = fp.read()
    ctx = judge.new_context(str(path), 24 * GIB,
                            directory=os.path.dirname(str(path)), **context)
    return judge.audit_bytes(str(path), data, ctx)


def refused(report, said):
    assert report.error is not None, 'judged, not refused'
    assert said in report.error, report.error
    assert '\n' not in report.error
    assert judge.FAILED not in report.error
    return report.error


def job_including(tmp_path, target, name='job.fio'):
    path = tmp_path / name
    path.write_text(f'[t]\nrw=write\ninclude {target}\n')
    return path


# ---- what it reads --------------------------------------------------------

@pytest.mark.parametrize('target, said', [
    ('/dev/zero', 'a character device, not a regular file'),
    ('/dev/null', 'a character device, not a regular file'),
    ('.', 'a directory, not a regular file'),
])
def test_an_include_of_what_is_no_regular_file_is_refused(tmp_path, target,
                                                          said):
    error = refused(audit_file(job_including(tmp_path, target)), said)
    assert error.startswith(f'{tmp_path}/job.fio:3: include ')


def test_an_include_of_a_fifo_is_refused_without_waiting(tmp_path):
    '''Opened for reading, a FIFO with no writer waits for ever: the audit
    looks before it reads (a process of its own, so that a wait fails the
    test rather than hangs it).'''
    os.mkfifo(tmp_path / 'pipe')
    job_including(tmp_path, 'pipe')
    run = subprocess.run([sys.executable, '-m', 'microbench.cli', 'audit',
                          str(tmp_path / 'job.fio')], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and not run.stderr
    assert 'a FIFO (named pipe), not a regular file' in run.stdout
    assert len(run.stdout.splitlines()) == 1


def test_a_file_past_the_cap_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(bounds, 'MAX_FILE_BYTES', 1000)
    (tmp_path / 'big.fio').write_text('size=1g\n' * 200)          # 1600
    refused(audit_file(job_including(tmp_path, 'big.fio')),
            'larger than the 1000 bytes the audit reads of a file')
    (tmp_path / 'big.fio').write_text('size=1g\n' * 100)          # 800
    assert audit_file(tmp_path / 'job.fio').error is None


def test_an_input_with_its_includes_past_the_cap_is_refused(tmp_path,
                                                             monkeypatch):
    monkeypatch.setattr(bounds, 'MAX_INPUT_BYTES', 3000)
    (tmp_path / 'part.fio').write_text('size=1g\n' * 100)         # 800
    (tmp_path / 'job.fio').write_text('[t]\nrw=write\n'
                                      + 'include part.fio\n' * 4)
    refused(audit_file(tmp_path / 'job.fio'), 'pass 3000 bytes, what the '
            'audit reads for one input')
    (tmp_path / 'job.fio').write_text('[t]\nrw=write\n'
                                      + 'include part.fio\n' * 3)
    assert audit_file(tmp_path / 'job.fio').error is None


def test_include_cycles_are_refused(tmp_path):
    (tmp_path / 'a.fio').write_text('[t]\nrw=write\ninclude b.fio\n')
    (tmp_path / 'b.fio').write_text('size=1g\ninclude a.fio\n')
    refused(audit_file(tmp_path / 'a.fio'), 'an include cycle')
    (tmp_path / 'self.fio').write_text('[t]\ninclude self.fio\n')
    refused(audit_file(tmp_path / 'self.fio'), 'an include cycle')


def _chain(tmp_path, depth):
    for level in range(depth):
        (tmp_path / f'level{level}.fio').write_text(
            f'include level{level + 1}.fio\n')
    (tmp_path / f'level{depth}.fio').write_text('size=1g\n')
    return job_including(tmp_path, 'level1.fio')


def test_includes_nest_to_the_cap_and_no_deeper(tmp_path):
    cap = bounds.MAX_INCLUDE_DEPTH
    assert audit_file(_chain(tmp_path, cap)).error is None
    refused(audit_file(_chain(tmp_path, cap + 1)),
            f'includes nested more than {cap} deep')


def test_an_input_reads_the_capped_number_of_files(tmp_path):
    (tmp_path / 'common.fio').write_text('size=1g\n')
    cap = bounds.MAX_FILES
    (tmp_path / 'job.fio').write_text('[t]\nrw=write\n'
                                      + 'include common.fio\n' * cap)
    assert audit_file(tmp_path / 'job.fio').error is None
    (tmp_path / 'job.fio').write_text('[t]\nrw=write\n'
                                      + 'include common.fio\n' * (cap + 1))
    refused(audit_file(tmp_path / 'job.fio'), f'more than {cap} files')


def test_an_include_is_read_beside_the_file_that_includes_it(tmp_path,
                                                              monkeypatch,
                                                              capsys):
    '''As fio reads it: relative to the including file's directory, also
    when the input is named by a relative path from elsewhere.'''
    (tmp_path / 'sub').mkdir()
    (tmp_path / 'sub' / 'common.fio').write_text('direct=1\nsize=64m\n'
                                                 'fallocate=none\n')
    job_including(tmp_path / 'sub', 'common.fio')
    monkeypatch.chdir(tmp_path)
    assert main(['audit', 'sub/job.fio']) == 0, capsys.readouterr().out


def test_a_job_file_named_on_a_command_line_is_checked_too(tmp_path):
    script = tmp_path / 'run.sh'
    script.write_text('#!/bin/bash\nfio /dev/zero\n')
    error = refused(audit_file(script), 'job file /dev/zero: a character '
                    'device')
    assert error.startswith(f'{script}:2: ')


# ---- what a script expands ---------------------------------------------

def _nested(depth):
    return ('#!/bin/bash\n' + 'for i in 1 2; do\n' * depth
            + 'fio --name=t --rw=write --size=1g\n' + 'done\n' * depth)


def test_loops_nest_to_the_cap_and_no_deeper(tmp_path):
    cap = bounds.MAX_LOOP_DEPTH
    (tmp_path / 'ok.sh').write_text(_nested(cap))
    assert audit_file(tmp_path / 'ok.sh').error is None
    (tmp_path / 'deep.sh').write_text(_nested(cap + 1))
    refused(audit_file(tmp_path / 'deep.sh'),
            f'loops nested more than {cap} deep')


def test_a_sweep_is_judged_for_its_first_configurations(tmp_path):
    script = tmp_path / 'sweep.sh'
    # (each value an option's: a counter used in names only, --name=j$a,
    # counts runs of one command instead)
    items = ' '.join(str(k) for k in range(1, 21))
    script.write_text(f'#!/bin/bash\nfor a in {items}; do\nfor b in {items}'
                      f'; do\nfio --name=j --rw=write --size=${{a}}m '
                      f'--bs=${{b}}k\ndone\ndone\n')
    report = audit_file(script)
    assert report.error is None
    assert len(report.invocations) == bounds.MAX_SWEEP
    said = report.invocations[-1].not_judged
    assert f'{400 - bounds.MAX_SWEEP} more configurations of this sweep' \
        in ' '.join(said)


def test_variables_that_double_are_refused_at_the_cap(tmp_path):
    script = tmp_path / 'double.sh'
    script.write_text('#!/bin/bash\nA=aaaaaaaa\n' + 'A=$A$A\n' * 40
                      + 'fio --name=$A --rw=write\n')
    refused(audit_file(script), 'expand to more than 1.0 MiB of commands')
    script.write_text('#!/bin/bash\nA=aaaaaaaa\n' + 'A=$A$A\n' * 4
                      + 'fio --name=$A --rw=write --size=1g\n')
    assert audit_file(script).error is None


def test_a_command_keeps_the_variables_set_before_it(tmp_path):
    '''One history of every variable, each command a view of it: a later
    setting does not change what an earlier command saw.'''
    script = tmp_path / 'env.sh'
    script.write_text('#!/bin/bash\nexport SLURM_CPU_BIND=none\n'
                      'srun fi_msg_bw -c fd\nSLURM_CPU_BIND=cores\n'
                      'srun fi_msg_bw -c fd\n')
    first, second = audit_file(script).invocations
    assert not [f for f in first.findings if f.pitfall == 'N3']
    assert [f for f in second.findings if f.pitfall == 'N3']


@pytest.mark.parametrize('items, count', [
    ('$(seq 1 0 5)', None), ('{9..1}', 9), ('{1..3}', 3),
    ('$(seq 3)', 3), ('{1..' + '9' * 50 + '}', None)])
def test_loop_counts_that_cannot_be_read_are_unknown(items, count):
    from microbench.audit import shellloops
    assert shellloops.count(items, {}) == count


def test_an_input_s_first_invocations_are_judged(tmp_path, monkeypatch):
    monkeypatch.setattr(bounds, 'MAX_INVOCATIONS', 5)
    path = tmp_path / 'eight.fio'
    path.write_text(_sections(8))
    report = audit_file(path)
    assert len(report.invocations) == 5
    assert '3 more jobs: the audit judges the first 5 invocations' in \
        report.invocations[-1].not_judged[-1]
    script = tmp_path / 'eight.sh'
    script.write_text('#!/bin/bash\n' + ''.join(
        f'ior -w -r -C -e -i {k + 3}\n' for k in range(8)))
    report = audit_file(script)
    assert len(report.invocations) == 5
    assert report.invocations[-1].not_judged[-1].startswith('3 more '
                                                            'commands')


def test_a_command_of_too_many_options_is_refused(monkeypatch):
    monkeypatch.setattr(bounds, 'MAX_OPTIONS', 100)
    context = judge.new_context('argv', 24 * GIB)
    for argv in (['ior', '-w', '-' + 'C' * 200],
                 ['fio', '--name=t', *['--rw=write'] * 200]):
        refused(judge.audit_argv(argv, context),
                'more than 100 options in one command')
    assert judge.audit_argv(['ior', '-w', '-' + 'C' * 90],
                            context).error is None


# ---- what it writes ----------------------------------------------------

def _sections(count):
    return ''.join(f'[job{k}]\nrw=write\nsize=1g\n' for k in range(count))


def test_each_job_of_a_large_file_is_its_own_section_rewritten(tmp_path):
    '''Past the cap (jobs x bytes), a job's realistic form is its own
    section, a job file fio reads, with its fixes; within it, the whole
    file as before.'''
    path = tmp_path / 'many.fio'
    path.write_text(_sections(400))               # 400 x 10 KiB > 1 MiB
    report = audit_file(path)
    last = report.invocations[-1]
    assert last.realistic.startswith(f'; {path}:1198: job job399 alone')
    job, = fiojob.read_job_file('r.fio', last.realistic).jobs
    assert job.name == 'job399' and job.direct()[0] and \
        job.value('fallocate') == 'none' and job.value('size') == '1g'
    path.write_text(_sections(2))
    small = audit_file(path)
    assert small.invocations[0].realistic.count('[job') == 2


def test_the_output_grows_as_the_job_file(tmp_path):
    '''A file of 5000 sections wrote the whole file for each (1.4 GB):
    now twice the sections write twice the output, no more.'''
    sizes = []
    for count in (1000, 2000):
        path = tmp_path / f'{count}.fio'
        path.write_text(_sections(count))
        report = audit_file(path)
        sizes.append(len(render.text([report]))
                     + len(render.as_json([report])))
    assert sizes[1] <= 2.05 * sizes[0], sizes


def test_each_job_of_a_long_command_line_is_its_own_words(monkeypatch):
    monkeypatch.setattr(bounds, 'WHOLE_REWRITE_BYTES', 100)
    report = judge.audit_argv(
        ['fio', '--size=1g', '--name=a', '--rw=write', '--name=b',
         '--rw=randwrite', '--direct=1'], judge.new_context('argv', 24 * GIB))
    first, second = report.invocations
    assert first.realistic == 'fio ... --name=a --rw=write --direct=1 ' \
        '--fallocate=none'
    assert second.realistic is None           # O_DIRECT random writes


def test_a_long_line_is_cut_in_the_report():
    report = judge.audit_argv(['fio', '--name=t', '--rw=write',
                               '--filename=' + 'f' * 5000],
                              judge.new_context('argv', 24 * GIB))
    head = render.text([report]).splitlines()[0]
    assert head.endswith(f'... ({len(report.invocations[0].where.text)} '
                         f'characters)')
    assert len(head) < bounds.LINE_CHARS + 100


def test_the_issue_s_inputs_are_judged(tmp_path):
    '''A 2 MiB line and 10 000 continuation lines are judged (linear now:
    bench/audit_bounds.py), their output a few times their size.'''
    line = tmp_path / 'line.cmd'
    line.write_bytes(b'fio --name=t --rw=write --size=1g --filename='
                     + b'a' * 2**21 + b'\n')
    continued = tmp_path / 'continued.cmd'
    continued.write_text('fio --name=t \\\n' + '  --rw=write \\\n' * 10000
                         + '  --size=1g\n')
    for path in (line, continued):
        report = audit_file(path)
        assert report.error is None and report.findings
        assert len(render.text([report])) < 4 * os.path.getsize(path)


def test_continuations_join_into_a_line_numbered_by_its_first():
    '''A backslash at the end joins the next line (a blank in its place);
    an escaped one (``\\\\``) does not; a last line continued ends the
    input.'''
    assert words.lines('a \\\nb \\\n\\\nc\nd\\\\\ne \\') == [
        (1, 'a  b   c'), (5, 'd\\\\'), (6, 'e  ')]


# ---- the command's one line --------------------------------------------

def _cli(capsys, *argv):
    code = main(['audit', *argv])
    out, err = capsys.readouterr()
    assert 'Traceback' not in out + err
    return code, out


@pytest.mark.parametrize('content, said', [
    (b'', 'empty: nothing to judge'),
    (b'\n  \n\t\n', 'empty: nothing to judge'),
    (b'fio --name=t\0 --rw=write\n', 'a binary file (NUL bytes)'),
    ('fio --name=caf\u00e9\n'.encode('latin-1'), 'not UTF-8 at byte 14'),
    (b'\x7fELF\x02\x01\x01\x00' + bytes(range(256)) * 8, 'a binary file'),
    (b'import os\n\nfor x in range(3):\n    print(os.getcwd())\n',
     'a Python program, not a ReFrame check'),
    (b'#!/usr/bin/env python3\nimport sys\nsys.exit(0)\n',
     'a Python program, not a ReFrame check'),
    (b'#!/usr/bin/perl -w\nprint "ior -w\\n";\n', 'a Perl program'),
])
def test_what_is_no_benchmark_input_is_one_line(tmp_path, capsys, content,
                                                said):
    path = tmp_path / ('input.pl' if b'perl' in content else 'input.py')
    path.write_bytes(content)
    code, out = _cli(capsys, str(path))
    assert code == 2 and said in out, out
    assert out.startswith(f'{path}: unreadable: {path}')
    assert len(out.splitlines()) == 1


def test_a_file_of_50_mib_is_refused_unread(tmp_path, capsys):
    path = tmp_path / 'huge.fio'
    with open(path, 'wb') as fp:
        fp.truncate(50 * 2**20)                   # sparse: nothing written
    code, out = _cli(capsys, str(path))
    assert code == 2 and '50.0 MiB, larger than the 4.0 MiB' in out
    assert len(out.splitlines()) == 1


@pytest.mark.parametrize('argv, said', [
    (['/dev/zero'], 'a character device, not a regular file'),
    (['.'], 'a directory, not a regular file'),
    (['missing.fio'], "'missing.fio' is not a benchmark the audit knows, "
     'nor a file here'),
    (['%%%', 'junk'], "'%%%' is not a benchmark the audit knows, nor a "
     'file here'),
    (['--', 'fio', '-'], None),
    (['--', 'elbencho', '-w', '-t', 'x', '/tmp/f'],
     'elbencho option -t takes a number'),
    (['--', 'fio', '--name=t', '--size=' + '9' * 400, '--rw=write'], None),
    (['--', 'srun', '-n', '9' * 5000, 'ior', '-w'], None),
])
def test_paths_and_junk_are_one_line(capsys, argv, said):
    code, out = _cli(capsys, *argv)
    if said is None:
        assert code in (0, 1), out           # judged
        return
    assert code == 2 and said in out, out
    assert len(out.splitlines()) == 1


def test_an_endless_standard_input_is_cut_at_the_cap(capsys, monkeypatch):
    monkeypatch.setattr(sys, 'stdin', io.TextIOWrapper(open('/dev/zero',
                                                            'rb')))
    code, out = _cli(capsys, '-')
    assert code == 2 and 'more than 4.0 MiB' in out
    assert len(out.splitlines()) == 1


def test_a_function_that_runs_its_argument_many_times_is_capped(tmp_path):
    '''A function whose body runs its argument 1000 times, called 100
    times with a 1 KiB argument: 100 MiB of commands, refused at the
    cap (without the cap it took 45 s and 3.7 GiB here).'''
    script = tmp_path / 'calls.sh'
    script.write_text('#!/bin/bash\nmyrun() {\n  mpirun '
                      + ' '.join(['$1'] * 1000) + '\n}\n'
                      + f'myrun "ior -w {"x" * 1024}"\n' * 100)
    refused(audit_file(script), 'expand to more than 1.0 MiB of commands')


def test_many_tests_of_a_base_with_many_options_are_capped(tmp_path):
    '''3000 test classes of one base of 20000 options: each test is its
    words, 60 million in all; refused at the cap, each class read once
    (without both it ran past 120 s here).'''
    check = tmp_path / 'tests.py'
    check.write_text(
        "import reframe as rfm\nclass B(rfm.RunOnlyRegressionTest):\n"
        "    executable = 'ior'\n    executable_opts = ["
        + ','.join(["'-v'"] * 20000) + "]\n"
        + ''.join(f'@rfm.simple_test\nclass T{i}(B):\n    pass\n'
                  for i in range(3000)))
    refused(audit_file(check), 'expand to more than 1.0 MiB of commands')
