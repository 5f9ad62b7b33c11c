'''A vetting night read back from the results storage and judged: each
node's figures against its peers' of the same night
(:mod:`microbench.nodes.outliers`), the node's earlier vetting nights as
the second witness.

A vetting night is the sessions tagged ``kind=vetting`` with one ``tag``
(``vetting-<UTC time>``, :mod:`microbench.nodes.vet`), one session per node,
in a results storage of their own (:data:`STORAGE`, beside the nights'):
no reader of the nights' series ever sees a node's figures.
A node's figure is the median of its samples; the node is the one its
records name (the job's node, ``node``), not the one asked for, so a job
the scheduler put elsewhere is judged as what it measured.  The figures
judged are the variants' samples with a faster side (MiB/s, GiB/s, ops/s:
higher; us: lower); a gap's ratio is a property of the pitfall, not of a
node, and is left out.

The history: the partition's vetting nights before this one, at most
:data:`HISTORY` of them, each judged by the same rule; a slow node is
``slow tonight only`` or ``slow for N nights``.
'''

import dataclasses
import os
import re
import sys

import pandas as pd

from microbench import units
from microbench.nodes import nodes_json, outliers
from microbench.verdicts import figures, storage

#: What a vetting session's extras say (``--session-extras kind=vetting``)
KIND = 'vetting'

#: The vetting nights' results storage, beside the nights' (never mixed
#: into a partition's series, as ``microbench ab``'s ab.db)
STORAGE = 'vetting.db'

#: The folder beside it where each night's document is kept
#: (``<tag>.json``, :mod:`microbench.nodes.nodes_json`): the nodes asked
#: for and those whose run failed, which no session may hold
NIGHTS = 'vetting-nights'

#: A vetting night's tag (:func:`microbench.nodes.vet.night_tag`)
TAG = re.compile(r'vetting-\d{8}T\d{6}')

#: The extra naming the node a vetting session was asked to run on
VETTED = 'vetted'

#: The earlier vetting nights read as a node's history
HISTORY = 7

@dataclasses.dataclass(frozen=True)
class VettingNight:
    '''A judged vetting night: its tag, partition, the nodes asked for,
    the judgement (:class:`microbench.nodes.outliers.Night`), the nodes
    whose run failed with why, and each node's persistence words.'''

    tag: str
    partition: str
    asked: tuple
    judged: outliers.Night
    failed: dict
    persistence: dict
    scheduler: str = 'slurm'
    date: str = None

    def slow(self):
        '''The slow nodes, sorted.'''
        return self.judged.named(outliers.SLOW)

    def failed_nodes(self):
        '''The nodes that failed (their run, or every figure), sorted.'''
        return sorted(set(self.failed) |
                      set(self.judged.named(outliers.FAILED)))

    def alarming(self):
        '''Whether a node is slow or failed.'''
        return bool(self.slow() or self.failed_nodes())

    def drains(self):
        '''{node: the drain command suggested} of the slow nodes
        (printed, never run).'''
        out = {}
        for node in self.slow():
            results = self.judged.nodes[node].results
            out[node] = outliers.drain_command(
                node, outliers.drain_reason(results), self.scheduler)
        return out


def label(check, variant, figure, unit):
    '''``fio_cache_flags direct write``: a figure as a node's line says
    it (its statistic and unit left out of its name).'''
    return f'{check} {variant} {units.figure_base(figure, unit)}'


def night_figures(rows):
    '''``{label: (direction, {node: samples}, unit)}`` of one night's
    figure rows (one session per node): the figures with samples and a
    faster side.'''
    out = {}
    for row in figures.with_samples(rows).itertuples(index=False):
        direction = outliers.direction_of(row.unit)
        if direction is None:
            continue
        key = label(row.check, row.variant, row.figure, row.unit)
        node = str(row.node or '').strip() or '(no node recorded)'
        entry = out.setdefault(key, (direction, {}, row.unit))
        entry[1].setdefault(node, [])
        entry[1][node].extend(row.samples)
    return out


def vetting_rows(db, partition):
    '''The figure rows of every vetting session of ``partition`` in the
    results storage ``db`` (empty where there is none).'''
    try:
        return figures.load(f'?{figures.KIND}=="{KIND}"', db, partition)
    except figures.ResultsError:
        return pd.DataFrame(columns=figures.COLUMNS)


