'''Batch scripts (Slurm, PBS) and plain shell: every benchmark line, with
the job's nodes, tasks and binding from the directives and environment
lines, the variables the script sets, and the loops around each line.

A loop that runs the same command again is repetition (M1); a loop whose
variable the command uses is a sweep of configurations, each run once.
'''

import re
from dataclasses import dataclass

from microbench.audit import words
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

_SPLIT = re.compile(r'\s*(?:&&|\|\||;|\|(?!\|))\s*')
_VAR = re.compile(r'\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)')
_FOR = re.compile(r'^\s*for\s+(\w+)\s+in\s+(.*?)\s*(?:;\s*do\b.*)?$')
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
    return int(match[0]) if match else None


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
                job.tasks = int(match[1])
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
        job.nodes = int(select[1])
        if select[2]:
            job.per_node = int(select[2])
    nodes = re.search(r'nodes=(\d+)(?::ppn=(\d+))?', rest)
    if nodes:
        job.nodes = int(nodes[1])
        if nodes[2]:
            job.per_node = int(nodes[2])


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


def commands(name, text, initial_env=None, prompt=False):
    '''Every command of a script, in order, with the loops around it;
    with ``prompt``, a shell prompt (``$ ``) before a command is dropped
    (a command pasted from a terminal).'''
    env = dict(initial_env or {})
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
        loop = _FOR.match(stripped)
        if loop:
            loops.append((loop[1], _count(loop[2], env), number,
                          _items(loop[2], env)))
            after = re.split(r';\s*do\b', stripped, 1)
            stripped = after[1] if len(after) > 1 else ''
            if not stripped.strip():
                continue
        elif _WHILE.match(stripped):
            loops.append((None, None, number, None))
            continue
        for part in _SPLIT.split(stripped):
            part = re.sub(r'^(do|then|else|elif|if)\s+', '', part.strip())
            if not part or part in ('do', 'then', 'else', 'done'):
                if part == 'done' and loops:
                    loops.pop()
                continue
            repeats, said = _repeats(loops, part)
            for values in _sweep(loops, part):
                try:
                    split = words.split(_expand(part, {**env, **values}))
                except Unreadable:
                    break
                if not split:
                    break
                if split[0] == 'export':
                    split = split[1:]
                if split and all(re.match(r'^\w+=', w) for w in split):
                    for word in split:
                        key, _, value = word.partition('=')
                        env[key] = value
                    break
                out.append(Command(Where(name, number, line.strip()), split,
                                   repeats, said, {**env, **values}))
    return out


def _items(items, env):
    '''The words a ``for`` loop goes over, where they are literal.'''
    items = _expand(items, env).strip()
    if any(c in items for c in '$`*{'):
        return None
    return items.split()


def _sweep(loops, command):
    '''Every assignment of the loop variables ``command`` uses (a sweep:
    each value a configuration of its own), [{}] where it uses none.'''
    out = [{}]
    for variable, _, _, items in loops:
        if variable and items and re.search(rf'\${{?{variable}\b', command):
            out = [{**done, variable: item} for done in out for item in items]
    return out


def _count(items, env):
    '''How many times a ``for`` loop over ``items`` runs, None if not
    known.'''
    items = _expand(items, env).strip()
    seq = re.fullmatch(r'\$\(\s*seq\s+(\d+)(?:\s+(\d+))?(?:\s+(\d+))?\s*\)',
                       items)
    if seq:
        numbers = [int(n) for n in seq.groups() if n]
        if len(numbers) == 1:
            return numbers[0]
        if len(numbers) == 2:
            return max(numbers[1] - numbers[0] + 1, 0)
        return max((numbers[2] - numbers[0]) // numbers[1] + 1, 0)
    brace = re.fullmatch(r'\{(\d+)\.\.(\d+)\}', items)
    if brace:
        return int(brace[2]) - int(brace[1]) + 1
    if re.fullmatch(r'\{[^{}]*\$[^{}]*\}', items):
        return 1     # bash expands no range holding a variable: one item
    if '$' in items or '`' in items or '*' in items:
        return None
    return len(items.split())


def _repeats(loops, command):
    '''(times the loops run ``command`` unchanged, what says so).'''
    times, said = 1, []
    for variable, count, line, _ in loops:
        if variable and re.search(rf'\${{?{variable}\b', command):
            continue                 # a sweep: each value runs once
        if count is None:
            return 3, f'a loop of line {line} (its count not known)'
        times *= count
        said.append(f'a loop of {count} at line {line}')
    return times, ', '.join(said) or None


def _expand(text, env):
    def value(match):
        name = match[1] or match[3]
        if name in env:
            return env[name]
        if match[2] is not None:
            return match[2]
        return match[0]
    return _VAR.sub(value, text)


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
