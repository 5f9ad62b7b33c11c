'''microbench.tools.fabtests.pingpong on real outputs of libfabric's own
fi_pingpong (Debian's libfabric-bin 1.17, tcp over loopback), and on
every broken form of them: each refused saying why.'''

import pytest

from microbench.suite.output import OutputError
from microbench.tools.fabtests import pingpong

from fixtures import text

BANDWIDTH = 'fabtests/fi_pingpong-tcp-S262144-I10.client.out'
SERVER = 'fabtests/fi_pingpong-tcp-S262144-I10.server.out'
LATENCY = 'fabtests/fi_pingpong-tcp-S64-I20.client.out'
NO_SERVER = 'fabtests/fi_pingpong-noserver.client.out'


def test_the_row_of_a_bandwidth_run():
    run = pingpong.parse(text(BANDWIDTH), 262144, 10)
    assert (run.size, run.iterations, run.mb_s) == (262144, 10, 68.02)
    assert run.mib_s == pytest.approx(68.02e6 / 2**20)
    assert run.usec_per_xfer == 3853.9


def test_the_server_prints_its_own_row():
    assert pingpong.parse(text(SERVER), 262144, 10).mb_s == 72.76


def test_a_latency_run():
    run = pingpong.parse(text(LATENCY), 64, 20)
    assert run.usec_per_xfer == 608.1


@pytest.mark.parametrize('size, iterations, said', [
    (64, 10, 'the row is of 256k bytes, not the 64 asked'),
    (262144, 20, '10 pings sent, not the 20 asked'),
])
def test_another_run_than_asked_is_refused(size, iterations, said):
    with pytest.raises(OutputError, match=said):
        pingpong.parse(text(BANDWIDTH), size, iterations)


def test_a_refused_connection_is_said():
    with pytest.raises(OutputError, match='Connection refused'):
        pingpong.parse(text(NO_SERVER), 64, 20)


def edited(old, new, name=BANDWIDTH):
    said = text(name)
    assert old in said
    return said.replace(old, new)


@pytest.mark.parametrize('broken, said', [
    ('', 'empty'),
    (text(BANDWIDTH)[:-1], 'cut'),
    (text(BANDWIDTH).splitlines()[0] + '\n', 'no result row'),
    (edited('=10 ', '=9  '), 'not every ping was answered'),
    (edited('68.02', '98.02'), 'MB/sec 98.02 is not its total over its '
                               'time'),
    (edited('5m ', '9m '), 'total 9m is not'),
    (text(BANDWIDTH) + text(BANDWIDTH), 'result table'),
    (text(BANDWIDTH) + text(BANDWIDTH).splitlines()[1] + '\n',
     'result row'),
    (edited('0.00\n', '0.00 7\n'), 'columns'),
    (edited('256k', 'lots'), 'not a size'),
])
def test_broken_outputs_are_refused(broken, said):
    with pytest.raises(OutputError, match=said):
        pingpong.parse(broken, 262144, 10)


@pytest.mark.parametrize('garbage', [
    b'\xff\xfe'.decode('latin-1'), '\x00' * 40 + '\n', 'bytes\n' * 3,
    'bytes   #sent   #ack     total       time     MB/sec    usec/xfer   '
    'Mxfers/sec\n256k 10 =10 5m 0.08s nan 3853.90 0.00\n',
])
def test_garbage_is_an_output_error_never_a_traceback(garbage):
    with pytest.raises(OutputError):
        pingpong.parse(garbage, 262144, 10)
