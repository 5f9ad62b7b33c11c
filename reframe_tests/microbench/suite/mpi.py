'''MPI rounds: a storage benchmark started as ranks on several nodes.'''

from reframe.core.builtins import run_after, variable

from microbench.suite import launchers, where
from microbench.suite.rounds import Rounds


class MpiRounds(Rounds):
    '''Rounds of an MPI storage benchmark on ``num_nodes`` nodes with
    ``tasks_per_node`` ranks each (one node where the launcher is local), on
    a scratch every node shares.

    '''

    valid_systems = where.SHARED_SCRATCH

    #: Nodes of the job (one where the launcher is local).
    #:
    #: :type: :class:`int`
    #: :default: ``2``
    num_nodes = variable(int, value=2)

    #: MPI ranks on every node.
    #:
    #: :type: :class:`int`
    #: :default: ``2``
    tasks_per_node = variable(int, value=2)


    def version_command(self):
        return launchers.MPI_VERSION

    def nodes(self):
        return 1 if self.flavour() == 'local' else self.num_nodes

    def memory_nodes(self):
        return self.nodes()

    def ranks(self, *argv, nodes=None, per_node=None):
        '''A command line starting the ranks of one sample.'''
        start = launchers.spread(self.flavour(), nodes or self.nodes(),
                                 per_node or self.tasks_per_node)
        return ' '.join([start, *argv])

    def facts(self):
        # A node is a kernel: "nodes" that share one (containers, namespaces,
        # the Slurm test cluster) share one page cache too
        return {'kernels': self.ranks('cat /proc/sys/kernel/random/boot_id',
                                      per_node=1) + ' | sort -u | wc -l'}

    @run_after('setup')
    def set_tasks(self):
        self.num_tasks = self.nodes() * self.tasks_per_node
        self.num_tasks_per_node = self.tasks_per_node


def shared_cache(rounds, nodes, tasks):
    '''Why the ranks of ``rounds`` read what their own kernel's page cache
    holds, whatever their stride: every task on one node, or the job's nodes
    sharing one kernel (one boot id); None where they do not.'''
    if nodes == 1:
        return f'all {tasks} tasks ran on one node'

    kernels = rounds.records.get('kernels', [''])[0].strip()
    if kernels == '1':
        return (f"the job's {nodes} nodes share one kernel (one boot id), "
                f'so one page cache')

    return None
