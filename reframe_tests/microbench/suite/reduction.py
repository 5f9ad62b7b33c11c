'''S6's witness: the bytes a file system stored of what a sample wrote, and
the claims of the data-reduction checks.

A compressing or deduplicating file system (ZFS with lz4, btrfs with
zstd, VAST) stores a fraction of a compressible write, and the benchmark
reports the bytes it handed over.  The witness runs on a short sample of
its own: it syncs the scratch directory, then lists every file's size and
the blocks it occupies (``st_blocks``, ``find -printf '%s %b'``).  On
btrfs ``st_blocks`` counts the extents as if uncompressed (measured here:
64 MiB of zeros under ``compress-force=zstd`` kept 131072 blocks of 512
bytes, where btrfs' own ``compsize`` saw 2 MiB on disk), so there the
witness also runs ``compsize -b`` and takes its disk usage; without
compsize a btrfs witness is recorded as not run, saying why.  A drive that
compresses internally is invisible from the host: neither tool sees it.

The files are counted (``files N``), and btrfs' count is compsize's
too: a cut or edited output does not add up.

A partition declares what its scratch reduces in ``extras.reduces_data``
(a list of :data:`MECHANISMS`).  A variant's claim that its data was
reduced (:class:`Claim`), and the direction of a gap
(:class:`ReductionGapCheck`), are checked only where a mechanism that can
reduce that data is declared; elsewhere they are reported with the
witness.  The claim that incompressible data was stored whole holds
everywhere.
'''

import collections
import re

import reframe.utility.sanity as sn
from reframe.core.builtins import sanity_function
from reframe.core.exceptions import SanityError

from microbench.suite.gap import GapCheck
from microbench.suite.output import OutputError, lines, number, once
from microbench.suite.rounds import SCRATCH
from microbench.units import MIB

#: What a partition may declare its scratch reduces
MECHANISMS = ('compression', 'deduplication')

#: Below this share of the bytes written, the file system reduced them
WHOLE = 0.95

#: A variant's claim about what is stored of its data: at most ``most``
#: of it where the partition declares one of ``mechanisms`` (None: no
#: such claim), at least ``least`` everywhere (None: no such claim)
Claim = collections.namedtuple('Claim', 'most least mechanisms')

#: What the witness found: the scratch's file system type (as statfs
#: names it), the files, the bytes they hold, the bytes stored, and how
#: the stored bytes were counted (``st_blocks``, ``compsize``, or None
#: where they could not be)
Stored = collections.namedtuple('Stored', 'fstype files written stored tool')

#: What the witness prints where btrfs' own tool is missing
_NO_COMPSIZE = 'compsize: not found'

_FILE = re.compile(r'^file (\S+) (\S+) (.+)$')
_PROCESSED = re.compile(r'^Processed (\S+) files?, ')
_TOTAL = re.compile(r'^TOTAL\s+(\d+)%\s+(\S+)\s+(\S+)\s+(\S+)\s*$')

#: Every line the witness prints: its own, and compsize's report
_KNOWN = re.compile(r'^(fstype |file |files |Processed |Type\s+Perc\s|'
                    r'\S+\s+\d+%\s+\d+\s+\d+\s+\d+\s*$|'
                    + re.escape(_NO_COMPSIZE) + '$)')


def declared(partition):
    '''The mechanisms ``partition`` declares its scratch reduces data by.'''
    return set(partition.extras.get('reduces_data', []))


def command(scratch=SCRATCH):
    '''The shell command printing what the file system under ``scratch``
    stored of every file below it (no shell variable but ``scratch``: the
    rounds job expands a command when it declares it).'''
    return (f'sync -f {scratch} && stat -f -c "fstype %T" {scratch} && '
            f"find {scratch} -type f -printf 'file %s %b %p\\n' | "
            f"awk '{{print}} END {{print \"files\", NR}}' && "
            f'if ! stat -f -c %T {scratch} | grep -qx btrfs; then :; '
            f'elif command -v compsize >/dev/null; then compsize -b '
            f'{scratch}; else echo "{_NO_COMPSIZE}"; fi')


def _files(rows):
    '''{path: (size, 512-byte blocks)} of the ``file`` lines, as many as
    the ``files`` line counts.  A file the witness wrote holds bytes and
    occupies a block at least.'''
    files = {}
    for row in rows:
        match = _FILE.match(row)
        if not match:
            continue

        path = match[3]
        if path in files:
            raise OutputError(f'the file {path} is listed twice: the output '
                              f'is corrupted')

        files[path] = (number(match[1], f'the size of {path}', integer=True),
                       number(match[2], f'the blocks of {path}',
                              integer=True))

    if not files:
        raise OutputError('the witness listed no file: the sample wrote '
                          'nothing, or the output is cut')

    counted = once([row.split(' ', 1)[1] for row in rows
                    if row.startswith('files ')], '"files" line')
    if number(counted, 'the files counted', integer=True) != len(files):
        raise OutputError(f'{counted} files counted, {len(files)} listed: '
                          f'the output is cut or edited')

    return files


