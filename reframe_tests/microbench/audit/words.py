'''An input's lines and words, and the launcher in front of a program.

A command line may start with environment settings, wrappers (``env``,
``time``, ``timeout``, ``numactl``, ``taskset``) and a launcher (``srun``,
``mpirun``/``mpiexec``, ``aprun``, ``jsrun``).  :func:`launch` reads them:
the program's words, the launcher's flavour, the nodes and tasks it asks,
and how it binds (explicitly, or by its default: Open MPI's ``mpirun``,
``aprun`` and ``jsrun`` bind each process to cores; MPICH's Hydra does not,
measured here; ``srun`` binds as the site's Slurm is configured).
'''

import re
import shlex
from dataclasses import dataclass, field

from microbench.audit import shellwords
from microbench.audit.bounds import excerpt, integer
from microbench.audit.findings import Unreadable

#: Programs that run the program after their options
WRAPPERS = {'env', 'time', '/usr/bin/time', 'timeout', 'nohup', 'stdbuf',
            'numactl', 'taskset', 'exec', 'command', 'sudo', 'nice',
            'ionice', 'chrt', 'hwloc-bind', 'likwid-pin'}

#: Launchers of MPI ranks or tasks
LAUNCHERS = ('srun', 'mpirun', 'mpiexec', 'mpiexec.hydra', 'aprun', 'jsrun',
             'orterun', 'prun', 'mpirun_rsh')

#: Launcher options that take no value (every other option takes one,
#: given as ``--opt=value`` or as the next word), by launcher
_FLAGS = {
    'srun': {'-l', '--label', '-u', '--unbuffered', '-v', '--verbose', '-Q',
             '--quiet', '-K', '--kill-on-bad-exit', '-X', '-Z', '--exclusive',
             '--overlap', '--pty', '--multi-prog', '-O', '--overcommit',
             '-s', '--oversubscribe', '--exact', '--whole', '-E',
             '--preserve-env', '--contiguous', '--spread-job', '-H',
             '--hold', '-I', '--immediate'},
    'mpirun': {'--oversubscribe', '-oversubscribe', '--report-bindings',
               '-report-bindings', '--allow-run-as-root', '-v', '-V',
               '--verbose', '--tag-output', '-tag-output',
               '--timestamp-output',
               '-l', '-genvall', '-genvnone', '-envall', '-envnone',
               '--use-hwthread-cpus', '-display-map', '--display-map',
               '-q', '--quiet', '-prepend-rank', '-print-rank-map',
               '--nolocal', '-nolocal', '-bind-to-core', '--bind-to-core',
               '-bind-to-socket', '--bind-to-socket', '--noprefix',
               '-disable-auto-cleanup', '-verbose', '-info',
               '-print-all-exitcodes', '--display-allocation'},
    'aprun': {'-b', '-q', '-B', '-T', '--ss', '-ss', '--strict-memory'},
    'jsrun': {'-Z', '--stdio_mode', '-X'},
}
#: Options that take two values
_PAIRS = {'mpirun': {'-genv', '-env', '--mca', '-mca', '-gmca'}}

#: Wrapper options that take a value
_WRAPPER_VALUED = {'timeout': {'-s', '--signal', '-k', '--kill-after'},
                   'taskset': {'-c', '--cpu-list'},
                   'numactl': set(), 'stdbuf': {'-i', '-o', '-e'},
                   'nice': {'-n'}, 'ionice': {'-c', '-n'},
                   '/usr/bin/time': {'-o', '-f', '--format', '--output'},
                   'time': {'-o', '-f', '--format', '--output'},
                   'sudo': {'-u', '-g'}, 'chrt': set(),
                   'likwid-pin': {'-c'}, 'hwloc-bind': set()}

_ASSIGNMENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*=')

#: A launcher named by a variable the input does not set
#: (``$io500_mpirun``, ``${MPIRUN}``, ``$SRUN_CMD``): read as its kind,
#: nodes and tasks unknown
LAUNCHER_VARIABLE = re.compile(
    r'^\$\{?(\w*?(mpirun|mpiexec|srun|aprun|jsrun|launcher)\w*)\}?$',
    re.IGNORECASE)

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
    #: jsrun or local (no launcher)
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
            i = _launcher(words, i, result)
        elif name in ALLOCATORS:
            allocation = Launch(prefix=prefix, argv=[])
            i = _launcher(words, i, allocation)
            result.allocation = allocation
        elif word in WRAPPERS or name in WRAPPERS:
            i = _wrapper(words, i, result)
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


def _launcher(words, i, result):
    name = program_name(words[i])
    variable = LAUNCHER_VARIABLE.match(words[i])
    if variable:
        name = {'mpiexec': 'mpiexec', 'srun': 'srun', 'aprun': 'aprun',
                'jsrun': 'jsrun'}.get(variable[2].lower(), 'mpirun')
    elif name == 'salloc':
        name = 'srun'             # salloc reads srun's -N, -n, --ntasks-*
    flavour = {'srun': 'srun', 'aprun': 'aprun', 'jsrun': 'jsrun',
               'mpiexec.hydra': 'hydra', 'orterun': 'openmpi',
               'prun': 'openmpi', 'mpirun_rsh': 'mvapich'}.get(name,
                                                               'mpirun')
    kind = flavour if flavour in ('srun', 'aprun', 'jsrun') else 'mpirun'
    result.launcher, result.flavour = name, flavour
    result.prefix.append(words[i])
    i += 1
    said = {}
    while i < len(words) and words[i].startswith('-') and words[i] != '--':
        option = words[i]
        result.prefix.append(option)
        i += 1
        key, eq, value = option.partition('=')
        if option in _PAIRS.get(kind, ()):
            result.prefix.extend(words[i:i + 2])
            said.setdefault(option, []).append(' '.join(words[i:i + 2]))
            i += 2
            continue
        if not eq and option not in _FLAGS.get(kind, ()) and \
                not _attached(kind, option) and i < len(words):
            value = words[i]
            result.prefix.append(value)
            i += 1
        said.setdefault(key if eq else option, []).append(value)
    if i < len(words) and words[i] == '--':
        result.prefix.append('--')
        i += 1
    _read_launcher(kind, said, result)
    return i


