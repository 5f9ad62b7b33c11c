'''Batch scripts (Slurm, PBS) and plain shell: every benchmark line, with
the job's nodes, tasks and binding from the directives and environment
lines, the variables the script sets, and the loops around each line.

A loop that runs the same command again is repetition (M1); a loop whose
variable the command uses is a sweep of configurations, each run once.
'''

import itertools
import re
from collections import ChainMap
from dataclasses import dataclass

from microbench.audit import bounds, shellvars, words
from microbench.audit.context import osu_version_in
from microbench.audit.findings import Unreadable, Where

#: Directive prefixes of batch systems
DIRECTIVES = ('#SBATCH', '#PBS', '#BSUB', '#COBALT', '#MSUB', '#$', '#FLUX:')

#: Environment settings that turn a launcher's binding off (or on)
BINDING_ENV = {
    'SLURM_CPU_BIND': lambda v: 'unbound' if 'none' in v else 'bound',
    'OMPI_MCA_hwloc_base_binding_policy':
        lambda v: 'unbound' if v == 'none' else 'bound',
    'MV2_ENABLE_AFFINITY': lambda v: 'unbound' if v == '0' else 'bound',
    'I_MPI_PIN': lambda v: 'unbound' if v in ('0', 'no', 'off') else 'bound',
    'HYDRA_BINDING': lambda v: 'unbound' if v == 'none' else 'bound',
    'MPICH_CPU_BIND': lambda v: 'unbound' if 'none' in v else 'bound',
}

#: What separates commands on a line (the blanks around them are
#: stripped from each command, not matched: a regular expression with
#: ``\s*`` on both sides retried every blank of a long run, quadratic)
_SPLIT = re.compile(r'&&|\|\||;|\|')
#: A ``for`` loop's head, and the ``; do`` after its items
_FOR = re.compile(r'\s*for\s+(\w+)\s+in\s+')
_DO = re.compile(r';\s*do\b')
_WHILE = re.compile(r'^\s*(while|until)\b')


@dataclass
class Job:
    '''The job a script asks for.'''

    nodes: int = None
    per_node: int = None
    tasks: int = None
    binding: str = None
    osu_version: str = None
    osu_version_from: str = None
    striped: bool = False


def _int(text):
    match = re.match(r'\d+', str(text or ''))
    return bounds.integer(match[0]) if match else None


