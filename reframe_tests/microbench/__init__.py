'''Launch and parse code shared by every check of the suite.

One module per tool (command line, output parser, version probe, and the
ReFrame base class of its checks) and a few small shared pieces:

- ``checks``: the base classes, :class:`~microbench.checks.SampledCheck`
  (samples, scratch, records, skips and failures) and
  :class:`~microbench.checks.GapCheck` (a pitfall's gap between variants);
- ``stats``: samples and their statistics;
- ``records``: what a run recorded about itself (node, versions, commands);
- ``ceilings``: physical ceilings of a partition;
- ``perflog``: perflogs as pandas data frames.

Nothing here knows about a specific system.
'''
