'''The IOR scaling sweep (the check ``ior_scaling``): one job holding
``max_nodes`` nodes runs IOR's easy shape under IO500's rules at every
point of nodes in 1, 2, 4, ... ``max_nodes`` times tasks per node in 1,
2, 4, ... ``max_tasks_per_node``, round-robin, and reports every point,
and for write and read the peak and the number of tasks after which the
median never grew by more than ``growth_percent``.

Every point's reads are judged by its witnesses (Darshan's DXT: whose
data every read got; the residency witness: what was in the reading
node's page cache before it; one kernel: nodes that share one page
cache): a multi-node point whose reads came from a page cache reports
its read as a cache figure, ``read_cache_n<N>_t<T>_*``, left out of the
read peak and saturation, the note saying why.  Each peak is then held
against the storage under it (:mod:`microbench.tools.ior.assess`).
'''

import reframe.utility.sanity as sn
from reframe.core.builtins import run_after, sanity_function, variable
from reframe.core.exceptions import SanityError

from microbench import components, fields
from microbench.units import STATISTICS, figure_name
from microbench.tools.ior import assess
from microbench.tools.ior import residency as ior_residency
from microbench.tools.ior.checks import (IorRounds, judge_witness,
                                         local_share, sustained,
                                         witness_logs)
from microbench.suite import limits, mpi
from microbench.suite import residency as suite_residency
from microbench.suite.output import OutputError
from microbench.suite.stats import Samples, saturation


def powers_of_two(top):
    values = [1]
    while values[-1] * 2 <= top:
        values.append(values[-1] * 2)

    return values + ([top] if values[-1] != top else [])


