'''microbench.fabtests.parse on real fabtests outputs and broken copies.'''

import pytest

from microbench import fabtests

from fixtures import section, text

PINGPONG = 'fabtests/fi_msg_pingpong-tcp-S100-default.txt'
PINGPONG_FD = 'fabtests/fi_msg_pingpong-tcp-S100-c_fd.txt'
BW = 'fabtests/fi_msg_bw-tcp-default.txt'


def client(name):
    return section(name, 'client output')


def test_pingpong_with_cpu_use():
    run = fabtests.parse(client(PINGPONG_FD))
    assert (run.size, run.iterations) == (100, '10k')
    assert run.usec_per_xfer == 12.54
    assert run.usage == {'user_s': 0.01, 'system_s': 0.23,
                         'cpu_percent': 45, 'exit_status': 0}


def test_server_side_parses_too():
    run = fabtests.parse(section(PINGPONG_FD, 'server output'))
    assert run.usage['cpu_percent'] == 15


def test_usec_per_xfer_is_half_a_round_trip():
    # The row of the fd run: 10k iterations (a ping and a pong each) took
    # 0.25 s, 25 us per round trip: twice fabtests' usec/xfer
    run = fabtests.parse(client(PINGPONG_FD))
    row = client(PINGPONG_FD).splitlines()[1].split()
    seconds_per_iteration = float(row[3].rstrip('s')) / 10_000
    assert 2 * run.usec_per_xfer == pytest.approx(
        seconds_per_iteration * 1e6, rel=0.05
    )


def test_bandwidth_sweep_takes_the_last_row_in_mib():
    run = fabtests.parse(client(BW))
    assert run.size == 2**20
    assert run.mib_s == pytest.approx(501.29 * 1e6 / 2**20)


def test_plain_client_output():
    run = fabtests.parse(text('fabtests/bw_32k.client.out'))
    assert run.size == 32768
    assert run.mb_s == 2800.46
    assert run.usage == {}
    sread = fabtests.parse(text('fabtests/pingpong_sread.client.out'))
    assert sread.usec_per_xfer == 17.12


@pytest.mark.parametrize('name,said', [
    ('fabtests/noprov_server.out', 'No data available'),
    ('fabtests/noserver_client.out', 'Connection refused'),
    ('fabtests/stall_timeout5.client.out', 'ft_get_cq_comp'),
])
def test_error_output_is_rejected(name, said):
    with pytest.raises(fabtests.FabtestsOutputError,
                       match=f'no result table: fabtests said: .*{said}'):
        fabtests.parse(text(name))


def test_empty_and_truncated_output_is_rejected():
    with pytest.raises(fabtests.FabtestsOutputError, match='empty'):
        fabtests.parse('')

    header_only = client(PINGPONG_FD).splitlines(keepends=True)[0]
    with pytest.raises(fabtests.FabtestsOutputError, match='no result row'):
        fabtests.parse(header_only)


def test_cut_row_is_rejected():
    lines = client(PINGPONG_FD).splitlines(keepends=True)
    cut = lines[0] + lines[1][:30] + '\n'
    with pytest.raises(fabtests.FabtestsOutputError, match='no result row'):
        fabtests.parse(cut)


def test_failed_exit_status_is_rejected():
    broken = client(PINGPONG_FD).replace('Exit status: 0', 'Exit status: 1')
    with pytest.raises(fabtests.FabtestsOutputError, match='exit status 1'):
        fabtests.parse(broken)


@pytest.mark.parametrize('cpus,count', [('0', 1), ('0-1', 2),
                                        ('0-3,8-11', 8), ('2,5', 2)])
def test_cpu_count(cpus, count):
    assert fabtests.cpu_count(cpus) == count
