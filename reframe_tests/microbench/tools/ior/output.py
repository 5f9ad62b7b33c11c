'''IOR's outputs, held to what the run was asked and to themselves.

Every sample is one IOR run that writes and then reads.  Its summary goes to
a JSON file (``-O summaryFormat=JSON -O summaryFile=ior.json``): on standard
output IOR mixes stonewall and warning lines into its JSON.  Bandwidth is
IOR's aggregate (``bwMeanMIB``, MiB/s) over all tasks.  A stonewall (``-D``,
with ``stoneWallingWearOut`` so that every task writes as much) makes a write
phase last ``deadline_s`` seconds: a phase that ended before its stonewall
wrote all its blocks too soon, and its figure is not sustained.

What a sample is believed only after (:func:`read_sample`):

- *what was asked*: the summary says it ran the asked command line, sizes,
  tasks, nodes, phases and options (:class:`IorAsked`, built by
  :mod:`.command` with the command itself); another transfer size is
  another measurement;
- *what IOR states twice*: the summary's mean, min, max and standard
  deviation are those of its per-repetition rows, its operations per
  second its bandwidth over the transfer size, its mean time the rows'
  mean, its bytes the first row's bandwidth times its time, and the
  parameters it repeats agree, all up to the 4 decimals IOR prints;
- *its standard output* (``ior.out``): no failure line (``ERROR``,
  ``FAILED in``, MPI's abort), not empty, cut or padded with NULs, every
  rank's ``Writing output to <summary file>`` line, and for a stonewalled
  wear-out run its last line, ``Pairs deadlineForStonewallingaccessed: N``
  (the ``Finished`` line goes to the summary file), whose N, and every
  phase's ``stonewalling pairs accessed`` line, are the bytes the summary
  says each phase moved.

A sample of IO500's read after read is three IOR runs (a write and two
reads, :func:`.command.build_reread`), each with its own summary and
standard output: :func:`read_sequence` reads every one as above, each held
to its own command, and every read to the bytes the write wrote.

Every rejection is an :class:`~microbench.suite.output.OutputError` naming
what was wrong and both values where two disagree.
'''

from dataclasses import replace

from microbench.suite import samples
from microbench.suite.output import OutputError
from microbench.units import MIB
from microbench.tools.ior.command import IorAsked  # noqa: F401
from microbench.tools.ior.command import STDOUT_FILE, SUMMARY_FILE
from microbench.tools.ior import ranks
from microbench.tools.ior.summary_fields import HALF, near
from microbench.tools.ior.stdout import (  # noqa: F401
    ERRORS, WARNINGS, IorStdout, check_stdout, parse_stdout)
from microbench.tools.ior.summary import (  # noqa: F401
    PHASES, IorRun, parse_summary)


def read_sample(sample, phases=PHASES, asked=None,
                files=(STDOUT_FILE, SUMMARY_FILE)):
    '''One IOR sample: no failure line on its standard output or error, its
    standard output complete, and its JSON summary with every phase (of
    ``asked``, where given: :class:`IorAsked`), saying it ran what was
    asked and agreeing with itself and with its standard output.
    ``files``: (standard output, summary) of the run, as kept.'''
    if asked is not None:
        phases = asked.phases

    stdout, summary = files
    sample.reject_errors(ERRORS, 'IOR', (stdout, samples.STDERR))
    out = sample.parse(stdout, parse_stdout)
    run = sample.parse(summary, parse_summary, phases, asked)
    sample.parse(stdout, lambda _: check_stdout(out, run, phases))
    if asked is not None and asked.rank_file:
        run = replace(run, ranks=sample.parse(asked.rank_file,
                                              ranks.parse_ranks, asked))
    return run


def read_sequence(sample, commands):
    '''A sample of IO500's sequence of IOR runs (:func:`.command.
    build_reread`: ``commands``, a write and its reads): every run read as
    :func:`read_sample` reads one, each held to its own command (the
    second read to its ``-Q 2`` word for word), every read to have read
    the bytes the write wrote (the files it left, not another run's).  One
    run whose ``figures`` are the write's and every read's (by
    :attr:`.command.IorCommand.figure`), MiB/s.'''
    write, *reads = commands
    first = read_sample(sample, asked=write.asked,
                        files=(write.stdout or STDOUT_FILE, write.summary))
    found = {'write': first}
    for read in reads:
        run = read_sample(sample, asked=read.asked,
                          files=(read.stdout or STDOUT_FILE, read.summary))
        said, wrote = run.xsize_mib['read'], first.xsize_mib['write']
        if not near(said, wrote, 2 * HALF):
            raise OutputError(
                f'{read.summary} says its read moved {said:.4f} MiB, but '
                f'the write of the same sample wrote {wrote:.4f} MiB '
                f'({write.summary}): it did not read back the files the '
                f'write left', sample.path(read.summary))

        if run.version != first.version:
            raise OutputError(f'{read.summary} is of IOR {run.version}, '
                              f'{write.summary} of IOR {first.version}: '
                              f'the outputs are of two installations',
                              sample.path(read.summary))

        found[read.figure] = run

    def by_figure(field):
        return {name: getattr(run, field)[op] for name, run, op in
                ((name, run, 'write' if name == 'write' else 'read')
                 for name, run in found.items())}

    return replace(first, mib_s=by_figure('mib_s'),
                   seconds=by_figure('seconds'),
                   stonewall_s=by_figure('stonewall_s'),
                   xsize_mib=by_figure('xsize_mib'),
                   stonewall_mib_s=by_figure('stonewall_mib_s'))


def data_bytes(run, operation):
    '''The bytes of the files phase ``operation`` of ``run`` touched, all
    its tasks: what its first repetition moved (``xsizeMiB``; another
    repetition writes and reads the same files again).'''
    return run.xsize_mib[operation] * MIB


def unsustained(run, operation='write'):
    '''A message if a stonewalled phase ended before its stonewall.'''
    if not run.deadline_s or operation not in run.seconds:
        return None

    stopped = run.stonewall_s.get(operation)
    if stopped is not None and stopped >= 0.99 * run.deadline_s:
        return None

    return (f'the {operation} phase ended after {run.seconds[operation]:.3g} '
            f's, before its {run.deadline_s} s stonewall: the blocks are too '
            f'small to keep every task writing, so the figure is not '
            f'sustained (raise the block size or segments)')