def nights_of(rows):
    '''The vetting nights' tags of ``rows``, oldest first.'''
    firsts = rows.groupby('tag')['start'].min().sort_values(kind='stable')
    return list(firsts.index)


def judge_rows(rows, asked=None):
    '''The :class:`~microbench.nodes.outliers.Night` of one night's rows;
    ``asked``: the nodes that should have given figures (a node asked for
    and absent from a figure is ``failed`` in it).'''
    return outliers.judge_night(night_figures(rows), partition=asked)


def nights_folder(db):
    '''The folder beside the vetting storage ``db`` where ``microbench
    vet`` keeps each night's document (:data:`NIGHTS`).'''
    return os.path.join(os.path.dirname(os.path.abspath(db)), NIGHTS)


def recorded(db, tag):
    '''``(asked, failed)`` of the night ``tag`` as its own document says
    (the nodes it ran on, those whose run failed: a node whose run stored
    nothing is in no session), else ``((), {})``; a broken document is
    said on stderr and left out, never the night's verdict.'''
    if not TAG.fullmatch(str(tag)):
        return (), {}
    path = os.path.join(nights_folder(db), f'{tag}.json')
    if not os.path.exists(path):
        return (), {}
    try:
        doc = nodes_json.read(path)
    except (OSError, nodes_json.FormatError) as err:
        print(f'microbench: warning: {err}', file=sys.stderr)
        return (), {}
    return tuple(doc['asked']), dict(doc['failed'])


def judge(db, partition, tag, asked=(), failed=None):
    '''The :class:`VettingNight` ``tag`` of ``partition`` in the storage
    ``db``; ``asked`` the nodes it ran on, ``failed`` {node: why} those
    whose run failed (else what the night's document says).'''
    rows = vetting_rows(db, partition)
    if not asked:
        asked, failed = recorded(db, tag)
    return judge_frame(rows, partition, tag, asked, failed)


def judge_frame(rows, partition, tag, asked=(), failed=None):
    '''The :class:`VettingNight` ``tag`` of ``rows`` (the figure rows of
    ``partition``'s vetting sessions), its nodes' history from the nights
    before it.'''
    tonight = rows[rows['tag'] == tag]
    # A run that failed but stored figures (a figure outside its reference
    # band fails ReFrame's run) is judged by its figures: failed is a node
    # that gave none
    measured = set(tonight['node'])
    failed = {node: why for node, why in (failed or {}).items()
              if node not in measured}
    asked = list(asked) or sorted(set(tonight['node']) - {''})
    judged = judge_rows(tonight, asked)
    history = {}
    order = nights_of(rows)
    earlier = order[:order.index(tag)] if tag in order else order
    for night in earlier[-HISTORY:]:
        before = judge_rows(rows[rows['tag'] == night])
        for node, verdict in before.nodes.items():
            history.setdefault(node, []).append(verdict.state)
    persistence = {}
    for node, verdict in judged.nodes.items():
        persistence[node] = outliers.persistence(history.get(node, []),
                                                 verdict.state)
    date = (str(tonight['when'].min()) if 'when' in tonight and
            not tonight.empty else None)
    return VettingNight(tag, partition, tuple(asked), judged, failed,
                        persistence, date=date)


def add_storage_argument(parser):
    '''``--vetting-db FILE``: the vetting nights' storage, for the
    commands that write or read it.'''
    parser.add_argument('--vetting-db', metavar='FILE',
                        help='the vetting nights\' results storage '
                             f'(default: {STORAGE} beside the nights\' '
                             'storage, --db)')


def chosen(args):
    '''The vetting storage a command's ``args`` name: ``--vetting-db``,
    else :func:`database` beside ``--db``.'''
    return args.vetting_db or database(getattr(args, 'db', None))


def database(db=None):
    '''The vetting nights' own results storage: :data:`STORAGE` beside
    the nights' (``db``, else ``RFM_SQLITE_DB_FILE``, else the suite's).'''
    return os.path.join(os.path.dirname(storage.database(db)), STORAGE)


