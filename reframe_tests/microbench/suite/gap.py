'''The gap check: how much a benchmark default flatters the realistic figure.

Each gap is the ratio of the median of a benchmark-default variant to the
median of a realistic one.  Its inputs are variants of the same pitfall
measured round-robin by one job on one node: the pitfall's rounds fixture,
declared again by the gap (:func:`rounds_of`; scope ``environment``, so
ReFrame runs one job for the variants and their gaps), read and judged by
the pitfall's own check
(:meth:`~microbench.suite.variant.VariantCheck.as_input`).  A gap never
pairs figures of two sessions, partitions or nodes; in an A/B experiment
(``-P stack=A,B``) each side's gap reads the inputs of its side.

**Why not a dependency on the variant checks.**  ReFrame skips a test
whose dependency failed in any stage, its performance included: a variant
that failed its reference took its gap with it, on exactly the night the
variants moved.  Here only what skips an input (an unsupported variant)
or fails its sanity (samples that are not what they claim) skips the gap,
saying which input and why; an input's reference is never the gap's.

**A gap too spread to tell** (:func:`microbench.suite.stats.too_spread`):
where its rounds lie on both sides of 1 and their interval holds 1 and is
1.5 times wide or more, the gap says so in its note and its
``too_spread`` record, and passes or fails its reference as any figure
does: the rule never fails a check (such a figure is no regression), but
no one should read it as "no pitfall here".
'''

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import fixture, run_after, sanity_function
from reframe.core.exceptions import SanityError, SkipTestError

from microbench import fields
from microbench.suite import coldstart, required, stats
from microbench.suite.recorded import copy_shared, Recorded

#: What a gap too spread to tell says to do about it
MORE_ROUNDS = 'more rounds (-S samples=N) or a quieter node'


def rounds_of(pitfall):
    '''The rounds fixture of the variant check ``pitfall``, for its gap
    check's body (``rounds = rounds_of(pitfall)``): the same class, scope
    and variables, so ReFrame resolves both to one job.'''
    declared = pitfall.fixture_space['rounds']
    return fixture(declared.cls, scope=declared.scope,
                   action=declared.action, variants=declared.variants,
                   variables=declared.variables)


def spread_note(name, unclear):
    '''What the note of gap ``name`` says of it, too spread to tell
    (``unclear``, a :class:`~microbench.suite.stats.Unclear`).'''
    ends = f'{unclear.low:.3g} to {unclear.high:.3g}'
    if unclear.paired:
        said = (f'its rounds say {ends} '
                f'({100 * stats.CONFIDENCE:.0f} % confidence)')
    else:
        said = f'its samples allow {ends}'
    return (f'{name}: pitfall not shown: gap {unclear.gap:.2f}, {said}, on '
            f'both sides of 1 and {unclear.spread:.3g}x apart, and the '
            f'samples spread {sample(unclear.least)}-{sample(unclear.most)} '
            f'{unclear.unit}: too spread to tell; {MORE_ROUNDS}')


def sample(value):
    '''A sample as a note says it: four significant digits below 1000
    (``715.6``), whole numbers from 1000 up (``153818``, not
    ``1.538e+05``).'''
    return f'{value:.0f}' if abs(value) >= 1000 else f'{value:.4g}'


def spread_record(name, unclear):
    '''What the ``too_spread`` record says of gap ``name``
    (:data:`microbench.fields.TOO_SPREAD`).'''
    return fields.TOO_SPREAD.encode({name: spread_words(unclear)})


def spread_words(unclear):
    '''What the ``too_spread`` record says of one gap, its name left
    out.'''
    rounds = 'rounds' if unclear.paired else 'samples allow'
    return (f'gap {unclear.gap:.3g}, {rounds} {unclear.low:.3g} to '
            f'{unclear.high:.3g}')


