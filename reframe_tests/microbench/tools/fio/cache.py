'''S1's page cache, seen: what each write mode leaves in it, and whether
RWF_DONTCACHE can be asked here.

The witness runs each variant once more, on a short sample of its own
(``witness_runtime_s``), then asks util-linux ``fincore`` how much of the
files fio wrote is resident in the page cache: a share of the bytes that
sample wrote (of the files' size where fio wrapped around them).  A
variant that bypasses the page cache (O_DIRECT) fails if more than
:data:`LEAVES_NONE` of it stayed.  RWF_DONTCACHE makes no such promise: the
kernel drops a page only when the writeback it started ends with the page
unlocked and clean.  Here (Linux 6.18, ext4, 32 KiB writes, 1 s) writers
that never came back to a page left 0 to 7 % of what they wrote; writers
that wrapped around their files (``time_based``) and wrote pages again
while their writeback ran left 54 to 60 %, even after a sync.  Its share
is recorded, and noted where it is above :data:`LEAVES_NONE`.  Buffered
writes keep what fio itself does not drop (``invalidate=1`` each time it
wraps around a file).

``dontcache`` (buffered writes whose pages are dropped once written back,
``RWF_DONTCACHE``) needs fio 3.40 or later (``uncached=1``: older fio
spells it RWF_UNCACHED, 0x40, which Linux 6.11 and later read as
RWF_ATOMIC, or ignore it) and a kernel and file system that take the flag
(Linux 6.14 or later): a probe asks both, and the variant is skipped,
saying so, where either is older.
'''

from reframe.core.exceptions import SanityError

from microbench import knobs
from microbench.suite import missing
from microbench.suite.fincore import fincore_command, parse_fincore
from microbench.suite.skeleton import SCRATCH
from microbench.tools.fio.checks import FioRounds, FioVariantCheck
from microbench.tools.fio.output import command, parse
from microbench.units import MIB

#: The most of what it wrote a variant that bypasses the page cache may
#: leave there (O_DIRECT left none here)
LEAVES_NONE = 0.10

#: Variants that bypass the page cache
UNCACHED = ('direct', 'both')

#: Variants that ask the kernel to drop their pages once written back
DROPPED = ('dontcache',)

class CacheFlagsRounds(FioRounds):
    '''fio runs under each set of write flags, with the page cache's share
    after a short sample of each, and the probe of RWF_DONTCACHE.'''

    witness_tool = 'fincore'

    def witness_command(self, variant):
        options = self.witness_options(variant, f'witness-{variant}.json')
        return (f'{self.launch(*command(self.program_path(), options))} && '
                f'{self.launch(fincore_command())}')

    def probe(self, variant):
        if variant != 'dontcache':
            return None

        since = knobs.FIO_DONTCACHE_SINCE
        options = {**self.fio_options(variant), 'name': 'dontcache_probe',
                   'rw': 'write', 'bs': '4k', 'size': '64k', 'numjobs': 1,
                   'output': '/dev/null'}
        for name in ('directory', 'runtime', 'time_based', 'group_reporting',
                     'thread'):
            options.pop(name, None)
        options['filename'] = f'{SCRATCH}/dontcache-probe'
        fio = self.program_path()
        write = self.launch(*command(fio, options))
        return (f'{{ echo {since}; {fio} --version | sed s/^fio-//; }} '
                f'| sort -V -C && {write} && rm -f {SCRATCH}/dontcache-probe',
                f'RWF_DONTCACHE cannot be asked here: it needs fio {since} '
                f'or later (uncached=1) and Linux 6.14 or later on a file '
                f'system that takes it; the version and kernel records say '
                f'which is older; for fio, '
                f'{missing.newer(self.bindir, f"fio {since} or later")}')

    def read_witness_run(self, variant, check):
        '''The fio run of ``variant``'s witness (its JSON output).'''
        return self.read_witness(
            variant, f'witness-{variant}.json',
            lambda text: parse(text, 'write', {
                **self.fio_options(variant),
                'name': f'{self.unique_name}_witness',
                'runtime': self.witness_runtime_s}),
            check)


class CacheFlagsVariantCheck(FioVariantCheck):
    '''One set of write flags: fio's write bandwidth and overwrite factor,
    and what its witness sample left in the page cache.'''

    def judge(self, runs, recs):
        super().judge(runs, recs)
        rounds = self.rounds
        if 'witness_missing' in recs:
            self.witness = (f'not run: {recs["witness_missing"][0]} not '
                            f'found')
            return

        run = rounds.read_witness_run(self.variant, self)
        found = rounds.read_witness(self.variant,
                                    f'witness-{self.variant}.txt',
                                    parse_fincore, self)
        written = min(run.io_bytes['write'], found.size)
        share = found.resident / written
        self.witness = (f'after a {run.runtime_ms["write"] / 1000:.3g} s '
                        f'sample of its own, the page cache held '
                        f'{found.resident / MIB:.0f} MiB of the '
                        f'{written / MIB:.0f} MiB it wrote to '
                        f'{found.files} files ({100 * share:.1f} %, fincore)')
        if self.variant in UNCACHED and share > LEAVES_NONE:
            raise SanityError(
                f'witness: {self.witness}, but {self.variant!r} bypasses '
                f'the page cache (at most {100 * LEAVES_NONE:.0f} % may '
                f'stay)')

        if self.variant in DROPPED and share > LEAVES_NONE:
            self.note = '; '.join(filter(None, [self.note, (
                f'RWF_DONTCACHE left {100 * share:.0f} % of what the '
                f'witness wrote in the page cache: the kernel drops a page '
                f'only when its writeback ends with the page unlocked and '
                f'clean')]))
