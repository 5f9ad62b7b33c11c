'''Launchers of MPI ranks and tasks (``srun``, ``mpirun``/``mpiexec``,
``aprun``, ``jsrun``, Blue Gene/Q's ``runjob``) as :func:`.words.launch`
reads them: their options, the nodes and tasks they ask, how they bind
(explicitly, or by default: :data:`DEFAULT_BINDING`).'''

import re

from microbench.audit.bounds import integer
from microbench.audit.getopt import UNSET

#: A launcher named by a variable the input does not set
#: (``$io500_mpirun``, ``${MPIRUN}``, ``$SRUN_CMD``, ``$MPI_RUN_CMD``), or
#: a template's (JUBE's ``[mpiexec]``):
#: read as its kind, nodes and tasks unknown
LAUNCHER_VARIABLE = re.compile(
    r'^(?:\$\{?|\[)(\w*?(mpi_?run|mpi_?exec|srun|aprun|jsrun|launcher)\w*)'
    r'[}\]]?$', re.IGNORECASE)

#: Launchers of MPI ranks or tasks
LAUNCHERS = ('srun', 'mpirun', 'mpiexec', 'mpiexec.hydra', 'aprun', 'jsrun',
             'orterun', 'prun', 'mpirun_rsh', 'runjob',
             # Lustre's test-framework.sh: mpirun with its machine file
             'mpi_run',
             # Flux: flux run (submit, mini run, alloc) [options] program
             'flux',
             # LLNL's lrun (jsrun's wrapper on Sierra and Lassen)
             'lrun')

#: Flux's commands that start tasks (``flux mini run``: before 0.50)
_FLUX_COMMANDS = ('run', 'submit', 'alloc', 'batch', 'mini', 'bulksubmit')

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
    'flux': {'--exclusive', '-x', '--dry-run', '-l', '--label-io', '-u',
             '--unbuffered', '-v', '--verbose', '--debug', '--wait',
             '--watch', '--quiet'},
}
#: Options that take two values
_PAIRS = {'mpirun': {'-genv', '-env', '--mca', '-mca', '-gmca'}}


