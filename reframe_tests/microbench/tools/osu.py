'''OSU Micro-Benchmarks: command lines, output parser, and the base classes
of OSU checks.

``osu_bw`` and ``osu_latency`` run on two MPI ranks, one per node on a
facility partition (two ranks on the node, through mpirun, where the
launcher is local).  OSU prints bandwidth in "MB/s" meaning 10^6 bytes per
second; the suite converts it to MiB/s.  ``-b multiple`` (``--buffer-num``,
OSU 5.7.1 and later) sends from and receives into a different buffer for
every message of a window; older OSU rejects it.  OSU's output says
nothing of it (its header and table are the same either way): the reader
holds a run to its benchmark and message size, and the buffer variants are
told apart only by the command lines the records keep.
'''

import re
from dataclasses import dataclass

from reframe.core.builtins import variable

from microbench import knobs
from microbench.suite import launchers, missing, output, where
from microbench.suite.output import OutputError, lines, number, once
from microbench.suite.rounds import Rounds
from microbench.units import MB_S_IN_MIB_S
from microbench.suite.variant import VariantCheck

_HEADER = re.compile(r'^# OSU MPI (?P<name>.+?) Test v(?P<version>[\d.]+)')
_COLUMNS = re.compile(r'^# Size\s+(?P<metric>\w+) \((?P<unit>[^)]+)\)\s*$')

#: What OSU or the MPI library prints when a run went wrong
ERRORS = re.compile(r'^(Invalid option|.*Fatal error in|Abort\(|.*MPI_Abort|'
                    r'.*BAD TERMINATION)')

#: OSU's metric and unit -> the suite's figure name
METRICS = {('Bandwidth', 'MB/s'): 'bandwidth', ('Latency', 'us'): 'latency'}

#: The benchmarks the suite runs -> the name their header gives them
TESTS = {'osu_bw': 'Bandwidth', 'osu_latency': 'Latency',
         'osu_bibw': 'Bi-Directional Bandwidth'}


@dataclass(frozen=True)
class OsuRun:
    '''One run of an OSU benchmark, as it printed it.'''

    name: str
    version: str
    metric: str
    unit: str
    #: message size (bytes) -> value in ``unit``
    values: dict


def parse(text, size=None, benchmark=None):
    '''Parse the output of one OSU point-to-point benchmark run, which
    must be ``benchmark``'s (any where None).  Every row must be well
    formed; the row of ``size`` (every row, where None) must hold a
    positive figure: a row the check did not ask for may hold 0 (5.6.x's
    ``osu_latency`` prints a 0-byte row).

    :raises OutputError: on empty, cut, rejected or error output, the
        output of another benchmark, or a message size given twice.
    '''
    rows = lines(text)
    output.reject_errors(text, ERRORS, 'the benchmark')
    header = once([m for m in map(_HEADER.match, rows) if m], 'OSU header')
    if benchmark is not None and header['name'] != TESTS.get(benchmark):
        raise OutputError(f'the output is of the OSU MPI {header["name"]} '
                          f'Test, not of the asked {benchmark}')

    columns = once([m for m in map(_COLUMNS.match, rows) if m],
                   '"# Size" column header')
    values = {}
    for line in rows[rows.index(columns.string) + 1:]:
        if line.startswith('#') or not line.strip():
            continue

        fields = line.split()
        if len(fields) != 2:
            raise OutputError(f'unexpected line {line!r}')

        row = number(fields[0], 'a message size', positive=False,
                     integer=True)
        if row in values:
            raise OutputError(f'{row}-byte messages appear twice: more '
                              f'than one run in one file?')

        asked = size is None or row == size
        values[row] = number(fields[1], f'the {row}-byte result',
                             positive=asked)

    if not values:
        raise OutputError('no result rows (cut short?)')

    return OsuRun(header['name'], header['version'], columns['metric'],
                  columns['unit'], values)


