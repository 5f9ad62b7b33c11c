'''A run of the link search read from what srun printed for real
(tests/data/links: the Slurm test cluster, suite/linkrun.sh under ``srun
--label``, fi_pingpong 1.17 over the nodes' bridge), its answer, its
command, the search's JSON, and every broken form of them.'''

import json

import pytest

from microbench.nodes import linkrun, links, links_json

from fixtures import text

CLEAN = 'links/srun-3nodes-clean.out'
NO_PROVIDER = 'links/srun-noprovider.out'
THREE = frozenset({('mbnode1', 'mbnode2'), ('mbnode1', 'mbnode3'),
                   ('mbnode2', 'mbnode3')})
ASKED = linkrun.Asked(size=65536, iterations=10)


def test_every_link_of_a_run_is_read_from_interleaved_tasks():
    figures = linkrun.read_run(text(CLEAN), THREE, ASKED)
    assert {link: run.mb_s for link, run in figures.items()} == {
        ('mbnode1', 'mbnode2'): 8.62, ('mbnode1', 'mbnode3'): 6.79,
        ('mbnode2', 'mbnode3'): 6.69}


def test_the_answer_is_the_slowest_link_over_the_median_link():
    figures = linkrun.read_run(text(CLEAN), THREE, ASKED)
    values = [run.mib_s for run in figures.values()]
    assert linkrun.share(values, sorted(values)[1]) == pytest.approx(
        6.69 / 6.79)


def test_a_failed_ping_pong_names_its_link_side_and_status():
    with pytest.raises(linkrun.RunError, match=(
            r'link mbnode1-mbnode2 \(client on mbnode1, port 47600\): '
            r'fi_pingpong exited 103: \[error\] .*connection closed')):
        linkrun.read_run(text(NO_PROVIDER),
                         frozenset({('mbnode1', 'mbnode2')}), ASKED)


@pytest.mark.parametrize('asked, said', [
    (linkrun.Asked(size=262144, iterations=10), 'the row is of 64k bytes'),
    (linkrun.Asked(size=65536, iterations=20), '10 pings sent'),
    (linkrun.Asked(size=65536, iterations=10, port=47700),
     'no output of its fi_pingpong'),
])
def test_another_run_than_asked_is_refused(asked, said):
    with pytest.raises(linkrun.RunError, match=said):
        linkrun.read_run(text(CLEAN), THREE, asked)


def test_a_link_the_run_did_not_measure_is_said():
    more = THREE | {('mbnode3', 'mbnode4')}
    with pytest.raises(linkrun.RunError, match='mbnode3-mbnode4'):
        linkrun.read_run(text(CLEAN), more, ASKED)


@pytest.mark.parametrize('garbage', [
    '', 'no labels at all\n', '0: link a b c d exit\n',
    text(CLEAN).replace('0: end\n', ''),
    text(CLEAN).replace('=10', '=9 '),
    '\x00\xff' * 100,
])
def test_garbage_is_a_run_error_never_a_traceback(garbage):
    with pytest.raises(linkrun.RunError):
        linkrun.read_run(garbage, THREE, ASKED)


def test_the_command_runs_one_task_a_node_with_a_port_a_link():
    cmd = linkrun.command(THREE, linkrun.Asked(partition='compute'))
    assert cmd[:5] == ['srun', '--nodes=3', '--ntasks=3',
                       '--ntasks-per-node=1',
                       '--nodelist=mbnode1,mbnode2,mbnode3']
    assert '--partition=compute' in cmd and '--label' in cmd
    assert cmd[-3:] == ['mbnode1:mbnode2:47600', 'mbnode1:mbnode3:47601',
                        'mbnode2:mbnode3:47602']


def searched(answers):
    '''A search over four nodes whose runs answer from ``answers`` (the
    link mbnode2-mbnode4 slow), with the records a real Measure keeps.'''
    made = []

    def measure(run_links):
        made.append({'seconds': 1.0, 'links': {
            '-'.join(link): answers(link) for link in sorted(run_links)}})
        return min(answers(link) for link in run_links)
    nodes = ['mbnode1', 'mbnode2', 'mbnode3', 'mbnode4']
    return links.check_partition(nodes, measure, links.Threshold(1.0)), made


def test_the_json_round_trips_and_is_validated(tmp_path):
    result, made = searched(
        lambda link: 0.1 if link == ('mbnode2', 'mbnode4') else 1.0)
    path = tmp_path / 'links.json'
    asked = {'provider': 'tcp', 'size': 65536, 'iterations': 10,
             'margin': 0.8, 'clean_mib_s': None}
    links_json.write(str(path), 'slurm_testbed:shared', result, asked, made)
    doc = links_json.read(str(path))
    assert (doc['status'], doc['link']) == ('found', ['mbnode2', 'mbnode4'])
    assert len(doc['runs']) == result.count < 6
    assert doc['runs'][0]['link_mib_s']['mbnode2-mbnode3'] == 1.0


@pytest.mark.parametrize('change, said', [
    (lambda doc: doc.update(status='maybe'), 'status is'),
    (lambda doc: doc.update(version=9), 'version'),
    (lambda doc: doc['runs'][0].update(outcome='meh'),
     r'runs\[0\]\.outcome'),
    (lambda doc: doc['runs'][0]['link_mib_s'].update(x='1'),
     'link_mib_s.x'),
    (lambda doc: doc.update(link=['only-one']), 'not two nodes'),
    (lambda doc: doc.pop('asked'), "no member 'asked'"),
])
def test_a_broken_document_is_refused_in_one_line(tmp_path, change, said):
    result, made = searched(lambda link: 1.0)
    doc = links_json.document('p:q', result, {
        'provider': 'tcp', 'size': 1, 'iterations': 1, 'margin': 0.5,
        'clean_mib_s': 3.0}, made)
    change(doc)
    path = tmp_path / 'broken.json'
    path.write_text(json.dumps(doc))
    with pytest.raises(links_json.FormatError, match=said):
        links_json.read(str(path))


@pytest.mark.parametrize('args, said', [
    (['--margin', '2'], '--margin 2.0: give a share between 0 and 1'),
    (['--size', '0'], '--size 0: give 1 or more'),
    (['--port', '80'], '--port 80: give a port from 1024 to 65000'),
    (['--provider', 'tcp; rm -rf /'], 'not a provider name'),
    (['--clean-mib-s', '-1'], '--clean-mib-s -1.0: give a figure above 0'),
    (['--nodes', 'mbnode1'], '1 node given: a search takes 2 to 256'),
    (['--nodes', 'mbnode1,mbnode1'], 'names a node twice'),
])
def test_bad_options_cannot_go_on_in_one_line(capsys, args, said):
    from microbench import cli
    code = cli.main(['links', '--system', 'cluster:compute', '--dry-run',
                     *(['--nodes', 'mbnode1,mbnode2,mbnode3']
                       if '--nodes' not in args else []), *args])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1


def test_a_dry_run_prints_the_ring_and_runs_nothing(capsys):
    from microbench import cli
    code = cli.main(['links', '--system', 'cluster:compute', '--dry-run',
                     '--nodes', 'mbnode1,mbnode2,mbnode3'])
    said = capsys.readouterr().out
    assert code == 0
    assert said.startswith('srun --nodes=3 ') and said.count('\n') == 1
    assert said.rstrip().endswith('mbnode1:mbnode2:47600 '
                                  'mbnode2:mbnode3:47601 '
                                  'mbnode3:mbnode1:47602')
