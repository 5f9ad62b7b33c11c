'''MPI rounds: a storage benchmark started as ranks on several nodes.'''

from reframe.core.builtins import run_after, variable

from microbench import launchers, where
from microbench.rounds import Rounds


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

    def flavour(self):
        return launchers.flavour(self.current_partition)

    def nodes(self):
        return 1 if self.flavour() == 'local' else self.num_nodes

    def ranks(self, *argv, nodes=None, per_node=None):
        '''A command line starting the ranks of one sample.'''
        return ' '.join([launchers.spread(self.flavour(), nodes or self.nodes(),
                                          per_node or self.tasks_per_node),
                         *argv])

    @run_after('setup')
    def set_tasks(self):
        self.num_tasks = self.nodes() * self.tasks_per_node
        self.num_tasks_per_node = self.tasks_per_node
