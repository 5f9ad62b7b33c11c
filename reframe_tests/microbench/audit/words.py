'''An input's lines and words, and the launcher in front of a program.

A command line may start with environment settings, wrappers (``env``,
``time``, ``timeout``, ``numactl``, ``taskset``) and a launcher (``srun``,
``mpirun``/``mpiexec``, ``aprun``, ``jsrun``, ``flux run``).
:func:`launch` reads them: the program's words, the launcher's flavour,
the nodes and tasks it asks, and how it binds (explicitly, or by its
default: Open MPI's ``mpirun``, ``aprun`` and ``jsrun`` bind each process
to cores; MPICH's Hydra does not, measured here; ``srun`` binds as the
site's Slurm is configured); the launchers themselves are read by
:mod:`.launchers`.
'''

import re
import shlex
from dataclasses import dataclass, field

from microbench.audit import launchers, runners, shellwords
from microbench.audit.launchers import LAUNCHER_VARIABLE, LAUNCHERS
from microbench.audit.bounds import excerpt, integer
from microbench.audit.findings import Unreadable

#: Programs that run the program after their options
WRAPPERS = {'env', 'time', '/usr/bin/time', 'timeout', 'nohup', 'stdbuf',
            'numactl', 'taskset', 'exec', 'command', 'sudo', 'nice',
            'ionice', 'chrt', 'hwloc-bind', 'likwid-pin'}

#: Wrapper options that take a value
_WRAPPER_VALUED = {'timeout': {'-s', '--signal', '-k', '--kill-after'},
                   'taskset': {'-c', '--cpu-list'},
                   'numactl': {'-m', '--membind', '-i', '--interleave', '-p',
                               '--preferred'},
                   'stdbuf': {'-i', '-o', '-e'},
                   'nice': {'-n'}, 'ionice': {'-c', '-n'},
                   '/usr/bin/time': {'-o', '-f', '--format', '--output'},
                   'time': {'-o', '-f', '--format', '--output'},
                   'sudo': {'-u', '-g'}, 'chrt': set(),
                   'likwid-pin': {'-c'}, 'hwloc-bind': set()}

#: Shells that run a script file named next (``sh run_fio.sh ...``)
SHELLS = ('sh', 'bash', 'dash', 'ksh', 'zsh')

_ASSIGNMENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*=')

#: Container runners: (program, its verb) -> its options that take no
#: value (every other option takes one); the image comes after them, then
#: the command (or, with none, the image's own: ``podman run ... ljishen/fio
#: --rw=write`` runs fio)
CONTAINERS = {
    ('docker', 'run'): {'--rm', '-i', '-t', '-it', '-ti', '-d', '--detach',
                        '--interactive', '--tty', '--privileged', '--init',
                        '-P', '--publish-all', '--read-only'},
    ('singularity', 'exec'): {'--nv', '--rocm', '-e', '--cleanenv', '-c',
                              '--contain', '-C', '--containall', '-w',
                              '--writable', '--writable-tmpfs', '-u',
                              '--userns', '--fakeroot', '-f', '--no-home',
                              '--no-init', '--compat'},
}
CONTAINERS[('podman', 'run')] = CONTAINERS[('sarus', 'run')] = \
    CONTAINERS[('docker', 'run')]
#: ``docker exec [options] CONTAINER command``: a running container's
CONTAINERS[('docker', 'exec')] = CONTAINERS[('podman', 'exec')] = {
    '-i', '-t', '-it', '-ti', '-d', '--detach', '--interactive', '--tty',
    '--privileged'}
for _verb in ('run', 'exec'):
    CONTAINERS[('apptainer', _verb)] = CONTAINERS[('singularity', 'run')] = \
        CONTAINERS[('singularity', 'exec')]

#: A job allocation in front of a launcher (``salloc -N2 mpirun ...``):
#: its nodes and tasks are the run's where the launcher says none
ALLOCATORS = ('salloc',)


def lines(text):
    '''[(line number, logical line)] of ``text``: backslash continuations
    joined, numbered by their first line (linear: :mod:`.shellwords`).'''
    return shellwords.lines(text)


def split(line):
    '''The shell words of ``line`` (quotes removed, a ``#`` comment
    dropped), as ``shlex.split`` gives them, in time linear in the line
    (:mod:`.shellwords`).

    :raises Unreadable: on an unbalanced quote.
    '''
    try:
        return shellwords.split(line)
    except ValueError as err:
        raise Unreadable(f'cannot split {excerpt(line.strip())} into words: '
                         f'{err}') from None


