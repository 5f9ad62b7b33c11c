'''elbencho's configuration files and its argument lists without the
program's name (microbench/audit/elbenchofile.py), on real inputs of the
second corpus's development half (tests/data/audit/corpus2, sources in
corpus2.yaml) and on broken copies of them.'''

import pytest

from microbench.audit import elbenchofile, kinds

from corpus2 import audited, text

#: 80 MiB files written, then read back, buffered, 8 threads a host
IOPS = 'elbencho-config-quobyte-iops.conf'
#: a network benchmark between hosts: no storage phase
NETBENCH = 'elbencho-config-quobyte-netbench.conf'


def test_a_configuration_file_is_the_command_it_stands_for():
    assert kinds.kind_of(IOPS, text(IOPS)) == 'elbencho-config'
    report = audited(IOPS)
    assert report.error is None
    command = report.invocations[0].where.text
    assert command.startswith('elbencho --hostsfile=')
    assert ' --size=80M --write --read --threads=8 ' in command
    assert sorted(f.pitfall for f in report.findings) == ['S1', 'S4']


def test_a_switch_set_to_0_is_off():
    report = audited(IOPS, text(IOPS).replace('read=1', 'read=0'))
    assert ' --read' not in report.invocations[0].where.text
    assert [f.pitfall for f in report.findings] == ['S1']


def test_a_network_benchmark_measures_no_storage():
    report = audited(NETBENCH)
    assert report.error is None and report.findings == []


@pytest.mark.parametrize('change, said', [
    (lambda t: t.replace('threads=8', 'threadz=8'),
     "elbencho has no option 'threadz'"),
    (lambda t: t.replace('write=1', 'write=maybe'),
     "elbencho's switch write takes 1 or 0, not 'maybe'"),
])
def test_a_broken_configuration_is_refused_in_one_line(change, said):
    report = audited(IOPS, change(text(IOPS)))
    assert report.invocations == [] and said in report.error


@pytest.mark.parametrize('name, pitfalls', [
    ('elbencho-args-docker-distributed.cmd', ['S1']),
    ('elbencho-args-docker-service.cmd', []),
    ('elbencho-args-docker-quit.cmd', []),
])
def test_arguments_without_the_program_are_elbenchos(name, pitfalls):
    report = audited(name)
    assert report.error is None
    assert report.invocations[0].tool == 'elbencho'
    assert sorted(f.pitfall for f in report.findings) == pitfalls


@pytest.mark.parametrize('argv', [
    ['-s', '10G', '-w'], ['--hosts', 'a', '--no-such-option'],
    ['mytestfile', '--hosts', 'a'], []])
def test_arguments_are_elbenchos_only_with_an_option_only_it_has(argv):
    assert not elbenchofile.is_argument_list(argv)
