'''microbench.tools.fabtests.parse on real fabtests outputs and broken
copies.'''

import pytest

from microbench.tools import fabtests
from microbench.suite.output import OutputError

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
    ('fabtests/stall_timeout5.client.out', 'timeout expired'),
])
def test_error_output_is_rejected(name, said):
    with pytest.raises(OutputError,
                       match=f'fabtests printed an error: .*{said}'):
        fabtests.parse(text(name))


def test_empty_and_truncated_output_is_rejected():
    with pytest.raises(OutputError, match='empty'):
        fabtests.parse('')

    header_only = client(PINGPONG_FD).splitlines(keepends=True)[0]
    with pytest.raises(OutputError, match='no result row'):
        fabtests.parse(header_only)


def test_cut_row_is_rejected():
    lines = client(PINGPONG_FD).splitlines(keepends=True)
    cut = lines[0] + lines[1][:30] + '\n'
    with pytest.raises(OutputError, match='no result row'):
        fabtests.parse(cut)


def test_failed_exit_status_is_rejected():
    broken = client(PINGPONG_FD).replace('Exit status: 0', 'Exit status: 1')
    with pytest.raises(OutputError, match='exit status 1'):
        fabtests.parse(broken)


@pytest.mark.parametrize('cpus,count', [('0', 1), ('0-1', 2),
                                        ('0-3,8-11', 8), ('2,5', 2)])
def test_cpu_count(cpus, count):
    assert fabtests.cpu_count(cpus) == count


def test_the_asked_size_is_taken_once():
    sweep = client(BW)
    assert fabtests.parse(sweep, size=65536).mb_s == 309.35
    # The sweep's last row is 1 MiB: a run of 32 KiB was asked
    with pytest.raises(OutputError, match='no result row of 32768 bytes'):
        fabtests.parse(sweep, size=32768)

    rows = sweep.splitlines(keepends=True)
    row = next(r for r in rows if r.startswith('64k '))
    with pytest.raises(OutputError,
                       match='result row of 65536 bytes given 2 times'):
        fabtests.parse(sweep.replace(row, row + row), size=65536)


def test_a_timed_run_needs_its_exit_status():
    full = client(PINGPONG_FD)
    assert fabtests.parse(full, 100, timed=True).usage['exit_status'] == 0
    cut = ''.join(ln for ln in full.splitlines(keepends=True)
                  if 'Exit status' not in ln)
    with pytest.raises(OutputError, match='no "Exit status" line'):
        fabtests.parse(cut, 100, timed=True)


def test_cpu_lists_of_the_witness():
    assert fabtests.parse_cpusets('Cpus_allowed_list:\t0\n'
                                  'Cpus_allowed_list:\t0-1\n') == ('0', '0-1')
    with pytest.raises(OutputError, match='1 CPU lists'):
        fabtests.parse_cpusets('Cpus_allowed_list:\t0\n')


#: What the suite's fabtests_completion asks each variant's client (and
#: what these real runs were asked)
SPIN = ['-p', 'tcp', '-S', '100']
FD = ['-p', 'tcp', '-S', '100', '-c', 'fd']


def _pingpong(name, options):
    return fabtests.parse(client(name), size=100, timed=True,
                          program='fi_msg_pingpong', options=options)


def test_each_completion_mode_reads_its_own_client():
    assert _pingpong(PINGPONG, SPIN).usec_per_xfer > 0
    assert _pingpong(PINGPONG_FD, FD).usec_per_xfer > 0


def test_a_client_of_another_completion_mode_is_rejected():
    # spin asked, a real fd client given: rtt 25 us for a spin figure
    with pytest.raises(OutputError, match='ran with -c fd, which was not '
                                          'asked'):
        _pingpong(PINGPONG_FD, SPIN)
    with pytest.raises(OutputError, match='has no -c, which was asked'):
        _pingpong(PINGPONG, FD)
    with pytest.raises(OutputError, match='ran with -c fd, not the asked '
                                          '-c sread'):
        _pingpong(PINGPONG_FD, [*SPIN, '-c', 'sread'])


def test_a_client_of_another_provider_or_iteration_count_is_rejected():
    with pytest.raises(OutputError, match='ran with -p tcp, not the asked '
                                          '-p verbs'):
        _pingpong(PINGPONG, ['-p', 'verbs', '-S', '100'])
    with pytest.raises(OutputError, match='has no -I, which was asked'):
        _pingpong(PINGPONG, [*SPIN, '-I', '1000'])
