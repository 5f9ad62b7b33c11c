'''The JSON of a vetting night (``microbench vet --json``, ``microbench
nodes --json``): the one module that writes it and reads it back,
validated whole, a broken file said in one line naming the member.

The document (``VERSION`` 1)::

    format: "microbench vetting"     version: 1
    tag: the night (vetting-<UTC time>); partition: system:partition
    asked[]: the nodes the night ran on, in order
    failed: {node: why}: the nodes whose run failed (ReFrame's exit)
    nodes[]: one per node judged: node, state (a node state of
        microbench.nodes.outliers.NODE_STATES), persistence (slow tonight
        only, slow for N nights, ...), drain (the suggested command, never
        run, or null), figures[]: figure, state, ratio, peers, mad, z,
        value, median, unit, reason (numbers null where not judged)
    skipped_figures: {figure: why it was not vetted}

Numbers that are not numbers are null.  Members the format does not name
are kept and not checked.
'''

import math

from microbench.cause import docformat
from microbench.nodes import outliers

FORMAT = 'microbench vetting'
VERSION = 1

#: The largest document read
LONGEST = 16 << 20

TOP = {'format': 'str', 'version': 'int', 'tag': 'str', 'partition': 'str',
       'asked': 'list', 'failed': 'dict', 'nodes': 'list',
       'skipped_figures': 'dict'}

NODE = {'node': 'str', 'state': 'str', 'persistence': 'str',
        'drain': 'str?', 'figures': 'list'}

FIGURE = {'figure': 'str', 'state': 'str', 'ratio': 'num', 'peers': 'int',
          'mad': 'num', 'z': 'num', 'value': 'num', 'median': 'num',
          'unit': 'str', 'reason': 'str'}

FormatError = docformat.FormatError


def number(value):
    '''A float, or None where it is none or not finite.'''
    if value is None:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def document(night):
    '''The document of a :class:`microbench.nodes.vetting.VettingNight`,
    validated.'''
    drains = night.drains()
    nodes = []
    for node, verdict in sorted(night.judged.nodes.items()):
        nodes.append({
            'node': node, 'state': verdict.state,
            'persistence': night.persistence.get(node, verdict.state),
            'drain': drains.get(node),
            'figures': [{'figure': result.figure, 'state': result.state,
                         'ratio': number(result.ratio),
                         'peers': int(result.peers),
                         'mad': number(result.mad), 'z': number(result.z),
                         'value': number(result.value),
                         'median': number(result.median),
                         'unit': str(result.unit or ''),
                         'reason': str(result.reason or '')}
                        for result in verdict.results]})
    doc = {'format': FORMAT, 'version': VERSION, 'tag': night.tag,
           'partition': night.partition, 'asked': list(night.asked),
           'failed': dict(night.failed), 'nodes': nodes,
           'skipped_figures': dict(night.judged.skipped_figures)}
    validate(doc, '<new vetting night>')
    return doc


def write(path, night):
    '''Write the night's document to ``path`` whole (a file beside it,
    renamed over it).'''
    return docformat.write_whole(path, document(night))


def validate(doc, path):
    '''Raise :class:`FormatError` (one line, naming ``path`` and the
    member) unless ``doc`` is a vetting night of this version.'''
    docformat.head(doc, path, FORMAT, VERSION)
    docformat.members(doc, TOP, path, '')
    docformat.texts(doc['asked'], path, 'asked')
    for name in ('failed', 'skipped_figures'):
        for key, value in doc[name].items():
            if not isinstance(value, str):
                docformat.fail(path, f'{name}.{key}', value, 'not a text')
    for index, item in enumerate(doc['nodes']):
        member = f'nodes[{index}]'
        docformat.members(item, NODE, path, member)
        docformat.one_of(item['state'], tuple(outliers.NODE_STATES), path,
                         f'{member}.state')
        for place, row in enumerate(item['figures']):
            where = f'{member}.figures[{place}]'
            docformat.members(row, FIGURE, path, where)
            docformat.one_of(row['state'], tuple(outliers.NODE_STATES),
                             path, f'{where}.state')


def read(path):
    '''The document at ``path``, validated (a dict).

    :raises FormatError: it is not one of this version (one line).
    :raises OSError: it cannot be read.'''
    return docformat.read(path, FORMAT, validate, LONGEST)
