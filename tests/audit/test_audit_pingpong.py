'''libfabric's own fi_pingpong judged (microbench/audit/network.py
judge_pingpong) on real command lines of the second corpus's development
half (tests/data/audit/corpus2, sources in corpus2.yaml), under a
launcher, and with options it does not have.'''

import pytest

from microbench.audit import judge

from corpus2 import GIB, audited


def words(*argv):
    return judge.audit_argv(list(argv), judge.new_context('argv', 24 * GIB))


@pytest.mark.parametrize('name', [
    'fi-pingpong-man-server-sockets.cmd',
    'fi-pingpong-man-client-usnic-1024.cmd',
    'fi-pingpong-repost-efa-loopback.cmd'])
def test_it_always_polls(name):
    report = audited(name)
    assert report.error is None
    assert [(f.pitfall, f.certainty) for f in report.findings] == [
        ('N2', 'certain')]
    assert 'it has no option to wait' in report.findings[0].evidence


def test_a_launcher_that_binds_pins_it_too():
    report = words('aprun', '-n', '2', 'fi_pingpong', '-p', 'tcp')
    assert [f.pitfall for f in report.findings] == ['N2', 'N3']


@pytest.mark.parametrize('argv, said', [
    (['fi_pingpong', '--pin-core', '1'], 'pin-core'),
    (['fi_pingpong', '-Z'], '-Z'),
    (['fi_pingpong', '-I'], '-I'),
])
def test_an_option_it_does_not_have_is_refused(argv, said):
    report = words(*argv)
    assert report.error and said in report.error
    assert '\n' not in report.error
