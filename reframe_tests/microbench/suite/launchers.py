'''How each launcher binds a process and places one process on a node.

ReFrame's launchers start a job's tasks.  The network checks also start one
process on a given node (a server, a client) and bind or unbind it, and the
spellings differ per launcher and, for ``mpirun``/``mpiexec``, per MPI.  The
*flavour* of a partition's launcher names the spelling: ``srun``, ``aprun``
(ReFrame's ``alps``), ``openmpi`` or ``hydra`` (ReFrame's ``mpirun`` or
``mpiexec``, with the partition's ``extras.mpi`` set to ``openmpi`` or
``mpich``), or ``local`` (no launcher: processes start directly, bound with
``taskset``).  And what each scheduler tells of a job: its nodes, how it
ended.
'''

import re
import subprocess

from microbench import knobs

_FLAVOURS = {'srun': 'srun', 'alps': 'aprun', 'local': 'local'}
_MPI_FLAVOURS = {'openmpi': 'openmpi', 'mpich': 'hydra'}

#: flavour -> (options binding each process to one core, options leaving it
#: unbound); aprun binds to a core by default, ``local`` binds with taskset
#: (:data:`microbench.knobs.BINDING`, which the audit shares)
BINDING = knobs.BINDING

#: flavour -> command prefix starting one process on the node named by the
#: shell variable ``{node}`` (aprun wants the numeric node id of a nidNNNNN;
#: a Slurm step takes every CPU of its node unless it may ``--overlap``: a
#: server and its client on one node would otherwise wait for each other)
ON_NODE = {
    'srun': 'srun --nodes=1 --ntasks=1 --overlap --nodelist=${node}',
    'openmpi': 'mpirun -np 1 --host ${node}',
    'hydra': 'mpiexec -n 1 -hosts ${node}',
    'aprun': 'aprun -n 1 -L $((10#${{{node}#nid}}))',
    'local': '',
}

#: flavour -> command prefix starting {tasks} MPI ranks, {per_node} on each
#: of {nodes} nodes (Open MPI and hydra map by slot unless told)
SPREAD = {
    'srun': ('srun --nodes={nodes} --ntasks={tasks} '
             '--ntasks-per-node={per_node}'),
    'openmpi': 'mpirun -np {tasks} --map-by ppr:{per_node}:node',
    'hydra': 'mpiexec -n {tasks} -ppn {per_node}',
    'aprun': 'aprun -n {tasks} -N {per_node}',
    'local': 'mpirun -np {tasks}',
}

#: scheduler -> shell command printing the job's nodes, one per line
NODES = {
    'slurm': 'scontrol show hostnames "$SLURM_JOB_NODELIST"',
    'squeue': 'scontrol show hostnames "$SLURM_JOB_NODELIST"',
    'pbs': 'sort -u "$PBS_NODEFILE"',
    'torque': 'sort -u "$PBS_NODEFILE"',
    'local': 'hostname',
}

#: Shell command printing the MPI library's version on one line
MPI_VERSION = ("{ mpichversion 2>/dev/null || mpirun --version 2>&1; } "
               "| grep -m1 -iE 'version|open mpi' | tr -s ' \\t' ' '")


def flavour(partition):
    '''The launcher flavour of a ReFrame partition.'''
    name = partition.json()['launcher']
    if name in _FLAVOURS:
        return _FLAVOURS[name]

    mpi = partition.extras.get('mpi')
    if name in ('mpirun', 'mpiexec') and mpi in _MPI_FLAVOURS:
        return _MPI_FLAVOURS[mpi]

    raise ValueError(
        f'{partition.fullname}: cannot tell how launcher {name!r} binds and '
        f'places processes; with mpirun or mpiexec, set the partition\'s '
        f'extras.mpi to "openmpi" or "mpich"'
    )


def on_node(flavour, node_var, options=()):
    '''Command prefix starting one process on the node in ``$node_var``.'''
    prefix = ON_NODE[flavour].format(node=node_var)
    return ' '.join([prefix, *options]).strip()


def spread(flavour, nodes, per_node):
    '''Command prefix starting ``nodes * per_node`` MPI ranks, ``per_node``
    on each node; with no launcher (``local``), mpirun from PATH.'''
    return SPREAD[flavour].format(nodes=nodes, per_node=per_node,
                                  tasks=nodes * per_node)


def nodes_command(scheduler):
    '''Shell command printing the nodes of the current job, one per line.'''
    try:
        return NODES[scheduler]
    except KeyError:
        raise ValueError(f'no way to list the nodes of a {scheduler!r} '
                         f'job') from None


def slurm_state(jobid):
    '''"STATE (reason R, exit code C)" of a Slurm job, None where Slurm
    does not know it (any more).'''
    try:
        shown = subprocess.run(['scontrol', '-o', 'show', 'job', str(jobid)],
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None

    found = dict(re.findall(r'\b(JobState|Reason|ExitCode)=(\S+)',
                            shown.stdout))
    if 'JobState' not in found:
        return None

    return (f'{found["JobState"]} (reason {found.get("Reason")}, exit code '
            f'{found.get("ExitCode")})')


def job_end(job, scheduler):
    '''How a ReFrame job ended, as its ``scheduler`` (its name) tells:
    Slurm says TIMEOUT after the time limit, CANCELLED after scancel,
    NODE_FAIL, ...'''
    state = job.state
    if scheduler in ('slurm', 'squeue'):
        # squeue forgets a job that ended, and ReFrame's squeue backend then
        # calls it COMPLETED whatever ended it: scontrol still knows
        scheduler, state = 'Slurm', slurm_state(job.jobid) or state

    if state in (None, 'COMPLETED', 'SUCCESS'):
        return f'killed or timed out? ({scheduler} says {state or "nothing"})'

    limit = f', time limit {job.time_limit:g} s' if job.time_limit else ''
    return f'{scheduler} says {state} (job {job.jobid}{limit})'
