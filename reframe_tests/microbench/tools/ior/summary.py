'''IOR's JSON summary file, held to what was asked and to itself.

The summary (``-O summaryFormat=JSON -O summaryFile=ior.json``) states most
figures twice: its max, min, mean and standard deviation are those of its
per-repetition "Results" rows, its operations per second its bandwidth over
the transfer size, its mean time the rows' mean, its bytes the first row's
bandwidth times its time, and every parameter the summary entries repeat is
the Parameters'.  :func:`parse_summary` holds every one of them to the
other up to the 4 decimals IOR prints (:mod:`.summary_twice`), and, told
what was asked (:class:`~microbench.tools.ior.command.IorAsked`), the run
to it (:mod:`.summary_asked`; where a task's buffer was, where IOR says it:
:func:`.gpu.check_options`); :mod:`.summary_fields` reads its typed
members.
'''

from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import OutputError, load_json, member, number
from microbench.tools.ior import gpu
from microbench.tools.ior.summary_asked import check_asked, summary_file
from microbench.tools.ior.summary_fields import float_of, int_of, text_of
from microbench.tools.ior.summary_twice import (check_repeated,
                                                check_rows, rows_of)

#: The phases of every IOR sample
PHASES = ('write', 'read')


@dataclass(frozen=True)
class IorRun:
    '''One IOR run, as its JSON summary reports it.'''

    version: str
    command: str
    nodes: int
    tasks: int
    deadline_s: int
    #: operation ('write', 'read') -> aggregate bandwidth, MiB/s
    mib_s: dict
    #: operation -> seconds of the phase
    seconds: dict
    #: operation -> seconds until the stonewall stopped it (or None)
    stonewall_s: dict
    #: bytes of every transfer, repetitions, whether the stonewall wore
    #: out (every task moved as many transfers)
    transfer: int = 0
    repetitions: int = 1
    wear_out: bool = False
    #: operation -> MiB the first repetition moved (``xsizeMiB``)
    xsize_mib: dict = None
    #: operation -> bandwidth until the stonewall (``StoneWallbwMeanMIB``:
    #: the tasks' mean bytes over the time), or None
    stonewall_mib_s: dict = None
    #: the summary file the command line names, or None
    summary_file: str = None
    #: the stonewall status file it names (-O stoneWallingStatusFile: a
    #: stonewalled write leaves its count there, not on standard output),
    #: or None
    status_file: str = None
    #: phase -> every rank's MiB/s (its own time), where the command asked
    #: IOR for its per-rank figures (:mod:`.ranks`), else None
    ranks: dict = None

    @property
    def figures(self):
        return dict(self.mib_s)


def _phase(summary, op):
    '''The one summary entry of operation ``op``.'''
    return output.once([e for e in summary if isinstance(e, dict)
                        and e.get('operation') == op],
                       f'"{op}" summary entry')


def parse_summary(text, phases=PHASES, asked=None):
    '''Parse the JSON summary file of one IOR run, which must hold every
    phase of ``phases``, once, and agree with itself; and, where ``asked``
    (an :class:`IorAsked`) is given, say it ran what was asked.

    :raises OutputError: on empty, cut, incomplete or corrupted summaries,
        figures IOR states twice that disagree, and runs of another
        command, size or shape than the asked one.
    '''
    if asked is not None:
        phases = asked.phases

    data = load_json(text)
    text_of(data, 'Finished', 'the summary')       # IOR's success marker
    tests = member(data, 'tests', 'the summary')
    if not isinstance(tests, list) or len(tests) != 1:
        count = len(tests) if isinstance(tests, list) else repr(tests)
        raise OutputError(f'the summary holds {count} tests where one was '
                          f'run')

    test = tests[0]
    params = member(test, 'Parameters', 'the test')
    options = member(test, 'Options', 'the test')
    summary = member(data, 'summary', 'the summary')
    if not isinstance(summary, list):
        raise OutputError(f'the summary entries are {summary!r}')

    for entry in summary:
        op = entry.get('operation') if isinstance(entry, dict) else None
        if op not in phases:
            raise OutputError(f'the summary has a "{op}" entry, but the run '
                              f'was asked {", ".join(phases)} only')

    repetitions = int_of(params, 'repetitions', 'the Parameters')
    if repetitions < 1:
        raise OutputError(f'the Parameters say {repetitions} repetitions')

    entries = {op: _phase(summary, op) for op in phases}
    tasks = {op: number(member(entry, 'numTasks', f'the {op} summary'),
                        f'the {op} summary numTasks', integer=True)
             for op, entry in entries.items()}
    if asked is not None:
        check_asked(data, params, entries[phases[0]], tasks[phases[0]],
                     asked)
        gpu.check_options(options, asked)

    rows = rows_of(test, repetitions, phases)
    found = {}
    for op, entry in entries.items():
        check_repeated(op, entry, params, options)
        found[op] = check_rows(op, entry, rows[op], params)

    if len(set(tasks.values())) != 1:
        raise OutputError(f'the phases ran on {sorted(set(tasks.values()))} '
                          f'tasks')

    tasks = tasks[phases[0]]
    stated = int_of(options, 'tasks', 'the Options')
    if stated != tasks:
        raise OutputError(f'the Options say tasks {stated} but the summary '
                          f'says numTasks {tasks}: IOR prints both of one '
                          f'run')

    command = text_of(data, 'Command line', 'the summary')
    stonewalls, stonewall_bw = {}, {}
    for op, entry in entries.items():
        stonewall = entry.get('StoneWallTime')
        stonewalls[op] = None if stonewall is None else number(
            stonewall, f'the {op} summary StoneWallTime', positive=False)
        stonewall_bw[op] = None if stonewall is None else float_of(
            entry, 'StoneWallbwMeanMIB', f'the {op} summary')

    return IorRun(
        text_of(data, 'Version', 'the summary'),
        command,
        number(member(params, 'nodes', 'the Parameters'), 'nodes',
               integer=True),
        tasks,
        number(params.get('deadlineForStonewall', 0), 'deadlineForStonewall',
               positive=False, integer=True),
        {op: number(bw, f'the {op} summary bwMeanMIB')
         for op, (bw, _, _) in found.items()},
        {op: number(seconds, f'the {op} summary MeanTime')
         for op, (_, seconds, _) in found.items()},
        stonewalls,
        transfer=int_of(params, 'transferSize', 'the Parameters'),
        repetitions=repetitions,
        wear_out=bool(int_of(params, 'stoneWallingWearOut', 'the Parameters')),
        xsize_mib={op: xsize for op, (_, _, xsize) in found.items()},
        stonewall_mib_s=stonewall_bw,
        summary_file=summary_file(command),
        status_file=summary_file(command, 'stoneWallingStatusFile'),
    )
