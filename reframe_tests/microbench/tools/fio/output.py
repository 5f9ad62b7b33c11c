'''fio's JSON output, held to the options the run was asked for.

Every sample is one fio run with ``--output-format=json``; bandwidth is the
bytes the jobs wrote divided by the longest job runtime (what fio reports as
the group's aggregate), in MiB/s.  A parser is told the options of the run
(:meth:`~microbench.tools.fio.checks.FioRounds.fio_options`) and checks
that every job says it ran with them and with no other: another block
size, another job, another number of jobs or an option of another variant
(``fallocate=none`` where the default was asked) is another measurement.
fio writes its warnings into the ``--output`` file before the JSON
(upstream fio issue 731): those lines are kept in the run, not taken for a
corrupted output.
'''

import os
import re
from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import OutputError, member, number
from microbench.units import MIB, size_bytes


#: What fio prints when the file system rejects O_DIRECT (EINVAL on open)
_ODIRECT_REJECTED = re.compile(r'does not support (direct=1|O_DIRECT)')

#: A job's error line on stderr (``fio: pid=N, err=22/file:...``)
ERRORS = re.compile(r'^fio: pid=\d+, err=')

#: Flags fio's JSON does not list among a job's options (fio 3.33 and
#: 3.40): a run with ``zero_buffers`` and one without are told apart by
#: their witness (what the file system stored), not by the reader
UNPRINTED = ('zero_buffers', 'refill_buffers')


@dataclass(frozen=True)
class FioRun:
    '''One fio run, as its JSON output reports it.'''

    version: str
    jobs: tuple
    #: bytes moved and longest job runtime (ms), per direction
    io_bytes: dict
    runtime_ms: dict
    #: the lines fio wrote before its JSON (its warnings), kept
    notes: tuple = ()

    def mib_s(self, direction='write'):
        return (self.io_bytes[direction] / MIB
                / (self.runtime_ms[direction] / 1000))

    @property
    def figures(self):
        return {d: self.mib_s(d) for d in self.io_bytes}


def command(executable, options):
    '''The argv of a fio run; ``options`` maps option names to values
    (:obj:`None` for a flag without value).'''
    return [executable, *(f'--{name}' if value is None
                          else f'--{name}={value}'
                          for name, value in options.items())]


def _job(job, direction):
    '''(name, bytes, runtime in ms) of one job of the output.'''
    name = member(job, 'jobname', 'a job')
    if not isinstance(name, str):
        raise OutputError(f'a job name is {name!r}, not a name')

    where = f'job {name!r}'
    error = number(member(job, 'error', where), f'the error of {where}',
                   positive=False, integer=True)
    if error:
        raise OutputError(f'{where} failed with error {error} '
                          f'({os.strerror(error)})')

    stats = member(job, direction, where)
    where = f'{where} {direction}'
    io_bytes = number(member(stats, 'io_bytes', where), f'{where} io_bytes',
                      positive=False, integer=True)
    runtime = number(member(stats, 'runtime', where), f'{where} runtime',
                     positive=False, integer=True)
    bw_bytes = number(member(stats, 'bw_bytes', where), f'{where} bw_bytes',
                      positive=False)
    if runtime and abs(bw_bytes - io_bytes * 1000 / runtime) > max(
            1, 0.01 * bw_bytes):
        raise OutputError(f'{where}: bw_bytes {bw_bytes:g} is not io_bytes '
                          f'{io_bytes} over runtime {runtime} ms: the output '
                          f'is corrupted')

    return name, io_bytes, runtime


def _notes(text):
    '''(the lines fio wrote before its JSON, the JSON).  Its warnings go
    to the ``--output`` file too; an error among them rejects the run.'''
    if not text.strip() or text.lstrip().startswith('{'):
        return (), text

    head, brace, rest = text.partition('\n{')
    if not brace:
        return (), text         # no JSON: load_json says so

    notes = tuple(output.lines(head + '\n'))
    errors = (output.error_lines(head, ERRORS)
              or output.error_lines(head, output.CRASHES))
    if errors:
        raise OutputError(f'fio printed an error before its JSON: '
                          f'{errors[0]}')

    return notes, brace.lstrip('\n') + rest


