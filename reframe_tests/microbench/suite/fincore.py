'''What util-linux ``fincore`` printed for the residency witness
(:mod:`microbench.suite.residency`): its rows (``RES PAGES SIZE FILE``,
``--bytes --raw``: whole pages of one size, at most the pages a file's
bytes fill; an empty file is ``0 0 0 <path>``) and the count of files
after them, on one node or tagged ``resident <index> <host>`` by every
node that reads.  A cut or edited output does not add up.
'''

import collections
import re

from microbench.suite.output import OutputError, lines, number, once
from microbench.suite.skeleton import SCRATCH

#: What fincore says of the files: bytes resident, bytes, files
Resident = collections.namedtuple('Resident', 'resident size files')

#: One node's view: its host name, {file name: (resident, size)}, and
#: whether fincore was missing there
Node = collections.namedtuple('Node', 'host files missing')

#: The sizes a page of the page cache may have: powers of two from 1 KiB
#: to 1 MiB (4 KiB on x86, 16 or 64 KiB on some arm64 and ppc64 kernels)
PAGE_SIZES = tuple(2 ** n for n in range(10, 21))

#: The most node indices a witness may name (a cap: an index is read as
#: at most 9 digits, and no job reads from more nodes than this)
MOST_NODES = 10 ** 6

_FILES = re.compile(r'^files (\S+)$')
_TAG = re.compile(r'^resident (\d{1,9}) (\S+) (.*)$')


def fincore_command(scratch=SCRATCH):
    '''The resident bytes and pages and the size of every file below
    ``scratch``, then how many files fincore listed (``files N``: a cut or
    edited output does not add up).'''
    return (f'find {scratch} -type f -exec fincore --bytes --noheadings '
            f'--raw --output RES,PAGES,SIZE,FILE {{}} + | '
            f"awk '{{print}} END {{print \"files\", NR}}'")


def _row(row):
    '''(file, resident bytes, bytes, page size) of one fincore row, held
    to its pages: whole pages of one size are resident.'''
    fields = row.split(' ', 3)
    if len(fields) != 4:
        raise OutputError(f'{row[:60]!r} is not fincore\'s "RES PAGES SIZE '
                          f'FILE"')

    name = fields[3]
    shown = short(name)
    resident, pages = (number(value, f'fincore\'s {what} of {shown}',
                              positive=False, integer=True)
                       for value, what in zip(fields, ('RES', 'PAGES')))
    # An empty file is 0 bytes, none resident: fincore's "0 0 0 <path>"
    size = number(fields[2], f'fincore\'s SIZE of {shown}', positive=False,
                  integer=True)
    if bool(resident) != bool(pages) or (pages and resident % pages):
        raise OutputError(f'fincore says {resident} bytes in {pages} pages '
                          f'of {shown}: not whole pages')

    if pages and resident // pages not in PAGE_SIZES:
        raise OutputError(f'fincore says {resident} bytes in {pages} pages '
                          f'of {shown}: pages of {resident // pages} bytes, '
                          f'which no page cache has')

    # Whole pages are resident: at most the pages the file's bytes fill
    page = resident // pages if pages else 1
    if pages > -(-size // page):
        raise OutputError(f'fincore says {resident} bytes of the '
                          f'{size}-byte {shown} are resident')

    return name, resident, size, (page if pages else None)


def short(name):
    '''``name`` as a message shows it: at most 80 characters.'''
    if len(name) <= 80:
        return name

    return f'{name[:40]}...{name[-37:]}'


def parse_files(text):
    '''{file: (resident bytes, bytes)} of what :func:`fincore_command`
    printed.

    :raises OutputError: a file twice, a number that is not one, resident
        bytes that are not whole pages of one size or more than the file
        holds, or a count that does not add up.
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
            raise OutputError(f'fincore lists {short(name)} twice')

        files[name] = (resident, size)
        if page:
            page_sizes.add(page)

    if len(page_sizes) > 1:
        raise OutputError(f'fincore\'s pages are of sizes {page_sizes}: '
                          f'not one page cache\'s')

    if number(counted[1], 'the files fincore listed', positive=False,
              integer=True) != len(files):
        raise OutputError(f'{counted[1]} files counted, {len(files)} '
                          f'listed: the output is cut or edited')

    return files


def parse_fincore(text):
    ''':class:`Resident` of what :func:`fincore_command` printed.

    :raises OutputError: as :func:`parse_files`, no file listed, or only
        empty ones (the sample wrote nothing).
    '''
    files = parse_files(text)
    if not files:
        raise OutputError('fincore listed no file')

    size = sum(s for _, s in files.values())
    if not size:
        raise OutputError(f'fincore listed {len(files)} files, all empty: '
                          f'the sample wrote nothing')

    return Resident(sum(r for r, _ in files.values()), size, len(files))


def parse_nodes(text, nodes):
    '''{index: :class:`Node`} of what :func:`command` printed on ``nodes``
    nodes: every node once, indices 0 to ``nodes - 1``.

    :raises OutputError: an untagged line, a node missing or twice under
        two names, or a node's lines as :func:`parse_files` rejects them.
    '''
    tagged = collections.defaultdict(list)
    hosts = {}
    for row in lines(text):
        found = _TAG.match(row)
        if not found:
            raise OutputError(f'{row[:60]!r} is not a line of the residency '
                              f'witness ("resident <index> <host> ...")')

        index = int(found[1])
        if index >= MOST_NODES:
            raise OutputError(f'node index {index}: more than the '
                              f'{MOST_NODES} nodes a witness may name')

        if hosts.setdefault(index, found[2]) != found[2]:
            raise OutputError(f'node {index} is both {hosts[index]} and '
                              f'{found[2]}')

        tagged[index].append(found[3])

    if sorted(tagged) != list(range(nodes)):
        answered = sorted(tagged)
        shown = ', '.join(map(str, answered[:8])) + (
            f' and {len(answered) - 8} more' if len(answered) > 8 else '')
        raise OutputError(f'the residency witness answered from nodes '
                          f'[{shown}], not from each of the {nodes} nodes '
                          f'that read')

    found = {}
    for index, rows in tagged.items():
        if rows == ['missing fincore']:
            found[index] = Node(hosts[index], {}, True)
            continue

        try:
            found[index] = Node(hosts[index],
                                parse_files('\n'.join(rows) + '\n'), False)
        except OutputError as err:
            raise OutputError(f'node {index} ({hosts[index]}): {err}') \
                from None

    return found