def directives(text):
    '''The :class:`Job` of a script's directives and settings.'''
    job = Job()
    for number, line in words.lines(text):
        stripped = line.strip()
        if stripped.startswith('#SBATCH'):
            _slurm(job, stripped[len('#SBATCH'):])
        elif stripped.startswith('#PBS'):
            _pbs(job, stripped[len('#PBS'):])
        elif stripped.startswith('#BSUB'):
            match = re.search(r'-n\s+(\d+)', stripped)
            if match:
                job.tasks = _int(match[1])
        version = osu_version_in(line)
        if version and not job.osu_version:
            job.osu_version = version
            job.osu_version_from = f'line {number}'
        if re.search(r'\blfs\s+setstripe\b', stripped) and \
                not stripped.startswith('#'):
            job.striped = True
    if job.tasks is None and job.nodes and job.per_node:
        job.tasks = job.nodes * job.per_node
    if job.per_node is None and job.tasks and job.nodes:
        job.per_node = -(-job.tasks // job.nodes)
    return job


def _slurm(job, rest):
    try:
        parts = words.split(rest)
    except Unreadable:
        return
    said = {}
    for index, part in enumerate(parts):
        key, eq, value = part.partition('=')
        if not eq and index + 1 < len(parts):
            value = parts[index + 1]
        if re.fullmatch(r'-[Nn]\d+', part):
            key, value = part[:2], part[2:]
        said[key] = value
    job.nodes = _int(said.get('-N') or said.get('--nodes')) or job.nodes
    job.tasks = _int(said.get('-n') or said.get('--ntasks')) or job.tasks
    job.per_node = _int(said.get('--ntasks-per-node')) or job.per_node


def _pbs(job, rest):
    select = re.search(r'select=(\d+)(?::[^\s]*?mpiprocs=(\d+))?', rest)
    if select:
        job.nodes = _int(select[1])
        if select[2]:
            job.per_node = _int(select[2])
    nodes = re.search(r'nodes=(\d+)(?::ppn=(\d+))?', rest)
    if nodes:
        job.nodes = _int(nodes[1])
        if nodes[2]:
            job.per_node = _int(nodes[2])


@dataclass
class Command:
    '''A command of the script: where it is, its words (variables
    expanded where the script set them), the loops around it and the
    environment set before it.'''

    where: Where
    words: list
    repeats: int
    repeats_where: str
    env: dict
    #: configurations of its sweep past :data:`~.bounds.MAX_SWEEP`, not
    #: judged
    unswept: int = 0


def commands(name, text, initial_env=None, prompt=False, reader=None):
    '''Every command of a script, in order, with the loops around it;
    with ``prompt``, a shell prompt (``$ ``) before a command is dropped
    (a command pasted from a terminal).  ``reader`` (a
    :class:`~.bounds.Reader`) counts what variables and sweeps add.

    :raises Unreadable: loops nested past :data:`~.bounds.MAX_LOOP_DEPTH`,
        expansions past :data:`~.bounds.MAX_EXPANSION_BYTES`.
    '''
    env = shellvars.Environment(initial_env)
    loops = []     # (variable, count or None, line, items)
    out = []
    for number, line in words.lines(text):
        stripped = line.strip()
        if prompt and stripped.startswith('$ '):
            stripped = stripped[2:]
        if not stripped or stripped.startswith('#'):
            continue
        if stripped in ('done', 'fi', 'esac', '}') or \
                re.match(r'^done\b', stripped):
            if stripped.startswith('done') and loops:
                loops.pop()
            continue
        where = Where(name, number, line.strip())
        loop = _for(stripped)
        if loop:
            variable, items, stripped = loop
            _nest(loops, where)
            loops.append((variable, _count(items, env.view(), reader, where),
                          number, _items(items, env.view(), reader, where)))
            if not stripped.strip():
                continue
        elif _WHILE.match(stripped):
            _nest(loops, where)
            loops.append((None, None, number, None))
            continue
        for part in _SPLIT.split(stripped):
            part = re.sub(r'^(do|then|else|elif|if)\s+', '', part.strip())
            if not part or part in ('do', 'then', 'else', 'done'):
                if part == 'done' and loops:
                    loops.pop()
                continue
            out.extend(_commands_of(part, where, loops, env, reader))
    return out


def _nest(loops, where):
    if len(loops) >= bounds.MAX_LOOP_DEPTH:
        raise Unreadable(f'{where}: loops nested more than '
                         f'{bounds.MAX_LOOP_DEPTH} deep (a for or while '
                         f'without its done?), what the audit follows')


def _for(stripped):
    '''(variable, items, the command after ``; do``) of a ``for`` line,
    or None.'''
    head = _FOR.match(stripped)
    if not head:
        return None
    rest = stripped[head.end():]
    do = _DO.search(rest)
    if do is None:
        return head[1], rest.rstrip(), ''
    return head[1], rest[:do.start()].rstrip(), rest[do.end():]


def _commands_of(part, where, loops, env, reader):
    '''The commands of one part of a line: one per configuration of the
    loop variables it uses (the first :data:`~.bounds.MAX_SWEEP`), none
    where it only sets variables (they go to ``env``).'''
    repeats, said = _repeats(loops, part)
    sweep, total = _sweep(loops, part)
    out = []
    for values in sweep:
        scope = ChainMap(values, env.view())
        expanded = shellvars.expand(part, scope, reader, where)
        if out and reader is not None:
            reader.spend(len(expanded), where)     # one more configuration
        try:
            split = words.split(expanded)
        except Unreadable:
            break
        if not split:
            break
        if split[0] == 'export':
            split = split[1:]
        if split and all(re.match(r'^\w+=', w) for w in split):
            for word in split:
                key, _, value = word.partition('=')
                env.set(key, value)
            break
        out.append(Command(where, split, repeats, said, scope))
    if out and total > len(out):
        out[-1].unswept = total - len(out)
    return out


def _items(items, env, reader=None, where=None):
    '''The words a ``for`` loop goes over, where they are literal.'''
    items = shellvars.expand(items, env, reader, where).strip()
    if any(c in items for c in '$`*{'):
        return None
    return items.split()


def _uses(variable, command):
    return re.search(rf'\${{?{variable}\b', command) is not None


def _sweep(loops, command):
    '''(the first :data:`~.bounds.MAX_SWEEP` assignments of the loop
    variables ``command`` uses (a sweep: each value a configuration of its
    own; [{}] where it uses none), how many there are in all).'''
    swept = [(variable, items) for variable, _, _, items in loops
             if variable and items and _uses(variable, command)]
    total = 1
    for _, items in swept:
        total *= len(items)
    names = [variable for variable, _ in swept]
    first = itertools.islice(itertools.product(
        *(items for _, items in swept)), bounds.MAX_SWEEP)
    return [dict(zip(names, values)) for values in first], total


_SEQ = re.compile(r'\$\(\s*seq\s+(\d+)(?:\s+(\d+))?(?:\s+(\d+))?\s*\)')


def _count(items, env, reader=None, where=None):
    '''How many times a ``for`` loop over ``items`` runs, None if not
    known.'''
    items = shellvars.expand(items, env, reader, where).strip()
    seq = _SEQ.fullmatch(items)
    if seq:
        numbers = [bounds.integer(n) for n in seq.groups() if n]
        if None in numbers:
            return None
        if len(numbers) == 1:
            return numbers[0]
        if len(numbers) == 2:
            return max(numbers[1] - numbers[0] + 1, 0)
        if numbers[1] == 0:
            return None                  # seq: "invalid Zero increment"
        return max((numbers[2] - numbers[0]) // numbers[1] + 1, 0)
    brace = re.fullmatch(r'\{(\d+)\.\.(\d+)\}', items)
    if brace:
        first, last = bounds.integer(brace[1]), bounds.integer(brace[2])
        if first is None or last is None:
            return None
        return abs(last - first) + 1     # bash counts down as well as up
    if re.fullmatch(r'\{[^{}]*\$[^{}]*\}', items):
        return 1     # bash expands no range holding a variable: one item
    if '$' in items or '`' in items or '*' in items:
        return None
    return len(items.split())


def _repeats(loops, command):
    '''(times the loops run ``command`` unchanged, what says so).'''
    times, said = 1, []
    for variable, count, line, _ in loops:
        if variable and _uses(variable, command):
            continue                 # a sweep: each value runs once
        if count is None:
            return 3, f'a loop of line {line} (its count not known)'
        times *= count
        said.append(f'a loop of {count} at line {line}')
    return times, ', '.join(said) or None


def job_env(job):
    '''The variables a scheduler sets in the job, from its directives.'''
    out = {}
    if job.nodes:
        out.update(SLURM_NNODES=str(job.nodes),
                   SLURM_JOB_NUM_NODES=str(job.nodes))
    if job.tasks:
        out.update(SLURM_NTASKS=str(job.tasks), SLURM_NPROCS=str(job.tasks))
    if job.per_node:
        out['SLURM_NTASKS_PER_NODE'] = str(job.per_node)
    return out


def binding_of(env):
    '''The binding the environment sets (None: the launcher's default).'''
    for name, reader in BINDING_ENV.items():
        if name in env:
            return reader(env[name]), f'{name}={env[name]}'
    return None, None
