'''Other sites' ReFrame checks read statically
(microbench/audit/reframecheck.py: parsed, never imported), on real
checks of the second corpus's development half
(tests/data/audit/corpus2, sources in corpus2.yaml), and on a Python
file that is no check, a cut one, and one that names no benchmark.'''

import pytest

from microbench.audit import kinds
from microbench.audit.findings import Unreadable

from corpus2 import audited, text

#: CSCS's OSU check (eth-cscs/cscs-reframe-tests)
CSCS = 'reframe-check-cscs-osu-run.py'
#: ReFrame's tutorial: OSU 7.3 fetched, latency, bandwidth, allreduce
TUTORIAL = 'reframe-check-reframe-tutorial-osu.py'
#: hpctestlib's OSU library: its benchmarks a parameter of dotted names
HPCTESTLIB = 'reframe-check-hpctestlib-osu.py'


def command(invocation):
    '''The command of an invocation, without its test's name (``OSUBw:``
    where the check's test classes are read).'''
    text = invocation.where.text
    head = text.split()[0] if text.split() else ''
    return text.split(None, 1)[1] if head.endswith(':') else text


def programs(report):
    '''{program: sorted pitfalls} of a report.'''
    return {command(inv).split()[0]: sorted(f.pitfall
                                            for f in inv.findings)
            for inv in report.invocations}


def test_a_check_is_read_without_importing_it():
    assert kinds.kind_of(CSCS, text(CSCS)) == 'reframe-check'
    report = audited(CSCS)
    assert report.error is None and report.kind == 'reframe-check'
    # one buffer, the OSU release unknown: N1 depends; run once: M1
    assert programs(report) == {'osu_latency': ['M1', 'N1'],
                                'osu_bw': ['M1', 'N1']}
    n1 = next(f for f in report.findings if f.pitfall == 'N1')
    assert n1.certainty.startswith('depends')
    # each test class its own command: the base's options, the plugin's
    tests = {inv.where.text.split(':')[0] for inv in report.invocations}
    assert tests == {'OSULatency', 'OSUBandwidth', 'OSULatencyCuda',
                     'OSUBandwidthCuda'}


def test_its_class_gives_the_options_and_a_collective_has_no_n1():
    said = programs(audited(TUTORIAL))
    assert said['osu_allreduce'] == ['M1']
    assert said['osu_bw'] == ['M1', 'N1']
    report = audited(TUTORIAL)
    assert any(command(inv).startswith('osu_bw -x ') for inv in
               report.invocations)


def test_benchmarks_named_as_dotted_parameters_are_found():
    assert set(programs(audited(HPCTESTLIB))) == {
        'osu_alltoall', 'osu_allreduce', 'osu_bw', 'osu_latency'}


@pytest.mark.parametrize('change, said', [
    (lambda t: t[:len(t) // 2] + '\n    def broken(self:\n',
     'imports ReFrame but is not Python'),
    (lambda t: t.replace('osu_', 'bench_'),
     'a ReFrame check that names no benchmark program'),
])
def test_a_check_it_cannot_read_is_refused_in_one_line(change, said):
    report = audited(CSCS, change(text(CSCS)))
    assert report.invocations == [] and said in report.error
    assert '\n' not in report.error


def test_python_that_is_not_a_check_is_not_read_as_one():
    data = text(CSCS).replace('import reframe', 'import other')
    assert 'reframe' not in data.split('class')[0]
    with pytest.raises(Unreadable, match='a Python program, not a ReFrame '
                                         'check'):
        kinds.kind_of(CSCS, data)


def test_its_placement_and_launcher_options_are_the_launchers():
    '''num_tasks = 2, num_tasks_per_node = 1 in its base class: srun's;
    a hook's self.job.launcher.options too (added here to a copy).'''
    report = audited(CSCS)
    assert all(inv.realistic.split(' do ', 1)[1].startswith(
        'srun --ntasks=2 --ntasks-per-node=1 osu_') for inv in
        report.invocations if inv.realistic)
    hook = ("    executable = 'osu_bw'\n\n"
            "    @run_before('run')\n"
            "    def unbind(self):\n"
            "        self.job.launcher.options += ['--cpu-bind=none']\n")
    changed = text(CSCS).replace("    executable = 'osu_bw'\n", hook)
    bandwidth = next(inv for inv in audited(CSCS, changed).invocations
                     if inv.where.text.startswith('OSUBandwidth:'))
    assert '--ntasks-per-node=1 --cpu-bind=none osu_bw' in \
        bandwidth.realistic
