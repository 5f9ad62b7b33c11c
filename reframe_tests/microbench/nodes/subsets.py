'''The node subsets a run of the bad-link search is made of
(:mod:`microbench.nodes.links`): the all-to-all over a subset S of the
suspects' nodes whose pairs hold nearest half the suspect links.  Every
subset up to :data:`EXHAUSTIVE_NODES` nodes; beyond that a local search
from :data:`STARTS` random starts.  Work is bounded: 2 ** 12 subsets, or
:data:`STARTS` x :data:`STEPS_PER_NODE` x n steps of n x n arithmetic.'''

import functools

import numpy as np

#: Up to this many suspect nodes every subset is tried (4096 subsets)
EXHAUSTIVE_NODES = 12
#: Random starts of the local search beyond, and its steps a node
STARTS, STEPS_PER_NODE = 10, 4


@functools.cache
def all_subsets(size):
    '''Every subset of ``size`` items, a row of 0 and 1 each (shared: not
    to be changed).'''
    rows = np.arange(2 ** size)[:, None]
    return (rows >> np.arange(size)) & 1


def exhaustive_options(adjacency, total):
    '''Every subset of the nodes of ``adjacency`` (1 where a suspect links
    two) whose pairs hold some but not all ``total`` suspects, best first:
    nearest half, a pair alone last, fewest nodes.'''
    subsets = all_subsets(len(adjacency))
    counts = ((subsets @ adjacency) * subsets).sum(axis=1) // 2
    distance, sizes = np.abs(2 * counts - total), subsets.sum(axis=1)
    for row in np.lexsort((sizes, sizes == 2, distance)):
        if 0 < counts[row] < total:
            yield subsets[row].astype(bool)


def local_options(adjacency, total, rng):
    '''Subsets found by a local search from :data:`STARTS` random starts
    (each node in with chance 0.71: half the pairs), each flipping the
    node that brings the split nearest half while one does; best first.'''
    size = len(adjacency)
    seen = {}
    for _ in range(STARTS):
        inside = rng.random(size) < 0.71
        count = int((adjacency @ inside) @ inside) // 2
        for _ in range(STEPS_PER_NODE * size):
            size_now = int(inside.sum())
            if 0 < count < total:
                seen[inside.tobytes()] = ((abs(2 * count - total),
                                           size_now == 2, size_now),
                                          inside.copy())
            reach = adjacency @ inside
            counts = count + np.where(inside, -reach, reach)
            distances = np.abs(2 * counts - total)
            sizes = size_now + np.where(inside, -1, 1)
            best = np.lexsort((sizes, distances))[0]
            if (distances[best], sizes[best]) >= (abs(2 * count - total),
                                                  size_now):
                break
            inside[best] = not inside[best]
            count = int(counts[best])
    ranked = sorted(seen.items(), key=lambda item: (item[1][0], item[0]))
    return [option for _, (_, option) in ranked]
