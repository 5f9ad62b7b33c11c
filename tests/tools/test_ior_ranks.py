'''IOR's runs read per node (issue 45, item 4): every rank's figures from
IOR's own per-rank CSV (``-O saveRankPerformanceDetailsCSV``, IOR 4.0.0),
real files of a 2-rank run on this machine and of a 4-node run on the
Slurm test cluster whose mbnode2 had its writes throttled
(tests/data/ior/ranks-np2-local.csv and ranks-np4-throttled.csv), and the
rank map the job records; every way
either can be wrong rejected, saying what.'''

import pytest

from microbench.suite import output
from microbench.tools.ior import command, ranks

from fixtures import text

LOCAL = 'ior/ranks-np2-local.csv'
TESTBED = 'ior/ranks-np4-throttled.csv'
#: What the job recorded of the same run's ranks (its rank_nodes record)
TESTBED_MAP = '0=mbnode1 1=mbnode2 2=mbnode3 3=mbnode4 '


def asked(nodes, per_node, *extra):
    '''What the command of the suite's easy shape asks, on ``nodes`` x
    ``per_node`` ranks.'''
    return command.build('ior', command.shape_options('easy', '16m', 1),
                         (*extra,), 2, nodes, per_node).asked


def test_every_rank_of_a_real_run():
    found = ranks.parse_ranks(text(LOCAL), asked(1, 2))
    assert set(found) == {'write', 'read'}
    assert len(found['write']) == len(found['read']) == 2
    # rank 0's write: 2.0027534204e+09 bytes/s
    assert found['write'][0] == pytest.approx(2.0027534204e9 / 2**20)


def test_the_throttled_node_s_rank_is_the_slow_one():
    found = ranks.parse_ranks(text(TESTBED), asked(4, 1))
    nodes = ranks.parse_rank_map(TESTBED_MAP, 4)
    per_node = ranks.node_samples([found], nodes)
    write = {node: values[0] for node, values in per_node['write'].items()}
    others = [value for node, value in write.items() if node != 'mbnode2']
    assert write['mbnode2'] < 0.5 * min(others), write


def lines_of(name):
    return text(name).splitlines(keepends=True)


@pytest.mark.parametrize('change,why', [
    (lambda ls: [], 'the per-rank CSV is empty'),
    (lambda ls: ls[1:], "begins 'write,0,"),
    (lambda ls: ls[:-1], 'has read rows of 1 rank runs, not 2 ranks x 1'),
    (lambda ls: ls + ls[-1:], 'has read rows of 3 rank runs, not 2 ranks'),
    (lambda ls: [ls[0], ls[1].replace('write,0', 'append,0'), *ls[2:]],
     "line 2: phase 'append', not one asked"),
    (lambda ls: [ls[0], ls[1].replace('write,0', 'write,7'), *ls[2:]],
     "line 2: rank '7' is not one of the run's 2"),
    (lambda ls: [ls[0], ls[1].rsplit(',', 1)[0] + ',nan\n', *ls[2:]],
     "line 2: the throughput 'nan' is not a positive number"),
    (lambda ls: [ls[0], ls[1].replace(',8.', ',-8.', 1), *ls[2:]],
     "line 2: the time with open and close '-8.4447860718e-03' is not a "
     'positive number'),
    (lambda ls: [ls[0], ls[1].rsplit(',', 1)[0] + '\n', *ls[2:]],
     'line 2: 5 fields, not 6'),
])
def test_a_broken_csv_is_rejected_saying_what(change, why):
    broken = ''.join(change(lines_of(LOCAL)))
    with pytest.raises(output.OutputError, match=why.replace('(', r'\(')):
        ranks.parse_ranks(broken, asked(1, 2))


@pytest.mark.parametrize('recorded,why', [
    ('0=mbnode1 0=mbnode1 0=mbnode1 0=mbnode1',
     'the rank map names rank 0 twice'),
    ('0=mbnode1 1=mbnode2 2=mbnode3', 'rank 3 missing'),
    ('0=mbnode1 1=mbnode2 2=mbnode3 3=mbnode4 4=mbnode1',
     'rank 4 is not one'),
    ('0=mbnode1 1 2=mbnode3 3=mbnode4', "says '1', not <rank>=<node>"),
    ('0=mbnode1 1=mb;node2 2=mbnode3 3=mbnode4', 'not <rank>=<node>'),
    ('', 'the rank map has 0 ranks, the run 4'),
])
def test_a_broken_rank_map_is_rejected_saying_what(recorded, why):
    with pytest.raises(output.OutputError, match=why):
        ranks.parse_rank_map(recorded, 4)


def test_a_node_s_figure_is_its_ranks_median_sample_by_sample():
    nodes = ['a', 'a', 'b', 'b']
    samples = [{'write': [10.0, 30.0, 5.0, 7.0]},
               {'write': [12.0, 14.0, 6.0, 6.0]}]
    assert ranks.node_samples(samples, nodes) == {
        'write': {'a': [20.0, 13.0], 'b': [6.0, 6.0]}}
    with pytest.raises(output.OutputError, match='sample 1: 3 ranks, the '
                                                 'rank map 4'):
        ranks.node_samples([{'write': [1.0, 2.0, 3.0]}], nodes)
