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
from microbench.suite.skeleton import SCRATCH
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

#: The most a file system may store of the bytes its files hold: their
#: bytes and 10 % more, and :data:`SLACK` a file (a block of its own, an
#: extent tree, a btrfs extent counted whole).  A share above it is no
#: file system's: an edited output, or files preallocated beyond their size
MOST_STORED = 1.10

#: The bytes a file may occupy beyond its share of :data:`MOST_STORED`
SLACK = 2 ** 20

#: The bytes by which compsize's referenced bytes and ``st_blocks`` may
#: differ for one file, and compsize's referenced bytes exceed its size:
#: a page (btrfs references whole sectors; an inline extent's bytes are
#: counted unrounded by compsize, rounded to 512 by ``st_blocks``)
PAGE = 4096

#: What the witness prints where btrfs' own tool is missing
NO_COMPSIZE = 'compsize: not found'

#: A count of bytes or blocks: at most 18 digits (below an exbibyte), so
#: that every sum is exact
_COUNT = r'(\d{1,18})'

_FILE = re.compile(r'^file (\S+) (\S+) (.+)$')
_PROCESSED = re.compile(r'^Processed (\S+) files?, ')
_HEADER = re.compile(r'^Type\s+Perc\s+Disk Usage\s+Uncompressed\s+'
                     r'Referenced\s*$')

#: A row of compsize's table: its type (TOTAL, none, zlib, lzo, zstd,
#: prealloc, or ?N), its percentage, disk usage, uncompressed and
#: referenced bytes
_ROW = re.compile(rf'^(\S+)\s+(\d{{1,3}})%\s+{_COUNT}\s+{_COUNT}\s+'
                  rf'{_COUNT}\s*$')

#: Every line the witness prints: its own, and compsize's report
_KNOWN = re.compile(r'^(fstype |file |files |Processed |Type\s+Perc\s|'
                    r'\S+\s+\d+%\s+\d+\s+\d+\s+\d+\s*$|'
                    + re.escape(NO_COMPSIZE) + '$)')


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
            f'{scratch}; else echo "{NO_COMPSIZE}"; fi')


def _count(token, what):
    '''A count of bytes or blocks of at most 18 digits.'''
    if not re.fullmatch(_COUNT, token):
        raise OutputError(f'{what} is {token[:30]!r}, not a count (at most '
                          f'18 digits)')

    return int(token)


def _short(path):
    '''``path`` as a message shows it: at most 80 characters.'''
    return path if len(path) <= 80 else f'{path[:40]}...{path[-37:]}'


def _files(rows):
    '''{path: (size, 512-byte blocks)} of the ``file`` lines, as many as
    the ``files`` line counts.  An empty file is 0 bytes in 0 blocks; a
    file of a few bytes may occupy none (ext4 keeps it in its inode).'''
    files = {}
    for row in rows:
        match = _FILE.match(row)
        if not match:
            continue

        path = match[3]
        if path in files:
            raise OutputError(f'the file {_short(path)} is listed twice: the '
                              f'output is corrupted')

        files[path] = (_count(match[1], f'the size of {_short(path)}'),
                       _count(match[2], f'the blocks of {_short(path)}'))

    if not files:
        raise OutputError('the witness listed no file: the sample wrote '
                          'nothing, or the output is cut')

    counted = once([row.split(' ', 1)[1] for row in rows
                    if row.startswith('files ')], '"files" line')
    if number(counted, 'the files counted', integer=True) != len(files):
        raise OutputError(f'{counted[:30]} files counted, {len(files)} '
                          f'listed: the output is cut or edited')

    if not sum(size for size, _ in files.values()):
        raise OutputError(f'the {len(files)} files the witness listed are '
                          f'empty: the sample wrote nothing')

    return files


