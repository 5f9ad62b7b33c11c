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

Every rejection is an :class:`~microbench.suite.output.OutputError` naming
what was wrong and both values where two disagree.
'''

from microbench.suite import samples
from microbench.tools.ior.command import IorAsked  # noqa: F401
from microbench.tools.ior.stdout import (  # noqa: F401
    ERRORS, WARNINGS, IorStdout, check_stdout, parse_stdout)
from microbench.tools.ior.summary import (  # noqa: F401
    PHASES, IorRun, parse_summary)


def read_sample(sample, phases=PHASES, asked=None):
    '''One IOR sample: no failure line on its standard output or error, its
    standard output complete, and its JSON summary with every phase (of
    ``asked``, where given: :class:`IorAsked`), saying it ran what was
    asked and agreeing with itself and with its standard output.'''
    if asked is not None:
        phases = asked.phases

    sample.reject_errors(ERRORS, 'IOR', ('ior.out', samples.STDERR))
    out = sample.parse('ior.out', parse_stdout)
    run = sample.parse('ior.json', parse_summary, phases, asked)
    sample.parse('ior.out', lambda _: check_stdout(out, run, phases))
    return run


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
