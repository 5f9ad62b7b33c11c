'''The base classes of elbencho's data-reduction checks (S6): the rounds,
with the witness of what the file system stored, and the check of one
variant.

The witness (:mod:`microbench.suite.reduction`) writes the variant's file
once more with this node's elbencho (``-w`` only, its console output kept
in ``witness-<variant>.out``), then counts the bytes the scratch's file
system stored of it.
'''

from microbench.suite import reduction
from microbench.tools.elbencho.checks import (ElbenchoRounds,
                                              ElbenchoVariantCheck,
                                              results_files)


class ElbenchoReductionRounds(ElbenchoRounds):
    '''elbencho runs whose variants write blocks of different content,
    each with the witness of what the file system stored.

    Subclasses set :attr:`variants`, :attr:`claims` and
    :meth:`variant_options`.
    '''

    #: variant -> :class:`microbench.suite.reduction.Claim`
    claims = {}

    def witness_command(self, variant):
        argv = [self.program_path(), '-w', '-t', str(self.threads),
                '-b', self.block_size, '-s', self.file_size,
                *self.variant_options(variant), *results_files(),
                '$scratch/file']
        return (f'{" ".join(argv)} > witness-{variant}.out && '
                f'{reduction.command()}')


class ElbenchoReductionCheck(ElbenchoVariantCheck):
    '''One variant of elbencho's data-reduction check: write and read
    throughput, and the share of the bytes the file system stored.'''

    def judge(self, runs, recs):
        super().judge(runs, recs)
        share = reduction.judge(self, self.rounds.claims.get(self.variant))
        if share is not None and share < reduction.WHOLE:
            # A bandwidth of reduced data: no storage limit bounds it
            self.limits = {name: limit for name, limit in self.limits.items()
                           if name != 'write'}
            self.note = '; '.join(filter(None, [self.note, (
                f'the file system stored {100 * share:.1f} % of the bytes: '
                f'the write figure is a bandwidth of reduced data, not held '
                f'to the storage limits')]))
