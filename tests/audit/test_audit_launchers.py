'''Launchers as the audit reads them (microbench/audit/launchers.py): the
binding each gives by default or as told, and Blue Gene/Q's ``runjob``,
whose options end at a colon.'''

import pytest

from microbench.audit import judge, words
from microbench.audit.findings import CERTAIN

GIB = 2**30


def audit_words(*argv):
    return judge.audit_argv(list(argv), judge.new_context('argv', 24 * GIB))


@pytest.mark.parametrize('launcher, expected', [
    ([], None), (['aprun', '-n', '1'], CERTAIN),
    (['srun', '-n', '1'], 'depends'), (['mpirun', '-np', '1'], 'depends'),
    (['mpiexec', '-n', '1', '-ppn', '1'], None),
    (['srun', '--cpu-bind=none', '-n', '1'], None),
    (['taskset', '-c', '0'], CERTAIN),
    (['mpirun', '--bind-to', 'none', '-np', '1'], None),
    (['runjob', '-n', '1', '-p', '1', '--block', 'B', ':'], CERTAIN)])
def test_fabtests_binding_by_launcher(launcher, expected):
    report = audit_words(*launcher, 'fi_msg_bw', '-p', 'tcp', '-c', 'fd',
                         '10.0.0.1')
    found = [f for f in report.findings if f.pitfall == 'N3']
    if expected is None:
        assert not found, found
    else:
        assert found[0].certainty.startswith(expected)


def test_blue_gene_runjob_gives_its_options_up_to_the_colon():
    # NERSC/tokio-abc's run-cron-benchmarks-mira.sh (tests/data/audit/probe)
    launch = words.launch(['runjob', '-n', '8192', '-p', '16', '--block',
                           '$COBALT_PARTNAME', '--verbose=INFO', '--envs',
                           'A=1', 'B=2', ':', 'ior', '-w', '-r'])
    assert launch.argv == ['ior', '-w', '-r'] and launch.flavour == 'runjob'
    assert (launch.tasks, launch.per_node, launch.nodes) == (8192, 16, 512)
    assert launch.prefix[0] == 'runjob' and launch.prefix[-1] == ':'
