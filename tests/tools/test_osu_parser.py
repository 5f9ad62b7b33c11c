'''microbench.tools.osu.parse on real OSU outputs, and on broken copies of
them.'''

import pytest

from microbench.tools import osu
from microbench.suite.output import OutputError

from fixtures import text

MIB = 2**20


@pytest.mark.parametrize('name,version,metric,unit,size,value', [
    ('osu/osu_bw-7.2-default.txt', '7.2', 'Bandwidth', 'MB/s', 32768, 2694.76),
    ('osu/osu_bw-7.2-b_multiple.txt', '7.2', 'Bandwidth', 'MB/s', 32768,
     1533.47),
    ('osu/osu_bw-5.6.1-default.txt', '5.6.1', 'Bandwidth', 'MB/s', 32768,
     3939.46),
    ('osu/osu_latency-7.2-default.txt', '7.2', 'Latency', 'us', 1, 0.43),
    ('osu/osu-7.2-bw.out', '7.2', 'Bandwidth', 'MB/s', 32768, 4364.04),
    ('osu/osu-7.2-bw-bmultiple.out', '7.2', 'Bandwidth', 'MB/s', 32768,
     1054.38),
    ('osu/osu-5.6.3-bw.out', '5.6.3', 'Bandwidth', 'MB/s', 32768, 3458.50),
    ('osu/osu-5.6.3-latency.out', '5.6.3', 'Latency', 'us', 32768, 16.10),
])
def test_real_outputs(name, version, metric, unit, size, value):
    run = osu.parse(text(name))
    assert (run.version, run.metric, run.unit) == (version, metric, unit)
    assert run.values[size] == value


def test_sweeps_have_every_size():
    run = osu.parse(text('osu/osu_bw-7.2-default.txt'))
    assert sorted(run.values) == [2**i for i in range(21)]


def test_bandwidth_is_converted_to_mib_per_second():
    run = osu.parse(text('osu/osu-7.2-bw.out'))
    name, value, unit = osu.figure(run, 32768)
    assert (name, unit) == ('bandwidth', 'MiB/s')
    assert value == pytest.approx(4364.04 * 1e6 / MIB)
    assert osu.figure(osu.parse(text('osu/osu-5.6.3-latency.out')),
                      32768) == ('latency', 16.10, 'us')


def test_missing_size_is_rejected():
    run = osu.parse(text('osu/osu-7.2-bw.out'))
    with pytest.raises(OutputError, match='no result for 65536-byte'):
        osu.figure(run, 65536)


@pytest.mark.parametrize('name', ['osu/osu_bw-5.6.1-b_multiple-rejected.txt',
                                  'osu/osu-5.6.3-bw-bmultiple.out'])
def test_rejected_option_is_rejected(name):
    with pytest.raises(OutputError,
                       match=r'printed an error: Invalid option \[-b\]'):
        osu.parse(text(name))


@pytest.mark.parametrize('lines', [0, 1, 2, 3])
def test_truncated_output_is_rejected(lines):
    full = text('osu/osu-7.2-bw.out').splitlines(keepends=True)
    with pytest.raises(OutputError,
                       match='empty|no OSU header|no "# Size"|no result rows'):
        osu.parse(''.join(full[:lines]))


def test_cut_row_is_rejected():
    full = text('osu/osu_bw-7.2-default.txt')
    cut = full[:full.index('32768') + 12]
    with pytest.raises(OutputError, match="'x', not a number"):
        osu.parse(cut + 'x\n')
    with pytest.raises(OutputError, match='does not end: the output was cut'):
        osu.parse(full[:full.index('32768') + 23])


def test_a_size_given_twice_is_rejected():
    full = text('osu/osu-7.2-bw.out')
    row = full.splitlines(keepends=True)[-1]
    with pytest.raises(OutputError, match='32768-byte messages appear twice'):
        osu.parse(full + row)

    with pytest.raises(OutputError, match='OSU header given 2 times'):
        osu.parse(full + full)


def test_help_and_other_text_is_rejected():
    with pytest.raises(OutputError, match='no OSU header'):
        osu.parse(text('osu/osu_bw-7.2-help.txt'))

    with pytest.raises(OutputError, match='no OSU header'):
        osu.parse(text('fabtests/bw_32k.client.out'))
