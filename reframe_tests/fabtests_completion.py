'''N2. Completion method: fabtests busy-poll for completions.

Pitfall catalogue N2; "Keeping It Real" (PDSW 2020) section II-B, Fig. 4.

fi_msg_pingpong polls its completion queue in a loop by default, burning a
core for the lowest latency.  A data service that shares its node, or waits
in an event loop, blocks on a file descriptor (``-c fd``) or in the provider
(``-c sread``): the paper saw ``fd`` more than triple the round-trip latency.
Its fourth mode, ``-c yield`` (FI_WAIT_YIELD), polls too but yields the
CPU between polls: cooperative, yet busy.  The client's CPU use is a figure
too.  Where the busy-polling processes of a
sample outnumber the node's cores, polling loses and the figures are not the
paper's effect: the check says so.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench import knobs
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.fabtests import FabtestsRounds, FabtestsVariantCheck


class fabtests_completion_rounds(FabtestsRounds):
    '''fi_msg_pingpong of ``message_size`` bytes, polling (``spin``, the
    default), blocking on a file descriptor (``fd``) or in the provider
    (``sread``), or polling and yielding the CPU (``yield``).'''

    program = 'fi_msg_pingpong'
    variants = ('spin', 'fd', 'sread', 'yield')

    #: Message size in bytes (paper: 100).
    #:
    #: :type: :class:`int`
    #: :default: ``100``
    message_size = variable(int, value=100)

    def program_options(self, variant):
        # -c fd, -c sread, -c yield (microbench.knobs, which the audit
        # shares)
        return ['-S', str(self.message_size),
                *knobs.FABTESTS_COMPLETION[variant]]

    def probe(self, variant):
        # FI_WAIT_YIELD is not every provider's (libfabric 1.17's tcp and
        # sockets refuse it): skipped, saying so, where it is refused
        return self.cq_probe(variant) if variant == 'yield' else None


@rfm.simple_test
class fabtests_completion(FabtestsVariantCheck):
    '''Round-trip latency (us) and the client's CPU use (% of a core).'''

    #: ``spin`` (fabtests' default), ``fd``, ``sread`` or ``yield``
    #: (``-c``).
    completion = parameter(['spin', 'fd', 'sread', 'yield'])
    knob = 'completion'
    main_figures = {'fi_msg_pingpong': ('rtt', 'us')}
    rounds = fixture(fabtests_completion_rounds, scope='environment')
    reference = {'$ref': 'references/fabtests.yaml'}
    witnesses = ('client_cpu', 'cold_start')

    def judge(self, runs, recs):
        super().judge(runs, recs)
        # yield polls too: it gives the CPU up between polls, but stays
        # runnable
        self.note = self.oversubscription(
            busy=self.completion in ('spin', 'yield'))


@rfm.simple_test
class fabtests_completion_gap(GapCheck):
    '''What blocking for completions costs in latency.'''

    pitfall = fabtests_completion
    rounds = rounds_of(fabtests_completion)
    gaps = {
        # Round trip blocking on a file descriptor over polling (paper: > 3)
        'fd_over_spin': ('fd', 'spin'),
        # Round trip blocking in the provider over polling
        'sread_over_spin': ('sread', 'spin'),
    }
    reference = {'$ref': 'references/fabtests.yaml'}
    witnesses = ('cold_start',)


@rfm.simple_test
class fabtests_completion_yield_gap(GapCheck):
    '''What polling and yielding the CPU costs in latency (apart from
    fabtests_completion_gap: where the provider refuses FI_WAIT_YIELD, only
    this gap is skipped).'''

    pitfall = fabtests_completion
    rounds = rounds_of(fabtests_completion)
    # Round trip polling and yielding the CPU over polling
    gaps = {'yield_over_spin': ('yield', 'spin')}
    reference = {'$ref': 'references/fabtests.yaml'}
    witnesses = ('cold_start',)