def _check_asked(jobs, asked):
    '''Raise unless every job says it ran with the ``asked`` options, and
    with no option that was not asked: another variant's output (the
    values of flags, and values the shell expands, cannot be compared;
    :data:`UNPRINTED` flags cannot be seen at all).'''
    for job in jobs:
        where = f'job {job.get("jobname")!r}'
        options = member(job, 'job options', where)
        if not isinstance(options, dict):
            raise OutputError(f'the options of {where} are {options!r}')

        unasked = sorted(set(options) - set(asked))
        if unasked:
            name = unasked[0]
            raise OutputError(f'{where} ran with {name}={options[name]}, '
                              f'which was not asked: the output is of '
                              f'another run')

        for name, value in asked.items():
            if value is None or '$' in str(value):
                continue

            said = options.get(name)
            if said is None or str(said) != str(value):
                ran = 'no ' + name if said is None else f'{name}={said}'
                raise OutputError(f'{where} ran with {ran}, not the asked '
                                  f'{name}={value}: the output is of another '
                                  f'run')

    jobs_asked = asked.get('numjobs', 1)
    if 'group_reporting' not in asked and len(jobs) != int(jobs_asked):
        raise OutputError(f'the output lists {len(jobs)} jobs where '
                          f'{jobs_asked} were asked')


def parse(text, direction='write', asked=None):
    '''Parse the JSON output of one fio run, which ran with the options
    ``asked`` (not checked where None).

    :raises OutputError: on empty, cut, non-JSON or error output, on jobs
        that ran with other options than the asked ones, or if nothing was
        moved in ``direction``.
    '''
    notes, text = _notes(text)
    data = output.load_json(text)
    version = member(data, 'fio version', 'the output')
    if not isinstance(version, str):
        raise OutputError(f'the fio version is {version!r}')

    jobs = member(data, 'jobs', 'the output')
    if not isinstance(jobs, list) or not jobs:
        raise OutputError('the output lists no jobs')

    if any(job in jobs[:i] for i, job in enumerate(jobs)):
        raise OutputError('a job is listed twice: the output is corrupted')

    found = [_job(job, direction) for job in jobs]
    if asked is not None:
        _check_asked(jobs, asked)

    io_bytes = sum(b for _, b, _ in found)
    runtime_ms = max(r for _, _, r in found)
    if io_bytes <= 0 or runtime_ms <= 0:
        done = 'written' if direction == 'write' else 'read'
        raise OutputError(f'nothing was {done} ({io_bytes} bytes in '
                          f'{runtime_ms} ms)')

    return FioRun(version, tuple(n for n, _, _ in found),
                  {direction: io_bytes}, {direction: runtime_ms}, notes)


def data_bytes(run, options, direction='write'):
    '''The bytes of the files ``run`` touched in ``direction``, asked
    ``options``: every job's ``size`` (one file for all where they name
    one ``filename``), or what it moved where that is less (a time-based
    run moves its files again and again: they stay that big).'''
    moved = run.io_bytes[direction]
    try:
        size = size_bytes(options['size'])
    except (KeyError, ValueError):
        return moved        # no size, or a share of a device's: fio's own
    jobs = 1 if 'filename' in options else int(options.get('numjobs', 1))
    return min(moved, size * jobs)


def read_sample(sample, direction='write', asked=None):
    '''One fio sample run with the options ``asked``: its JSON output,
    and no job error on its stderr.'''
    run = sample.parse('fio.json', parse, direction, asked)
    sample.reject_errors(ERRORS, 'fio')
    return run


def rejects_odirect(stderr):
    '''Whether fio's stderr says the file system rejected O_DIRECT.'''
    return bool(_ODIRECT_REJECTED.search(stderr))
