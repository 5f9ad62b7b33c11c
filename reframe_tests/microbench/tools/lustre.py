'''Lustre: file layouts with ``lfs``, and the base classes of striping
checks (fio writers on one shared file).

A sample lays out a new file (``lfs setstripe -c COUNT -S SIZE``) and writes
it with fio; the witness records the stripe count ``lfs getstripe -c`` reads
back from a probe file laid out the same way.
'''

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench.suite import where
from microbench.tools.fio import FioRounds, FioVariantCheck
from microbench.suite.output import lines, number, once
from microbench.suite.skeleton import SCRATCH


def setstripe(path, count, size):
    return f'lfs setstripe -c {count} -S {size} {path}'


def parse_stripe_count(text):
    '''The stripe count ``lfs getstripe -c`` printed.'''
    return number(once([ln for ln in lines(text) if ln.strip()],
                       'stripe count'), 'the stripe count', integer=True)


class StripingRounds(FioRounds):
    '''fio writers on one shared file laid out by ``lfs setstripe``.

    Subclasses set :attr:`variants` and implement :meth:`layout` (stripe
    count and fio offset of every variant).
    '''

    valid_systems = where.LUSTRE
    witness_tool = None
    #: Stripe size of every layout (``lfs setstripe -S``).
    #:
    #: :type: :class:`str`
    #: :default: ``'1m'``
    stripe_size = variable(str, value='1m')

    #: Stripe count of a striped layout (``-c``; the study used 10).
    #:
    #: :type: :class:`int`
    #: :default: ``8``
    stripe_count = variable(int, value=8)

    #: Writers, each on its own region of the shared file.
    #:
    #: :type: :class:`int`
    #: :default: ``8``
    numjobs = variable(int, value=8)

    #: Size of every writer's region.
    #:
    #: :type: :class:`str`
    #: :default: ``'16g'``
    region_size = variable(str, value='16g')

    def layout(self, variant):
        '''(stripe count, fio start offset) of ``variant``.'''
        raise NotImplementedError

    def tools_needed(self):
        return [self.program_path(), 'lfs']

    def fio_options(self, variant):
        count, offset = self.layout(variant)
        return {'name': self.__class__.__name__,
                'filename': f'{SCRATCH}/shared', 'rw': 'write',
                'bs': self.stripe_size, 'direct': 1,
                'numjobs': self.numjobs, 'size': self.region_size,
                'offset': offset, 'offset_increment': self.region_size,
                'runtime': self.runtime_s, 'group_reporting': None}

    def prepare_command(self, variant):
        count, _ = self.layout(variant)
        return setstripe(f'{SCRATCH}/shared', count, self.stripe_size)

    def witness_command(self, variant):
        count, _ = self.layout(variant)
        probe = f'{SCRATCH}/probe-{variant}'
        return (f'{setstripe(probe, count, self.stripe_size)} && '
                f'lfs getstripe -c {probe}')


class StripingVariantCheck(FioVariantCheck):
    '''One layout of a striping pitfall: fio's write bandwidth and
    overwrite factor, and the stripe count Lustre actually gave the file.'''

    valid_systems = where.LUSTRE

    def judge(self, runs, recs):
        super().judge(runs, recs)
        count, _ = self.rounds.layout(self.variant)
        got = self.rounds.read_witness(self.variant,
                                       f'witness-{self.variant}.txt',
                                       parse_stripe_count, self)
        self.witness = f'stripe count {got} (asked {count})'
        if count != 1 and got < 2:
            raise SanityError(f'asked for {count} stripes, Lustre gave {got}: '
                              f'with one OST the layout cannot differ')

        if count == 1 and got != 1:
            raise SanityError(f'asked for one stripe, Lustre gave {got}')