def figure(run, size):
    '''(figure name, value, unit) of one message size, bandwidth in MiB/s.'''
    try:
        value = run.values[size]
    except KeyError:
        raise OutputError(f'no result for {size}-byte messages (sizes: '
                          f'{sorted(run.values)})') from None

    name = METRICS.get((run.metric, run.unit))
    if name is None:
        raise OutputError(f'unknown metric {run.metric!r} in '
                          f'{run.unit!r}')

    if run.unit == 'MB/s':
        return name, value * MB_S_IN_MIB_S, 'MiB/s'

    return name, value, run.unit


@dataclass(frozen=True)
class OsuSample:
    '''One OSU sample: its run and the figure at the asked size.'''

    run: OsuRun
    figures: dict


def _at_size(text, size, benchmark):
    run = parse(text, size, benchmark)
    return run, figure(run, size)


def read_sample(sample, size, benchmark=None):
    '''One OSU sample of ``benchmark``: its standard output, with a result
    for ``size``, and no MPI error on its standard error.'''
    sample.reject_errors(ERRORS, 'the benchmark')
    run, (name, value, _) = sample.parse('osu.out', _at_size, size,
                                         benchmark)
    return OsuSample(run, {name: value})


class OsuRounds(Rounds):
    '''OSU point-to-point runs of a pitfall, round-robin (a fixture).

    A variant is ``<benchmark>.<buffer>``: ``osu_bw.single``,
    ``osu_latency.multiple``, ...  ``single`` is OSU's default (no ``-b``);
    ``multiple`` passes ``-b multiple``.  Where the benchmark has no ``-b``,
    the multiple variants are recorded as unsupported and not run.
    '''

    tool = 'OSU Micro-Benchmarks'
    reader = staticmethod(read_sample)
    bindir = 'osu_bindir'
    stdout_file = 'osu.out'
    errors = ERRORS
    uses_scratch = False
    valid_systems = where.NETWORK
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

    def tools_needed(self):
        return [self.program_path(b) for b in self.launched()]

    def version_command(self):
        return launchers.MPI_VERSION

    def expected_seconds(self):
        return 120

    def size_of(self, benchmark):
        '''Message size of ``benchmark``, bytes.'''
        return self.message_size

    def variant_command(self, variant):
        benchmark, buffer = variant.split('.')
        size = self.size_of(benchmark)
        argv = [self.program_path(benchmark), '-m', f'{size}:{size}']
        if benchmark == 'osu_bw':
            argv += ['-W', str(self.window_size)]

        # -b multiple (microbench.knobs, which the audit shares)
        argv += knobs.OSU_BUFFERS[buffer]

        return self.two_ranks(*argv)

    def two_ranks(self, *argv):
        '''A command line starting two ranks, one per node (both on this
        node where the launcher is local).'''
        nodes = 1 if self.flavour() == 'local' else 2
        return ' '.join([launchers.spread(self.flavour(), nodes, 2 // nodes),
                         *argv])

    def probe(self, variant):
        benchmark, buffer = variant.split('.')
        if buffer != 'multiple':
            return None

        program = self.program_path(benchmark)
        return (f'{self.two_ranks(program, "--help")} 2>&1 | '
                f'grep -q -- --buffer-num',
                f'this {benchmark} has no -b/--buffer-num option (OSU before '
                f'5.7.1), so it cannot run from multiple buffers: '
                f'{missing.newer(self.bindir, "OSU 5.7.1 or later")}')

    def reader_args(self, variant):
        benchmark = variant.split('.')[0]
        return (self.size_of(benchmark), benchmark)


class OsuVariantCheck(VariantCheck):
    '''One variant of an OSU pitfall: bandwidth (MiB/s) for ``osu_bw``,
    latency (us) for ``osu_latency``, median, min and max over the samples,
    at the rounds' message size.'''

    valid_systems = where.NETWORK
    main_figures = {'osu_bw': ('bandwidth', 'MiB/s'),
                    'osu_latency': ('latency', 'us')}
    limits = {'bandwidth': 'network_bandwidth_mib_s',
              'latency': 'network_latency_us'}

    def figure_key(self):
        return self.variant.split('.')[0]

    def judge(self, runs, recs):
        versions = sorted({sample.run.version for sample in runs})
        self.tool_version = (f'OSU v{",".join(versions)}; '
                             f'{self.rounds.tool_version}')
