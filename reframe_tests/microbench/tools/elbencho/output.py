'''elbencho's results file (``--jsonfile``), held to what the run was asked.

Every sample is one elbencho run that writes, then reads, ``threads`` threads
on one file (on several nodes, every node's threads share it).  Its results
go to a JSON Lines file (``--jsonfile``: one object per phase, every value a
string); the figure of a phase is its "last done" throughput, when the last
thread finished, in MiB/s.  elbencho appends to that file, so two objects of
one phase mean two runs.

A parser is told what the sample asked
(:meth:`~microbench.tools.elbencho.checks.ElbenchoRounds.asked`: the phases,
block and file size, threads, hosts, O_DIRECT or not, the command line) and
holds the results to it: each phase states its configuration and the command
that ran.  The figures a phase states twice must agree: its throughput is
its bytes over its elapsed time, its IOPS its throughput over the block
size, for the first thread done and the last; the last moved the whole
file.  The console table says what the results file says
(:mod:`.console`).
'''

import re
from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import (OutputError, lines, load_json,
                                     member, number, reject_errors)
from microbench.units import MIB, size_bytes

#: What elbencho prints when it fails (after a time stamp, or a service's
#: host banner)
ERRORS = re.compile(r'\bERROR: |^.*phase error: ')

#: The phases of every sample
PHASES = ('WRITE', 'READ')

#: The two moments a phase reports: its first thread done, its last
MOMENTS = ('first_done', 'last_done')

#: How each argument of the command is quoted in the results
_ARGUMENT = re.compile(r'"([^"]*)" ')


@dataclass(frozen=True)
class Moment:
    '''What a phase states at one moment (first or last thread done).'''

    elapsed_ms: int
    iops: int
    #: bytes per second, and bytes moved (all threads of all hosts)
    rate: int
    moved: int


@dataclass(frozen=True)
class ElbenchoRun:
    '''One elbencho run, as its JSON Lines results report it.'''

    version: str
    direct: bool
    hosts: int
    #: phase ('WRITE', 'READ') -> last-done throughput, MiB/s
    mib_s: dict
    #: the configuration every phase states (config member -> value)
    config: dict = None
    #: phase -> {moment: :class:`Moment`}
    moments: dict = None
    #: phase -> {node: milliseconds its service took}, where the run
    #: drove services and was asked for their times (:mod:`.services`)
    services: dict = None

    @property
    def figures(self):
        return {phase.lower(): value for phase, value in self.mib_s.items()}

    @property
    def direct_io(self):
        '''The results' own words: ``direct_io true`` or ``false``.'''
        return f'direct_io {"true" if self.direct else "false"}'


def _io(direct):
    return 'O_DIRECT' if direct else 'buffered I/O'


def _integer(config, key, where='the configuration'):
    return number(member(config, key, where), f'{key}', positive=False,
                  integer=True)


def _moment(phase, name, moment, block):
    '''The :class:`Moment` ``moment`` of phase ``name``; its throughput must
    be its bytes over its elapsed time, its IOPS its throughput in blocks
    of ``block`` bytes.'''
    where = f'the {name} phase {moment}'
    found = member(phase, moment, f'the {name} phase')
    rate = number(member(found, 'bytes/s', where), f'{where} bytes/s',
                  integer=True)
    moved = number(member(found, 'bytes', where), f'{where} bytes',
                   integer=True)
    elapsed = number(member(found, 'elapsed_time_ms', where),
                     f'{where} elapsed_time_ms', positive=False, integer=True)
    iops = number(member(found, 'iops', where), f'{where} iops',
                  positive=False, integer=True)
    # elbencho computes both rates from the microseconds the phase took,
    # rounded down, and states those microseconds rounded down to whole
    # milliseconds: its bytes over its rate is that time, from the
    # milliseconds stated to the next
    took = moved / rate * 1000
    if not elapsed * (1 - 1e-9) <= took < (elapsed + 1) * 1.001:
        raise OutputError(f'{where}: {rate:g} bytes/s is not {moved:g} '
                          f'bytes in {elapsed:g} ms: the results are '
                          f'corrupted')

    if abs(iops * block - rate) > block + 0.005 * rate:
        raise OutputError(f'{where}: {iops} IOPS of {block}-byte blocks is '
                          f'not {rate} bytes/s: the results are corrupted')

    return Moment(elapsed, iops, rate, moved)


