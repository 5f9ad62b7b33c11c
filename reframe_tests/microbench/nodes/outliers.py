'''The same-night rule for nodes (issue 45): each node of a partition
against its peers of the same night, so that the machine's nightly drift
falls on all nodes alike, and the node's own nights as a second witness.

The rule, for one figure of one night (its constants below):

1. A node's figure is the median of its samples.  A node whose job gave
   no sample (None, an empty list, or absent from the partition's list)
   is ``failed``: never ``slow``, never a peer.  A node whose samples are
   not all finite positive numbers, whose name is not a node name
   (:data:`NODE_NAME`) or which is named twice is ``unjudged``, with the
   reason, and no peer.
2. Leave one out: a node's peers are the other nodes with a figure.  With
   fewer than :data:`MIN_PEERS` peers the node is ``unjudged`` ("2 peers,
   at least 3 needed"): a partition of fewer than 4 working nodes is not
   vetted.
3. ``m`` is the peers' median, the node's ratio ``r = value / m``; on a
   log scale, as the suite's noise is (``level x exp(drift + noise)``),
   the node's deviation is ``ln r`` and the peers' ``MAD`` is the median
   of their ``|ln(peer / m)|`` (their median absolute deviation relative
   to ``m``, as the report says it).
4. ``z = ln r / (scale x sqrt(1 + pi / (2 x peers)))``, ``scale =
   max(MAD_SCALE x MAD, FLOOR, spread)``.  The square root is the
   uncertainty of the peers' median itself (a median of ``p`` values
   varies by ``sqrt(pi / 2p)`` of one: 1.24 for 3 peers, 1.05 for 15).
   ``spread`` is the log standard deviation of the node's own samples or
   that of its peers' samples pooled (the root mean square of theirs),
   whichever is larger: a node's figure is not known better than its
   samples agree, and a noisy peer makes the rule more careful, never
   less.
5. ``slow``: worse than ``m`` by both ``|z| >= Z_SLOW`` and at least
   ``MIN_EFFECT`` of ``m`` (``r <= 0.85`` where higher is better,
   ``r >= 1.15`` where lower is); ``fast`` the same the better way
   (reported, never alarmed); else ``clean``.

So all nodes slow alike make none an outlier: each node's peers are slow
too and its ratio stays near 1 (the nightly history rule sees the drift).
The rule names a minority: were most nodes slow alike, the median would be
theirs and the healthy ones would show as ``fast``.

A night (:func:`judge_night`) joins the figures: a node is ``slow`` if any
figure says so, with those figures listed.  :func:`persistence` reads a
node's earlier nights (the second witness); :func:`drain_command` prints
(never runs) the scheduler's command to drain a slow node.  The samples
are read, untrusted, by :mod:`microbench.nodes.readings`.
'''

import collections
import collections.abc
import dataclasses
import math
import re
import reprlib

import numpy as np

from microbench import units
from microbench.nodes import readings

#: Every state of a node for one figure (and for a night), with its
#: meaning; the order is the night's precedence (a node slow in one
#: figure and clean in the others is slow)
NODE_STATES = {
    'slow': 'worse than its peers of the night beyond both the z '
            'threshold and the minimum effect: a node to look at',
    'failed': 'its job did not give the figure (named as failed, never as '
              'slow, never a peer)',
    'fast': 'better than its peers beyond both thresholds: reported, '
            'never alarmed',
    'clean': 'within its peers\' noise',
    'unjudged': 'not judged: too few peers, or samples or a name that '
                'cannot be judged (the reason says which)',
}

SLOW, FAILED, FAST, CLEAN, UNJUDGED = NODE_STATES

#: What a node's earlier nights say of tonight (:func:`persistence`)
PERSISTENCE = {
    'slow tonight only': 'slow tonight, not on the last night it was '
                         'judged before',
    'slow for {nights} nights': 'slow tonight and on the judged nights '
                                'just before, in a row',
    'slow before, {state} tonight': 'not slow tonight, slow on the last '
                                    'night it was judged before',
}

TONIGHT_ONLY, FOR_NIGHTS, SLOW_BEFORE = PERSISTENCE

#: Which way is better -> the sign of a better change (as units.FASTER)
DIRECTIONS = {'higher': 1, 'lower': -1}

