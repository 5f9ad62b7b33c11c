'''The real outputs every parser test reads, each with its parser told what
was asked, and the two paths a test reads an output by: the parser on its
text, and :func:`microbench.suite.samples.read_runs` on the files of a
sample as a rounds job keeps them.  A reader returns the figures, or
:data:`REJECTED` when the parser raised
:class:`~microbench.suite.output.OutputError` (any other exception is a bug and
fails the test).'''

import functools
import json
import os
import shlex
import tempfile
from dataclasses import dataclass, field
from typing import Callable

from microbench.tools import elbencho, fabtests, fio, ior, mdtest, osu
from microbench.tools.fio import cache, polling_files
from microbench.suite import cpu, output, reduction, samples, strace
from microbench.suite.output import OutputError

from fixtures import command, fio_options, section, text
import plain

#: The variant every sample of these tests belongs to
VARIANT = 'v'

@dataclass(frozen=True)
class Case:
    '''One real output, its parser, and how a sample keeps it.'''

    id: str
    #: the output as the tool wrote it
    data: bytes
    #: 'json' (one document), 'jsonl' (one per line) or 'lines'
    kind: str
    #: text -> the run (or what the parser returns)
    parse: Callable
    #: run -> its figures
    figures_of: Callable = lambda run: run.figures
    #: the name a sample keeps this output as, and its other files
    kept: str = None
    others: dict = field(default_factory=dict)
    #: read_sample(sample) of the tool
    read_sample: Callable = None
    #: the case whose figures a sample gives, if not this one (a sample
    #: gives its client's figures, not its server's)
    sample_gives: str = None
    #: text -> the figures a plain reading of it gives (tests/helpers/
    #: plain.py), where a changed output may still be a valid one (an
    #: empty file, a file stored in no block): a reader that accepts it
    #: must give those
    plain: Callable = None

    def figures(self, text):
        return self.figures_of(self.parse(text))


def _osu_parse(size, benchmark, text):
    run = osu.parse(text, size, benchmark)
    name, value, _ = osu.figure(run, size)
    return osu.OsuSample(run, {name: value})


def _fabtests_figures(run):
    '''The figures the suite reports of a fabtests run: its row's, and a
    timed run's CPU use (its user and system seconds are no figures: either
    may truly be 0)'''
    cpu = {'cpu_percent': run.usage['cpu_percent']} \
        if 'cpu_percent' in run.usage else {}
    return {**run.figures, **cpu}


def ior_asked(name):
    '''What the IOR run of ``name`` was asked, from its saved command
    (``mpirun -np N ior ...`` or ``srun --nodes= --ntasks=
    --ntasks-per-node= ior ...``); None where the saved command is not the
    exact one (its summary's command line says another).'''
    words = shlex.split(command(name))
    if words[0] == 'mpirun':
        nodes, per_node, argv = 1, int(words[2]), words[3:]
    else:
        options = dict(w[2:].split('=') for w in words[1:4])
        nodes, per_node = int(options['nodes']), int(
            options['ntasks-per-node'])
        argv = words[4:]

    if json.loads(text(name))['Command line'] != ' '.join(argv):
        return None

    return ior.asked_of(argv, nodes, per_node)


def _fabtests_program(name):
    return 'fi_msg_pingpong' if 'pingpong' in name else 'fi_msg_bw'


#: The real elbencho results with their console output (stdout of the same
#: run): the saved command line is on one of them
ELBENCHO_CONSOLES = {
    'elbencho/suite-buffered-grow.json': 'elbencho/suite-buffered-grow.out',
    'elbencho/suite-buffered-prealloc.json':
        'elbencho/suite-buffered-prealloc.out',
    'elbencho/suite-direct-grow.json': 'elbencho/suite-direct-grow.out',
    'elbencho/suite-direct-prealloc.json':
        'elbencho/suite-direct-prealloc.out',
    'elbencho/suite-service-2hosts.json': 'elbencho/suite-service-2hosts.out',
    'elbencho/elbencho-t2-1g-buffered-jsonfile.json':
        'elbencho/elbencho-t2-1g-buffered-console.txt',
    'elbencho/buffered_allfiles.res.json':
        'elbencho/buffered_allfiles.console.txt',
}

#: The real elbencho results saved without a command line: what
#: tests/data/README.md says they were asked (their command is unknown)
ELBENCHO_DOCUMENTED = {
    'elbencho/direct.res.json': {
        'block_size': '1m', 'file_size': '1g', 'threads': 2, 'hosts': 1,
        'direct': True},
    'elbencho/preallocfile.res.json': {
        'block_size': '1m', 'file_size': '1g', 'threads': 2, 'hosts': 1,
        'direct': False},
    'elbencho/service_client_write_allfiles.res.json': {'hosts': 1},
}

