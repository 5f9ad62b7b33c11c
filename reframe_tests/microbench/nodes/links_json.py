'''The JSON of a link search (``microbench links --json``): the one
module that writes it and reads it back, validated whole, a broken file
said in one line naming the member.

The document (``VERSION`` 1)::

    format: "microbench links"     version: 1
    partition: system:partition; nodes[]: in the order searched
    asked: provider, size (bytes), iterations, margin, clean_mib_s
        (the clean level given, or null: the ring's median link)
    status: found | no bad link seen | not found | run failed
    link: [node, node] or null; said: the one-line result
    budget: the runs allowed; runs[]: purpose, shape, nodes[],
        links[] ("a-b"), outcome (slow | clean | failed), figure (MiB/s,
        the run's slowest link, or null), why, seconds, link_mib_s
        {"a-b": MiB/s} (every link's figure: evidence, not judged)
    notes[]: what disagreed

Members the format does not name are kept and not checked.
'''

from microbench.cause import docformat
from microbench.nodes import links

FORMAT = 'microbench links'
VERSION = 1

#: The largest document read
LONGEST = 16 << 20

TOP = {'format': 'str', 'version': 'int', 'partition': 'str',
       'nodes': 'list', 'asked': 'dict', 'status': 'str', 'link': 'list?',
       'said': 'str', 'budget': 'int', 'runs': 'list', 'notes': 'list'}

ASKED = {'provider': 'str', 'size': 'int', 'iterations': 'int',
         'margin': 'num', 'clean_mib_s': 'num?'}

RUN = {'purpose': 'str', 'shape': 'str', 'nodes': 'list', 'links': 'list',
       'outcome': 'str', 'figure': 'num?', 'why': 'str', 'seconds': 'num?',
       'link_mib_s': 'dict'}

STATUSES = tuple(links.STATUSES)
OUTCOMES = tuple(links.OUTCOMES)

FormatError = docformat.FormatError


def document(partition, result, asked, made):
    '''The document of a search's :class:`~microbench.nodes.links.Result`
    (``asked`` its settings, a dict of :data:`ASKED`; ``made`` each run's
    record, as :class:`microbench.nodes.linkrun.Measure` keeps them),
    validated.'''
    runs = []
    for place, run in enumerate(result.runs):
        record = made[place] if place < len(made) else {}
        runs.append({'purpose': run.purpose, 'shape': run.shape,
                     'nodes': list(run.nodes),
                     'links': sorted('-'.join(link) for link in run.links),
                     'outcome': run.outcome, 'figure': run.figure,
                     'why': run.why, 'seconds': record.get('seconds'),
                     'link_mib_s': dict(record.get('links', {}))})
    doc = {'format': FORMAT, 'version': VERSION, 'partition': partition,
           'nodes': list(result.nodes), 'asked': dict(asked),
           'status': result.status,
           'link': list(result.link) if result.link else None,
           'said': result.describe(), 'budget': result.budget,
           'runs': runs, 'notes': list(result.notes)}
    validate(doc, '<new link search>')
    return doc


def write(path, partition, result, asked, made):
    '''Write the search's document to ``path`` whole.'''
    return docformat.write_whole(path, document(partition, result, asked,
                                                made))


def validate(doc, path):
    '''Raise :class:`FormatError` (one line, naming ``path`` and the
    member) unless ``doc`` is a link search of this version.'''
    docformat.head(doc, path, FORMAT, VERSION)
    docformat.members(doc, TOP, path, '')
    docformat.members(doc['asked'], ASKED, path, 'asked')
    docformat.texts(doc['nodes'], path, 'nodes')
    docformat.texts(doc['notes'], path, 'notes')
    docformat.one_of(doc['status'], STATUSES, path, 'status')
    if doc['link'] is not None:
        docformat.texts(doc['link'], path, 'link')
        if len(doc['link']) != 2:
            docformat.fail(path, 'link', doc['link'], 'not two nodes')
    for index, run in enumerate(doc['runs']):
        member = f'runs[{index}]'
        docformat.members(run, RUN, path, member)
        docformat.one_of(run['outcome'], OUTCOMES, path, f'{member}.outcome')
        docformat.texts(run['nodes'], path, f'{member}.nodes')
        docformat.texts(run['links'], path, f'{member}.links')
        for link, figure in run['link_mib_s'].items():
            if isinstance(figure, bool) or not isinstance(figure,
                                                          (int, float)):
                docformat.fail(path, f'{member}.link_mib_s.{link}', figure,
                               'not a number')


def read(path):
    '''The document at ``path``, validated (a dict).

    :raises FormatError: it is not one of this version (one line).
    :raises OSError: it cannot be read.'''
    return docformat.read(path, FORMAT, validate, LONGEST)