class GapCheck(rfm.RunOnlyRegressionTest, Recorded):
    '''The gaps between the variants of one pitfall check.

    Subclasses set :attr:`pitfall`, :attr:`gaps` and ``rounds =
    rounds_of(pitfall)``.  Where an input is skipped or fails its sanity,
    the gap is skipped, saying which and why; where an input carries a
    note, the gap carries it.
    '''

    #: The variant check class whose variants are compared
    pitfall = None

    #: gap name -> (benchmark-default variant, realistic variant[, figure
    #: name, default: the main figure])
    gaps = {}

    #: The pitfall's, set when the test is made
    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    executable = 'true'
    measures = 'gap'
    variant = 'gap'

    @run_after('init')
    def name_the_forgotten(self):
        # what a subclass must set, named where it is forgotten
        required.check(self, GapCheck)

    @run_after('init')
    def set_gaps(self):
        self.valid_systems = list(self.pitfall.valid_systems)
        self.inputs = {}
        self.perf_variables = {
            name: sn.make_performance_function(self._ratio, 'x', *pair)
            for name, pair in self.gaps.items()
        }

    def knob_values(self, variant):
        '''{knob: value} of ``variant`` of the pitfall.'''
        knob = self.pitfall.knob
        knobs = knob if isinstance(knob, tuple) else (knob,)
        return dict(zip(knobs, variant.split('.')))

    def input_name(self, variant):
        '''The name of the pitfall's test of ``variant``, as ReFrame
        displays it (``fio_fallocate %fallocate=none``).'''
        return ' '.join([self.pitfall.__name__, *(
            f'%{knob}={value}'
            for knob, value in self.knob_values(variant).items())])

    def input_nums(self):
        '''{variant: variant number of the pitfall's check} of the
        variants the gaps use, in the order of the pitfall's variants.'''
        used = {v for pair in self.gaps.values() for v in pair[:2]}
        nums = {}
        for variant in used:
            num, = self.pitfall.get_variant_nums(**self.knob_values(variant))
            nums[num] = variant

        return {nums[num]: num for num in sorted(nums)}

    def read_inputs(self):
        '''{variant: the pitfall's check of it, judged} of every input
        (:meth:`~microbench.suite.variant.VariantCheck.as_input`); the gap
        is skipped where an input is, or where an input's samples fail
        its sanity.'''
        inputs = {}
        for variant, num in self.input_nums().items():
            name = self.input_name(variant)
            try:
                inputs[variant] = self.pitfall.as_input(
                    num, self.rounds, self.current_partition,
                    self.current_environ, self.stack)
            except SkipTestError as err:
                self.skip(f'{name} is skipped: {err}')
            except SanityError as err:
                self.skip(f'{name} failed its sanity, so no gap of it is '
                          f'computed: {err}')

        return inputs

    def _pair(self, default, realistic, figure=None):
        default, realistic = self.inputs[default], self.inputs[realistic]
        figure = figure or default.figure_specs()[0][0]
        return default.figures[figure], realistic.figures[figure]

    def _ratio(self, *pair):
        default, realistic = self._pair(*pair)
        return default.median / realistic.median

    def round_ratios(self, *pair):
        '''The ratio of every round (the variants' samples of one round
        ran back to back), or None where they cannot be paired
        (:func:`microbench.suite.stats.round_ratios`).'''
        return stats.round_ratios(*self._pair(*pair))

    def check_ratios(self):
        '''Fail where a gap has no ratio: a realistic median not above
        zero (the inputs passed their sanity, but nothing divides by
        it).'''
        for name, pair in self.gaps.items():
            _, realistic = self._pair(*pair)
            if realistic.median <= 0:
                raise SanityError(f'{name}: the median of {pair[1]} is '
                                  f'{realistic.median:g} {realistic.unit}: '
                                  f'the gap has no ratio')

    def spread_notes(self):
        '''(note, record) of every gap too spread to tell
        (:func:`microbench.suite.stats.too_spread`); '' and '' if none.'''
        found = {name: stats.too_spread(*self._pair(*pair))
                 for name, pair in self.gaps.items()}
        found = {name: unclear for name, unclear in found.items()
                 if unclear is not None}
        return (' ; '.join(spread_note(*item) for item in found.items()),
                fields.TOO_SPREAD.encode({
                    name: spread_words(unclear)
                    for name, unclear in found.items()}))

    @sanity_function
    def collect_inputs(self):
        '''Read the inputs and record what the gaps are made of: the
        inputs' commands, samples and notes, the ratio of every round, and
        what the gaps say of themselves (too spread, a cold start).'''
        self.inputs = self.read_inputs()
        inputs = self.inputs
        self.check_ratios()
        # The first input's shared fields, as its check says them (OSU's
        # tool version says the benchmark's own), and in an A/B its stack
        copy_shared(self, next(iter(inputs.values())))
        self.stack = next(iter(inputs.values())).stack
        self.command_line = ' ; '.join(f'{name}: {dep.command_line}'
                                       for name, dep in inputs.items())
        self.sample_values = ' ; '.join(f'{name}: {dep.sample_values}'
                                        for name, dep in inputs.items())
        spread_note, self.too_spread = self.spread_notes()
        self.note = ' ; '.join(filter(None, [spread_note, *sorted(
            {f'{name}: {dep.note}' for name, dep in inputs.items()
             if dep.note})]))
        ratios = {name: self.round_ratios(*pair)
                  for name, pair in self.gaps.items()}
        self.figure_samples = fields.FIGURE_SAMPLES.encode(
            (name, samples.values) for name, samples in ratios.items()
            if samples is not None)
        # The inputs' notes say theirs; the gap records its own rounds
        self.cold_start = coldstart.record(coldstart.flags(
            {name: samples for name, samples in ratios.items()
             if samples is not None}))
        return True
