'''The base classes of fio's data-reduction checks (S6): the rounds, with
the witness of what the file system stored, and the check of one variant.

The witness (:mod:`microbench.suite.reduction`) runs each variant once
more, on a short sample of its own (``witness_runtime_s``), then counts
the bytes the scratch's file system stored of the files it wrote.
'''

from microbench.suite import reduction
from microbench.tools.fio.checks import FioRounds, FioVariantCheck
from microbench.tools.fio.output import command


class FioReductionRounds(FioRounds):
    '''fio runs whose variants write data of different content, each with
    the witness of what the file system stored.

    Subclasses set :attr:`variants`, :attr:`claims` and
    :meth:`fio_options`.
    '''

    witness_tool = None

    #: variant -> :class:`microbench.suite.reduction.Claim`: what must be
    #: stored of its data (a variant without one is reported only)
    claims = {}

    def witness_command(self, variant):
        options = self.witness_options(variant, f'witness-{variant}.json')
        # What is stored is read where the job runs: the scratch is that
        # node's, or shared
        return (f'{self.launch(*command(self.program_path(), options))} && '
                f'{reduction.command()}')


class FioReductionVariantCheck(FioVariantCheck):
    '''One variant of a data-reduction check: fio's write bandwidth and
    overwrite factor, and the share of its bytes the file system stored.
    Where the witness saw the data reduced, the figure is not a bandwidth
    of stored bytes: no storage limit bounds it (the note says so).'''

    def judge(self, runs, recs):
        super().judge(runs, recs)
        share = reduction.judge(self, self.rounds.claims.get(self.variant))
        if share is not None and share < reduction.WHOLE:
            self.limits = {}
            self.note = '; '.join(filter(None, [self.note, (
                f'the file system stored {100 * share:.1f} % of the bytes: '
                f'this is a bandwidth of reduced data, not held to the '
                f'storage limits')]))