#: The rows of an mdtest run without -F, besides its files'
MDTEST_DIRECTORIES = ('Directory creation', 'Directory stat',
                      'Directory rename', 'Directory removal')


def _value(argv, flag):
    return argv[argv.index(flag) + 1] if flag in argv else None


def elbencho_asked(name):
    '''What the real elbencho run ``name`` was asked, as the suite's
    rounds tell :func:`elbencho.parse`: from its saved command line (on its
    results, else on its console output), else what tests/data/README.md
    says of it.'''
    if name in ELBENCHO_DOCUMENTED:
        return {'phases': elbencho.PHASES, **ELBENCHO_DOCUMENTED[name]}

    try:
        argv = command(name).split()
    except AssertionError:
        argv = command(ELBENCHO_CONSOLES[name]).split()

    hosts = _value(argv, '--hosts')
    return {'phases': elbencho.PHASES, 'block_size': _value(argv, '-b'),
            'file_size': _value(argv, '-s'),
            'threads': int(_value(argv, '-t')),
            'hosts': len(hosts.split(',')) if hosts else 1,
            'direct': '--direct' in argv, 'command': argv}


def mdtest_asked(name):
    '''What the real mdtest run ``name`` was asked, as the suite's rounds
    tell :func:`mdtest.parse`, from its saved command line (every one ran
    its ranks on one node, one iteration).'''
    words = command(name).split()
    start = next(i for i, w in enumerate(words) if w.endswith('mdtest'))
    launcher, argv = words[:start], words[start:]
    ranks = _value(launcher, '-np' if '-np' in launcher else '-n')
    operations = tuple(mdtest.OPERATIONS.values())
    if '-F' not in argv:
        operations += MDTEST_DIRECTORIES

    return {'operations': operations, 'items': int(_value(argv, '-n')),
            'tasks': int(ranks), 'nodes': 1, 'iterations': 1,
            'command': argv}


def _fio_case(name):
    '''A real fio sample, its parser told the options it ran with.'''
    asked = fio_options(name)
    return Case(name, text(name).encode(), 'json',
                functools.partial(fio.parse, asked=asked),
                kept='fio.json', others={'stderr.txt': b''},
                read_sample=functools.partial(fio.read_sample, asked=asked))


