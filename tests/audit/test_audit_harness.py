'''Shell functions that run what they are given, read as the shell runs
them (microbench/audit/shellflow.py, batch.py, harnesses.py): ``shift``
and the body's own variables, a function on one line, a test harness a
script sources (IOR's ``testing/test-lib.sh``); a script's command the
audit cannot read does not refuse the others (the shell goes on), except
under ``set -e``.  Real files: IOR's own test scripts
(tests/data/audit/harness, hpc/ior @ 5fcf0ba; its ``basic-tests.sh`` is
the second corpus's ``other-ior-basic-tests.sh``).'''

import json
import os

from microbench.audit import (batch, bounds, getopt, judge, options, render,
                              shellflow)

import fixtures
from corpus2 import audited, text

DIR = os.path.join(fixtures.path('audit'), 'harness')
GIB = 2**30
BASIC = 'other-ior-basic-tests.sh'


def harness(name):
    with open(os.path.join(DIR, name)) as fp:
        return fp.read()


def audit_text(name, data):
    path = os.path.join(DIR, name)
    return judge.audit_bytes(path, data.encode(), judge.new_context(
        path, 24 * GIB, directory=DIR))


def test_iors_harness_runs_ior_under_its_launcher_on_dev_shm():
    report = audited(BASIC)
    assert report.error is None and report.not_read == []
    # `IOR 2 -a POSIX -w ...` twice, then `exit 1`: the rest never runs
    assert [inv.where.line for inv in report.invocations] == [15, 17]
    assert all(inv.tool == 'IOR' for inv in report.invocations)
    first = report.invocations[0].realistic
    assert first.startswith('mpiexec -np 2 ./src/ior -a POSIX -w')
    assert '-o /dev/shm/ior' in first


def test_the_harness_read_from_its_own_text_runs_the_same_commands():
    '''The functions of test-lib.sh (``RANKS=$1; shift; WHAT="... ${@}
    ..."; $WHAT``) read from the file give what harnesses.py says.'''
    script = harness('ior-complex-tests.sh')
    inline = harness('ior-test-lib.sh') + '\n' + script.replace(
        'source $ROOT/test-lib.sh', '')

    def benchmarks(text_):
        out = []
        for command in batch.commands('x.sh', text_):
            programs = [index for index, word in enumerate(command.words)
                        if word.endswith(('src/ior', 'src/mdtest'))]
            if programs:
                out.append(command.words[programs[0]:])
        return out
    sourced, read = benchmarks(script), benchmarks(inline)
    assert len(sourced) == 13 and read == sourced
    assert sourced[0] == ['./src/ior', '-a', 'DUMMY', '-w', '-O',
                          'stoneWallingStatusFile=stonewall.log', '-O',
                          'stoneWallingWearOut=1', '-D', '1', '-t', '1000',
                          '-b', '1000', '-s', '15', '-k', '-o',
                          '/dev/shm/ior']


def test_a_function_on_one_line_runs_when_called():
    lib = harness('ior-test-lib.sh')
    start = lib.index('function IOR(){')
    body = lib[start:lib.index('\n}\n', start)].splitlines()[1:]
    one_line = 'function IOR(){ ' + '; '.join(
        line.strip() for line in body) + '; }'
    assert shellflow.one_line_function(one_line)[0] == 'IOR'
    script = text(BASIC).replace('source $ROOT/test-lib.sh', one_line)
    commands = [c for c in batch.commands('x.sh', script)
                if any(w.endswith('/ior') for w in c.words)]
    # the body's `$WHAT` is not run where the function is defined; after
    # `shift`, `$RANKS` is the first argument and `${@}` the rest
    assert [c.where.line for c in commands] == [15, 17]
    assert commands[0].words[:4] == ['${IOR_MPIRUN}', '2',
                                     '${IOR_BIN_DIR}/ior', '-a']


def test_ior_reads_a_group_of_flags_as_option_c_does():
    # complex-tests.sh: `IOR 2 -a POSIX -r -z-k -e ...`; IOR 4.0.0 here
    # ran `-w -z-k` with random offsets and kept the file
    table = options.getopt_table('ior')
    given, _ = getopt.parse(['ior', '-r', '-z-k', '-e'], table, 'IOR',
                            'x', groups=True)
    assert [g.name for g in given] == ['-r', '-z', '-k', '-e']
    report = audit_text('ior-complex-tests.sh',
                        harness('ior-complex-tests.sh'))
    assert report.error is None and report.not_read == []
    assert 24 in [inv.where.line for inv in report.invocations]


def _broken(line, old, new):
    '''basic-tests.sh with ``old`` replaced on ``line`` by ``new``.'''
    lines = text(BASIC).splitlines(keepends=True)
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return ''.join(lines)


def test_a_command_the_tool_refuses_leaves_the_others_judged():
    # an en dash for a dash on line 15: IOR stops there, the script goes on
    report = audited(BASIC, _broken(15, '-C', '\u2013C'))
    assert report.error is None
    assert [inv.where.line for inv in report.invocations] == [17]
    (said,) = report.not_read
    assert ':15:' in said and "'\u2013C'" in said
    assert f'{report.name}: not read: ' in render.text([report])
    (entry,) = json.loads(render.as_json([report]))['inputs']
    assert entry['not_read'] == [said] and entry['error'] is None
    (run,) = json.loads(render.sarif([report], 'test'))['runs']
    (notification,) = run['invocations'][0]['toolExecutionNotifications']
    assert notification['level'] == 'warning'
    assert run['invocations'][0]['executionSuccessful'] is True
    assert render.exit_code([report]) == 1        # its findings


def test_under_set_e_a_refused_command_ends_the_script():
    script = harness('ior-complex-tests.sh').replace(
        '-a POSIX -w -z -Y', '-a POSIX -w -z -Y \u2013e', 1)
    judged = audit_text('x.sh', script)
    assert judged.error is None
    assert max(inv.where.line for inv in judged.invocations) > 22
    stopped = audit_text('x.sh', script.replace('\n', '\nset -e\n', 1))
    lines = [inv.where.line for inv in stopped.invocations]
    assert lines and max(lines) < 23          # nothing after the refusal
    refusal, stop = stopped.not_read
    assert "'\u2013e'" in refusal
    assert 'stops here under set -e' in stop and 'later command' in stop


def test_nothing_read_is_still_refused_with_every_reason_counted():
    script = _broken(15, '-C', '\u2013C').replace('-s 10', '\u2013s 10')
    report = audited(BASIC, script)
    assert report.invocations == []
    assert ':15:' in report.error and '(and 1 more refusal)' in report.error


def test_the_commands_not_read_are_listed_up_to_a_cap():
    broken = _broken(15, '-C', '\u2013C').splitlines(keepends=True)
    script = ''.join(broken[:15] + broken[14:15] * 29 + broken[15:])
    report = audited(BASIC, script)
    assert [inv.where.line for inv in report.invocations] == [46]
    assert len(report.not_read) == bounds.MAX_NOT_READ + 1
    assert report.not_read[-1].startswith('10 more commands not read')
