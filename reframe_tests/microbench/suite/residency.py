'''The page-cache residency witness: how much of what a read is about to
read is already in memory.

A read figure is storage only if the pages it reads were not in the
reading node's page cache already.  Darshan tells whose data each read
got, where its runtime exists; this witness asks the kernel itself:
util-linux ``fincore`` (mincore(2) over a map of each file; no root
needed) lists the resident bytes of every file of the job's scratch
directory, on every node that will read, right before the read phase.

Every node prints its lines tagged ``resident <index> <host>``, ``<index>``
the rank of the one process the partition's launcher starts on it (the
nodes in the order the benchmark's own ranks fill them), then
``resident <index> <host> files N``: a cut or edited output does not add
up.  A node without ``fincore`` says ``missing fincore``, and its read
keeps the judgement it had without the witness.

The share is the resident bytes of the files a node will read over their
size.  Above :data:`THRESHOLD` a buffered read is a cache figure.  An
O_DIRECT read does not consult the page cache (the kernel writes back any
dirty page of its range and reads the device), whatever is resident: its
share is recorded, not judged.  fincore measures whole files: where the
nodes of several kernels read parts of one shared file, a node's share
mixes the part it wrote with the part it reads, and is recorded, not
judged (:func:`judged_share`).
'''

import collections
import os
import re
import shlex

from microbench import paths
from microbench.suite.output import OutputError, lines, number, once
from microbench.suite.rounds import SCRATCH

#: The most of the data a read is about to read that may be resident in
#: the reading node's page cache for its figure to be a storage figure:
#: 5 % (the noise of a file system's own metadata and readahead pages is
#: well below; a read-after-write here found 100 %, an O_DIRECT write 0)
THRESHOLD = 0.05

#: What fincore says of the files: bytes resident, bytes, files
Resident = collections.namedtuple('Resident', 'resident size files')

#: One node's view: its host name, {file name: (resident, size)}, and
#: whether fincore was missing there
Node = collections.namedtuple('Node', 'host files missing')

_FILES = re.compile(r'^files (\S+)$')
_TAG = re.compile(r'^resident (\d+) (\S+) (.*)$')

def fincore_command(scratch=SCRATCH):
    '''The resident bytes and pages and the size of every file below
    ``scratch``, then how many files fincore listed (``files N``: a cut or
    edited output does not add up).'''
    return (f'find {scratch} -type f -exec fincore --bytes --noheadings '
            f'--raw --output RES,PAGES,SIZE,FILE {{}} + | '
            f"awk '{{print}} END {{print \"files\", NR}}'")


def command(start, stagedir, scratch=SCRATCH):
    '''The witness command: ``start`` (a launcher prefix starting one
    process on every node that reads, or '' on this node alone) runs the
    node's script (``residency.sh``, which every rounds job copies into
    its stage directory ``stagedir``) over ``scratch``.'''
    script = shlex.quote(os.path.join(stagedir,
                                      os.path.basename(paths.RESIDENCY)))
    return ' '.join(filter(None, [start, 'bash', script, f'"{scratch}"']))