def _catalogue():
    cases = []
    for name in ('fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default'
                 '.json',
                 'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_none.json',
                 'fio/seqwrite-16j-32k-buffered.json',
                 'fio/seqwrite-16j-32k-odirect.json',
                 'fio/warning-verify-time_based.json'):
        cases.append(_fio_case(name))

    # The witness's summaries (-e trace=fallocate,execve)
    for name in ('strace/strace-fallocate-execve-default.txt',
                 'strace/strace-fallocate-execve-none.txt',
                 'strace/strace-fallocate-ramfs-failed.txt'):
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(strace.parse_summary,
                                            syscall='fallocate'),
                          lambda calls: calls))

    # IOR: a summary file and the standard output of the same run (a
    # sample keeps both: ior.out must be complete and agree); the exact
    # runs are told what their saved command asked
    for name in ('ior/easy-reorder-fsync', 'ior/hard-none', 'ior/easy-i3',
                 'ior/scaling-n1-t1', 'ior/slurm-n2-t2',
                 'ior/easy-stonewalled', 'ior/easy-ended-before-stonewall'):
        summary = f'{name}.summary.json'
        asked = ior_asked(summary)
        cases.append(Case(summary, text(summary).encode(), 'json',
                          functools.partial(ior.parse_summary, asked=asked),
                          kept='ior.json',
                          others={'ior.out': text(f'{name}.stdout.txt')
                                  .encode(), 'stderr.txt': b''},
                          read_sample=functools.partial(ior.read_sample,
                                                        asked=asked)))

    for name in ('mdtest/n200.txt', 'mdtest/n200-F.txt', 'mdtest/n200-N1.txt',
                 'mdtest/mdtest-np2-n100.txt', 'mdtest/suite-easy-none.txt',
                 'mdtest/suite-easy-node.txt', 'mdtest/suite-hard-none.txt',
                 'mdtest/suite-hard-node.txt'):
        asked = mdtest_asked(name)
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(mdtest.parse, **asked),
                          kept='mdtest.out', others={'stderr.txt': b''},
                          read_sample=functools.partial(mdtest.read_sample,
                                                        asked=asked)))

    # Every OSU output at 32 KiB, the suite's message size (4 KiB where
    # the run went no further)
    for name, size in (('osu/osu_bw-7.2-default.txt', 32768),
                       ('osu/osu_latency-7.2-default.txt', 32768),
                       ('osu/osu_bw-5.6.1-default.txt', 32768),
                       ('osu/osu-7.2-bw.out', 32768),
                       ('osu/osu-5.6.3-bw.out', 32768),
                       ('osu/osu-5.6.3-latency.out', 32768),
                       ('osu/osu-5.6.1-latency-m4096.out', 4096)):
        benchmark = 'osu_latency' if 'latency' in name else 'osu_bw'
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(_osu_parse, size, benchmark),
                          kept='osu.out', others={'stderr.txt': b''},
                          read_sample=functools.partial(
                              osu.read_sample, size=size,
                              benchmark=benchmark)))

    # fabtests: a client under time -v with its server, and a server (the
    # sample keeps the matching client); fi_msg_bw's default sweep has no
    # 32 KiB row, its 64 KiB row is used.  The .client.out files ran
    # without time -v: no sample path (read_sample wants time -v)
    for name, size in (('fabtests/fi_msg_pingpong-tcp-S100-c_fd.txt', 100),
                       ('fabtests/fi_msg_pingpong-tcp-S100-default.txt', 100),
                       ('fabtests/fi_msg_bw-tcp-default.txt', 65536)):
        client = section(name, 'client output').encode()
        server = section(name, 'server output').encode()
        program = _fabtests_program(name)
        sample = functools.partial(fabtests.read_sample, size=size,
                                   program=program)
        parse = functools.partial(fabtests.parse, size=size, timed=True,
                                  program=program)
        cases.append(Case(f'{name}:client', client, 'lines', parse,
                          _fabtests_figures, kept='client.out',
                          others={'server.out': server}, read_sample=sample))
        if name.endswith('c_fd.txt'):
            cases.append(Case(f'{name}:server', server, 'lines', parse,
                              _fabtests_figures, kept='server.out',
                              others={'client.out': client},
                              read_sample=sample,
                              sample_gives=f'{name}:client'))

    for name, size in (('fabtests/bw_32k.client.out', 32768),
                       ('fabtests/pingpong_sread.client.out', 100),
                       ('fabtests/pingpong_I1.client.out', 100)):
        cases.append(Case(name, text(name).encode(), 'lines',
                          functools.partial(
                              fabtests.parse, size=size,
                              timed='pingpong_I1' in name,
                              program=_fabtests_program(name)),
                          _fabtests_figures))

    # A sample keeps the run's real console output where it was saved (its
    # table is held to the results), else an empty one (no table)
    for name in ('elbencho/buffered_allfiles.res.json',
                 'elbencho/direct.res.json', 'elbencho/preallocfile.res.json',
                 'elbencho/service_client_write_allfiles.res.json',
                 'elbencho/elbencho-t2-1g-buffered-jsonfile.json',
                 'elbencho/suite-buffered-grow.json',
                 'elbencho/suite-buffered-prealloc.json',
                 'elbencho/suite-direct-grow.json',
                 'elbencho/suite-direct-prealloc.json',
                 'elbencho/suite-service-2hosts.json'):
        asked = elbencho_asked(name)
        console = (text(ELBENCHO_CONSOLES[name]).encode()
                   if name in ELBENCHO_CONSOLES else b'')
        cases.append(Case(name, text(name).encode(), 'jsonl',
                          functools.partial(elbencho.parse, **asked),
                          kept='elbencho.json',
                          others={'elbencho.out': console, 'stderr.txt': b''},
                          read_sample=functools.partial(elbencho.read_sample,
                                                        asked=asked)))

    return {case.id: case for case in [*cases, *_field_pitfalls()]}


def _cpu_figures(found):
    '''The busy cores of a CPU file; a sample gives its polling figures.'''
    if isinstance(found, polling_files.PollingRun):
        return found.figures

    return {'busy': cpu.busy_cores(found)}


def _stored_figures(found):
    '''The figures of a data-reduction witness.'''
    return {'files': found.files, 'written': found.written,
            'stored': found.stored}


