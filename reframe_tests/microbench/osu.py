'''OSU Micro-Benchmarks: command lines, output parser, and the base classes
of OSU checks.

``osu_bw`` and ``osu_latency`` run on two MPI ranks, one per node on a
facility partition (two ranks on the node, through mpirun, on the local
default).  OSU prints
bandwidth in "MB/s" meaning 10^6 bytes per second; the suite converts it to
MiB/s.  ``-b multiple`` (``--buffer-num``, OSU 5.7.1 and later) sends from and
receives into a different buffer for every message of a window; older OSU
rejects it.
'''

import os
import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench import launchers, records
from microbench.checks import NETWORK, Rounds, VariantCheck

#: OSU's "MB/s" in MiB/s
MB_S_IN_MIB_S = 1e6 / 2**20

_HEADER = re.compile(r'^# OSU MPI (?P<name>.+?) Test v(?P<version>[\d.]+)')
_COLUMNS = re.compile(r'^# Size\s+(?P<metric>\w+) \((?P<unit>[^)]+)\)')
_ROW = re.compile(r'^(?P<size>\d+)\s+(?P<value>\d+(\.\d+)?)\s*$')


class OsuOutputError(ValueError):
    '''OSU's output cannot be trusted; the message says why.'''


@dataclass(frozen=True)
class OsuRun:
    '''One run of an OSU benchmark, as it printed it.'''

    name: str
    version: str
    metric: str
    unit: str
    #: message size (bytes) -> value in ``unit``
    values: dict


def parse(text, source='OSU output'):
    '''Parse the output of one OSU point-to-point benchmark run.

    :raises OsuOutputError: on empty, truncated, rejected or error output.
    '''
    if not text.strip():
        raise OsuOutputError(f'{source} is empty: the benchmark printed '
                             f'nothing')

    lines = text.splitlines()
    invalid = [ln for ln in lines if ln.startswith('Invalid option')]
    if invalid:
        raise OsuOutputError(f'{source}: the benchmark rejected an option '
                             f'({invalid[0].strip()})')

    header = next((m for m in map(_HEADER.match, lines) if m), None)
    columns = next((m for m in map(_COLUMNS.match, lines) if m), None)
    if not header or not columns:
        raise OsuOutputError(f'{source} has no OSU header: not the output '
                             f'of an OSU point-to-point benchmark')

    values = {}
    for line in lines[lines.index(columns.string) + 1:]:
        if line.startswith('#') or not line.strip():
            continue

        row = _ROW.match(line)
        if not row:
            raise OsuOutputError(f'{source}: unexpected line {line!r}')

        values[int(row['size'])] = float(row['value'])

    if not values:
        raise OsuOutputError(f'{source} has no result rows (truncated?)')

    return OsuRun(header['name'], header['version'], columns['metric'],
                  columns['unit'], values)


def figure(run, size):
    '''(value, unit) of one message size, bandwidth in MiB/s.'''
    try:
        value = run.values[size]
    except KeyError:
        raise OsuOutputError(f'no result for {size}-byte messages (sizes: '
                             f'{sorted(run.values)})') from None

    if run.unit == 'MB/s':
        return value * MB_S_IN_MIB_S, 'MiB/s'

    return value, run.unit


class OsuRounds(Rounds):
    '''OSU point-to-point runs of a pitfall, round-robin (a fixture).

    A variant is ``<benchmark>.<buffer>``: ``osu_bw.single``,
    ``osu_latency.multiple``, ...  ``single`` is OSU's default (no ``-b``);
    ``multiple`` passes ``-b multiple``.  Where the benchmark has no ``-b``,
    the multiple variants are recorded as unsupported and not run.
    '''

    tool = 'OSU Micro-Benchmarks'
    stdout_file = 'osu.out'
    uses_scratch = False
    valid_systems = NETWORK
    num_tasks = 2
    num_tasks_per_node = 1

    #: Directory of the OSU binaries (``osu_bw``, ...); empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    osu_bindir = variable(str, value='')

    #: Message size in bytes (paper: 32 KiB).
    #:
    #: :type: :class:`int`
    #: :default: ``32768``
    message_size = variable(int, value=32768)

    #: Messages in flight before each acknowledgement, ``osu_bw -W``
    #: (paper and OSU default: 64).
    #:
    #: :type: :class:`int`
    #: :default: ``64``
    window_size = variable(int, value=64)

    @classmethod
    def launched(cls):
        return tuple(sorted({v.split('.')[0] for v in cls.variants}))

    def benchmarks(self):
        return self.launched()

    def program(self, benchmark):
        return os.path.join(self.osu_bindir, benchmark)

    def tools_needed(self):
        return [self.program(b) for b in self.benchmarks()]

    def version_command(self):
        return launchers.MPI_VERSION

    def expected_seconds(self):
        return 120

    def variant_command(self, variant):
        benchmark, buffer = variant.split('.')
        size = self.message_size
        argv = [self.program(benchmark), '-m', f'{size}:{size}']
        if benchmark == 'osu_bw':
            argv += ['-W', str(self.window_size)]

        if buffer == 'multiple':
            argv += ['-b', 'multiple']

        return self.two_ranks(*argv)

    def two_ranks(self, *argv):
        '''A command line starting two ranks, one per node (both on this
        node on the local default).'''
        flavour = launchers.flavour(self.current_partition)
        nodes = 1 if flavour == 'local' else 2
        return ' '.join([launchers.spread(flavour, nodes, 2 // nodes), *argv])

    def setup_commands(self):
        lines = []
        for benchmark in self.benchmarks():
            variant = f'{benchmark}.multiple'
            if variant not in self.variants:
                continue

            probe = self.two_ranks(self.program(benchmark), '--help')
            lines += [
                f'if ! {probe} 2>&1 | grep -q -- --buffer-num; then',
                '    ' + records.echo(
                    'unsupported', f'{variant}: this {benchmark} has no '
                    f'-b/--buffer-num option (OSU before 5.7.1), so it '
                    f'cannot run from multiple buffers'
                ),
                f'    unsupported="$unsupported {variant}"',
                'fi',
            ]

        return lines

    def explain(self, failure, variant=None):
        lines = [ln for ln in self.stderr_of(variant).splitlines()
                 if ln.strip()]
        return f'; it said: {lines[-1]}' if lines else ''


class OsuVariantCheck(VariantCheck):
    '''One variant of an OSU pitfall: bandwidth (MiB/s) for ``osu_bw``,
    latency (us) for ``osu_latency``, median, min and max over the samples,
    at the rounds' message size.'''

    valid_systems = NETWORK
    main_figures = {'osu_bw': ('bandwidth', 'MiB/s'),
                    'osu_latency': ('latency', 'us')}

    def figure_key(self):
        return self.variant.split('.')[0]

    def validate_samples(self, recs):
        rounds, values, versions = self.rounds, [], set()
        for num in range(1, rounds.samples + 1):
            path = os.path.join(rounds.stagedir, rounds.output(
                rounds.stdout_file, self.variant, num))
            try:
                with open(path) as fp:
                    run = parse(fp.read(), f'output of sample {num}')

                value, _ = figure(run, rounds.message_size)
            except (OSError, OsuOutputError) as err:
                raise SanityError(str(err)) from None

            values.append(value)
            versions.add(run.version)

        self.record_figure(values)
        self.tool_version = (f'OSU v{",".join(sorted(versions))}; '
                             f'{rounds.tool_version}')
