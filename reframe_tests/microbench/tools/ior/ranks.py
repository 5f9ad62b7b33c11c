'''IOR's multi-node runs read per node (issue 45, item 4).

IOR 4.0.0 writes every rank's figures of a run to a CSV file when asked
(``-O saveRankPerformanceDetailsCSV=FILE``; src/ior.c,
``StoreRankInformation``): a header, then for every repetition and phase
one row per rank, ``access,rank,runtime-with-openclose,runtime,
throughput-withopenclose,throughput`` (seconds; bytes per second, each
rank's share of the data over its own time).  A rank's share is the
aggregate over the ranks, so a rank on a slow node shows as a long
runtime and a low throughput; with a stonewall worn out (``-O
stoneWallingWearOut=1``, as every IOR command of the suite) every rank
moves as much as the fastest did, so a slow rank's time is its own.

The node of every rank is what the job's launcher says when it starts the
same ranks as the sample (:func:`rank_map_command`: the rank's own number
and its Slurm node name, else its host name), recorded once before the
rounds (``rank_nodes``).  A node's figure of a sample is the median of its
ranks' throughputs, MiB/s; :func:`node_samples` gives every node's, sample
by sample, for the same-night rule (:mod:`microbench.nodes.multinode`).
Whatever is wrong with the file or the map is an
:class:`~microbench.suite.output.OutputError` saying what.
'''

import math
import os
import re
import shlex
import statistics

from microbench import paths, units
from microbench.suite.output import OutputError

#: Where a sample's per-rank figures go, kept per sample
RANKS_FILE = 'ior-ranks.csv'

#: IOR 4.0.0's header of that file (src/parse_options.c)
HEADER = ('access,rank,runtime-with-openclose,runtime,'
          'throughput-withopenclose,throughput')

#: The record of the rank map (the ranks' nodes)
RECORD = 'rank_nodes'

_NODE = re.compile(r'[A-Za-z0-9][A-Za-z0-9._-]{0,62}')


def options():
    '''The IOR options that write a sample's per-rank figures.'''
    return ('-O', f'saveRankPerformanceDetailsCSV={RANKS_FILE}')


def rank_map_command(start, stagedir):
    '''The job's command recording every rank's node on one line, the
    ranks started by ``start`` (the launcher words of the samples), each
    running the rank's script (``microbench/suite/rank.sh``: its number
    and its node) that every rounds job copies into its stage directory
    ``stagedir``.'''
    script = shlex.quote(os.path.join(stagedir,
                                      os.path.basename(paths.RANK)))
    return f"{start} sh {script} | sort -n | tr '\\n' ' '"


def parse_rank_map(text, tasks):
    '''``[node of rank 0, node of rank 1, ...]`` of the recorded map
    (``0=mbnode1 1=mbnode2 ...``) of a run of ``tasks`` ranks.

    :raises OutputError: a word that is not ``<rank>=<node>``, a rank
        twice or missing.'''
    found = {}
    for word in str(text or '').split():
        rank, sep, node = word.partition('=')
        if not sep or not rank.isdigit() or not _NODE.fullmatch(node):
            raise OutputError(f'the rank map says {word[:80]!r}, not '
                              f'<rank>=<node>')
        if int(rank) in found:
            raise OutputError(f'the rank map names rank {rank} twice')
        found[int(rank)] = node
    missing = sorted(set(range(tasks)) - set(found))
    extra = sorted(set(found) - set(range(tasks)))
    if missing or extra:
        raise OutputError(f'the rank map has {len(found)} ranks, the run '
                          f'{tasks}' + (f': rank {missing[0]} missing'
                                        if missing else
                                        f': rank {extra[0]} is not one'))
    return [found[rank] for rank in range(tasks)]


def _number(word, what, line):
    try:
        value = float(word)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise OutputError(f'line {line}: the {what} {word[:40]!r} is not a '
                          f'positive number')
    return value


def parse_ranks(text, asked):
    '''``{phase: [MiB/s of rank 0, rank 1, ...]}`` of IOR's per-rank CSV
    of a run that asked ``asked`` (:class:`.command.IorAsked`): every
    asked phase, every rank once per repetition (a rank's figure the
    median of its repetitions).

    :raises OutputError: no header or another, a row that is not six
        fields, a phase not asked, a rank not of the run, a time or a
        throughput that is not a positive number, a rank missing or
        twice.'''
    lines = [line.strip() for line in str(text).splitlines()
             if line.strip()]
    if not lines:
        raise OutputError('the per-rank CSV is empty')
    if lines[0] != HEADER:
        raise OutputError(f'the per-rank CSV begins {lines[0][:80]!r}, not '
                          f"IOR's header {HEADER!r}")
    found = {phase: {} for phase in asked.phases}
    for number, line in enumerate(lines[1:], start=2):
        words = line.split(',')
        if len(words) != 6:
            raise OutputError(f'line {number}: {len(words)} fields, not 6')
        phase, rank = words[0], words[1]
        if phase not in found:
            raise OutputError(f'line {number}: phase {phase[:20]!r}, not '
                              f'one asked ({", ".join(asked.phases)})')
        if not rank.isdigit() or int(rank) >= asked.tasks:
            raise OutputError(f'line {number}: rank {rank[:20]!r} is not '
                              f'one of the run\'s {asked.tasks}')
        for word, what in zip(words[2:], ('time with open and close',
                                          'time', 'throughput with open '
                                          'and close', 'throughput')):
            _number(word, what, number)
        found[phase].setdefault(int(rank), []).append(
            float(words[5]) / units.MIB)
    out = {}
    for phase, ranks in found.items():
        counts = {len(ranks.get(rank, ())) for rank in range(asked.tasks)}
        if counts != {asked.repetitions}:
            raise OutputError(
                f'the per-rank CSV has {phase} rows of '
                f'{sum(map(len, ranks.values()))} rank runs, not '
                f'{asked.tasks} ranks x {asked.repetitions} repetitions')
        out[phase] = [statistics.median(ranks[rank])
                      for rank in range(asked.tasks)]
    return out


def node_samples(per_sample, rank_nodes):
    '''``{phase: {node: [the median of its ranks, sample by sample]}}`` of
    the samples' per-rank figures (``per_sample``: :func:`parse_ranks` of
    each sample), the ranks' nodes ``rank_nodes`` (:func:`parse_rank_map`).

    :raises OutputError: a sample of another number of ranks.'''
    out = {}
    for number, phases in enumerate(per_sample, start=1):
        for phase, values in phases.items():
            if len(values) != len(rank_nodes):
                raise OutputError(f'sample {number}: {len(values)} ranks, '
                                  f'the rank map {len(rank_nodes)}')
            nodes = {}
            for node, value in zip(rank_nodes, values):
                nodes.setdefault(node, []).append(value)
            for node, mine in nodes.items():
                out.setdefault(phase, {}).setdefault(node, []).append(
                    statistics.median(mine))
    return out