def attached(db=None, partition=None):
    '''What the compare JSON carries of the newest vetting night of each
    partition (of ``partition`` if given) in the vetting storage beside
    the nights' storage ``db``: a list (empty where there is none).'''
    where = database(db)
    if not os.path.exists(where):
        return []
    try:
        rows = figures.load(figures.ALL, where, partition)
    except figures.ResultsError:
        return []
    return [summary(night) for night in newest(rows, where).values()]


def newest(frame, db=None):
    '''The newest vetting night of each partition of ``frame`` (every
    session's figure rows, those tagged ``kind=vetting`` among them), as
    :class:`VettingNight`, by partition.'''
    mine = frame[frame[figures.KIND] == KIND]
    out = {}
    for (system, name), rows in mine.groupby(['system', 'partition'],
                                             sort=True):
        partition = f'{system}:{name}'
        tag = nights_of(rows)[-1]
        asked, failed = recorded(db, tag) if db else ((), {})
        out[partition] = judge_frame(rows, partition, tag, asked, failed)
    return out


def summary(night):
    '''What the compare JSON carries of a vetting night
    (:data:`microbench.verdicts.compare_json.NODES`).'''
    drains = night.drains()
    nodes = []
    for node, verdict in sorted(night.judged.nodes.items()):
        lines = [result.describe() for result in verdict.results
                 if result.state != outliers.CLEAN]
        nodes.append({'node': node, 'state': verdict.state,
                      'persistence': night.persistence.get(node,
                                                           verdict.state),
                      'drain': drains.get(node), 'lines': lines,
                      'figures': [{'figure': result.figure,
                                   'state': result.state,
                                   'ratio': nodes_json.number(result.ratio)}
                                  for result in verdict.results]})
    return {'partition': night.partition, 'tag': night.tag,
            'date': night.date, 'asked': list(night.asked),
            'slow': night.slow(), 'failed': dict(night.failed),
            'nodes': nodes}


def text(night):
    '''The night as lines: each node's state and persistence, the slow
    nodes' figures and drain commands, the failed nodes and why.'''
    lines = [f'{night_name(night.tag)} of {night.partition}: '
             f'{len(night.asked)} nodes asked, '
             f'{len(night.slow())} slow, {len(night.failed_nodes())} failed']
    for node in night.asked:
        verdict = night.judged.nodes.get(node)
        if node in night.failed:
            lines.append(f'  {node}: failed: {night.failed[node]}')
            continue
        if verdict is None:
            lines.append(f'  {node}: no figure')
            continue
        said = night.persistence.get(node, verdict.state)
        lines.append(f'  {node}: {said}')
        for result in verdict.results:
            if result.state in (outliers.SLOW, outliers.FAILED,
                                outliers.FAST):
                lines.append(f'    {result.describe()}')
    for figure, why in night.judged.skipped_figures.items():
        lines.append(f'  not vetted: {figure}: {why}')
    for node, command in night.drains().items():
        lines.append(f'  suggested (not run): {command}')
    return '\n'.join(lines)


def night_name(tag):
    '''How a night of nodes is said: ``vetting night <tag>``, or, for the
    multi-node runs of a night read per node (``session-<uuid>``:
    :mod:`microbench.nodes.multinode`), ``multi-node runs of <tag>``.'''
    tag = str(tag)
    return (f'vetting night {tag}' if TAG.fullmatch(tag)
            else f'multi-node runs of {tag}')


def lines(said):
    '''The lines of compare's text for one partition's vetting night
    (:func:`summary`'s dict): its nodes that are not clean, each with its
    figures and the suggested drain (never run).'''
    out = [f'nodes of {said["partition"]} ({night_name(said["tag"])}, '
           f'{str(said["date"] or "?")[:16]}): {len(said["asked"])} '
           f'nodes, {len(said["slow"])} slow, {len(said["failed"])} '
           f'failed']
    for node, why in said['failed'].items():
        out.append(f'  {node}: failed: {why}')
    for item in said['nodes']:
        if item['state'] == outliers.CLEAN:
            continue
        out.append(f'  {item["node"]}: {item["persistence"]}')
        out += [f'    {line}' for line in item['lines']]
        if item['drain']:
            out.append(f'    suggested (not run): {item["drain"]}')
    if len(out) == 1:
        out.append('  every node within its peers')
    return out
