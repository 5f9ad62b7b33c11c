#!/usr/bin/env python3
'''One bad link among the pairs of n nodes found by group testing
(:mod:`microbench.nodes.links`, issue 45 item 3), on simulated runs with
known answers (a benchmark script, not a timed test).

Each draw puts one bad link uniformly among the n(n-1)/2 pairs of n nodes
(``--slowdown``: its figure is that share under a healthy link's) and
searches for it, the ring first, then halving the suspects.  A run's
figure follows the suite's noise model (``bench/known_answers.py``): one-way
random effects on a log scale, ``level x exp(drift_night +
within_sample)``.  ``drift_night`` is normal with standard deviation
``--drift`` (default 5 %), one draw for every run of a search (one night),
the clean level the search judges by being the history's.
``within_sample`` is drawn for every link of a run, normal with log
standard deviation ``--noise`` (default 5 %, a pair run's realistic
within-night spread), and the run's figure is its slowest link's: a run
over more links is lower and its spread narrower (the minimum of more
draws: at 5 %, 16 links sit 8 % under the level on average, 120 links
12 %, 2016 links 16 %).  A run is slow when its figure is under
``clean_level x (1 - --margin)`` (default 25 %): with the night's drift,
a run over hundreds of clean links is sometimes slow (the clean column).

Reported, at ``--nodes`` (default 16) and at each of ``--others``
(8, 32, 64): the share of draws where the bad link was named within
``--within`` runs (10), found at all, the run count's median and maximum,
the wrong links named, the searches that ended with no link or no bad link
seen; beside the n(n-1)/2 pair runs one by one.  And the same many draws
of a clean partition (no bad link) through the no-bad-link check (the ring
and the whole partition): the share said clean in 2 runs, the links named
there (false).

Exit 1 when the target is missed: the link named within ``--within`` runs
in fewer than ``--target`` (19) of ``--draws`` (20) draws at ``--nodes``.
Exit 2, in one line, where what it ran is not what it claims (:mod:`claims`):
a search whose runs are not the runs the simulation made, or other than
``--draws`` draws.

    bench/links.py [--nodes 16] [--draws 20] [--seed 0] [--slowdown 0.5]
                   [--noise 0.05] [--drift 0.05] [--margin 0.25]
                   [--within 10] [--target 19] [--others 8 32 64]
'''

import argparse
import itertools
import math
import sys

import numpy as np

import claims
from microbench.nodes import links

#: A healthy link's figure (a pair's bandwidth, MB/s): the clean level
LEVEL = 10000.0

#: The table's column widths
WIDTHS = (5, 7, 8, 14, 8, 8, 5, 8, 7, 6, 14, 7)


class Simulated:
    '''The runs of one draw: a bad link (or none) among the nodes, the
    night's drift, the runs made.'''

    def __init__(self, bad, slowdown, noise, drift, rng):
        '''``bad`` the bad link (a pair of node names) or None.'''
        self.bad, self.slowdown, self.noise = bad, slowdown, noise
        self.drift = rng.normal(0, drift)
        self.rng = rng
        self.runs = []

    def __call__(self, run_links):
        '''The figure of a run over ``run_links``: its slowest link's.'''
        self.runs.append(run_links)
        ordered = sorted(run_links)
        factors = np.array([1 - self.slowdown if link == self.bad else 1.0
                            for link in ordered])
        within = self.rng.normal(0, self.noise, len(ordered))
        return LEVEL * math.exp(self.drift) * float(np.min(
            factors * np.exp(within)))


def searched(node_count, args, rng):
    '''The results of ``--draws`` searches over ``node_count`` nodes, each
    with one bad link drawn uniformly among the pairs.'''
    nodes = [f'mbnode{index}' for index in range(node_count)]
    pairs = list(itertools.combinations(nodes, 2))
    threshold = links.Threshold(LEVEL, args.margin)
    out = []
    for _ in range(args.draws):
        bad = pairs[rng.integers(len(pairs))]
        runs = Simulated(bad, args.slowdown, args.noise, args.drift, rng)
        result = links.find_bad_link(nodes, runs, threshold)
        claims.check('runs of a search made by the simulation',
                     [run.links for run in result.runs], runs.runs)
        out.append((bad, result))
    claims.check(f'draws searched over {node_count} nodes', len(out),
                 args.draws)
    return out