def program_name(word):
    '''The program a word names, without its directory.'''
    return word.rsplit('/', 1)[-1]


@dataclass
class Launch:
    '''What runs a program: the words before it, the launcher and its
    flavour, nodes, tasks and binding.'''

    #: the words before the program (settings, wrappers, the launcher)
    prefix: list
    #: the program and its arguments
    argv: list
    launcher: str = None
    #: srun, openmpi, hydra, mpirun (Open MPI or Hydra: unknown), aprun,
    #: jsrun, flux or local (no launcher)
    flavour: str = 'local'
    nodes: int = None
    tasks: int = None
    per_node: int = None
    #: 'bound', 'unbound' or None (the launcher's default); and the words
    #: saying so
    binding: str = None
    binding_words: list = field(default_factory=list)
    #: environment settings before the program
    env: dict = field(default_factory=dict)
    #: the program's own name where its word names it otherwise (a
    #: renamed binary, ``osu_bw.x``; a variable, ``$IOR_CMD``), or None
    renamed: str = None
    #: what says so (its name, else what is said here)
    renamed_by: str = None
    #: the :class:`Launch` of an allocation before the launcher
    #: (``salloc``), or None
    allocation: object = field(default=None, repr=False)

    @property
    def program(self):
        if self.renamed:
            return self.renamed
        return program_name(self.argv[0]) if self.argv else ''

    def text(self, argv=None):
        '''The command line, with ``argv`` in place of the program's.'''
        return ' '.join(shlex.quote(w) if _needs_quote(w) else w
                        for w in [*self.prefix, *(argv or self.argv)])


def _needs_quote(word):
    return word == '' or bool(re.search(r'[\s\'"\\|&;<>()]', word))


def _int(text):
    return integer(text)


def shell_string(words):
    '''Where the command string a shell is given is in ``words``
    (``bash -c STRING``, ``sh -lc STRING``, after a launcher or a
    container's words), or None.'''
    for k in range(len(words) - 2):
        if program_name(words[k]) in SHELLS and \
                re.fullmatch(r'-[a-z]*c', words[k + 1]):
            return k + 2
    return None


def launch(words, known=None):
    '''The :class:`Launch` of a command line's words; ``known(program)``
    tells a benchmark, so that a launcher's positional words before it
    (``mpirun_rsh -np 2 host1 host2 osu_bw``) stay with the launcher.'''
    prefix, env, i = [], {}, 0
    result = Launch(prefix=prefix, argv=[])
    while i < len(words):
        word = words[i]
        name = program_name(word)
        if _ASSIGNMENT.match(word):
            key, _, value = word.partition('=')
            env[key] = value
            prefix.append(word)
            i += 1
        elif name in LAUNCHERS or LAUNCHER_VARIABLE.match(word):
            i = launchers.read(words, i, result, name)
        elif name in ALLOCATORS:
            allocation = Launch(prefix=prefix, argv=[])
            i = launchers.read(words, i, allocation, name)
            result.allocation = allocation
        elif word in WRAPPERS or name in WRAPPERS:
            i = _wrapper(words, i, result)
        elif name in SHELLS and i + 1 < len(words) and \
                words[i + 1].endswith(('.sh', '.bash')):
            result.prefix.append(word)       # sh run_fio.sh -rw=write ...
            i += 1
        elif name in REMOTE and (command := remote(words[i:])) is not None:
            result.prefix.extend(words[i:i + command])
            i += command
        elif i + 1 < len(words) and (name, words[i + 1]) in CONTAINERS:
            i = _container(words, i, result)
        elif (own := runners.runs_arguments(name, words[i + 1:],
                                            known)) is not None:
            # ./run_guest.sh fio --rw=... ...; time_json -o F mpirun ...
            result.prefix.extend(words[i:i + 1 + own])
            if own and not result.launcher:
                # a runner of its own options may start tasks: how many
                # and where, not said
                result.launcher, result.flavour = name, 'mpirun'
            i += 1 + own
        elif (string := runners.runs_string(name, words[i + 1:],
                                            known)) is not None:
            # tp $host "runfabtests.sh -v ...": the string's words
            before, inner = string
            result.prefix.extend(words[i:i + 1 + before])
            words = [*words[:i + 1 + before], *inner,
                     *words[i + 2 + before:]]
            i += 1 + before
        else:
            break
    rest = list(words[i:])
    if result.launcher and known and rest and not known(program_name(
            rest[0])):
        at = next((k for k, w in enumerate(rest)
                   if known(program_name(w)) or known(w)), None)
        if at is not None:
            for word in rest[:at]:
                if _ASSIGNMENT.match(word):
                    key, _, value = word.partition('=')
                    env[key] = value
            prefix.extend(rest[:at])
            rest = rest[at:]
    result.argv = rest
    result.env = env
    allocation = result.allocation
    if allocation is not None and result.nodes is None:
        result.nodes = allocation.nodes
        if result.per_node is None:
            result.per_node = allocation.per_node
        if result.tasks is None:
            result.tasks = allocation.tasks
    return result