def _moments(phase, name, block):
    '''{moment: :class:`Moment`} of phase ``name``, its first thread done
    no later than its last, nor with more bytes moved.'''
    moments = {moment: _moment(phase, name, moment, block)
               for moment in MOMENTS}
    first, last = moments['first_done'], moments['last_done']
    if first.elapsed_ms > last.elapsed_ms or first.moved > last.moved:
        raise OutputError(f'the {name} phase: its first thread was done '
                          f'after {first.elapsed_ms} ms with {first.moved} '
                          f'bytes, its last after {last.elapsed_ms} ms with '
                          f'{last.moved} bytes: the results are corrupted')

    return moments


def _phase(line):
    '''(phase name, its config, the phase) of one line of results; an
    error line of elbencho (or a crash) among them says so.'''
    if not line.lstrip().startswith('{'):
        reject_errors(line + '\n', ERRORS, 'elbencho')

    phase = load_json(line)
    name = member(phase, 'phase_type', 'a phase')
    if not isinstance(name, str):
        raise OutputError(f'a phase_type is {name!r}, not a name')

    config = member(phase, 'config', f'phase {name}')
    if not isinstance(config, dict):
        raise OutputError(f'the config of phase {name} is {config!r}')

    return name, config, phase


def command_argv(command):
    '''The arguments of the command a results file states (each quoted,
    commas turned to spaces by elbencho).'''
    if not isinstance(command, str):
        raise OutputError(f'the command is {command!r}, not text')

    argv = _ARGUMENT.findall(command)
    if not argv or ''.join(f'"{word}" ' for word in argv) != command:
        raise OutputError(f'the command {command[:200]!r} is not the quoted '
                          f'arguments elbencho writes: the results are '
                          f'corrupted')

    return argv


def _check_asked(config, block_size, file_size, threads, hosts, direct):
    '''Raise unless the configuration states what was asked (None: not
    asked).'''
    for key, value, option in (('block_size', block_size, '-b'),
                               ('file_size', file_size, '-s')):
        if value is None:
            continue

        said = _integer(config, key)
        want = size_bytes(value)
        if said != want:
            raise OutputError(f'the results say {key} {said} bytes, not the '
                              f'asked {option} {value} ({want} bytes): the '
                              f'results are of another command')

    for key, value, option in (('threads', threads, '-t'),
                               ('hosts', hosts, '--hosts')):
        if value is not None and _integer(config, key) != value:
            raise OutputError(f'the results say {key} '
                              f'{_integer(config, key)}, not the asked '
                              f'{value} ({option}): the results are of '
                              f'another command')

    said = member(config, 'direct_io', 'the configuration')
    if direct is not None and said != ('true' if direct else 'false'):
        raise OutputError(f'the results say direct_io {said} '
                          f'({_io(said == "true")}), but the command asked '
                          f'for {_io(direct)} '
                          f'({"--direct" if direct else "no --direct"})')


def file_bytes(config):
    '''The bytes of the files of a run's configuration: every path's
    size, once for every host where the hosts do not share the paths.'''
    shared = config.get('shared_service_paths', 'true') != 'false'
    return (_integer(config, 'file_size') * _integer(config, 'paths')
            * (1 if shared else _integer(config, 'hosts')))


def data_bytes(run):
    '''The bytes of the files ``run`` wrote and read, all hosts: every
    phase moves its files whole once (:func:`_check_moved`).'''
    return file_bytes(run.config)


