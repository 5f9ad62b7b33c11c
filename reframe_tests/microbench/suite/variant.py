'''The variant check: the figures of one variant of a pitfall.

A variant check is what a user selects (``-n 'fio_cache_flags%mode=direct'``);
it runs no job of its own.  Its figures come from the rounds job that
measured it with every other variant of the pitfall: the runs of its
samples (:meth:`microbench.suite.rounds.Rounds.runs`, read, parsed and
validated), then what the tool's subclass judges of them
(:meth:`VariantCheck.judge`), then the partition's physical limits.

In an A/B experiment (``microbench ab``: the rounds fixture's ``stacks``,
``-P stack=A,B``) each side of a variant is a test of its own: its
``stack`` names the side, and it reads the side's samples and records
(:func:`microbench.suite.stacked.view`) as if the job had run that side
alone; once judged, its ``stack`` record says the side's stack.
'''

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_after, sanity_function, variable
from reframe.core.exceptions import SanityError

from microbench import fields, private, sides
from microbench.suite import (coldstart, counted, limits, memory, progress,
                              required, stacked, witnessed)
from microbench.suite.output import OutputError
from microbench.suite.recorded import Recorded, copy_shared
from microbench.suite.stats import Samples
from microbench.units import STATISTICS, figure_name


def as_list(specs):
    return specs if isinstance(specs, list) else [specs]


