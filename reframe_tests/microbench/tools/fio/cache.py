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

import collections
import re

from reframe.core.exceptions import SanityError

from microbench import knobs
from microbench.suite.output import OutputError, lines, number, once
from microbench.suite.rounds import SCRATCH
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

#: What fincore says of the files: bytes resident, bytes, files
Resident = collections.namedtuple('Resident', 'resident size files')

_FILES = re.compile(r'^files (\S+)$')


def fincore_command(scratch=SCRATCH):
    '''The resident bytes and pages and the size of every file below
    ``scratch``, then how many files fincore listed (``files N``: a cut or
    edited output does not add up).'''
    return (f'find {scratch} -type f -exec fincore --bytes --noheadings '
            f'--raw --output RES,PAGES,SIZE,FILE {{}} + | '
            f"awk '{{print}} END {{print \"files\", NR}}'")


def _row(row):
    '''(file, resident bytes, bytes) of one fincore row, held to its
    pages: whole pages of one size are resident.'''
    fields = row.split(' ', 3)
    if len(fields) != 4:
        raise OutputError(f'{row[:60]!r} is not fincore\'s "RES PAGES SIZE '
                          f'FILE"')

    name = fields[3]
    resident, pages = (number(value, f'fincore\'s {what} of {name}',
                              positive=False, integer=True)
                       for value, what in zip(fields, ('RES', 'PAGES')))
    size = number(fields[2], f'fincore\'s SIZE of {name}', integer=True)
    if bool(resident) != bool(pages) or (pages and resident % pages):
        raise OutputError(f'fincore says {resident} bytes in {pages} pages '
                          f'of {name}: not whole pages')

    # Whole pages are resident: at most a page more than the file holds
    if pages and resident > size + resident // pages:
        raise OutputError(f'fincore says {resident} bytes of the '
                          f'{size}-byte {name} are resident')

    return name, resident, size, (resident // pages if pages else None)


def parse_fincore(text):
    ''':class:`Resident` of what :func:`fincore_command` printed.

    :raises OutputError: no file, a file twice, a number that is not one,
        resident bytes that are not whole pages of one size or more than
        the file holds, or a count that does not add up.
    '''
    rows = lines(text)
    counted = once([m for m in map(_FILES.match, rows) if m],
                   '"files" line')
    if rows[-1] != counted.group():
        raise OutputError('the "files" line is not the last: the output '
                          'was edited')

    files, page_sizes = {}, set()
    for row in rows[:-1]:
        name, resident, size, page = _row(row)
        if name in files:
            raise OutputError(f'fincore lists {name} twice')

        files[name] = (resident, size)
        if page:
            page_sizes.add(page)

    if len(page_sizes) > 1:
        raise OutputError(f'fincore\'s pages are of sizes {page_sizes}: '
                          f'not one page cache\'s')

    if not files:
        raise OutputError('fincore listed no file')

    if number(counted[1], 'the files fincore listed', integer=True) != len(
            files):
        raise OutputError(f'{counted[1]} files counted, {len(files)} '
                          f'listed: the output is cut or edited')

    return Resident(sum(r for r, _ in files.values()),
                    sum(s for _, s in files.values()), len(files))


class CacheFlagsRounds(FioRounds):
    '''fio runs under each set of write flags, with the page cache's share
    after a short sample of each, and the probe of RWF_DONTCACHE.'''

    witness_tool = 'fincore'

    def witness_command(self, variant):
        options = self.witness_options(variant, f'witness-{variant}.json')
        return (f'{self.launch(*command(self.fio, options))} && '
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
        write = self.launch(*command(self.fio, options))
        return (f'{{ echo {since}; {self.fio} --version | sed s/^fio-//; }} '
                f'| sort -V -C && {write} && rm -f {SCRATCH}/dontcache-probe',
                f'RWF_DONTCACHE cannot be asked here: it needs fio {since} '
                f'or later (uncached=1) and Linux 6.14 or later on a file '
                f'system that takes it; the version and kernel records say '
                f'which is older')

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
