'''Which node, which link (issue 45): every node of a partition vetted on
its own, each node against its peers of the same night, and one bad link
among many found by group testing.

- :mod:`microbench.nodes.outliers` is the same-night rule: a node's figure
  against its peers' median and MAD, with a minimum number of peers, and
  the node's own history as the second witness;
- :mod:`microbench.nodes.links` finds one bad link among the pairs of a
  partition's nodes by group testing (runs over sets of links), counting
  the runs it takes.
'''