def _field_pitfalls():
    '''The outputs of the pitfalls the field found after the paper (issue
    36): fio's RWF_DONTCACHE and data-reduction samples, the polling
    check's samples with their CPU files, and the witnesses' outputs
    (fincore, what a file system stored, a polling thread's ticks).'''
    cases = []
    for name in ('fio/suite-dontcache.json',
                 'fio/suite-reduction-btrfs-zeros.json'):
        cases.append(_fio_case(name))

    # A polling sample is its JSON and its CPU file: either may be broken
    # (the CPU file names its variant)
    name, cpu_file = ('fio/polling-sqpoll-1.json',
                      'polling/cpu-sqpoll-1.txt')
    asked = fio_options(name)
    sample = functools.partial(polling_files.read_sample, asked=asked,
                               variant='sqpoll')
    cases.append(Case(name, text(name).encode(), 'json',
                      functools.partial(polling_files.parse_sample,
                                        cpu_text=text(cpu_file), asked=asked,
                                        variant='sqpoll'),
                      kept='fio.json',
                      others={'cpu.txt': text(cpu_file).encode(),
                              'stderr.txt': b''}, read_sample=sample))
    cases.append(Case(cpu_file, text(cpu_file).encode(), 'lines', cpu.parse,
                      _cpu_figures,
                      kept='cpu.txt',
                      others={'fio.json': text(name).encode(),
                              'stderr.txt': b''},
                      read_sample=sample, sample_gives=name))

    # The witnesses' own outputs
    cases.append(Case('polling/witness-sqpoll-cpu.txt',
                      text('polling/witness-sqpoll-cpu.txt').encode(),
                      'lines', polling_files.parse_threads,
                      lambda found: {'busy': cpu.busy_cores(found[0]),
                                     'threads': len(found[1]),
                                     'ticks': sum(t.ticks
                                                  for t in found[1])}))
    for name in ('reduction/btrfs-fio-zeros.txt',
                 'reduction/ext4-fio-zeros.txt',
                 'reduction/btrfs-elbencho-half.txt'):
        cases.append(Case(name, text(name).encode(), 'lines',
                          reduction.parse, _stored_figures,
                          plain=lambda found: _stored_figures(
                              plain.stored(found))))
    cases.append(Case('fincore/dontcache.txt',
                      text('fincore/dontcache.txt').encode(), 'lines',
                      cache.parse_fincore, lambda found: found._asdict(),
                      plain=plain.fincore_totals))

    # elbencho's --blockvarpct 50, O_DIRECT, on btrfs: results and console
    name = 'elbencho/suite-reduction-half.json'
    asked = elbencho_asked(name)
    cases.append(Case(name, text(name).encode(), 'jsonl',
                      functools.partial(elbencho.parse, **asked),
                      kept='elbencho.json',
                      others={'elbencho.out': text(
                          'elbencho/suite-reduction-half.out').encode(),
                          'stderr.txt': b''},
                      read_sample=functools.partial(elbencho.read_sample,
                                                    asked=asked)))
    return cases


CASES = _catalogue()
SAMPLED = {i: case for i, case in CASES.items() if case.read_sample}


@functools.cache
def expected(case_id, reader='parse'):
    '''The figures of the real output, or of the sample it is kept in.'''
    case = CASES[case_id]
    if reader == 'sample' and case.sample_gives:
        return expected(case.sample_gives)

    return case.figures(case.data.decode())


# --- Reading a mutated output on both paths ---------------------------------

#: What a reader returns for an output it rejected
REJECTED = 'rejected'


def parsed(case, data):
    '''The figures of ``data`` (bytes) through the parser, or REJECTED.'''
    try:
        return case.figures(output.decode(data))
    except OutputError:
        return REJECTED


def keep(directory, files):
    '''Keep ``files`` (name -> bytes) as sample 1's, as a rounds job does;
    their paths.'''
    paths = set()
    for name, content in files.items():
        path = os.path.join(directory, samples.kept_name(name, VARIANT, 1))
        with open(path, 'wb') as fp:
            fp.write(content)

        paths.add(path)

    return paths


def sampled(case, data):
    '''The figures of ``data`` kept as the output of sample 1, through
    read_runs, or REJECTED; a rejection must name sample 1 and one of its
    files.'''
    with tempfile.TemporaryDirectory() as directory:
        paths = keep(directory, {**case.others, case.kept: data})
        try:
            runs = samples.read_runs(directory, VARIANT, 1, case.read_sample)
        except samples.SampleError as err:
            assert err.number == 1, err
            assert err.file in paths, err
            return REJECTED

    assert len(runs) == 1
    return case.figures_of(runs[0])


READERS = {'parse': parsed, 'sample': sampled}


def assert_holds(case, data, how, reader='parse'):
    '''The property: the real figures, or a rejection.'''
    got = READERS[reader](case, data)
    want = expected(case.id, reader)
    if got not in (REJECTED, want) and case.plain is not None:
        # another valid output: what it says
        want = case.plain(data.decode())
    assert got == REJECTED or got == want, (
        f'{case.id}, {how}: {got!r}, not {want!r}')


