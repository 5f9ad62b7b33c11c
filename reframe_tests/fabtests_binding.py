'''N3. CPU binding: the launcher pins a process that needs two cores.

Pitfall catalogue N3; "Keeping It Real" (PDSW 2020) section II-C, Fig. 5.

fi_msg_bw is single-threaded, but the provider's progress thread and the busy
polling of completions want two cores, while launchers bind each process to
one core by default.  On Theta, ``aprun --cc none`` gave +22.5% median
bandwidth.  Witness: the CPU set each process actually had
(``Cpus_allowed_list`` under the same launcher and options), which must match
the variant's claim.
'''

import reframe as rfm
from reframe.core.builtins import fixture, parameter, variable

from microbench.suite import launchers
from microbench.suite.gap import GapCheck, rounds_of
from microbench.tools.fabtests import FabtestsRounds, FabtestsVariantCheck


class fabtests_binding_rounds(FabtestsRounds):
    '''fi_msg_bw of ``message_size`` bytes, each process bound to one core
    by the launcher (``bound``) or not bound (``unbound``).'''

    program = 'fi_msg_bw'
    variants = ('bound', 'unbound')
    cpuset_witness = True

    #: Message size in bytes (paper: 32 KiB).
    #:
    #: :type: :class:`int`
    #: :default: ``32768``
    message_size = variable(int, value=32768)

    def program_options(self, variant):
        return ['-S', str(self.message_size)]

    def binding(self, variant):
        flavour = self.flavour()
        if flavour == 'local':
            # No launcher: taskset pins each side to a core of its own
            if variant == 'bound':
                return (['taskset', '-c', '$server_core'],
                        ['taskset', '-c', '$client_core'])

            return (), ()

        options = launchers.BINDING[flavour][variant == 'unbound']
        return options, options


@rfm.simple_test
class fabtests_binding(FabtestsVariantCheck):
    '''Bandwidth (MiB/s) with the launcher's core binding and without.'''

    #: ``bound`` (srun ``--cpu-bind=cores``, Open MPI ``--bind-to core``,
    #: MPICH ``-bind-to core``, aprun's default, local ``taskset``) or
    #: ``unbound`` (``--cpu-bind=none``, ``--bind-to none``, ``-bind-to
    #: none``, ``--cc none``, no taskset).
    binding = parameter(['bound', 'unbound'])
    knob = 'binding'
    main_figures = {'fi_msg_bw': ('bandwidth', 'MiB/s')}
    rounds = fixture(fabtests_binding_rounds, scope='environment')
    reference = {'$ref': 'references/fabtests.yaml'}
    witnesses = ('cpuset', 'client_cpu', 'cold_start')

    def judge(self, runs, recs):
        super().judge(runs, recs)
        self.witness = self.check_cpusets()


@rfm.simple_test
class fabtests_binding_gap(GapCheck):
    '''What the launcher's core binding costs in bandwidth.'''

    pitfall = fabtests_binding
    rounds = rounds_of(fabtests_binding)
    # Unbound over bound bandwidth (paper, aprun --cc none: 1.225)
    gaps = {'unbound_over_bound': ('unbound', 'bound')}
    reference = {'$ref': 'references/fabtests.yaml'}
    witnesses = ('cold_start',)
