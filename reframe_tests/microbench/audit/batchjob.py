'''A batch script's job: the nodes, tasks and binding its scheduler
directives (Slurm, PBS, LSF) and environment lines ask for, the OSU
release it names, whether it stripes its directory.'''

import re
from dataclasses import dataclass

from microbench.audit import bounds, words
from microbench.audit.context import osu_version_in
from microbench.audit.findings import Unreadable


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
    #: a parallel file system other than Lustre the script names (and
    #: Lustre nowhere): where its data go, S5 is not Lustre's question
    file_system: str = None


#: A parallel file system other than Lustre, as a script names it (its
#: tools, mounts, paths or notes: ``beegfs-ctl``, ``"filesystem":
#: {"name": "quobyte"}``)
_NOT_LUSTRE = re.compile(r'\b(beegfs|gpfs|spectrum[ _-]?scale|quobyte|'
                         r'wekafs|weka|panfs|cephfs|glusterfs|orangefs|'
                         r'pvfs2?)\b', re.IGNORECASE)
#: Lustre, as a script names it
_LUSTRE = re.compile(r'\blustre\b|\blfs\s|/lus/', re.IGNORECASE)


def _int(text):
    match = re.match(r'\d+', str(text or ''))
    return bounds.integer(match[0]) if match else None


def directives(text):
    '''The :class:`Job` of a script's directives and settings.'''
    job = Job()
    named_any, lustre = None, False
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
        named = _NOT_LUSTRE.search(line)
        if named and not named_any:
            named_any = named[1].lower()
        lustre = lustre or _LUSTRE.search(line) is not None
    if named_any and not lustre:
        job.file_system = named_any
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