def _compsize(rows, files):
    '''The bytes on disk compsize's TOTAL row says, held to the files.'''
    processed = once([m for m in map(_PROCESSED.match, rows) if m],
                     'compsize "Processed" line')
    count = number(processed[1], 'the files compsize processed',
                   integer=True)
    if count != len(files):
        raise OutputError(f'compsize processed {count} files, the witness '
                          f'listed {len(files)}: another directory\'s count')

    total = once([m for m in map(_TOTAL.match, rows) if m],
                 'compsize TOTAL row')
    percent = number(total[1], 'compsize\'s percentage', positive=False)
    disk, uncompressed, referenced = (
        number(value, f'compsize\'s {what}', positive=False, integer=True)
        for value, what in zip(total.groups()[1:],
                               ('disk usage', 'uncompressed size',
                                'referenced size')))
    if uncompressed and abs(100 * disk / uncompressed - percent) > 1:
        raise OutputError(f'compsize says {percent:g} % but {disk} of '
                          f'{uncompressed} bytes: the row is corrupted')

    written = sum(size for size, _ in files.values())
    if referenced > written + 4096 * len(files):
        raise OutputError(f'compsize counts {referenced} bytes referenced, '
                          f'more than the {written} bytes the files hold')

    return disk


def parse(text):
    '''What the witness of :func:`command` printed, as :class:`Stored`.

    :raises OutputError: no file type or file, a file listed twice, a
        number that is not one, or a compsize report that does not add up
        or is of other files.
    '''
    rows = lines(text)
    for row in rows:
        if not _KNOWN.match(row):
            raise OutputError(f'{row[:60]!r} is no line of the witness: '
                              f'another output, or a corrupted one')

    fstype = once([row.split(' ', 1)[1] for row in rows
                   if row.startswith('fstype ')], '"fstype" line')
    files = _files(rows)
    written = sum(size for size, _ in files.values())
    compsize = any(map(_PROCESSED.match, rows))
    if compsize != (fstype == 'btrfs') and _NO_COMPSIZE not in rows:
        raise OutputError(f'the file system is {fstype!r}, and compsize '
                          f'{"ran" if compsize else "did not run"}: only '
                          f'btrfs is counted by compsize')

    if fstype != 'btrfs':
        return Stored(fstype, len(files), written,
                      512 * sum(blocks for _, blocks in files.values()),
                      'st_blocks')

    if _NO_COMPSIZE in rows:
        return Stored(fstype, len(files), written, None, None)

    return Stored(fstype, len(files), written, _compsize(rows, files),
                  'compsize')


def witness_text(stored, fstype=''):
    '''What the record says of :class:`Stored`; ``fstype``: the file
    system's name as the job recorded it (findmnt says ext4 where statfs
    says ext2/ext3), else statfs's.'''
    fstype = fstype or stored.fstype
    if stored.tool is None:
        return (f'not run: compsize is missing on {fstype}, whose '
                f'st_blocks does not show compression')

    how = ('compsize: st_blocks does not show btrfs compression'
           if stored.tool == 'compsize' else 'st_blocks')
    return (f'{fstype} stored {100 * stored.stored / stored.written:.1f} % '
            f'of the {stored.written / MIB:.0f} MiB in {stored.files} files '
            f'the witness wrote ({how})')


def judge(check, claim):
    '''Read the witness of ``check``'s variant, record what it saw, and
    hold ``claim`` (a :class:`Claim`, or None) against it.  Returns the
    share of the bytes stored, or None where it could not be counted.'''
    rounds = check.rounds
    variant = check.variant
    stored = rounds.read_witness(variant, f'witness-{variant}.txt', parse,
                                 check)
    seen = witness_text(stored, check.scratch_fstype)
    check.witness = '; '.join(filter(None, [check.witness, seen]))
    if stored.tool is None:
        return None

    share = stored.stored / stored.written
    reduces = declared(check.current_partition)
    if claim and claim.least is not None and share < claim.least:
        raise SanityError(
            f'witness: {seen}, but {variant!r} writes '
            f'data no file system can reduce: it must be stored whole (at '
            f'least {100 * claim.least:.0f} %), so the data was not what '
            f'the variant claims')

    if (claim and claim.most is not None and reduces & set(claim.mechanisms)
            and share > claim.most):
        raise SanityError(
            f'witness: {seen}, but the partition declares '
            f'that its scratch reduces data ({", ".join(sorted(reduces))}) '
            f'and {variant!r} writes data it reduces: at most '
            f'{100 * claim.most:.0f} % should be stored (is the reduction '
            f'off on this scratch?)')

    if share < WHOLE and not reduces:
        check.note = '; '.join(filter(None, [check.note, (
            f'the file system reduced this data to {100 * share:.1f} % but '
            f'the partition declares no reducing file system: declare '
            f'extras.reduces_data to check the gap\'s direction')]))

    return share


class ReductionGapCheck(GapCheck):
    '''The gaps of a data-reduction check: each gap's direction (> 1: the
    reducible data written faster) is checked where the partition declares
    a mechanism that reduces its default variant's data; elsewhere the gap
    is reported, with the witness.'''

    #: gap name -> the mechanisms that reduce its default variant's data
    directions = {}

    @sanity_function
    def collect_inputs(self):
        sn.evaluate(super().collect_inputs())
        reduces = declared(self.current_partition)
        for name, mechanisms in self.directions.items():
            if not reduces & set(mechanisms):
                continue

            ratio = self._ratio(*self.gaps[name])
            if ratio <= 1:
                default, realistic = self.gaps[name][:2]
                raise SanityError(
                    f'{name} is {ratio:.3g}: the partition declares that its '
                    f'scratch reduces data ({", ".join(sorted(reduces))}), '
                    f'yet {default!r} was not written faster than '
                    f'{realistic!r}')

        return True
