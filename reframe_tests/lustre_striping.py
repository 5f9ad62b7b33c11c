'''S5. Stripe count and alignment (Lustre).

Pitfall catalogue S5; Snyder, "Understanding and tuning HPC I/O performance"
(ATPESC 2020).

A shared file gets Lustre's default layout, often one stripe: every writer
queues on one OST (``lfs setstripe -c 10`` gave 2.7x in the talk).  And
1 MiB accesses that start half a stripe off a boundary each span two OSTs
(about 20% slower).  Only meaningful where ``lfs`` exists; elsewhere the
check is skipped saying so.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.lustre import StripingRounds, StripingVariantCheck
from microbench.units import size_bytes

LAYOUTS = ('one_stripe', 'striped', 'misaligned')


class lustre_striping_rounds(StripingRounds):
    '''``numjobs`` O_DIRECT writers of stripe-size accesses on one shared
    file: one stripe, ``stripe_count`` stripes, or ``stripe_count`` stripes
    with every access half a stripe off its boundary.'''

    variants = LAYOUTS

    def layout(self, variant):
        half = size_bytes(self.stripe_size) // 2
        return {'one_stripe': (1, 0),
                'striped': (self.stripe_count, 0),
                'misaligned': (self.stripe_count, half)}[variant]


@rfm.simple_test
class lustre_striping(StripingVariantCheck):
    '''Write bandwidth of one file layout.'''

    #: ``one_stripe`` (a common default), ``striped`` (``stripe_count``
    #: stripes), ``misaligned`` (striped, accesses half a stripe off).
    layout = parameter(LAYOUTS)
    knob = 'layout'
    rounds = fixture(lustre_striping_rounds, scope='environment')
    reference = {'$ref': 'references/lustre.yaml'}
    witnesses = ('darshan', 'stripe_count', 'overwrite_factor',
                 'data_to_memory', 'cold_start')


@rfm.simple_test
class lustre_striping_gap(GapCheck):
    '''What one stripe and misaligned accesses cost.'''

    pitfall = lustre_striping
    rounds = rounds_of(lustre_striping)
    gaps = {'striped_over_one_stripe': ('striped', 'one_stripe'),
            'aligned_over_misaligned': ('striped', 'misaligned')}
    reference = {'$ref': 'references/lustre.yaml'}
    witnesses = ('cold_start',)