class VariantCheck(rfm.RunOnlyRegressionTest, Recorded):
    '''One variant of a pitfall, from its rounds fixture.

    Subclasses set :attr:`knob` (the name of their parameter, or a tuple of
    names: the variant is then their values joined by dots), a ``rounds =
    fixture(..., scope='environment')`` and :attr:`main_figures`.  A figure
    is reported as its median, min and max over the samples:
    ``<name>_median_<unit>``, ``_min_``, ``_max_``.
    '''

    #: Name of the parameter that is the pitfall's knob (or a tuple)
    knob = None

    #: The figures of a variant, (name, unit) or a list of them, the main one
    #: first, by :meth:`figure_key`; each run's ``figures`` has their values
    main_figures = {}

    #: Figures reported as one value, not as statistics: name -> unit; the
    #: subclass sets their values in :attr:`scalars` (:meth:`judge`)
    scalar_figures = {}

    #: Figures a variant may have to report as cache figures at run time
    #: (:meth:`demote_to_cache`)
    cache_prone = ()

    #: figure name -> the partition limit it must respect
    #: (:data:`microbench.suite.limits.LIMITS`)
    limits = {}

    #: The least data over a node's memory a read that claims storage
    #: should touch: MLPerf Storage's 5; a read below it says so in its
    #: note, and one whose data the node's memory could hold says that
    #: too (:mod:`microbench.suite.memory`).  Notes only: no figure is
    #: demoted for its ratio.
    #:
    #: :type: :class:`float`
    #: :default: ``5.0``
    memory_floor = variable(float, value=5.0)

    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    executable = 'true'

    def figure_key(self):
        '''Which entry of :attr:`main_figures` this variant reports.'''
        return next(iter(self.main_figures))

    def figure_specs(self):
        '''[(name, unit), ...] of this variant's figures, main first.'''
        return as_list(self.main_figures[self.figure_key()])

    @classmethod
    def figure_units(cls):
        '''{figure name: unit} of every figure a variant may report.'''
        figures = {figure_name(name + suffix, stat, unit): unit
                   for specs in cls.main_figures.values()
                   for name, unit in as_list(specs)
                   for suffix in ('', '_cache')
                   if not suffix or name in cls.cache_prone
                   for stat in STATISTICS}
        return {**figures, **cls.scalar_figures}

    @classmethod
    def as_input(cls, num, rounds, partition, environ, stack=''):
        '''Variant ``num`` of this check as a gap reads it: made anew,
        given ``rounds`` (the job that measured it), the partition and
        environment the gap runs on and the gap's side of an A/B
        (``stack``), and judged by :meth:`validate`, as its own test is.
        Raises what its test's sanity would: :class:`SkipTestError` where
        the variant is skipped,
        :class:`SanityError` where its samples are not what they claim.

        Why not the variant's test: ReFrame skips a test whose dependency
        failed in any stage, its reference included
        (:mod:`microbench.suite.gap`).  Why not its setup stage, which sets
        the partition and environment (ReFrame has no other way to): it
        would make, and wipe, the stage directory of the variant's own
        test; an input reads only the rounds job's.  The hooks its test
        runs after setup run here too (a variant skipped there is
        skipped).'''
        check = cls(variant_num=num)
        private.place(check, partition, environ)
        check.rounds = rounds
        check.stack = stack
        for hook in cls.pipeline_hooks().get('post_setup', []):
            hook(check)

        sn.evaluate(check.validate())
        return check

    @run_after('init')
    def name_the_forgotten(self):
        # what a subclass must set, named where it is forgotten
        required.check(self, VariantCheck)

    @run_after('init')
    def record_variant(self):
        knobs = self.knob if isinstance(self.knob, tuple) else (self.knob,)
        self.variant = '.'.join(str(getattr(self, k)) for k in knobs)
        self.figures, self.scalars, self.cached, self.nodes = {}, {}, set(), 1
        self.perf_variables = {
            **{figure_name(name, stat, unit): sn.make_performance_function(
                self._statistic, unit, name, stat
            ) for name, unit in self.figure_specs() for stat in STATISTICS},
            **{name: sn.make_performance_function(self._scalar, unit, name)
               for name, unit in self.scalar_figures.items()},
        }
        # The rounds job's progress lines say this variant's figures in
        # the units it reports them in
        progress.lend_units(type(self).fixture_space['rounds'].cls,
                            self.variant, self.figure_specs())

    def _statistic(self, name, stat):
        return getattr(self.figures[name], stat)

    def _scalar(self, name):
        return self.scalars[name]

    @property
    def figure(self):
        '''The samples of the main figure.'''
        return self.figures[self.figure_specs()[0][0]]

    def record_figure(self, values, name=None, unit=None):
        '''Record the samples of a figure (default: the main one).'''
        specs = dict(self.figure_specs())
        name = name or self.figure_specs()[0][0]
        try:
            self.figures[name] = Samples(values, unit or specs[name])
        except ValueError as err:
            raise SanityError(f'{name}: {err}') from None

    def demote_to_cache(self, name):
        '''Report figure ``name`` as a cache figure, ``<name>_cache_*``: no
        storage reference or ceiling applies to it.  Say why in
        :attr:`note`.'''
        unit = dict(self.figure_specs())[name]
        self.figures[f'{name}_cache'] = self.figures[name]
        self.cached.add(name)
        for stat in STATISTICS:
            del self.perf_variables[figure_name(name, stat, unit)]
            self.perf_variables[figure_name(f'{name}_cache', stat, unit)] = (
                sn.make_performance_function(self._statistic, unit,
                                             f'{name}_cache', stat)
            )

    def demote_seen(self, name, seen, consequence):
        '''Report figure ``name`` as a cache figure because a witness saw
        ``seen`` (the note says so, and ``consequence``); if it already is
        one, the note adds what the witness saw.'''
        if name in self.cached:
            self.note = '; '.join(filter(None, [self.note, seen]))
        else:
            self.note = f'{seen}: {consequence}'
            self.demote_to_cache(name)

    def judge_darshan(self, frame, logs):
        '''Hold the variant's claims against what Darshan saw on its
        witness sample: ``frame``, the POSIX counters of every file of the
        scratch directory (:func:`microbench.suite.darshan.files`), and the
        logs; raise :class:`SanityError` where a claim does not hold.'''

    def judge(self, runs, recs):
        '''What the tool's checks conclude from the runs (and the variant's
        records): cache figures, notes, witnesses; raise
        :class:`SanityError` where the variant's claim does not hold.'''

    def data_touched(self, runs):
        '''``{figure: Touched}`` of every storage figure of ``runs``: the
        bytes of the files it touched on a node, and whether it reads
        them (:func:`microbench.suite.memory.touched`); by default none.
        Called after :meth:`judge`.'''
        return {}

    def per_node(self, limit):
        '''Whether ``limit`` bounds one node: a storage figure of a job
        on several nodes is held against it divided by the nodes.'''
        return limit.startswith('storage') and self.nodes > 1

    def check_limits(self):
        '''Fail if a figure is beyond a physical limit of the partition
        (storage figures per node; figures in :attr:`cached` measure a
        cache and are exempt).'''
        for name, limit in self.limits.items():
            if name not in self.figures or name in self.cached:
                continue

            per_node = self.per_node(limit)
            samples = self.figures[name]
            message = limits.violation(
                samples.scaled(1 / self.nodes) if per_node else samples,
                self.current_partition, limit, per_node
            )
            if message:
                raise SanityError(message)

    def record_shares(self):
        '''Record every median figure's share of its limit in force
        (measured, else declared), and say in :attr:`note` where one is
        beyond it by more than the limit's own spread.'''
        found = limits.shares(self, self.per_node)
        limits.record(self, found)
        beyond = [limits.beyond_note(share.figure, share.limit, share.share,
                                     share.cached)
                  for share in found if share.beyond]
        if beyond:
            self.note = '; '.join(filter(None, [self.note, *beyond]))

    def side_rounds(self):
        '''The rounds job as this check's side of an A/B sees it (the job
        itself outside one); it becomes :attr:`rounds`, so that what the
        tool's check reads of it is its side's.'''
        label = sides.label_of(self.stack)
        if label:
            self.rounds = self.rounds.of_side(label)
        return self.rounds

    @sanity_function
    def validate(self):
        rounds = self.side_rounds()
        copy_shared(self, rounds)
        if sides.label_of(self.stack):
            self.stack = stacked.identity(rounds)
        recs = rounds.variant_records(self.variant, self)
        preload = rounds.records.get('preload', ['none'])[0]
        if 'darshan' in preload:
            raise SanityError(f'the job preloads {preload} into every '
                              f'sample: the figures carry Darshan\'s cost '
                              f'(unload its module; the suite runs Darshan '
                              f'on a witness sample of its own)')
        self.command_line = ' '.join(recs.get('command', []))
        runs = rounds.runs(self.variant, self)
        for name, _ in self.figure_specs():
            try:
                values = [run.figures[name] for run in runs]
            except KeyError:
                raise SanityError(f'{self.display_name}: the runs of '
                                  f'{self.variant} have no {name} figure') \
                    from None

            self.record_figure(values, name)

        try:
            self.judge(runs, recs)
        except OutputError as err:
            raise SanityError(f'{self.display_name}: {err}') from None

        witnessed.judge(self, recs)
        memory.judge(self, self.data_touched(runs))
        counted.judge(self, recs, runs)

        self.check_limits()
        self.record_shares()
        self.sample_values = str(self.figure)
        medians = {name: figure_name(name, 'median', samples.unit)
                   for name, samples in self.figures.items()}
        self.figure_samples = fields.FIGURE_SAMPLES.encode(
            (medians[name], samples.values)
            for name, samples in self.figures.items()
            if medians[name] in self.perf_variables)
        cold = coldstart.flags({medians[name]: samples
                                for name, samples in self.figures.items()
                                if medians[name] in self.perf_variables})
        self.cold_start = coldstart.record(cold)
        self.note = '; '.join(filter(None, [self.note, coldstart.note(cold)]))
        return True