#: Peers needed: the median of 3 peers stays on a healthy node with one of
#: them slow too; 2 peers' median is their mean, which one slow peer moves
#: halfway, and no majority says which of them is odd
MIN_PEERS = 3

#: MAD x 1.4826 estimates the standard deviation of normal values
MAD_SCALE = 1.4826

#: Noise floor (log scale, 7 % of the peers' median): 3 to 8 peers can
#: show a MAD near 0 and a pooled spread below the truth by chance; at 5 %
#: a 4-node partition named a healthy node slow once in 1300 clean nights
#: of the quiet fio figures (bench/node_outliers.py's model), at 7 % none
#: in 9000
FLOOR = 0.07

#: The z threshold: Iglewicz and Hoaglin's cut-off of the modified z score
Z_SLOW = 3.5

#: The minimum effect: a node worse by less than 15 % of its peers'
#: median is never slow, however steady its peers (with the floor above,
#: the z threshold asks more; this bound holds were the floor lowered)
MIN_EFFECT = 0.15

#: A node name this rule judges and a drain command may name (no
#: hostlist, no space, nothing a shell reads)
NODE_NAME = re.compile(r'[A-Za-z0-9][A-Za-z0-9._-]{0,63}')
NAME_RULE = ('a letter or digit, then letters, digits, ".", "_" or "-", '
             '64 at most')

#: What a drain reason keeps; any other character becomes '_', so the
#: reason is safe between double quotes
REASON_CHARACTER = re.compile(r'[^A-Za-z0-9 _.,:%/+=()-]')

#: Scheduler (as ReFrame names it) -> the drain command's form
SCONTROL = 'scontrol update nodename={node} state=drain reason="{reason}"'
DRAIN = {'slurm': SCONTROL, 'squeue': SCONTROL,
         'pbs': 'pbsnodes -o {node} -C "{reason}"'}


@dataclasses.dataclass(frozen=True)
class NodeResult:
    '''One node's state for one figure of one night.  ``ratio`` (the
    node's figure over its peers' median ``median``), ``mad`` (the peers'
    median of ``|ln(peer / median)|``: relative, unscaled) and ``z`` are
    None where not judged; ``peers`` is how many other nodes had the
    figure; ``reason`` says why a node is unjudged.'''

    node: str
    figure: str
    state: str
    ratio: float = None
    peers: int = 0
    mad: float = None
    z: float = None
    value: float = None
    median: float = None
    unit: str = ''
    reason: str = ''

    def describe(self):
        '''One line: ``mbnode2: fio_cache_flags direct write 0.42 of the
        peers' median (8 nodes, MAD 0.03)`` (the node and its peers).'''
        if self.state == FAILED:
            return (f'{self.node}: {self.figure} failed (its job did not '
                    f'give the figure)')
        if self.state == UNJUDGED:
            return f'{self.node}: {self.figure} unjudged ({self.reason})'
        return (f'{self.node}: {self.figure} {self.ratio:.2f} of the '
                f'peers\' median ({self.peers + 1} nodes, MAD '
                f'{self.mad:.2f})')


@dataclasses.dataclass(frozen=True)
class Judgement:
    '''One figure of one night: every node's result, in the order given,
    and why the figure was not vetted at all (empty: it was).'''

    figure: str
    results: tuple
    skipped: str = ''


@dataclasses.dataclass(frozen=True)
class NodeVerdict:
    '''One node over a night's figures: its state (the first of
    :data:`NODE_STATES` any figure gives it) and its results.'''

    node: str
    state: str
    results: tuple

    def figures(self, state):
        '''The names of the figures in which the node is ``state``.'''
        return [result.figure for result in self.results
                if result.state == state]

    def describe(self):
        '''The node's state, then one line per figure of that state.'''
        lines = [f'{self.node}: {self.state}']
        for result in self.results:
            if result.state == self.state:
                lines.append('  ' + result.describe())
        return '\n'.join(lines)


@dataclasses.dataclass(frozen=True)
class Night:
    '''A night's vetting: ``nodes`` {node: :class:`NodeVerdict`};
    ``skipped_figures`` {figure: why it was not vetted};
    ``skipped_nodes`` {node: why no figure judged it}.'''

    nodes: dict
    skipped_figures: dict
    skipped_nodes: dict

    def named(self, state):
        '''The nodes whose night's state is ``state``, sorted.'''
        return sorted(node for node, verdict in self.nodes.items()
                      if verdict.state == state)