def _check_moved(config, moments):
    '''Raise unless the last thread done of every phase moved the whole
    file (or files): a time limit or a loop moves less, or more.'''
    where = 'the configuration'
    if member(config, 'path_type', where) != 'file':
        raise OutputError(f'the results are of path_type '
                          f'{config["path_type"]!r}, not of files: another '
                          f'command')

    size = file_bytes(config)
    for name, found in moments.items():
        moved = found['last_done'].moved
        if moved != size:
            raise OutputError(f'the {name} phase moved {moved} bytes, not '
                              f'the {size} bytes of its file: the run ended '
                              f'early (a time limit?) or looped')


def parse(text, phases=PHASES, *, block_size=None, file_size=None,
          threads=None, hosts=None, direct=None, command=None):
    '''Parse the ``--jsonfile`` results of one elbencho run: every phase of
    ``phases``, once, and no other.  What else the run was asked (None: not
    checked) must be what the results state: ``block_size`` and
    ``file_size`` (sizes as ``-b`` and ``-s`` take them), ``threads`` per
    host, ``hosts``, ``direct`` (O_DIRECT or buffered) and ``command``, the
    argv asked (a word with a ``$`` is one the shell expanded).

    :raises OutputError: on empty, cut or corrupted results, a phase
        missing (a time limit ends a run early), given twice (an appended
        results file) or not asked, figures of a phase that disagree, or
        results of another command than the asked one.
    '''
    found = {}
    for num, line in enumerate(lines(text), start=1):
        if not line.strip():
            continue

        try:
            name, config, phase = _phase(line)
        except OutputError as err:
            raise OutputError(f'line {num}: {err}') from None

        if name in found:
            raise OutputError(f'the {name} phase appears twice: results of '
                              f'more than one run in one file')

        found[name] = config, phase

    missing = [p for p in phases if p not in found]
    if missing:
        raise OutputError(f'no {" and ".join(missing)} phase: the run ended '
                          f'early (a time limit?) or failed')

    extra = [p for p in found if p not in phases]
    if extra:
        raise OutputError(f'the results hold a {" and ".join(extra)} phase, '
                          f'which was not asked (only {", ".join(phases)}): '
                          f'the results are of another command')

    config = found[phases[0]][0]
    for name in phases[1:]:
        other = found[name][0]
        if other != config:
            key = next(k for k in sorted({*config, *other})
                       if config.get(k) != other.get(k))
            raise OutputError(f'the {phases[0]} and {name} phases state '
                              f'another {key} ({config.get(key)!r}, '
                              f'{other.get(key)!r}): results of two runs')

    where = 'the configuration'
    direct_io = member(config, 'direct_io', where)
    if direct_io not in ('true', 'false'):
        raise OutputError(f'direct_io is {direct_io!r}')

    version = member(config, 'version', where)
    if not isinstance(version, str):
        raise OutputError(f'the version is {version!r}')

    # What was asked first: a result of another command is that, whatever
    # else is wrong with it
    _check_asked(config, block_size, file_size, threads, hosts, direct)
    said = command_argv(member(config, 'command', where))
    if command is not None:
        # elbencho states its command with commas as spaces
        output.same_command(
            said, [str(word).replace(',', ' ') for word in command],
            'elbencho', 'the results are')

    block = _integer(config, 'block_size')
    if not block:
        raise OutputError('block_size is 0')

    moments = {phase: _moments(found[phase][1], phase, block)
               for phase in phases}
    _check_moved(config, moments)
    return ElbenchoRun(
        version, direct_io == 'true', _integer(config, 'hosts'),
        {phase: moments[phase]['last_done'].rate / MIB for phase in phases},
        config, moments
    )


def direct_witness(runs, direct):
    '''The witness line of a variant claiming O_DIRECT (``direct``) or
    buffered I/O: what the results of all its ``runs`` say.

    :raises OutputError: naming the first sample whose results say
        otherwise.
    '''
    for num, run in enumerate(runs, start=1):
        if run.direct != direct:
            raise OutputError(f'sample {num}\'s results say '
                              f'{run.direct_io} ({_io(run.direct)}), but the '
                              f'variant claims {_io(direct)}')

    return (f'{runs[0].direct_io} in the results of all {len(runs)} '
            f'samples: {_io(direct)}, as the variant claims')
