'''elbencho's runs read per node (issue 45, item 4): every service's
completion time from real consoles of runs with ``--svcelapsed`` (two
services, elbencho 3.1-9: tests/data/elbencho/svcelapsed-2services.out
and its results file; four nodes of the Slurm test cluster:
svcelapsed-4nodes-clean.out), and every way that row can be wrong
rejected, saying what.'''

import pytest

from microbench.suite import output
from microbench.tools.elbencho import console, services
from microbench.tools.elbencho.output import parse

from fixtures import text

CONSOLE = 'elbencho/svcelapsed-2services.out'
RESULTS = 'elbencho/svcelapsed-2services.json'


def run():
    return parse(text(RESULTS), hosts=2)


def test_each_service_s_time_of_each_phase():
    # the two services ran on one host (ports 17611 and 17612): one node,
    # its figure the slower service's (2.215 s and 15 ms; the other's
    # 2.186 s and 7 ms)
    assert console.service_times(text(CONSOLE), run()) == {
        'WRITE': {'localhost': 2215.0}, 'READ': {'localhost': 15.0}}


def test_the_row_does_not_unsettle_the_console_check():
    console.check_console(text(CONSOLE), run())


@pytest.mark.parametrize('row,why', [
    ('[ mbnode1=2.186s mbnode2=2.215s ]', None),
    ('[ mbnode1:1611=2.186s mbnode2:1611=1m2.004s ]', None),
    ('mbnode1=2.186s mbnode2=2.215s', 'is not [ <host>=<time> ... ]'),
    ('[ mbnode1:1611=2.1s mbnode1:1611=2.2s ]', 'names mbnode1:1611 twice'),
    ('[ mbnode1=2.186s ]', 'names 1 services, the run asked 2'),
    ('[ mbnode1 mbnode2=2.215s ]', "says 'mbnode1', not <host>=<time>"),
    ('[ mbnode1=fast mbnode2=2.215s ]', 'is not a time'),
    ('[ ]', 'names 0 services'),
])
def test_a_services_row(row, why):
    if why is None:
        found = services.parse_services(row, 2, console._elapsed_ms)
        assert set(found) == {'mbnode1', 'mbnode2'}
        assert all(value > 2000 for value in found.values())
        return
    with pytest.raises(output.OutputError, match=why.replace('[', r'\[')):
        services.parse_services(row, 2, console._elapsed_ms)


def test_a_console_without_the_row_is_rejected():
    lines = [line for line in text(CONSOLE).splitlines()
             if services.ROW not in line]
    with pytest.raises(output.OutputError,
                       match=r'no Svc compl\. time row of the WRITE phase'):
        console.service_times('\n'.join(lines) + '\n', run())


def test_short_phases_are_not_read_per_node():
    per_sample = [{'WRITE': {'a': 2186, 'b': 2215}, 'READ': {'a': 7, 'b': 15}},
                  {'WRITE': {'a': 2100, 'b': 2300}, 'READ': {'a': 9, 'b': 12}}]
    assert services.node_samples(per_sample) == {
        'WRITE': {'a': [2186000, 2100000], 'b': [2215000, 2300000]}}


def test_four_services_on_four_nodes_of_the_test_cluster():
    '''A real console of the Slurm test cluster's four nodes
    (elbencho_storage's O_DIRECT write of a preallocated file, clean).'''
    rows = [line.partition(' : ')[2] for line in
            text('elbencho/svcelapsed-4nodes-clean.out').splitlines()
            if services.ROW in line]
    write, read = (services.parse_services(row, 4, console._elapsed_ms)
                   for row in rows)
    assert write == {'mbnode1': 521, 'mbnode2': 523, 'mbnode4': 533,
                     'mbnode3': 534}
    assert set(read) == set(write) and max(read.values()) == 66
    # the read, 66 ms at most, is too short to tell nodes apart
    assert set(services.node_samples([{'WRITE': write, 'READ': read}])) \
        == {'WRITE'}