def clean(node_count, args, rng):
    '''The results of ``--draws`` no-bad-link checks of a clean partition
    of ``node_count`` nodes.'''
    nodes = [f'mbnode{index}' for index in range(node_count)]
    threshold = links.Threshold(LEVEL, args.margin)
    out = []
    for _ in range(args.draws):
        runs = Simulated(None, args.slowdown, args.noise, args.drift, rng)
        out.append(links.check_partition(nodes, runs, threshold))
    claims.check(f'clean partitions of {node_count} nodes checked',
                 len(out), args.draws)
    return out


def log_bound(node_count):
    '''ceil(log2(n(n-1)/2)) + 2 runs: the halvings of a perfect split,
    the ring and the confirmation.'''
    return math.ceil(math.log2(node_count * (node_count - 1) // 2)) + 2


def row(node_count, found, checked, within):
    '''The table's row of ``node_count`` nodes, and the draws found
    within ``within`` runs.'''
    counts = np.array([result.count for _, result in found])
    right = [result.link == bad for bad, result in found]
    soon = sum(hit and result.count <= within
               for hit, (_, result) in zip(right, found))
    bound = log_bound(node_count)
    in_bound = sum(hit and result.count <= bound
                   for hit, (_, result) in zip(right, found))
    wrong = sum(result.link is not None and not hit
                for hit, (_, result) in zip(right, found))
    ended = sum(result.link is None for _, result in found)
    said_clean = sum(result.status == links.NO_LINK and result.count == 2
                     for result in checked)
    named = sum(result.link is not None for result in checked)
    cells = [node_count, node_count * (node_count - 1) // 2,
             f'{soon}/{len(found)}', f'{in_bound}/{len(found)} ({bound})',
             f'{sum(right)}/{len(found)}', f'{np.median(counts):.1f}',
             counts.max(), links.default_budget(node_count), wrong, ended,
             f'{said_clean}/{len(checked)}', named]
    line = ''.join(f'{cell:>{width}}' for cell, width in zip(cells, WIDTHS))
    return line, soon


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--nodes', type=int, default=16)
    parser.add_argument('--draws', type=int, default=20)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--slowdown', type=float, default=0.5)
    parser.add_argument('--noise', type=float, default=0.05)
    parser.add_argument('--drift', type=float, default=0.05)
    parser.add_argument('--margin', type=float, default=0.25)
    parser.add_argument('--within', type=int, default=10)
    parser.add_argument('--target', type=int, default=19)
    parser.add_argument('--others', type=int, nargs='*', default=[8, 32, 64])
    args = parser.parse_args()
    if args.nodes < 2 or any(count < 2 for count in args.others):
        parser.error('a partition has 2 nodes or more')
    others = ' '.join(map(str, args.others))
    print(f'reproduce: bench/links.py --nodes {args.nodes} --draws '
          f'{args.draws} --seed {args.seed} --slowdown {args.slowdown} '
          f'--noise {args.noise} --drift {args.drift} --margin {args.margin} '
          f'--within {args.within} --target {args.target} --others {others}')
    print(f'a bad link {args.slowdown:.0%} slow; within-run noise '
          f'{args.noise:.0%} log sd a link (a run: its slowest link), night '
          f'drift {args.drift:.0%}; slow under {1 - args.margin:.0%} of the '
          f'clean level; {args.draws} draws a row\n')
    headers = ['nodes', 'pairs', f'in {args.within}', 'in bound', 'found',
               'median', 'max', 'budget', 'wrong', 'none', 'clean 2 runs',
               'named']
    print(''.join(f'{header:>{width}}'
                  for header, width in zip(headers, WIDTHS)))
    hits = None
    for node_count in sorted({args.nodes, *args.others}):
        rng = np.random.default_rng([args.seed, node_count])
        line, soon = row(node_count, searched(node_count, args, rng),
                         clean(node_count, args, rng), args.within)
        print(line, flush=True)
        if node_count == args.nodes:
            hits = soon
    print(f'\n{args.nodes} nodes: the bad link named within {args.within} '
          f'runs in {hits} of {args.draws} draws (target {args.target}); '
          f'pair by pair would take {args.nodes * (args.nodes - 1) // 2} '
          f'runs')
    if hits < args.target:
        print(f'missed: {hits} of {args.draws} draws within {args.within} '
              f'runs, under the target of {args.target}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    claims.main(main)
