'''One bad link among the pairs of a partition's nodes, found by group
testing (issue 45, item 3), counting the runs it takes.

A link is an unordered pair of node names, in the order the nodes were
given.  A run measures a set of links at once and gives one answer (an OSU
multi-pair or all-to-all run, held down by its slowest link): a run
holding the bad link is slow.  The caller makes the runs, ``measure(links)
-> bool or float`` on a frozenset of links.  Two runnable shapes are asked
for: the ring (every node to the next in the given order, the last to the
first) and the all-to-all over a subset S of the nodes (every pair of S:
a pair alone, or the whole partition).

:func:`find_bad_link`: the ring, then halving the suspects.  Each link
counts the runs that disagree with it being the bad one (a slow run
without it, a clean run with it); the suspects have the fewest (without
noise: those consistent with every run).  The next run is the all-to-all
over the S whose pairs hold nearest half the suspects: every subset of the
suspects' nodes up to :data:`microbench.nodes.subsets.EXHAUSTIVE_NODES`,
beyond that a local search (:data:`microbench.nodes.subsets.STARTS` random
starts, each flipping the node that brings the split nearest half while
one does); ties to the smaller S, a pair
alone last (padded with another node where one is: a pair alone is the
confirmation's run).  No run is asked twice.  One suspect left is
confirmed by its pair alone; a clean confirmation (noise) is said, the
pair is out, the search goes on.  "No bad link" disagrees with every slow
run: where with fewer than every link, the whole partition is run and,
clean, no bad link was seen.  At the budget (:func:`default_budget`: 2
ceil(log2(n(n-1)/2)) + 2 runs) no link is found.  Without noise any of the
120 links of 16 nodes takes at most 9 runs (tests/nodes/test_links.py;
with noise bench/links.py).  :func:`check_partition` runs the ring and the
whole partition first: both clean, no bad link was seen in 2 runs.

A run's answer is judged in one place, :mod:`microbench.nodes.linkjudge`
(its :class:`Threshold` and :func:`judge`, which this module's callers
name here).  A measure that raises or gives anything else (None, NaN, a
string) ends the search with "run failed", saying which run and why.
'''

import dataclasses
import itertools
import math

import numpy as np

from microbench.nodes import subsets
# a run's answer judged, its words: the search's callers name them here
from microbench.nodes.linkjudge import (  # noqa: F401
    CLEAN, FAILED, MARGIN, OUTCOMES, SLOW, Threshold, is_figure, judge)

#: The most nodes a search takes (its work grows with their pairs)
MOST_NODES = 256

RING, WHOLE, HALVING, CONFIRMATION = ('ring', 'whole partition', 'halving',
                                      'confirmation')
#: What a search ends with, with its meaning
STATUSES = {
    'found': 'one link named, confirmed by its pair alone',
    'no bad link seen': 'the runs that hold every link were clean',
    'not found': 'the run budget spent with links still suspect',
    'run failed': 'a run gave no figure; no link named',
}
FOUND, NO_LINK, NOT_FOUND, RUN_FAILED = STATUSES


def default_budget(node_count):
    '''The runs a search may make over ``node_count`` nodes: twice the
    halvings a perfect split would need, and two.'''
    pair_count = node_count * (node_count - 1) // 2
    return 2 * math.ceil(math.log2(pair_count)) + 2


def plural(count, word):
    '''``count`` and ``word``, with an s unless the count is one.'''
    return f'{count} {word}' if count == 1 else f'{count} {word}s'


@dataclasses.dataclass(frozen=True)
class Run:
    '''One run the search asked for: why (ring, whole partition, halving,
    confirmation), its shape (ring, all-to-all, pair) over its nodes, the
    links it measured, its outcome, its figure, why it failed.'''

    purpose: str
    shape: str
    nodes: tuple
    links: frozenset
    outcome: str
    figure: float | None = None
    why: str = ''


@dataclasses.dataclass
class Result:
    '''What a search found: its status (found, no bad link seen, not found,
    run failed), the link found or None, the runs made in order, the links
    still suspect at the end, notes on what disagreed, its run budget.'''

    nodes: tuple
    status: str
    link: tuple | None
    runs: list
    suspects: list
    notes: list
    budget: int

    @property
    def count(self):
        '''The runs the search made.'''
        return len(self.runs)

    def breakdown(self):
        '''The runs by purpose, in words (``ring, 7 halvings, 1
        confirmation``).'''
        purposes = [run.purpose for run in self.runs]
        words = [name for name in (RING, WHOLE) if name in purposes]
        for name in (HALVING, CONFIRMATION):
            if name in purposes:
                words.append(plural(purposes.count(name), name))
        return ', '.join(words)

    def describe(self):
        '''One line: what was found, in how many runs, against the pair
        runs one by one.'''
        pair_count = len(self.nodes) * (len(self.nodes) - 1) // 2
        among = (f'among {len(self.nodes)} nodes '
                 f'({plural(pair_count, "link")})')
        runs = f'{plural(self.count, "run")} ({self.breakdown()})'
        if self.status == FOUND:
            return (f'link {"-".join(self.link)} found in {runs}; '
                    f'{plural(pair_count, "pair")} one by one would take '
                    f'{pair_count}')
        if self.status == NO_LINK:
            return f'no bad link seen {among} in {runs}'
        if self.status == RUN_FAILED:
            failed = self.runs[-1]
            return (f'run {self.count} failed ({failed.purpose}, '
                    f'{failed.shape} over {plural(len(failed.nodes), "node")}'
                    f'): {failed.why}; no link named {among}')
        return (f'no link found {among} within the budget of '
                f'{plural(self.budget, "run")}: {runs}, '
                f'{plural(len(self.suspects), "link")} still suspect')


