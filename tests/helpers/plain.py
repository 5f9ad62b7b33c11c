'''Plain readings of the witness outputs: what the text of an output says,
read with ``split`` and ``int``, no validation.  A test holds a reader to
them on every output the reader accepts: a mutated output that is still a
valid one (an empty file in fincore's list, a file of 0 blocks on a file
system that stores zeros as holes) must be read as what it now says, not
as the output it came from.  Call them only on outputs the reader
accepted: they trust their layout.'''

from microbench.suite import fincore, reduction


def _count(token):
    '''A count as a reader may take it: 1e3 and 7.0 are counts too.'''
    return int(token) if token.isdigit() else int(float(token))


def fincore_files(text):
    '''{file: (resident bytes, bytes)} of fincore's rows (and the ``files
    N`` line, skipped).'''
    files = {}
    for row in text.split('\n')[:-1]:
        if row.startswith('files '):
            continue
        resident, _, size, name = row.split(' ', 3)
        files[name] = (_count(resident), _count(size))
    return files


def fincore_totals(text):
    '''{resident, size, files} of fincore's rows, as
    :class:`microbench.suite.fincore.Resident` holds them.'''
    files = fincore_files(text)
    return {'resident': sum(r for r, _ in files.values()),
            'size': sum(s for _, s in files.values()), 'files': len(files)}


def residency_nodes(text):
    '''{index: Node} of a node-tagged residency witness.'''
    nodes = {}
    for row in text.split('\n')[:-1]:
        _, index, host, rest = row.split(' ', 3)
        node = nodes.setdefault(int(index), fincore.Node(host, {}, False))
        if rest == 'missing fincore':
            nodes[int(index)] = node._replace(missing=True)
        elif not rest.startswith('files '):
            node.files.update(fincore_files(rest + '\n'))
    return nodes


def stored(text):
    '''Stored of a data-reduction witness: its file lines' sizes and
    blocks, compsize's TOTAL disk usage where compsize ran.'''
    rows = text.split('\n')[:-1]
    fstype = next(row[7:] for row in rows if row.startswith('fstype '))
    files = [row.split(' ', 3) for row in rows if row.startswith('file ')]
    written = sum(int(size) for _, size, _, _ in files)
    total = [row.split() for row in rows if row.startswith('TOTAL ')]
    if total:
        found, tool = int(total[0][2]), 'compsize'
    elif reduction.NO_COMPSIZE in rows:
        found, tool = None, None
    else:
        found = 512 * sum(int(blocks) for _, _, blocks, _ in files)
        tool = 'st_blocks'
    return reduction.Stored(fstype, len(files), written, found, tool)


def cpu_ticks(text):
    '''(variant, cpus, busy ticks, all ticks) of a CPU file: its ``cpu``
    lines' counters after less before.'''
    rows = text.split('\n')[:-1]
    variant = rows[0][len('## variant '):]
    after = rows.index(next(r for r in rows if r.startswith('## after')))
    old = [int(v) for v in rows[2].split()[1:9]]
    new = [int(v) for v in rows[after + 1].split()[1:9]]
    delta = [b - a for a, b in zip(old, new)]
    return variant, after - 3, sum(delta) - delta[3] - delta[4], sum(delta)


def memories(record):
    '''{node: bytes} of a memory record.'''
    found = {}
    for item in record.split(','):
        if item.strip():
            name, line = item.strip().split(' ', 1)
            found[name] = int(line.split()[1]) * 1024
    return found
