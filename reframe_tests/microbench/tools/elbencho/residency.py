'''elbencho's residency witness: what of the file its read is about to
read the page cache holds.

elbencho writes and reads in one run, so the witness runs the variant's
own command on a short sample of its own split at the phase boundary
(``-w``, then :mod:`microbench.suite.residency`'s fincore, then ``-r`` of
the file the write left; elbencho's console output of both goes to the
witness's standard error).  The threads of every host share one file: with
one node (or elbencho run directly) the node reads what it holds, and the
share is judged; with services on several nodes, fincore runs on the
first node, whose share of the shared file is recorded, not judged (it
mixes what the node wrote with what it reads).
'''

from microbench.suite import fincore, launchers, residency
from microbench.suite.skeleton import SCRATCH
from microbench.tools.elbencho.checks import (ElbenchoRounds,
                                              ElbenchoVariantCheck,
                                              results_files)


class ResidencyRounds(ElbenchoRounds):
    '''elbencho rounds whose variants write then read, each with the
    residency witness of its read.'''

    def witness_command(self, variant):
        write, read, *rest = self.options(variant)
        if (write, read) != ('-w', '-r'):
            raise ValueError(f'{variant}: elbencho\'s options do not write '
                             f'then read: no phase boundary to look at')

        hosts = ['--hosts', '$hosts'] if self.service_mode() else []

        def phase(flag):
            return ' '.join([self.program_path(), *hosts, flag, *rest,
                             *results_files(), f'{SCRATCH}/file', '>&2'])

        start = (launchers.on_node(self.flavour(), 'server_node')
                 if self.service_mode() else '')
        look = residency.command(start, self.stagedir)
        return f'{phase("-w")} && {look} && {phase("-r")}'


class ResidencyCheck(ElbenchoVariantCheck):
    '''One variant whose read the residency witness saw.'''

    def judge(self, runs, recs):
        super().judge(runs, recs)
        rounds = self.rounds
        if 'witness' not in recs:
            return

        found = rounds.read_witness(
            self.variant, f'witness-{self.variant}.txt',
            lambda text: fincore.parse_nodes(text, 1), self)
        several = rounds.service_mode()
        seen = residency.seen(found, lambda index: ['file'], shared=several,
                              one_kernel=not several)
        residency.judge(self, 'read', seen, rounds.direct(self.variant))
