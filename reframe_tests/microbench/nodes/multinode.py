'''Multi-node runs read per node (issue 45, item 4): where a night's
multi-node run recorded its figures per node (the ``node_figures`` field:
IOR's per-rank figures, :mod:`microbench.tools.ior.ranks`; elbencho's
per-service completion times, :mod:`microbench.tools.elbencho.services`),
each node is judged against its peers of the same run by the same-night
rule (:mod:`microbench.nodes.outliers`), and against its earlier nights'
runs as the second witness, exactly as a vetting night is
(:func:`microbench.nodes.vetting.judge_frame`).

A night here is one session of the nights' storage (its UUID the night's
tag, ``session-<uuid>``); the newest session of each partition with
per-node figures is judged, with the :data:`~microbench.nodes.vetting.
HISTORY` sessions before it.  A node's samples of a figure are its values
sample by sample (a node's ranks by their median).  A value that does not
decode is left out (a reader of records never fails on one).  What the
compare document carries of nodes (:func:`attached`) is the vetting
nights' and these, one entry each.
'''

import pandas as pd

from microbench import codecs, fields, units
from microbench.nodes import vetting
from microbench.verdicts import figures

#: The column of the figure rows holding the per-node field
COLUMN = figures.NODE_FIGURES

#: How a night of multi-node runs is tagged: ``session-<uuid>``
PREFIX = 'session-'

#: The columns of the per-node rows (what
#: :func:`microbench.nodes.vetting.judge_frame` reads)
ROWS = ['tag', 'start', 'when', 'system', 'partition', 'node', 'check',
        'variant', 'figure', 'unit', 'samples']


def node_rows(frame):
    '''One row per node and figure of every test case of ``frame`` (the
    nights' figure rows) that recorded figures per node, its samples the
    node's; tagged by session (:data:`ROWS`).'''
    out = []
    if COLUMN not in frame:
        return pd.DataFrame(columns=ROWS)
    mine = frame[frame[COLUMN].astype(str) != '']
    cases = mine.drop_duplicates(['session', 'system', 'partition', 'check',
                                  'variant'])
    for case in cases.itertuples(index=False):
        for name, values in fields.NODE_FIGURES.read(
                getattr(case, COLUMN)).items():
            try:
                figure, node = codecs.split_node_key(name)
            except ValueError:
                continue
            unit = units.unit_of_name(figure)
            if unit is None:
                continue
            out.append([PREFIX + case.session, case.start,
                        getattr(case, 'when', None), case.system,
                        case.partition, node, case.check, case.variant,
                        figure, unit, list(values)])
    return pd.DataFrame(out, columns=ROWS)


def newest(frame):
    '''The newest night of multi-node runs of each partition of ``frame``
    (the nights' figure rows), judged with the nights before it, as
    :class:`~microbench.nodes.vetting.VettingNight`, by partition.'''
    rows = node_rows(frame)
    out = {}
    for (system, name), theirs in rows.groupby(['system', 'partition'],
                                               sort=True):
        partition = f'{system}:{name}'
        tag = vetting.nights_of(theirs)[-1]
        out[partition] = vetting.judge_frame(theirs, partition, tag)
    return out


def attached(db=None, partition=None):
    '''What the compare document carries of nodes: the newest vetting
    night of each partition (:func:`microbench.nodes.vetting.attached`)
    and its newest night of multi-node runs, read per node; a list.'''
    out = vetting.attached(db, partition)
    try:
        frame = figures.load(figures.ALL, db, partition)
    except figures.ResultsError:
        return out
    return out + [vetting.summary(night)
                  for night in newest(frame).values()]