def _attached(kind, option):
    '''Whether a short option carries its value (``-n4``, ``-N2``).'''
    return (kind in ('srun', 'aprun') and re.fullmatch(r'-[A-Za-z]\S+',
                                                       option) is not None
            and not option.startswith('--'))


def _last(said, *names):
    for name in names:
        if name in said:
            return said[name][-1]
    return None


def _read_launcher(kind, said, result):
    '''Nodes, tasks and binding from a launcher's options.'''
    for option in list(said):
        if kind in ('srun', 'aprun') and re.fullmatch(r'-[A-Za-z]\S+',
                                                      option):
            said.setdefault(option[:2], []).append(option[2:])
    if kind == 'srun':
        result.nodes = _int((_last(said, '-N', '--nodes') or '').split('-')[0])
        result.tasks = _int(_last(said, '-n', '--ntasks'))
        result.per_node = _int(_last(said, '--ntasks-per-node'))
        bind = _last(said, '--cpu-bind', '--cpu_bind')
        if bind is not None:
            result.binding = 'unbound' if bind.split(',')[-1] in (
                'none', 'no', 'quiet,none') or 'none' in bind.split(',') \
                else 'bound'
            result.binding_words = [f'--cpu-bind={bind}']
    elif kind == 'mpirun':
        result.tasks = _int(_last(said, '-n', '-np', '--np', '-c'))
        result.per_node = _int(_last(said, '-ppn', '--npernode', '-npernode',
                                     '--ppn', '-N'))
        mapping = _last(said, '--map-by', '-map-by') or ''
        ppr = re.match(r'ppr:(\d+):node', mapping)
        if ppr:
            result.per_node = _int(ppr[1])
        if {'-ppn', '-genv', '-bind-to', '-hosts', '-f', '-iface',
                '-bootstrap'} & set(said):
            result.flavour = 'hydra'
        elif {'--map-by', '--bind-to', '--mca', '-mca', '-x', '--hostfile',
              '-npernode', '--npernode', '--oversubscribe',
              '--report-bindings', '-N'} & set(said):
            result.flavour = 'openmpi'
        bind = _last(said, '--bind-to', '-bind-to', '-binding')
        if bind is not None:
            result.binding = 'unbound' if bind.startswith('none') \
                else 'bound'
            option = '-bind-to' if '-bind-to' in said else '--bind-to'
            result.binding_words = [option, bind]
        elif {'--bind-to-core', '-bind-to-core'} & set(said):
            result.binding = 'bound'
            result.binding_words = ['--bind-to-core']
    elif kind == 'aprun':
        result.tasks = _int(_last(said, '-n', '--pes'))
        result.per_node = _int(_last(said, '-N', '--pes-per-node'))
        cc = _last(said, '-cc', '--cc', '--cpu-binding')
        if cc is not None:
            result.binding = 'unbound' if cc == 'none' else 'bound'
            result.binding_words = ['--cc', cc]
    elif kind == 'jsrun':
        sets = _int(_last(said, '-n', '--nrs'))
        per_set = _int(_last(said, '-a', '--tasks_per_rs')) or 1
        per_host = _int(_last(said, '-r', '--rs_per_host'))
        result.tasks = sets * per_set if sets else None
        if per_host:
            result.per_node = per_host * per_set
        bind = _last(said, '-b', '--bind')
        if bind is not None:
            result.binding = 'unbound' if bind == 'none' else 'bound'
            result.binding_words = ['--bind', bind]
    if result.nodes is None and result.tasks and result.per_node:
        result.nodes = -(-result.tasks // result.per_node)
    if result.tasks is None and result.nodes and result.per_node:
        result.tasks = result.nodes * result.per_node
    if result.per_node is None and result.tasks and result.nodes:
        result.per_node = -(-result.tasks // result.nodes)


#: flavour -> (whether it binds each process by default, why): Open MPI's
#: mpirun binds to a core (two processes or fewer) or a package; aprun to
#: a core; jsrun packs a task onto a core (``packed:1``); MPICH's Hydra
#: binds nothing (measured here, MPICH 4.0.2); srun binds as the site's
#: Slurm is set up (TaskPlugin, TaskPluginParam)
DEFAULT_BINDING = {
    'openmpi': (True, 'Open MPI\'s mpirun binds every process to a core '
                '(2 processes or fewer) or a package by default'),
    'aprun': (True, 'aprun binds every process to a core by default '
              '(-cc cpu)'),
    'jsrun': (True, 'jsrun binds every task to a core by default '
              '(packed:1)'),
    'hydra': (False, 'MPICH\'s Hydra binds nothing by default'),
    'mvapich': (True, 'MVAPICH2 binds every process to a core by default '
                '(MV2_ENABLE_AFFINITY=1)'),
    'srun': (None, 'srun binds as the site\'s Slurm is configured '
             '(TaskPlugin task/affinity and TaskPluginParam)'),
    'mpirun': (None, 'mpirun binds by default if it is Open MPI\'s, not '
               'if it is MPICH\'s Hydra'),
    'local': (False, 'no launcher binds the process'),
}