def _row(row):
    '''(file, resident bytes, bytes, page size) of one fincore row, held
    to its pages: whole pages of one size are resident.'''
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
            raise OutputError(f'fincore lists {name} twice')

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

    :raises OutputError: as :func:`parse_files`, or no file listed.
    '''
    files = parse_files(text)
    if not files:
        raise OutputError('fincore listed no file')

    return Resident(sum(r for r, _ in files.values()),
                    sum(s for _, s in files.values()), len(files))


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
        if hosts.setdefault(index, found[2]) != found[2]:
            raise OutputError(f'node {index} is both {hosts[index]} and '
                              f'{found[2]}')

        tagged[index].append(found[3])

    if sorted(tagged) != list(range(nodes)):
        raise OutputError(f'the residency witness answered from nodes '
                          f'{sorted(tagged)}, not from each of the {nodes} '
                          f'nodes that read')

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


def share(node, names):
    '''(resident bytes, bytes) of the files ``names`` (base names) on
    ``node``.

    :raises OutputError: a file the read will read that the node does not
        list, or no byte to read.
    '''
    by_base = {name.rsplit('/', 1)[-1]: value
               for name, value in node.files.items()}
    missing = sorted(set(names) - set(by_base))
    if missing:
        raise OutputError(f'{node.host} lists no file {", ".join(missing)}: '
                          f'the read would read what was not written')

    resident = sum(by_base[name][0] for name in names)
    size = sum(by_base[name][1] for name in names)
    if not size:
        raise OutputError(f'the files {", ".join(sorted(names))} on '
                          f'{node.host} are empty: nothing to read')

    return min(resident, size), size


class Seen:
    '''What the residency witness saw of one read: the share of every node,
    the largest, and whether it is judged.'''

    def __init__(self, shares, judged=True, why=''):
        #: {host: (resident bytes, bytes)}
        self.shares = shares
        self.judged = judged
        self.why = why

    @property
    def largest(self):
        return max(resident / size for resident, size in
                   self.shares.values())

    @property
    def resident(self):
        return self.largest > THRESHOLD

    def said(self):
        parts = ', '.join(f'{host} {100 * resident / size:.1f} % of '
                          f'{size / 2 ** 20:.0f} MiB' for host, (resident,
                          size) in self.shares.items())
        return f'resident in the page cache before the read: {parts}'


def seen(found, reads, shared=False, one_kernel=True):
    ''':class:`Seen` of :func:`parse_nodes`' ``found``: ``reads(index)``
    names the files node ``index`` reads; ``shared``: the nodes read parts
    of those files that other nodes also wrote (one shared file);
    ``one_kernel``: every node shares one page cache (one node, or nodes
    of one kernel).  None where a node had no fincore.'''
    if missing_hosts(found):
        return None

    shares = {node.host: share(node, reads(index))
              for index, node in sorted(found.items())}
    if shared and not one_kernel:
        return Seen(shares, False, 'a file shared by the nodes of several '
                                   'kernels: fincore sees whole files, not '
                                   'the part a node reads')

    return Seen(shares)


def judge(check, figure, found, direct=False, by_design=False):
    '''Record what the residency witness saw of ``check``'s read figure
    ``figure`` in its ``witness`` and ``resident_share``: ``found``, a
    :class:`Seen` (of the variant's witness sample) or a list of them (one
    per sample), None where a node had no fincore; ``direct``: the read is
    O_DIRECT; ``by_design``: the figure measures the page cache by design.
    A buffered read above :data:`THRESHOLD` (in any sample) is reported as
    a cache figure, saying so; one by design that found its data not
    resident says so in the note.'''
    seens = found if isinstance(found, list) else [found]
    if any(one is None for one in seens) or not seens:
        check.witness = '; '.join(filter(None, [
            check.witness, f'{figure}: residency not seen (fincore missing '
                           f'on a reading node): the figure keeps its '
                           f'judgement']))
        return

    largest = max(one.largest for one in seens)
    check.resident_share = ';'.join(filter(None, [
        check.resident_share,
        f'{figure}=' + ','.join(percent(one.largest) for one in seens)]))
    worst = max(seens, key=lambda one: one.largest)
    said = f'{figure}: {worst.said()}'
    if len(seens) > 1:
        said += f' (the largest of {len(seens)} samples)'
    if direct:
        said += ' (O_DIRECT: the read does not consult the page cache)'
    elif not all(one.judged for one in seens):
        said += f' (not judged: {worst.why})'
    elif largest <= THRESHOLD and (by_design or figure in check.cached):
        check.note = '; '.join(filter(None, [check.note, (
            f'{figure}: only {percent(largest)} % of what it reads was in '
            f'the page cache before it: this cache figure read storage')]))
    elif not by_design and largest > THRESHOLD:
        check.demote_seen(figure, f'{percent(largest)} % of what the '
                          f'{figure} reads was in the page cache before it '
                          f'(fincore; above {percent(THRESHOLD)} %)',
                          f'the {figure} figure is a cache figure, not '
                          f'storage')
        check.measures = 'page cache'

    check.witness = '; '.join(filter(None, [check.witness, said]))


def per_sample(stagedir, variant, count, kept_name):
    ''':func:`seen` of the residency witness of every sample of
    ``variant`` on one node (``residency-<variant>-<n>.txt``, kept by the
    skeleton; ``kept_name`` names each), over every file it lists.

    :raises OutputError: a sample without its witness, or garbage in one.
    '''
    found = []
    for sample in range(1, count + 1):
        path = os.path.join(stagedir, kept_name('residency.txt', variant,
                                                sample))
        try:
            with open(path, encoding='utf-8', errors='replace') as fp:
                nodes = parse_nodes(fp.read(), 1)
        except OSError as err:
            raise OutputError(f'sample {sample}: no residency witness: '
                              f'{err}') from None
        except OutputError as err:
            raise OutputError(f'sample {sample}: the residency witness, '
                              f'{path}: {err}') from None

        found.append(seen(nodes, lambda index: [
            name.rsplit('/', 1)[-1] for name in nodes[index].files]))

    return found


def missing_hosts(found):
    return [node.host for node in found.values() if node.missing]


def percent(value):
    return f'{100 * value:.1f}'