#: Programs that run a command on other nodes, and their options that
#: take a value: ``ssh HOST "cmd"`` (a host, then the command),
#: ``pdsh -w HOSTS cmd``, ``clush -w NODES cmd`` (and ``kubectl exec POD
#: -- cmd``, read apart)
REMOTE = {
    'kubectl': set(),
    'ssh': {'-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L',
            '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w'},
    'pdsh': {'-w', '-x', '-R', '-l', '-f', '-t', '-u', '-g', '-X'},
    'clush': {'-w', '-x', '-g', '-X', '-f', '-l', '-o', '-t', '-u',
              '--nodes', '--exclude', '--group', '--fanout'},
}


def remote(words):
    '''The index of the command a remote runner at ``words[0]`` runs (its
    options and, for ssh, the host before it), or None.'''
    if words and program_name(words[0]) == 'kubectl':
        # kubectl exec [options] POD -- command
        if words[1:2] != ['exec'] or '--' not in words:
            return None
        at = words.index('--') + 1
        return at if at < len(words) else None
    valued = REMOTE.get(program_name(words[0])) if words else None
    if valued is None:
        return None
    i = _options_end(words, 1, valued)
    if program_name(words[0]) == 'ssh':
        # the host, then more options: OpenSSH reads them after it too
        i = _options_end(words, i + 1, valued)
    return i if i < len(words) else None


def _options_end(words, i, valued):
    '''The index of the first word from ``i`` that is not an option (or
    an option's value: ``valued`` take one).'''
    while i < len(words) and words[i].startswith('-'):
        i += 2 if words[i] in valued else 1
    return i


def _container(words, i, result):
    '''Read a container runner and its options into the prefix; the index
    of the command it runs, or of its image where it names none.'''
    flags = CONTAINERS[(program_name(words[i]), words[i + 1])]
    result.prefix.extend(words[i:i + 2])
    i += 2
    while i < len(words) and words[i].startswith('-'):
        option = words[i]
        result.prefix.append(option)
        i += 1
        if '=' not in option and option not in flags and i < len(words):
            result.prefix.append(words[i])
            i += 1
    if i + 1 < len(words) and not words[i + 1].startswith('-'):
        result.prefix.append(words[i])       # the image, then its command
        i += 1
    return i


def _wrapper(words, i, result):
    name = words[i]
    result.prefix.append(name)
    valued = _WRAPPER_VALUED.get(name, set()) | _WRAPPER_VALUED.get(
        program_name(name), set())
    i += 1
    if program_name(name) == 'timeout':
        while i < len(words) and words[i].startswith('-'):
            result.prefix.append(words[i])
            i += 2 if words[i] in valued else 1
            if words[i - 1] != result.prefix[-1]:
                result.prefix.append(words[i - 1])
        if i < len(words):
            result.prefix.append(words[i])      # the duration
            i += 1
        return i

    while i < len(words) and (words[i].startswith('-') or (
            program_name(name) == 'env' and _ASSIGNMENT.match(words[i]))):
        word = words[i]
        result.prefix.append(word)
        if program_name(name) == 'env' and _ASSIGNMENT.match(word):
            key, _, value = word.partition('=')
            result.env[key] = value
        i += 1
        if word in valued and i < len(words):
            result.prefix.append(words[i])
            if program_name(name) == 'taskset' and word in ('-c',
                                                            '--cpu-list'):
                _bound_by(result, [word, words[i]])
            i += 1
        elif program_name(name) == 'numactl' and (
                word.startswith(('--physcpubind', '-C', '--cpunodebind',
                                 '-N'))):
            _bound_by(result, [word])
            if '=' not in word and i < len(words):
                result.prefix.append(words[i])
                i += 1
    if program_name(name) == 'taskset' and i < len(words) and \
            not result.binding_words and re.fullmatch(r'(0x)?[0-9a-fA-F]+',
                                                      words[i]):
        result.prefix.append(words[i])      # a mask
        _bound_by(result, [words[i]])
        i += 1
    return i


def _bound_by(result, said):
    result.binding = 'bound'
    result.binding_words = said