def direction_of(unit):
    '''``higher`` or ``lower`` for a unit with a faster side
    (:data:`microbench.units.FASTER`), else None.'''
    sign = units.FASTER.get(unit)
    for word, direction in DIRECTIONS.items():
        if direction == sign:
            return word
    return None


def check_node_name(node):
    '''``node`` if it is a node name (:data:`NODE_NAME`), else ValueError
    saying why.'''
    if not isinstance(node, str) or not NODE_NAME.fullmatch(node):
        raise ValueError(f'{reprlib.repr(node)} is not a node name '
                         f'({NAME_RULE})')
    return node


def name_problem(node, counts):
    '''Why ``node`` cannot be judged by its name (empty: it can).'''
    try:
        check_node_name(node)
    except ValueError as err:
        return str(err)
    if counts[node] > 1:
        return f'named {counts[node]} times'
    return ''


def judge_figure(figure, nodes, direction, unit='', min_peers=MIN_PEERS):
    '''A :class:`Judgement` of one figure of one night: ``nodes`` {node:
    samples} (or (node, samples) pairs), ``direction`` ``higher`` or
    ``lower`` (which way is better), ``unit`` said in the results.'''
    pairs, problem = readings.entries(nodes)
    if problem:
        return Judgement(figure, (), f'vetting skipped: {problem}')
    if not pairs:
        return Judgement(figure, (), 'vetting skipped: no nodes')
    counts = collections.Counter(node for node, _ in pairs)
    working, results = {}, {}
    for node, samples in pairs:
        value, spread, reason = readings.read_samples(samples)
        reason = name_problem(node, counts) or reason
        if reason:
            results[node] = NodeResult(str(node), figure, UNJUDGED,
                                       unit=unit, reason=reason)
        elif value is None:
            results[node] = NodeResult(node, figure, FAILED, unit=unit)
        else:
            working[node] = (value, spread)
    if direction not in DIRECTIONS:
        reason = (f'direction {reprlib.repr(direction)} is neither higher '
                  f'nor lower')
        return _unjudged(figure, pairs, results, working, unit, reason)
    if len(working) < min_peers + 1:
        reason = (f'{max(len(working) - 1, 0)} peers, at least {min_peers} '
                  f'needed (vetting needs {min_peers + 1} nodes with the '
                  f'figure, {len(working)} gave it)')
        return _unjudged(figure, pairs, results, working, unit, reason)
    for node, (value, spread) in working.items():
        peers = [other for other in working.items() if other[0] != node]
        results[node] = compare(node, figure, value, spread, peers,
                                DIRECTIONS[direction], unit)
    return Judgement(figure, tuple(results[node] for node in dict.fromkeys(
        node for node, _ in pairs)))


def _unjudged(figure, pairs, results, working, unit, reason):
    '''The Judgement where no working node can be judged: each
    ``reason``, and the figure skipped saying why.'''
    for node in working:
        results[node] = NodeResult(node, figure, UNJUDGED, peers=len(
            working) - 1, unit=unit, reason=reason)
    return Judgement(figure, tuple(results[node] for node in dict.fromkeys(
        node for node, _ in pairs)), f'vetting skipped: {reason}')


def compare(node, figure, value, spread, peers, sign, unit=''):
    '''The :class:`NodeResult` of one node against its ``peers`` ([(node,
    (value, log spread))]); ``sign`` +1 where higher is better, -1 where
    lower is.'''
    peer_values = np.array([peer_value for _, (peer_value, _) in peers])
    peer_spreads = [peer_spread for _, (_, peer_spread) in peers]
    median = float(np.median(peer_values))
    mad = float(np.median(np.abs(np.log(peer_values) - math.log(median))))
    pooled = float(np.sqrt(np.mean(np.square(peer_spreads))))
    scale = max(MAD_SCALE * mad, FLOOR, spread, pooled)
    ratio = value / median
    z_score = (math.log(value) - math.log(median)) / (scale * math.sqrt(
        1 + math.pi / (2 * len(peers))))
    worse_by = (1 - ratio) if sign > 0 else (ratio - 1)
    if -sign * z_score >= Z_SLOW and worse_by >= MIN_EFFECT:
        state = SLOW
    elif sign * z_score >= Z_SLOW and -worse_by >= MIN_EFFECT:
        state = FAST
    else:
        state = CLEAN
    return NodeResult(node, figure, state, ratio, len(peers), mad, z_score,
                      value, median, unit)


