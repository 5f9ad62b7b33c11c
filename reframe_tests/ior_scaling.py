'''Where does bandwidth stop growing?  An IOR scaling sweep.

Nolte et al., "Understanding Storage Performance using Benchmarking"
(GWDG): explore the slope and the scaling limit of IO500's IOR easy shape,
from one node and one process up, instead of guessing how many clients
saturate the storage.

One job holds ``max_nodes`` nodes and runs IOR's easy shape under IO500's
rules (a file per process, 1 MiB transfers, stonewalled writes with ``-e``,
reads of another node's data with ``-C``) at every point of the sweep, nodes
in 1, 2, 4, ... ``max_nodes`` times tasks per node in 1, 2, 4, ...
``max_tasks_per_node``, round-robin.  It reports every point and, for write
and read, the peak and the number of tasks after which the median never grew
by more than ``growth_percent``.  A read on one node comes from its page
cache (``-C`` cannot help there): only multi-node points count for read.
'''

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_after, sanity_function, variable

from microbench.units import STATISTICS, figure_name
from microbench.tools.ior import IorRounds, sustained
from microbench.suite.rounds import SCRATCH
from microbench.suite.stats import Samples, saturation


def powers_of_two(top):
    values = [1]
    while values[-1] * 2 <= top:
        values.append(values[-1] * 2)

    return values + ([top] if values[-1] != top else [])


@rfm.simple_test
class ior_scaling(IorRounds):
    '''IOR easy bandwidth over nodes x tasks per node, its peak and where it
    saturates.'''

    #: Most nodes of the sweep (one on the local default).
    #:
    #: :type: :class:`int`
    #: :default: ``4``
    max_nodes = variable(int, value=4)

    #: Most tasks per node of the sweep.
    #:
    #: :type: :class:`int`
    #: :default: ``16``
    max_tasks_per_node = variable(int, value=16)

    #: Smallest gain, in %, that counts as growth.
    #:
    #: :type: :class:`float`
    #: :default: ``10``
    growth_percent = variable(float, value=10.0)

    reference = {'$ref': 'references/ior.yaml'}

    #: Figures with references: peaks and saturation points
    summary_figures = {'write_peak_mib_s': 'MiB/s', 'read_peak_mib_s': 'MiB/s',
               'write_saturation_tasks': 'tasks',
               'read_saturation_tasks': 'tasks'}

    @classmethod
    def figure_units(cls):
        return dict(cls.summary_figures)

    @run_after('init')
    def allocate(self):
        self.num_nodes = self.max_nodes
        self.tasks_per_node = self.max_tasks_per_node

    @run_after('setup')
    def sweep(self):
        self.points = [(n, t) for n in powers_of_two(self.nodes())
                       for t in powers_of_two(self.max_tasks_per_node)]
        self.variants = tuple(f'n{n}.t{t}' for n, t in self.points)
        self.perf_variables = {}
        for n, t in self.points:
            for op in ('write', 'read') if n > 1 else ('write',):
                for stat in STATISTICS:
                    name = figure_name(f'{op}_n{n}_t{t}', stat, 'MiB/s')
                    self.perf_variables[name] = sn.make_performance_function(
                        self._point, 'MiB/s', op, n, t, stat
                    )

        for name, unit in self.summary_figures.items():
            if name.startswith('read') and self.nodes() == 1:
                continue

            self.perf_variables[name] = sn.make_performance_function(
                self._summary, unit, name
            )

    def variant_command(self, variant):
        n, t = (int(x[1:]) for x in variant.split('.'))
        return self.ranks(
            self.ior(), '-w', '-r', '-o', f'{SCRATCH}/testfile',
            *self.shape_options('easy'), '-D', str(self.deadline_s),
            '-O', 'stoneWallingWearOut=1', '-e', '-C', '-Q', str(t),
            '-O', 'summaryFormat=JSON', '-O', 'summaryFile=ior.json',
            nodes=n, per_node=t
        )

    def defence_options(self, defence):
        return []

    @sanity_function
    def validate_sweep(self):
        self.collect_records()
        self.figures_by_point, version = {}, ''
        for variant, (n, t) in zip(self.variants, self.points):
            self.variant_records(variant, self)
            runs = self.runs(variant)
            sustained(runs)
            version = runs[0].version
            self.figures_by_point[(n, t)] = {
                op: Samples([r.mib_s[op] for r in runs], 'MiB/s')
                for op in ('write', 'read')
            }

        self.tool_version = f'IOR {version}; {self.tool_version}'
        self.command_line = ' ; '.join(self.records.get('command', []))
        if self.nodes() == 1:
            self.note = ('one node: every read comes back from the page '
                         'cache (-C cannot help), so only writes are reported')

        return True

    def _point(self, op, n, t, stat):
        return getattr(self.figures_by_point[(n, t)][op], stat)

    def _series(self, op):
        '''(tasks, median) of every point that counts for ``op``, in the
        order of growing tasks (fewer nodes first).'''
        points = sorted((n * t, n, figures[op].median)
                        for (n, t), figures in self.figures_by_point.items()
                        if op == 'write' or n > 1)
        return [(tasks, median) for tasks, _, median in points]

    def _summary(self, name):
        op, what = name.split('_')[:2]
        series = self._series(op)
        if what == 'peak':
            return max(median for _, median in series)

        return saturation(series, self.growth_percent / 100)
