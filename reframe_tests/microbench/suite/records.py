'''What a run records about itself.

A job script of the suite prints one line per fact it wants kept, on its
standard output::

    microbench: node: nid0042
    microbench: version: fio-3.33
    microbench: command: direct: fio --name=... --output=fio.json
    microbench: sample: direct: 1 scratch_bytes=4294967296

A key may repeat (one ``sample`` line per sample); the records of one variant
of a rounds job start with the variant's name.  :func:`parse` collects
them; the checks copy them into loggable variables so that every perflog
record carries them.
'''

import re

from microbench import sides
from microbench.suite.output import OutputError, number

_LINE = re.compile(r'^microbench: (?P<key>[a-z_]+): ?(?P<value>.*)$')


def parse(text):
    '''Return ``{key: [value, ...]}`` of every record line of ``text``.'''
    records = {}
    for line in text.splitlines():
        match = _LINE.match(line)
        if match:
            records.setdefault(match['key'], []).append(match['value'].strip())

    return records


def of_variant(recs, variant):
    '''The records of one variant of a rounds job: the values that start
    with ``<variant>: ``, without that prefix.'''
    prefix = f'{variant}: '
    mine = {}
    for key, values in recs.items():
        values = [v[len(prefix):] for v in values if v.startswith(prefix)]
        if values:
            mine[key] = values

    return mine


def of_side(recs, label, variants):
    '''The records of side ``label`` of an A/B job (:mod:`microbench.sides`)
    as a job of that side alone would have printed them: a value of one
    of ``variants`` on that side (``direct@A: ...``) without the side
    (``direct: ...``), a value of the side itself (``@A: fio-3.33``)
    without it; the other side's values left out; the job's own (node,
    kernel, scratch, ...) kept.'''
    names = set(variants)
    mine = {}
    for key, values in recs.items():
        kept = []
        for value in values:
            head, colon, rest = value.partition(': ')
            variant, side = sides.split_key(head)
            if not (colon and side and (variant in names or not variant)):
                kept.append(value)
            elif side == label:
                kept.append(f'{variant}: {rest}' if variant else rest)
        if kept:
            mine[key] = kept

    return mine


def sample_facts(value):
    '''(sample number, bytes left in the scratch directory) of a ``sample``
    record's value, ``1 scratch_bytes=4294967296``.'''
    match = re.fullmatch(r'(\S+) scratch_bytes=(\S+)', value)
    if not match:
        raise OutputError(f'malformed sample record {value!r}')

    return (number(match[1], 'a sample number', integer=True),
            number(match[2], 'the scratch bytes', positive=False,
                   integer=True))
