'''slurm_testbed: the Slurm test cluster that ``ci/slurm_testbed.sh start``
runs on this machine: two nodes (mbnode1, mbnode2), each a network and UTS
namespace with the machine's real cores and memory, a real slurmctld and
slurmd, Debian's Slurm 22.05.

Selected explicitly, never by host name::

    eval "$(ci/slurm_testbed.sh start)"     # exports SLURM_CONF
    reframe -c reframe_tests -r --system slurm_testbed --mode quick

Jobs are submitted with ``sbatch`` and polled with ``squeue`` (ReFrame's
``squeue`` backend: there is no accounting database here, so ``sacct`` has
nothing; a facility with slurmdbd uses ``slurm``).  Processes start with
``srun``: the test cluster's ``MpiDefault=pmi2`` serves Debian's MPICH, whose
simple PMI speaks the PMI-1 wire protocol that plugin also serves, so ``srun``
starts its ranks directly (checked: an MPI_Allreduce over both nodes).  Both
nodes share the machine's file systems and its two cores: the figures are a
test of the path through the workload manager, not of the machine.  Like
the local default, no fixed references: only the gap directions that hold
on any machine.

Its jobs take a benchmark lock of its own (``extras.benchmark_lock``): one
job at a time among themselves (``max_jobs: 1`` and the lock), but never
waiting for a run of the local default on the same machine, which the
project's tests run beside them (tests/helpers/workers.py).
'''

#: The test cluster's benchmark lock (not /tmp/microbench-<uid>.lock: the
#: local default's)
LOCK = '/var/tmp/microbench-testbed.lock'

_compute = {
    'scheduler': 'squeue',
    'launcher': 'srun',
    'environs': ['builtin'],
    # One job at a time: the nodes share one disk and two cores
    'max_jobs': 1,
    # Whole nodes
    'access': ['--partition=compute', '--exclusive'],
    'sched_options': {
        'job_submit_timeout': 30,
    },
}

system = {
    'name': 'slurm_testbed',
    'descr': 'The Slurm test cluster of ci/slurm_testbed.sh (two nodes, '
             'this machine)',
    # Never picked by host name: --system slurm_testbed
    'hostnames': [],
    'modules_system': 'nomod',
    'partitions': [
        {
            **_compute,
            'name': 'node_local',
            'descr': 'Both nodes, a scratch directory of the node\'s own '
                     '(network checks: one process per node)',
            'features': ['network'],
            'extras': {
                'benchmark_lock': LOCK,
                'scratch': '/var/tmp/microbench-testbed',
                # fabtests over tcp on the nodes' bridge; the node names
                # resolve inside the nodes
                'fabric': {'provider': 'tcp'},
            },
        },
        {
            **_compute,
            'name': 'shared',
            'descr': 'Both nodes, the stage directory as scratch: every node '
                     'sees it (IOR, mdtest)',
            'features': ['pfs'],
            'extras': {'benchmark_lock': LOCK},
        },
    ]
}
