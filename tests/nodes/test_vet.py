'''``microbench vet``'s choices before anything runs: the nodes it vets
(each a node of the partition, none twice, a node name), the ReFrame
command of a node's session (pinned to it, tagged as a vetting session,
into the vetting storage), too few nodes skipped saying why, and
ReFrame's summary line of a failed run.'''

import argparse

import pytest

from microbench import cli
from microbench.nodes import outliers, vet, vetting

KNOWN = ['mbnode1', 'mbnode2', 'mbnode3', 'mbnode4']


def test_the_nodes_asked_for_are_the_partitions():
    assert vet.chosen_nodes(None, KNOWN, 'compute') == KNOWN
    assert vet.chosen_nodes(' mbnode3, mbnode1 ', KNOWN, 'compute') == \
        ['mbnode3', 'mbnode1']
    with pytest.raises(vet.VetError, match=r'^mbnode9: not a node of '
                       r'partition compute \(its nodes: mbnode1, mbnode2, '
                       r'mbnode3, mbnode4\)$'):
        vet.chosen_nodes('mbnode1,mbnode9', KNOWN, 'compute')
    with pytest.raises(vet.VetError, match='names a node twice'):
        vet.chosen_nodes('mbnode1,mbnode1', KNOWN, 'compute')
    with pytest.raises(ValueError, match='is not a node name'):
        vet.chosen_nodes('mbnode1,$(reboot)', KNOWN, 'compute')


def arguments(*argv):
    parser = argparse.ArgumentParser()
    vet.add_arguments(parser)
    return parser.parse_args(argv)


def test_a_nodes_session_is_pinned_tagged_and_its_own():
    args = arguments('--system', 'cluster:compute', '-S', 'samples=2')
    cmd = vet.command(args, 'mbnode2', 'vetting-20261128T140000', '/w')
    joined = ' '.join(cmd)
    assert cmd[cmd.index('-J') + 1] == 'nodelist=mbnode2'
    assert cmd[cmd.index('-n') + 1] == '^fio_cache_flags'
    assert cmd[cmd.index('--session-extras') + 1] == (
        'kind=vetting,tag=vetting-20261128T140000,vetted=mbnode2')
    assert '--system cluster:compute' in joined and '-S samples=2' in joined
    assert '--prefix /w/mbnode2' in joined
    assert vet.night_tag().startswith('vetting-20')


def test_too_few_nodes_are_skipped_saying_why(capsys, tmp_path,
                                              monkeypatch):
    # no scheduler here: the nodes named are the partition
    monkeypatch.setenv('PATH', str(tmp_path))
    code = cli.main(['--db', str(tmp_path / 'results.db'), 'vet',
                     '--system', 'cluster:compute', '--nodes',
                     'mbnode1,mbnode2,mbnode3', '--work',
                     str(tmp_path / 'runs')])
    said = capsys.readouterr().out
    assert code == 0
    assert said.strip() == (
        'microbench vet: vetting skipped: 3 node(s) to vet (mbnode1, '
        'mbnode2, mbnode3) of partition (named with --nodes, no sinfo); '
        f'each node is judged against at least {outliers.MIN_PEERS} peers, '
        f'so at least {outliers.MIN_PEERS + 1} nodes are needed')
    assert not (tmp_path / 'runs').exists()
    assert not (tmp_path / vetting.STORAGE).exists()


def test_a_failed_runs_summary_line():
    output = ('[ FAILED ] Ran 6/8 test case(s) from 8 check(s) (1 failure(s))'
              '\nLog file(s) saved in x\n')
    assert vet.last_summary(output).startswith('[ FAILED ] Ran 6/8')
    assert vet.last_summary('one\ntwo\n') == 'two'
    assert vet.last_summary('') == 'no output'
