'''The gap check: how much a benchmark default flatters the realistic figure.

Each gap is the ratio of the median of a benchmark-default variant to the
median of a realistic one.  Its inputs are the variant checks of the same
pitfall in the same ReFrame session, on the same partition and programming
environment (a dependency on each, ``udeps.by_env``), all measured
round-robin by one job on one node: a gap never pairs figures of two
sessions, partitions or nodes.
'''

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.udeps as udeps
from reframe.core.builtins import run_after, sanity_function

from microbench.suite import coldstart
from microbench.suite.recorded import Recorded, copy_shared
from microbench.suite.stats import Samples


class GapCheck(rfm.RunOnlyRegressionTest, Recorded):
    '''The gaps between the variants of one pitfall check.

    Subclasses set :attr:`pitfall` and :attr:`gaps`.  Where an input fails or
    is skipped, the gap is not computed (ReFrame skips a test whose
    dependency failed); where an input carries a note, the gap carries it.
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
    def depend_on_variants(self):
        self.valid_systems = list(self.pitfall.valid_systems)
        for name in self.input_names().values():
            self.depends_on(name, udeps.by_env)

        self.perf_variables = {
            name: sn.make_performance_function(self._ratio, 'x', *pair)
            for name, pair in self.gaps.items()
        }

    def input_names(self):
        '''{variant: test name} of the pitfall's variants the gaps use, in
        the order of the pitfall's variants.'''
        knob = self.pitfall.knob
        knobs = knob if isinstance(knob, tuple) else (knob,)
        used = {v for pair in self.gaps.values() for v in pair[:2]}
        nums = {}
        for variant in used:
            num, = self.pitfall.get_variant_nums(
                **dict(zip(knobs, variant.split('.')))
            )
            nums[num] = variant

        return {nums[num]: self.pitfall.variant_name(num)
                for num in sorted(nums)}

    def _inputs(self):
        return {variant: self.getdep(name)
                for variant, name in self.input_names().items()}

    def _pair(self, default, realistic, figure=None):
        inputs = self._inputs()
        default, realistic = inputs[default], inputs[realistic]
        figure = figure or default.figure_specs()[0][0]
        return default.figures[figure], realistic.figures[figure]

    def _ratio(self, *pair):
        default, realistic = self._pair(*pair)
        return default.median / realistic.median

    def round_ratios(self, *pair):
        '''The ratio of every round (the variants' samples of one round
        ran back to back), or None where the variants' sample counts
        differ.'''
        default, realistic = self._pair(*pair)
        if default.values.size != realistic.values.size:
            return None

        return Samples(default.values / realistic.values, 'x')

    @sanity_function
    def collect_inputs(self):
        inputs = self._inputs()
        copy_shared(self, next(iter(inputs.values())))
        self.command_line = ' ; '.join(f'{name}: {dep.command_line}'
                                       for name, dep in inputs.items())
        self.sample_values = ' ; '.join(f'{name}: {dep.sample_values}'
                                        for name, dep in inputs.items())
        self.note = ' ; '.join(sorted({f'{name}: {dep.note}'
                                       for name, dep in inputs.items()
                                       if dep.note}))
        ratios = {name: self.round_ratios(*pair)
                  for name, pair in self.gaps.items()}
        self.figure_samples = ';'.join(f'{name}={samples}'
                                       for name, samples in ratios.items()
                                       if samples is not None)
        # The inputs' notes say theirs; the gap records its own rounds
        self.cold_start = coldstart.record(coldstart.flags(
            {name: samples for name, samples in ratios.items()
             if samples is not None}))
        return True