class IorSweep(IorRounds):
    '''IOR easy bandwidth over nodes x tasks per node, its peak and where it
    saturates: the sweep, its figures and their judgement; a check sets
    its ``reference`` and ``witnesses``.'''

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
        self.read_cached = {}
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

    def point(self, variant):
        # IOR easy under IO500's rules (-C -Q 1 -e), samples and Darshan
        # witness alike, from the one builder of every IOR check
        n, t = (int(x[1:]) for x in variant.split('.'))
        return 'easy', 'reorder_fsync', n, t

    @sanity_function
    def validate_sweep(self):
        self.collect_records()
        self.figures_by_point, version = {}, ''
        self.read_cached, seen, logs, resident = {}, [], [], {}
        for variant, (n, t) in zip(self.variants, self.points):
            recs = self.variant_records(variant, self)
            runs = self.runs(variant)
            sustained(runs)
            version = runs[0].version
            self.figures_by_point[(n, t)] = {
                op: Samples([r.mib_s[op] for r in runs], 'MiB/s')
                for op in ('write', 'read')
            }
            said, origins, kept = self.judge_reads(variant, recs)
            local = local_share(origins) if origins else None
            seen.append(f'{variant}: {said}')
            logs += kept
            shared = mpi.shared_cache(self, n, n * t)
            found = self.judge_residency(variant, shared, origins, resident)
            if n > 1 and shared:
                self.read_cached[(n, t)] = shared
            elif n > 1 and local:
                self.read_cached[(n, t)] = (
                    f'Darshan saw {100 * local:.1f} % of the bytes read come '
                    f'from data written on the reading node, not another')
            elif n > 1 and found and found.judged and found.resident:
                self.read_cached[(n, t)] = (
                    f'{suite_residency.percent(found.largest)} % of what '
                    f'it reads was in the page cache before it (fincore)')

        # one line where no point's witness ran, for the same reason
        plain = {said.split(': ', 1)[1] for said in seen}
        self.darshan_witness = (plain.pop() if len(plain) == 1 and next(
            iter(plain)).startswith('not run') else '; '.join(seen))
        self.darshan_logs = ' '.join(logs)
        self.resident_share = fields.RESIDENT_SHARE.encode(resident)
        self.tool_version = f'IOR {version}; {self.tool_version}'
        self.command_line = ' ; '.join(self.records.get('command', []))
        if self.nodes() == 1:
            self.note = ('one node: every read comes back from the page '
                         'cache (-C cannot help), so only writes are reported')

        self.demote_reads()
        self.assess()
        return True

    def assess(self):
        '''Each peak as a share of its storage limit (declared aggregate,
        else the measured one-node limit times the nodes), and each
        saturation point against the partition's drives (``n x t = k x
        d``): recorded beside the figures, said in the note.'''
        partition, said, found = self.current_partition, [], []
        expected = assess.expected_tasks(partition)
        largest = max(n * t for n, t in self.points)
        for op in ('write', 'read'):
            if not self._series(op):
                continue

            peak = self._summary(f'{op}_peak')
            held = assess.peak_limit(partition, op, self.nodes())
            why = limits.withheld(partition)
            if not held and why:
                # the one-node limit was measured elsewhere: no share,
                # and the record and the note say why
                name = f'storage_{op}_mib_s'
                found.append(limits.Share(f'{op}_peak_mib_s',
                                          components.withheld_label(name,
                                                                    why),
                                          None, None, False, False))
                said.append(f'{op} peak: no share of {name} ({why})')
            if held:
                name, value = held
                share = components.share(peak, value, 'ceiling')
                found.append(limits.Share(f'{op}_peak_mib_s', name, value,
                                          share, False, False))
                said.append(f'{op} peak {peak:.4g} MiB/s is {share:.0f} % '
                            f'of {name} ({value:.4g} MiB/s)')
            if expected:
                said.append(assess.saturation_note(
                    op, self._summary(f'{op}_saturation'), expected,
                    largest))

        limits.record(self, found)
        if said:
            self.note = '; '.join(filter(None, [self.note, *said]))

    def judge_residency(self, variant, shared, origins, resident):
        '''What the residency witness of ``variant`` saw
        (:func:`microbench.tools.ior.residency.seen`, None without
        fincore), its share put in ``resident`` (by variant); it must
        agree with Darshan's ``origins`` where that ran.'''
        try:
            found = ior_residency.seen(self, variant, self, shared)
        except OutputError as err:
            raise SanityError(f'{self.display_name}: the residency witness '
                              f'of {variant}: {err}') from None

        if found is None or not found.judged:
            return found

        resident[variant] = [100 * found.largest]
        if origins:
            disagree = ior_residency.agreement(
                found, origins, self.ior_command(variant).asked, shared)
            if disagree:
                raise SanityError(f'{self.display_name}: {variant}: '
                                  f'{disagree}')

        return found

    def judge_reads(self, variant, recs):
        '''(what the Darshan witness of ``variant`` saw of its reads,
        ``{origin: bytes read}`` or None where it did not run, its logs).
        Its accesses must be the transfer size and every writing rank must
        have fsynced (-e).'''
        try:
            seen = witness_logs(self, variant, recs)
            if isinstance(seen, str):
                return seen, None, []

            frame, logs = seen
            said, origins = judge_witness(self, variant, frame, logs)
        except (OutputError, SanityError) as err:
            raise SanityError(
                f'{self.display_name}: the Darshan witness of {variant}: '
                f'{self.darshan_log_dir(variant)}: {err}; command: '
                f'{recs.get("darshan", ["?"])[0]}') from None

        return (said, origins,
                [self.kept_path(log) for log in sorted(set(frame['log']))])

    def demote_reads(self):
        '''Report the read of every point of :attr:`read_cached` as a cache
        figure, left out of the read peak and saturation; say why.'''
        if not self.read_cached:
            return

        for (n, t) in self.read_cached:
            for stat in STATISTICS:
                del self.perf_variables[figure_name(f'read_n{n}_t{t}', stat,
                                                    'MiB/s')]
                name = figure_name(f'read_cache_n{n}_t{t}', stat, 'MiB/s')
                self.perf_variables[name] = sn.make_performance_function(
                    self._point, 'MiB/s', 'read', n, t, stat
                )

        if not self._series('read'):
            for name in self.summary_figures:
                if name.startswith('read'):
                    self.perf_variables.pop(name, None)

        why = '; '.join(f'n{n}.t{t}: {reason}'
                        for (n, t), reason in self.read_cached.items())
        self.note = (f'reads of another node\'s data that came from a page '
                     f'cache are cache figures (read_cache_*), not counted in '
                     f'the read peak or saturation: {why}')

    def _point(self, op, n, t, stat):
        return getattr(self.figures_by_point[(n, t)][op], stat)

    def _series(self, op):
        '''(tasks, median) of every point that counts for ``op``, in the
        order of growing tasks (fewer nodes first).'''
        points = sorted((n * t, n, figures[op].median)
                        for (n, t), figures in self.figures_by_point.items()
                        if op == 'write' or n > 1
                        and (n, t) not in self.read_cached)
        return [(tasks, median) for tasks, _, median in points]

    def _summary(self, name):
        op, what = name.split('_')[:2]
        series = self._series(op)
        if what == 'peak':
            return max(median for _, median in series)

        return saturation(series, self.growth_percent / 100)
