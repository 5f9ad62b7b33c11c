'''N2. Completion method: fabtests busy-poll for completions.

Pitfall catalogue N2; "Keeping It Real" (PDSW 2020) section II-B, Fig. 4.

fi_msg_pingpong polls its completion queue in a loop by default, burning a
core for the lowest latency.  A data service that shares its node, or waits
in an event loop, blocks on a file descriptor (``-c fd``) or in the provider
(``-c sread``): the paper saw ``fd`` more than triple the round-trip latency.
The client's CPU use is a figure too.  Where the busy-polling processes of a
sample outnumber the node's cores, polling loses and the figures are not the
paper's effect: the check says so.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench.suite.gap import GapCheck
from microbench.tools.fabtests import FabtestsRounds, FabtestsVariantCheck


class fabtests_completion_rounds(FabtestsRounds):
    '''fi_msg_pingpong of ``message_size`` bytes, polling (``spin``, the
    default), blocking on a file descriptor (``fd``) or in the provider
    (``sread``).'''

    program = 'fi_msg_pingpong'
    variants = ('spin', 'fd', 'sread')

    #: Message size in bytes (paper: 100).
    #:
    #: :type: :class:`int`
    #: :default: ``100``
    message_size = variable(int, value=100)

    def program_options(self, variant):
        options = ['-S', str(self.message_size)]
        if variant != 'spin':
            options += ['-c', variant]

        return options


@rfm.simple_test
class fabtests_completion(FabtestsVariantCheck):
    '''Round-trip latency (us) and the client's CPU use (% of a core).'''

    #: ``spin`` (fabtests' default), ``fd`` or ``sread`` (``-c``).
    completion = parameter(['spin', 'fd', 'sread'])
    knob = 'completion'
    main_figures = {'fi_msg_pingpong': ('rtt', 'us')}
    rounds = fixture(fabtests_completion_rounds, scope='environment')
    reference = {'$ref': 'references/fabtests.yaml'}

    def judge(self, runs, recs):
        super().judge(runs, recs)
        self.note = self.oversubscription(busy=self.completion == 'spin')


@rfm.simple_test
class fabtests_completion_gap(GapCheck):
    '''What blocking for completions costs in latency.'''

    pitfall = fabtests_completion
    gaps = {
        # Round trip blocking on a file descriptor over polling (paper: > 3)
        'fd_over_spin': ('fd', 'spin'),
        # Round trip blocking in the provider over polling
        'sread_over_spin': ('sread', 'spin'),
    }
    reference = {'$ref': 'references/fabtests.yaml'}
