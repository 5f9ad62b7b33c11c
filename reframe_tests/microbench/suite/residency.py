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
up (:mod:`microbench.suite.fincore` reads it).  A node without ``fincore``
says ``missing fincore``, and its read keeps the judgement it had without
the witness.

The share is the resident bytes of the files a node will read over their
size.  An empty file (fincore's ``0 0 0 <path>``) holds 0 bytes, and a
node whose files are all empty has nothing to read: its share is
recorded as 0 of 0 bytes and not judged.  One host may answer under two
indices (the launcher started both processes on one node): each index
keeps its own share, labelled ``<host> (node <index>)``; none overwrites
another.  Above :data:`THRESHOLD` a buffered read is a cache figure.  An
O_DIRECT read does not consult the page cache (the kernel writes back any
dirty page of its range and reads the device), whatever is resident: its
share is recorded, not judged.  fincore measures whole files: where the
nodes of several kernels read parts of one shared file, a node's share
mixes the part it wrote with the part it reads, and is recorded, not
judged (:func:`judged_share`).
'''

import collections
import os
import shlex

from microbench import fields, paths
from microbench.suite.fincore import parse_nodes, short
from microbench.suite.output import OutputError
from microbench.suite.skeleton import SCRATCH

#: The most of the data a read is about to read that may be resident in
#: the reading node's page cache for its figure to be a storage figure:
#: 5 % (the noise of a file system's own metadata and readahead pages is
#: well below; a read-after-write here found 100 %, an O_DIRECT write 0)
THRESHOLD = 0.05


def command(start, stagedir, scratch=SCRATCH):
    '''The witness command: ``start`` (a launcher prefix starting one
    process on every node that reads, or '' on this node alone) runs the
    node's script (``residency.sh``, which every rounds job copies into
    its stage directory ``stagedir``) over ``scratch``.'''
    script = shlex.quote(os.path.join(stagedir,
                                      os.path.basename(paths.RESIDENCY)))
    return ' '.join(filter(None, [start, 'bash', script, f'"{scratch}"']))


def share(node, names=None):
    '''(resident bytes, bytes) of the files ``names`` (base names; None:
    every file the node lists) on ``node``; (0, 0) where they are all
    empty.

    :raises OutputError: a file the read will read that the node does not
        list, or lists twice under one base name in two directories (which
        one the read reads is not known).
    '''
    if names is None:
        values = list(node.files.values())
    else:
        by_base = collections.defaultdict(list)
        for path in node.files:
            by_base[path.rsplit('/', 1)[-1]].append(path)

        missing = sorted(set(names) - set(by_base))
        if missing:
            shown = ', '.join(missing[:4]) + (
                f' and {len(missing) - 4} more' if len(missing) > 4 else '')
            raise OutputError(f'{node.host} lists no file {shown}: the read '
                              f'would read what was not written')

        twice = sorted(name for name in set(names) if len(by_base[name]) > 1)
        if twice:
            paths = ', '.join(map(short, by_base[twice[0]][:2]))
            raise OutputError(f'{node.host} lists {twice[0]} in two '
                              f'directories ({paths}): which one the read '
                              f'reads is not known')

        values = [node.files[by_base[name][0]] for name in set(names)]

    resident = sum(value[0] for value in values)
    size = sum(value[1] for value in values)
    return min(resident, size), size


class Seen:
    '''What the residency witness saw of one read: the share of every node,
    the largest, and whether it is judged.'''

    def __init__(self, shares, judged=True, why=''):
        #: {node: (resident bytes, bytes)}, a node by its host name, or
        #: ``<host> (node <index>)`` where one host answered under several
        #: indices
        self.shares = shares
        if judged and not any(size for _, size in shares.values()):
            judged, why = False, ('the files it reads are empty: nothing to '
                                  'read')
        self.judged = judged
        self.why = why

    @property
    def largest(self):
        '''The largest share of a node with bytes to read (0.0 where no
        node has any).'''
        return max((resident / size for resident, size in
                    self.shares.values() if size), default=0.0)

    @property
    def resident(self):
        return self.largest > THRESHOLD

    def said(self):
        parts = ', '.join(f'{node} {_of(resident, size)}'
                          for node, (resident, size) in self.shares.items())
        return f'resident in the page cache before the read: {parts}'


def _of(resident, size):
    '''``<percent> % of <MiB> MiB``, or what an empty read is.'''
    if not size:
        return 'nothing (its files are empty)'

    return f'{100 * resident / size:.1f} % of {size / 2 ** 20:.0f} MiB'


def seen(found, reads, shared=False, one_kernel=True):
    ''':class:`Seen` of :func:`parse_nodes`' ``found``: ``reads(index)``
    names the files node ``index`` reads; ``shared``: the nodes read parts
    of those files that other nodes also wrote (one shared file);
    ``one_kernel``: every node shares one page cache (one node, or nodes
    of one kernel).  None where a node had no fincore.'''
    if missing_hosts(found):
        return None

    hosts = collections.Counter(node.host for node in found.values())
    shares = {label(index, node, hosts): share(node, reads(index))
              for index, node in sorted(found.items())}
    if shared and not one_kernel:
        return Seen(shares, False, 'a file shared by the nodes of several '
                                   'kernels: fincore sees whole files, not '
                                   'the part a node reads')

    return Seen(shares)


def label(index, node, hosts):
    '''What names node ``index`` in a record: its host, or ``<host> (node
    <index>)`` where its host answered under several indices (``hosts``,
    a count of the hosts of every index).'''
    if hosts[node.host] > 1:
        return f'{node.host} (node {index})'

    return node.host


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
    check.resident_share = fields.RESIDENT_SHARE.encode({
        **fields.RESIDENT_SHARE.decode(check.resident_share),
        figure: [100 * one.largest for one in seens]})
    worst = max(seens, key=lambda one: one.largest)
    said = f'{figure}: {worst.said()}'
    if len(seens) > 1:
        said += f' (the largest of {len(seens)} samples)'
    if direct:
        said += ' (O_DIRECT: the read does not consult the page cache)'
    elif not all(one.judged for one in seens):
        why = next(one.why for one in seens if not one.judged)
        said += f' (not judged: {why})'
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

        found.append(seen(nodes, lambda index: None))

    return found


def missing_hosts(found):
    return [node.host for node in found.values() if node.missing]


def percent(value):
    return f'{100 * value:.1f}'