def check_nodes(nodes):
    '''The node names as a tuple, or ValueError: 2 to :data:`MOST_NODES`
    distinct, non-empty strings.'''
    if isinstance(nodes, str) or not isinstance(nodes, (list, tuple)):
        raise ValueError(f'the nodes are {nodes!r}: give a list of names')
    names = tuple(nodes)
    wrong = [name for name in names if not isinstance(name, str) or not name]
    if wrong:
        raise ValueError(f'node names are non-empty strings: {wrong[:5]!r}')
    twice = sorted({name for name in names if names.count(name) > 1})
    if not 2 <= len(names) <= MOST_NODES:
        raise ValueError(f'{plural(len(names), "node")} given: a search '
                         f'takes 2 to {MOST_NODES}')
    if twice:
        raise ValueError(f'node names given twice: {", ".join(twice)}')
    return names


class Search:
    '''The state of one search: the runs made, each link's count of runs
    that disagree with it, the pairs measured alone.'''

    def __init__(self, nodes, measure, threshold, budget, seed):
        '''Check the inputs (ValueError where one is wrong); no run yet.'''
        self.nodes = check_nodes(nodes)
        if not callable(measure):
            raise ValueError(f'measure is {measure!r}, not a function')
        if not (threshold is None or isinstance(threshold, Threshold)
                or callable(threshold)):
            raise ValueError(f'the threshold is {threshold!r}: give a '
                             f'Threshold, a function of a figure or None')
        if budget is None:
            budget = default_budget(len(self.nodes))
        if isinstance(budget, bool) or not isinstance(budget, int) or \
                budget < 1:
            raise ValueError(f'the run budget is {budget!r}, not a count '
                             f'of runs of 1 or more')
        self.measure, self.threshold, self.budget = measure, threshold, budget
        pairs = np.array(list(itertools.combinations(range(len(self.nodes)),
                                                    2)))
        self.first, self.second = pairs[:, 0], pairs[:, 1]
        self.disagree = np.zeros(len(pairs), int)
        self.refuted = np.zeros(len(pairs), bool)
        self.alone_slow = np.zeros(len(pairs), bool)
        self.everything = np.ones(len(pairs), bool)
        self.no_link_disagree = 0
        self.asked, self.runs, self.notes = set(), [], []
        self.rng = np.random.default_rng(seed)

    def link(self, index):
        '''The link of pair ``index``, as its two node names.'''
        return (self.nodes[self.first[index]], self.nodes[self.second[index]])

    def among(self, inside):
        '''The pairs the all-to-all over the nodes ``inside`` measures.'''
        return inside[self.first] & inside[self.second]

    def ask(self, in_run, purpose, shape, node_indices):
        '''Make the run over the pairs ``in_run`` and count who it
        disagrees with: its outcome, or None where it failed.'''
        self.asked.add(in_run.tobytes())
        indices = np.flatnonzero(in_run)
        links = frozenset(self.link(index) for index in indices)
        try:
            outcome, figure, why = judge(self.measure(links), self.threshold)
        except Exception as err:
            outcome, figure = FAILED, None
            why = f'measure raised {type(err).__name__}: {err}'
        nodes = tuple(self.nodes[index] for index in node_indices)
        self.runs.append(Run(purpose, shape, nodes, links, outcome, figure,
                             why))
        if outcome == FAILED:
            return None
        slow = outcome == SLOW
        self.disagree += in_run != slow
        self.no_link_disagree += slow
        if len(indices) == 1:
            self.alone_slow[indices] |= slow
            self.refuted[indices] |= not slow
        return outcome

    def ring(self):
        '''Run the ring, every node to its next: its outcome, or None.'''
        last = len(self.nodes) - 1
        in_run = (self.second - self.first == 1) | \
            ((self.first == 0) & (self.second == last))
        return self.ask(in_run, RING, RING, range(len(self.nodes)))

    def whole(self):
        '''Run the whole partition unless a run over every link was made
        (the ring over 3 nodes or fewer): its outcome, or None.'''
        if self.everything.tobytes() in self.asked:
            return None
        return self.ask(self.everything, WHOLE, 'all-to-all',
                        range(len(self.nodes)))

    def choose(self, suspects):
        '''The nodes of the next all-to-all, splitting ``suspects`` as
        near half as a run not asked before can; None where none does.'''
        total = int(suspects.sum())
        ends = np.stack([self.first[suspects], self.second[suspects]])
        touched, places = np.unique(ends, return_inverse=True)
        places = places.reshape(ends.shape)
        adjacency = np.zeros((len(touched), len(touched)), int)
        adjacency[places[0], places[1]] = adjacency[places[1], places[0]] = 1
        if len(touched) <= subsets.EXHAUSTIVE_NODES:
            options = subsets.exhaustive_options(adjacency, total)
        else:
            options = subsets.local_options(adjacency, total, self.rng)
        pads = np.setdiff1d(np.arange(len(self.nodes)), touched)
        for members in self.tries(options, touched, pads, ends.T):
            inside = np.zeros(len(self.nodes), bool)
            inside[members] = True
            if self.among(inside).tobytes() not in self.asked:
                return inside
        return None

    def tries(self, options, touched, pads, pairs):
        '''The node sets to try, best first: each option (a mask of the
        ``touched`` nodes), a pair padded with each node of ``pads`` in
        turn; the suspect ``pairs`` alone last.'''
        for option in options:
            members = list(touched[option])
            if len(members) > 2:
                yield members
            for pad in pads if len(members) == 2 else []:
                yield [*members, pad]
        yield from (list(pair) for pair in pairs)

    def result(self, status, suspects, link=None):
        '''The search's result now.'''
        names = [self.link(index) for index in np.flatnonzero(suspects)]
        return Result(self.nodes, status, link, list(self.runs), names,
                      list(self.notes), self.budget)

    def halve(self):
        '''Halve the suspects until one is confirmed, no bad link is the
        likeliest, a run fails or the budget is spent: the result.'''
        while True:
            live = ~self.refuted
            if self.runs and self.runs[-1].outcome == FAILED:
                return self.result(RUN_FAILED, live)
            fewest = self.disagree[live].min() if live.any() else math.inf
            suspects = live & (self.disagree == fewest)
            lone = np.flatnonzero(suspects)[:1] if suspects.sum() == 1 else []
            if self.no_link_disagree < fewest:
                if self.everything.tobytes() in self.asked:
                    return self.result(NO_LINK, np.zeros_like(live))
                if len(self.runs) >= self.budget:
                    return self.result(NOT_FOUND, suspects)
                self.whole()
                continue
            if len(lone) and self.alone_slow[lone[0]]:
                return self.result(FOUND, suspects, self.link(lone[0]))
            if len(self.runs) >= self.budget or not live.any():
                return self.result(NOT_FOUND, suspects)
            if len(lone):
                pair = [self.first[lone[0]], self.second[lone[0]]]
                if self.ask(suspects, CONFIRMATION, 'pair', pair) == CLEAN:
                    self.notes.append(
                        f'run {len(self.runs)}: {"-".join(self.link(lone[0]))}'
                        f' alone was clean, against the '
                        f'{plural(len(self.runs) - 1, "run")} before '
                        f'(noise): that pair is out, the search goes on')
                continue
            inside = self.choose(suspects)
            if inside is None:
                self.notes.append(f'no run not asked before splits the '
                                  f'{int(suspects.sum())} suspect links')
                return self.result(NOT_FOUND, suspects)
            members = np.flatnonzero(inside)
            shape = 'pair' if len(members) == 2 else 'all-to-all'
            self.ask(self.among(inside), HALVING, shape, members)


def find_bad_link(nodes, measure, threshold=None, budget=None, seed=0):
    '''The one bad link among the pairs of ``nodes`` (a :class:`Result`):
    the ring, then halving the suspects, in at most ``budget`` runs of
    ``measure``, whose figures ``threshold`` judges (a :class:`Threshold`
    or a function of the figure, True where slow); ``seed`` fixes the
    local search.  ValueError where an input is wrong.'''
    search = Search(nodes, measure, threshold, budget, seed)
    search.ring()
    return search.halve()


def check_partition(nodes, measure, threshold=None, budget=None, seed=0):
    '''Whether a bad link is among the pairs of ``nodes`` at all: the ring,
    then the whole partition; both clean, no bad link was seen (2 runs);
    otherwise the search goes on as :func:`find_bad_link`'s, from those
    runs, with one run more in its budget.'''
    if budget is None:
        budget = default_budget(len(check_nodes(nodes))) + 1
    search = Search(nodes, measure, threshold, budget, seed)
    if search.ring() == CLEAN:
        search.whole()
    return search.halve()