def _runjob(words, i, result):
    '''Blue Gene/Q's ``runjob -n 8192 -p 16 --block B ... : program``:
    every word up to the ``:`` is the launcher's (``--envs`` takes many).
    The index of the program.'''
    colon = words.index(':', i)
    said = {}
    for at in range(i, colon):
        key, eq, value = words[at].partition('=')
        if key.startswith('-'):
            following = words[at + 1] if at + 1 < colon else None
            said.setdefault(key, []).append(
                value if eq else following or '')
    result.prefix.extend(words[i:colon + 1])
    result.tasks = integer(_last(said, '-n', '--np'))
    result.per_node = integer(_last(said, '-p', '--ranks-per-node'))
    if result.tasks and result.per_node:
        result.nodes = -(-result.tasks // result.per_node)
    return colon + 1


def read(words, i, result, name):
    '''Read the launcher at ``words[i]`` (``name``: its program's name)
    and its options into ``result`` (a :class:`.words.Launch`); the index
    of the first word after them.'''
    variable = LAUNCHER_VARIABLE.match(words[i])
    if variable:
        name = {'mpiexec': 'mpiexec', 'srun': 'srun', 'aprun': 'aprun',
                'jsrun': 'jsrun'}.get(variable[2].lower().replace('_', ''),
                                      'mpirun')
    elif name == 'salloc':
        name = 'srun'             # salloc reads srun's -N, -n, --ntasks-*
    elif name == 'flux':
        while i + 1 < len(words) and words[i + 1] in _FLUX_COMMANDS:
            result.prefix.append(words[i])
            i += 1
    elif name == 'runjob' and ':' in words[i:]:
        result.launcher = result.flavour = 'runjob'
        result.prefix.append(words[i])
        return _runjob(words, i + 1, result)
    flavour = {'srun': 'srun', 'aprun': 'aprun', 'jsrun': 'jsrun',
               'mpiexec.hydra': 'hydra', 'orterun': 'openmpi',
               'prun': 'openmpi', 'mpirun_rsh': 'mvapich',
               'flux': 'flux', 'lrun': 'jsrun'}.get(name, 'mpirun')
    kind = 'lrun' if name == 'lrun' else flavour if flavour in (
        'srun', 'aprun', 'jsrun', 'flux') else 'mpirun'
    result.launcher, result.flavour = name, flavour
    result.prefix.append(words[i])
    i += 1
    said = {}
    while i < len(words) and words[i] != '--' and (
            words[i].startswith('-') or _options_variable(words, i, kind)):
        option = words[i]
        result.prefix.append(option)
        i += 1
        if not option.startswith('-'):
            continue              # ${HOSTS}: options the input leaves
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


#: Options of a launcher's kind that follow a variable holding more of
#: them (``mpiexec ${HOSTS} --map-by node -n 4 ...``)
_KNOWN = {'mpirun': {'-n', '-np', '--np', '--map-by', '-map-by', '--bind-to',
                     '-bind-to', '-x', '-ppn', '--hostfile', '-hostfile',
                     '-f', '-hosts', '-host', '--host', '-H', '--npernode',
                     '-genv', '-env', '--mca', '-mca'},
          'srun': {'-N', '-n', '--nodes', '--ntasks', '--ntasks-per-node',
                   '--cpu-bind', '--mpi', '-c', '--cpus-per-task'}}


def _options_variable(words, i, kind):
    '''Whether ``words[i]``, a variable the input does not set, holds
    launcher options: the next word is one of the launcher's own.'''
    return UNSET.match(words[i]) is not None and i + 1 < len(words) and \
        words[i + 1].partition('=')[0] in _KNOWN.get(kind, ())


def _attached(kind, option):
    '''Whether a short option carries its value (``-n4``, ``-N2``).'''
    return (kind in ('srun', 'aprun', 'flux', 'lrun')
            and re.fullmatch(r'-[A-Za-z]\S+', option) is not None
            and not option.startswith('--'))


def _last(said, *names):
    for name in names:
        if name in said:
            return said[name][-1]
    return None


def _read_launcher(kind, said, result):
    '''Nodes, tasks and binding from a launcher's options.'''
    for option in list(said):
        if kind in ('srun', 'aprun', 'flux', 'lrun') and re.fullmatch(
                r'-[A-Za-z]\S+', option):
            said.setdefault(option[:2], []).append(option[2:])
    if kind == 'srun':
        nodes = _last(said, '-N', '--nodes') or ''
        result.nodes = integer(nodes.split('-')[0])
        result.tasks = integer(_last(said, '-n', '--ntasks'))
        result.per_node = integer(_last(said, '--ntasks-per-node'))
        bind = _last(said, '--cpu-bind', '--cpu_bind')
        if bind is not None:
            result.binding = 'unbound' if bind.split(',')[-1] in (
                'none', 'no', 'quiet,none') or 'none' in bind.split(',') \
                else 'bound'
            result.binding_words = [f'--cpu-bind={bind}']
    elif kind == 'mpirun':
        result.tasks = integer(_last(said, '-n', '-np', '--np', '-c'))
        result.per_node = integer(_last(said, '-ppn', '--npernode',
                                        '-npernode', '--ppn', '-N'))
        mapping = _last(said, '--map-by', '-map-by') or ''
        ppr = re.match(r'ppr:(\d+):node', mapping)
        if ppr:
            result.per_node = integer(ppr[1])
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
        result.tasks = integer(_last(said, '-n', '--pes'))
        result.per_node = integer(_last(said, '-N', '--pes-per-node'))
        cc = _last(said, '-cc', '--cc', '--cpu-binding')
        if cc is not None:
            result.binding = 'unbound' if cc == 'none' else 'bound'
            result.binding_words = ['--cc', cc]
    elif kind == 'flux':
        _read_flux(said, result)
    elif kind == 'lrun':         # lrun -N 2 -T 4: nodes, tasks per node
        result.nodes = integer(_last(said, '-N', '--nodes'))
        result.tasks = integer(_last(said, '-n', '--np'))
        result.per_node = integer(_last(said, '-T', '--tasks_per_node'))
    elif kind == 'jsrun':
        sets = integer(_last(said, '-n', '--nrs'))
        per_set = integer(_last(said, '-a', '--tasks_per_rs')) or 1
        per_host = integer(_last(said, '-r', '--rs_per_host'))
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


def _read_flux(said, result):
    '''``flux run -N 2 -n 4 --tasks-per-node 2 -o cpu-affinity=per-task``:
    its job shell's option ``cpu-affinity`` (``on`` when not given) binds
    each task; ``off`` binds none.'''
    result.nodes = integer(_last(said, '-N', '--nodes'))
    result.tasks = integer(_last(said, '-n', '--ntasks'))
    result.per_node = integer(_last(said, '--tasks-per-node'))
    options = [*said.get('-o', []), *said.get('--setopt', [])]
    affinity = [value.partition('=')[2] for value in options
                if value.startswith('cpu-affinity=')]
    if affinity:
        result.binding = 'unbound' if affinity[-1] in ('off', 'none') \
            else 'bound'
        result.binding_words = ['-o', f'cpu-affinity={affinity[-1]}']


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
    'runjob': (True, 'Blue Gene/Q\'s runjob places each rank on fixed '
               'hardware threads of its node (its CNK kernel never moves '
               'a process)'),
    'flux': (True, 'Flux\'s job shell binds every task to the cores its '
             'job holds on the node by default (cpu-affinity=on)'),
    'local': (False, 'no launcher binds the process'),
}