def judge_night(figures, partition=None, min_peers=MIN_PEERS):
    '''A :class:`Night` of ``figures`` {figure: (direction, {node:
    samples}) or (direction, {node: samples}, unit)}; ``partition`` (the
    nodes that should have run, optional) makes a node absent from a
    figure ``failed`` in it.'''
    per_node, skipped_figures = {}, {}
    if not isinstance(figures, collections.abc.Mapping):
        figures = {'(the night)': figures}
    for figure, entry in figures.items():
        if not (isinstance(entry, (tuple, list)) and len(entry) in (2, 3)):
            skipped_figures[figure] = (
                f'vetting skipped: {reprlib.repr(entry)} is not (direction, '
                f'{{node: samples}})')
            continue
        direction, nodes, unit = (*entry, '')[:3]
        if partition is not None and isinstance(
                nodes, collections.abc.Mapping):
            nodes = {**{node: None for node in partition}, **nodes}
        judgement = judge_figure(figure, nodes, direction, unit, min_peers)
        if judgement.skipped:
            skipped_figures[figure] = judgement.skipped
        for result in judgement.results:
            per_node.setdefault(result.node, []).append(result)
    verdicts, skipped_nodes = {}, {}
    for node, results in per_node.items():
        states = {result.state for result in results}
        state = next(word for word in NODE_STATES if word in states)
        verdicts[node] = NodeVerdict(node, state, tuple(results))
        if state == UNJUDGED:
            skipped_nodes[node] = '; '.join(dict.fromkeys(
                f'{result.figure}: {result.reason}' for result in results))
    return Night(verdicts, skipped_figures, skipped_nodes)


def persistence(history_states, tonight_state):
    '''What a node's earlier nights (``history_states``, most recent last)
    say of tonight's state: ``slow tonight only``, ``slow for N nights``
    (in a row, tonight included), ``slow before, clean tonight``, else
    tonight's state.  Nights it was not judged (``failed``,
    ``unjudged``) neither break nor extend a run.'''
    for state in [*history_states, tonight_state]:
        if state not in NODE_STATES:
            raise ValueError(f'{state!r} is not a node state (one of '
                             f'{", ".join(NODE_STATES)})')
    judged = [state for state in history_states
              if state not in (FAILED, UNJUDGED)]
    if tonight_state != SLOW:
        if tonight_state in (CLEAN, FAST) and judged and judged[-1] == SLOW:
            return SLOW_BEFORE.format(state=tonight_state)
        return tonight_state
    nights = 1
    for state in reversed(judged):
        if state != SLOW:
            break
        nights += 1
    return TONIGHT_ONLY if nights == 1 else FOR_NIGHTS.format(nights=nights)


def drain_reason(results):
    '''The reason of a drain from a node's slow results: the figure of the
    largest ``|z|`` (``microbench vetting: fio_cache_flags direct write
    0.42 of peers``), and how many more.'''
    slow = [result for result in results if result.state == SLOW]
    if not slow:
        return ''
    worst = max(slow, key=lambda result: abs(result.z))
    more = f' (and {len(slow) - 1} more)' if len(slow) > 1 else ''
    return (f'microbench vetting: {worst.figure} {worst.ratio:.2f} of '
            f'peers{more}')


def drain_command(node, reason, scheduler):
    '''The command that would drain ``node`` under ``scheduler`` (printed,
    never run): ``scontrol`` for Slurm, ``pbsnodes -o`` for PBS, else a
    line saying none is known.  A node name not of :data:`NODE_NAME` is
    refused (a line saying so); the reason keeps only safe characters and
    sits between double quotes.'''
    try:
        check_node_name(node)
    except ValueError as err:
        return f'refused: {err}: no drain command'
    safe = REASON_CHARACTER.sub('_', str(reason))
    if scheduler in DRAIN:
        return DRAIN[scheduler].format(node=node, reason=safe)
    return (f'no drain command is known for the scheduler {scheduler!r}: '
            f'drain {node} by hand ({safe})')
