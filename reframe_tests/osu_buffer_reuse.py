'''N1. Buffer reuse: OSU sends every message from the same hot buffer.

Pitfall catalogue N1; "Keeping It Real" (PDSW 2020) section II-A, Figs. 2-3.

osu_bw issues a window of non-blocking sends, all from one memory offset into
one memory offset, then waits for an acknowledgement, and does it again: the
buffers stay registered and in cache.  A data service moves data from many
addresses.  The paper patched osu_bw to rotate through a 1 GiB buffer and lost
about 40% of the bandwidth (32 KiB messages, Summit EDR InfiniBand).  OSU
5.7.1 added ``-b multiple``, a different buffer per message of the window.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.osu import OsuRounds, OsuVariantCheck


class osu_buffer_reuse_rounds(OsuRounds):
    '''osu_bw and osu_latency between two nodes, ``message_size`` bytes
    (window ``window_size`` for osu_bw), from one buffer or from many.'''

    variants = ('osu_bw.single', 'osu_bw.multiple',
                'osu_latency.single', 'osu_latency.multiple')


@rfm.simple_test
class osu_buffer_reuse(OsuVariantCheck):
    '''Point-to-point bandwidth or latency, one buffer or many.'''

    #: ``osu_bw`` (bandwidth, MiB/s) or ``osu_latency`` (latency, us).
    benchmark = parameter(['osu_bw', 'osu_latency'])

    #: ``single`` (OSU's default: every message from one buffer) or
    #: ``multiple`` (``-b multiple``, OSU 5.7.1 and later).
    buffer = parameter(['single', 'multiple'])

    knob = ('benchmark', 'buffer')
    rounds = fixture(osu_buffer_reuse_rounds, scope='environment')
    reference = {'$ref': 'references/osu.yaml'}
    witnesses = ('cold_start',)


@rfm.simple_test
class osu_buffer_reuse_gap(GapCheck):
    '''What rotating buffers cost.'''

    pitfall = osu_buffer_reuse
    rounds = rounds_of(osu_buffer_reuse)
    gaps = {
        # Bandwidth from many buffers over one (paper: about 0.6)
        'multiple_over_single': ('osu_bw.multiple', 'osu_bw.single'),
        # Latency from many buffers over one
        'latency_multiple_over_single': ('osu_latency.multiple',
                                         'osu_latency.single'),
    }
    reference = {'$ref': 'references/osu.yaml'}
    witnesses = ('cold_start',)
