'''IOR's standard output when its summary goes to a file, held to the
summary of the same run.

With ``-O summaryFile=...`` IOR's standard output (``ior.out``) keeps what
its log gets: every process's ``Writing output to <file>`` (IOR reads its
options before MPI is up, so every rank prints it), a ``stonewalling pairs
accessed`` line for every phase of every repetition, warnings, and for a
stonewalled wear-out run, last, ``Pairs deadlineForStonewallingaccessed: N``
(the ``Finished`` line goes to the summary file; where the command names a
stonewall status file, N goes there instead).  A run whose standard
output is gone, cut, padded or failed is not a run to believe.
'''

import re
from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import OutputError
from microbench.tools.ior.summary import PHASES
from microbench.tools.ior.summary_fields import HALF, near
from microbench.units import KIB, MIB

#: What IOR prints when it fails: its ``ERROR`` lines, its aiori library's
#: ``<time>: Process N: FAILED in <where>, <why>`` (which then calls
#: MPI_Abort), an invalid option, a data check that found wrong bytes, and
#: MPICH's line when an abort comes before MPI is up.  (MPI's own abort and
#: bad termination lines are :data:`~microbench.suite.output.CRASHES`.)
ERRORS = re.compile(r'^((ior )?ERROR\b|Error invalid argument|'
                    r'.*: FAILED in |WARNING: Incorrect data on |'
                    r'Attempting to use an MPI routine )')
WARNINGS = re.compile(r'^WARNING: ')

#: The lines of IOR's standard output the checks read
_WRITING = re.compile(r'Writing output to (.*)')
_STONEWALL = re.compile(
    r'stonewalling pairs accessed min: (\d+) max: (\d+) -- min data: '
    r'\d+\.\d GiB mean data: (\d+\.\d) GiB time: (\d+\.\d)s')
_PAIRS = re.compile(r'Pairs deadlineForStonewallingaccessed: (\d+)')


@dataclass(frozen=True)
class IorStdout:
    '''What IOR's standard output says, with a summary file.'''

    #: the summary file every rank said it writes to, one line per rank
    summary_files: tuple
    #: (min pairs, max pairs, mean GiB, seconds) of every ``stonewalling
    #: pairs accessed`` line, in order (every phase of every repetition)
    stonewalls: tuple
    #: the N of its last line, ``Pairs deadlineForStonewallingaccessed``,
    #: or None
    pairs: int


def parse_stdout(text):
    '''Parse IOR's standard output of a run whose summary went to a file:
    complete (not empty, not cut inside a line, no NUL), no failure line.

    :raises OutputError: on an empty, cut, padded or failed output.
    '''
    nul = text.find('\x00')
    if nul >= 0:
        raise OutputError(f'it holds {text.count(chr(0))} NUL bytes, the '
                          f'first at character {nul}: the file was padded '
                          f'or overwritten, not written whole by IOR')

    found = output.lines(text)
    output.reject_errors(text, ERRORS, 'IOR')
    lines = [output.unlabelled(ln).strip() for ln in found]
    files, stonewalls, pairs, last = [], [], [], None
    for num, line in enumerate(lines, start=1):
        writing = _WRITING.fullmatch(line)
        if writing:
            files.append(writing[1])
            continue

        last = num
        stonewall = _STONEWALL.fullmatch(line)
        if stonewall:
            stonewalls.append((int(stonewall[1]), int(stonewall[2]),
                               float(stonewall[3]), float(stonewall[4])))
        elif _PAIRS.fullmatch(line):
            pairs.append((num, int(_PAIRS.fullmatch(line)[1])))

    if not files:
        raise OutputError('no "Writing output to" line: IOR did not say it '
                          'writes its summary to a file')

    if len(pairs) > 1:
        raise OutputError(f'IOR\'s last line, "Pairs '
                          f'deadlineForStonewallingaccessed", is given '
                          f'{len(pairs)} times: two runs in one file')

    if pairs and pairs[0][0] != last:
        raise OutputError(f'line {pairs[0][0]}, "Pairs '
                          f'deadlineForStonewallingaccessed", is IOR\'s last '
                          f'line, but line {last} follows it: '
                          f'{lines[last - 1][:60]!r}')

    return IorStdout(tuple(files), tuple(stonewalls),
                     pairs[0][1] if pairs else None)