def _table(rows):
    '''(percentage, disk, uncompressed, referenced) of compsize's TOTAL
    row, each row held to its own bytes (the percentage is compsize's,
    disk * 100 // uncompressed; btrfs never stores an extent in more bytes
    than it holds) and TOTAL to the rows: its disk usage and uncompressed
    bytes are theirs summed; its referenced bytes at least theirs (compsize
    counts an extent's bytes under the type of its first reference, and
    leaves out a type with no bytes of its own: the preallocated part of a
    partly written extent is referenced under ``prealloc``, never
    printed).'''
    once([row for row in rows if _HEADER.match(row)], 'compsize "Type" '
         'header')
    table = {}
    for row in rows:
        match = _ROW.match(row)
        if not match:
            continue

        kind = match[1]
        if kind in table:
            raise OutputError(f'compsize\'s {kind} row twice: the output is '
                              f'corrupted')

        percent, disk, uncompressed, referenced = (
            int(match[2]), *(_count(value, f'compsize\'s {kind} {what}')
                             for value, what in zip(
                                 match.groups()[2:], ('disk usage',
                                                      'uncompressed size',
                                                      'referenced size'))))
        if not uncompressed or disk > uncompressed or \
                percent != disk * 100 // uncompressed:
            raise OutputError(f'compsize\'s {kind} row says {percent} % but '
                              f'{disk} of {uncompressed} bytes: the row is '
                              f'corrupted')

        table[kind] = (percent, disk, uncompressed, referenced)

    total = table.pop('TOTAL', None)
    if total is None:
        raise OutputError('no compsize TOTAL row: the output is not complete')

    if not table:
        raise OutputError('compsize\'s table has no row of a type: the '
                          'output is cut')

    summed = [sum(values[n] for values in table.values()) for n in (1, 2, 3)]
    for what, value, of_types in zip(('disk usage', 'uncompressed size',
                                      'referenced size'), total[1:], summed):
        if value != of_types and (what != 'referenced size'
                                  or value < of_types):
            raise OutputError(f'compsize\'s TOTAL {what} is {value} bytes, '
                              f'its rows\' ({", ".join(table)[:60]}) '
                              f'{of_types}: the table is corrupted')

    return total


def _compsize(rows, files):
    '''The bytes on disk compsize's TOTAL row says, held to its rows and
    to the files: compsize processed the files the witness listed, and
    references the bytes they hold, whole sectors, as ``st_blocks``
    counts them.'''
    processed = once([m for m in map(_PROCESSED.match, rows) if m],
                     'compsize "Processed" line')
    count = number(processed[1], 'the files compsize processed',
                   integer=True)
    if count != len(files):
        raise OutputError(f'compsize processed {count} files, the witness '
                          f'listed {len(files)}: another directory\'s count')

    _, disk, _, referenced = _table(rows)
    written = sum(size for size, _ in files.values())
    if referenced > written + PAGE * len(files):
        raise OutputError(f'compsize counts {referenced} bytes referenced, '
                          f'more than the {written} bytes the files hold: '
                          f'the report is of other files, or the files were '
                          f'preallocated beyond their size')

    blocks = 512 * sum(blocks for _, blocks in files.values())
    if abs(blocks - referenced) > PAGE * len(files):
        raise OutputError(f'compsize counts {referenced} bytes referenced, '
                          f'the files\' st_blocks {blocks}: the report is '
                          f'of other files, or edited')

    return disk


def _held(stored, written, files, fstype):
    '''Raise where the bytes ``stored`` of the ``written`` bytes of
    ``files`` files are more than any file system stores
    (:data:`MOST_STORED`, :data:`SLACK`).'''
    if stored > MOST_STORED * written + SLACK * files:
        raise OutputError(
            f'{fstype} stored {100 * stored / written:.0f} % of the {written} '
            f'bytes its {files} files hold: no file system stores more than '
            f'{100 * MOST_STORED:.0f} % and {SLACK // 2 ** 20} MiB a file '
            f'(its metadata); the output was edited, or the files were '
            f'preallocated beyond their size')


def parse(text):
    '''What the witness of :func:`command` printed, as :class:`Stored`.

    :raises OutputError: no file type or file, a file listed twice, a
        number that is not one, a compsize report that does not add up
        (its TOTAL row against its rows, its referenced bytes against the
        files' bytes and blocks) or is of other files, or more stored than
        any file system stores of what its files hold.
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
    if compsize != (fstype == 'btrfs') and NO_COMPSIZE not in rows:
        raise OutputError(f'the file system is {fstype[:40]!r}, and compsize '
                          f'{"ran" if compsize else "did not run"}: only '
                          f'btrfs is counted by compsize')

    if fstype != 'btrfs':
        stored = 512 * sum(blocks for _, blocks in files.values())
        _held(stored, written, len(files), fstype[:40])
        return Stored(fstype, len(files), written, stored, 'st_blocks')

    if NO_COMPSIZE in rows:
        if compsize:
            raise OutputError('compsize both ran and was not found: two '
                              'outputs in one')
        return Stored(fstype, len(files), written, None, None)

    stored = _compsize(rows, files)
    _held(stored, written, len(files), fstype)
    return Stored(fstype, len(files), written, stored, 'compsize')


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
