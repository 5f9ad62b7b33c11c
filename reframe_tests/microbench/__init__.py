'''Launch and parse code shared by every check of the suite.

One module per tool (``fio``, ``strace``, ``darshan``, ``ior``, ``mdtest``,
``osu``, ``fabtests``, ``elbencho``, ``lustre``): its command lines, its pure
output parser, how to read one sample (``read_sample``), and the ReFrame
base classes of its checks.  Under them, one module per concern:

- ``rounds`` and ``rounds.sh``: the rounds fixture, one job measuring every
  variant of a pitfall round-robin (its shell skeleton); ``mpi``: the rounds
  of MPI storage benchmarks;
- ``variant``: the check of one variant; ``gap``: the gaps between variants;
  ``witnessed``: the Darshan witness of a storage fixture, and its verdict;
- ``samples``: one path from a sample's files to its figures; ``output``:
  reading and validating tool output (:class:`~microbench.output.OutputError`
  is every rejection); ``stats``: samples and their statistics; ``units``;
- ``fields`` and ``recorded``: what every perflog record carries;
  ``records``: what a job recorded about itself;
- ``where``: which partitions a check runs on, by feature; ``limits``:
  physical ceilings and floors of a partition; ``launchers``: how each
  launcher places and binds processes, and what a scheduler tells of a
  job (its nodes, how it ended); ``spack``: which Spack build ran;
  ``perflog``: perflogs as pandas data frames.

The verdicts, outside ReFrame's run (the ``microbench`` command, ``cli``):
``results`` reads the results storage into a data frame, ``verdicts`` holds
the band rule and the test, ``comparison`` judges two sides, ``references``
writes baselines into reference files, ``report`` draws the HTML report.

Nothing here knows about a specific system.
'''