def check_stdout(out, run, phases=PHASES):
    '''IOR's standard output ``out`` (:class:`IorStdout`) against the
    summary of the same run, ``run`` (:class:`IorRun`).'''
    if run.summary_file is not None:
        wrong = [f for f in out.summary_files if f != run.summary_file]
        if wrong:
            raise OutputError(f'ior.out says "Writing output to {wrong[0]}" '
                              f'but the summary\'s command line names '
                              f'summaryFile={run.summary_file}: the outputs '
                              f'are of two runs')

    # Every process prints it (IOR reads its options before MPI is up)
    if len(out.summary_files) != run.tasks:
        raise OutputError(f'ior.out has {len(out.summary_files)} "Writing '
                          f'output to" lines but the summary says '
                          f'{run.tasks} tasks, each of which prints one: '
                          f'the output is not complete')

    if not run.wear_out:
        return

    if run.status_file is not None:
        # IOR writes the count to the status file instead (IO500's split
        # runs): a last line saying it is another run's
        if out.pairs is not None:
            raise OutputError(f'ior.out ends with "Pairs '
                              f'deadlineForStonewallingaccessed: '
                              f'{out.pairs}", which IOR writes to the '
                              f'status file {run.status_file} the summary\'s '
                              f'command line names: the outputs are of two '
                              f'runs')
    elif out.pairs is None:
        raise OutputError('ior.out ends before IOR\'s last line of a '
                          'stonewalled run, "Pairs '
                          'deadlineForStonewallingaccessed: N": it was cut '
                          'short, or IOR did not finish')

    wanted = len(phases) * run.repetitions
    if len(out.stonewalls) != wanted:
        raise OutputError(f'ior.out has {len(out.stonewalls)} "stonewalling '
                          f'pairs accessed" lines where {len(phases)} '
                          f'phases x {run.repetitions} repetitions print '
                          f'{wanted}')

    first = dict(zip(phases, out.stonewalls))
    if (out.pairs is not None and 'write' in first
            and first['write'][1] != out.pairs):
        raise OutputError(f'ior.out says the write phase accessed '
                          f'{first["write"][1]} pairs but its last line '
                          f'says {out.pairs}')

    for op, (_, most, _, _) in first.items():
        moved = most * run.tasks * run.transfer / MIB
        said = run.xsize_mib[op]
        if not near(said, moved, HALF):
            raise OutputError(
                f'ior.out says every task accessed {most} pairs in the {op} '
                f'phase ({run.tasks} tasks x {run.transfer} bytes: '
                f'{moved:.4f} MiB) but the summary says xsizeMiB '
                f'{said:.4f}: the outputs are of two runs, or edited')

    for op in phases:
        lines = out.stonewalls[phases.index(op)::len(phases)]
        times = [t for _, _, _, t in lines]
        said = run.stonewall_s.get(op)
        if said is None:
            continue

        if not near(said, sum(times) / len(times), 0.05 + HALF):
            raise OutputError(
                f'ior.out says the {op} phase reached its stonewall after '
                f'{sum(times) / len(times):.1f} s but the summary says '
                f'StoneWallTime {said:.4f} s')

        # StoneWallbwMeanMIB is the tasks' mean bytes at the stonewall
        # (each line's "mean data", 1 decimal) over the stonewall time
        data = sum(gib for _, _, gib, _ in lines)
        bw = run.stonewall_mib_s[op]
        stated = bw * said * len(lines) / KIB
        slack = 0.05 * len(lines) + bw * HALF * len(lines) / KIB + HALF
        if not near(data, stated, slack):
            raise OutputError(
                f'ior.out says the tasks had moved {data:.1f} GiB each at '
                f'the {op} stonewall but the summary\'s StoneWallbwMeanMIB '
                f'{bw:.4f} x StoneWallTime {said:.4f} s is {stated:.4f} GiB')


