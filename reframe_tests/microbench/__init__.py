'''The suite's library, by audience (``tests/repository/test_layout.py``
keeps the boundaries).

- ``suite``: the job ReFrame runs.  ``rounds`` and ``rounds.sh`` (the
  rounds fixture: one job measuring every variant of a pitfall
  round-robin; ``skeleton`` declares the shell skeleton's inputs);
  ``mpi``: the rounds of MPI storage benchmarks; ``variant``: the check of
  one variant; ``gap``: the gaps between variants; ``samples`` and
  ``output``: one path from a sample's files to its figures, validated
  (:class:`~microbench.suite.output.OutputError` is every rejection);
  ``stats``; ``records`` and ``recorded``: what a job recorded about
  itself and what every perflog record carries; ``launchers``: how each
  launcher places and binds processes, and what a scheduler tells of a
  job; ``where`` and ``limits``: which partitions a check runs on, and
  their physical ceilings and floors; the witnesses ``strace``,
  ``darshan`` and ``witnessed``.
- ``tools``: one module per tool (``fio``, ``ior``, ``mdtest``, ``osu``,
  ``fabtests``, ``elbencho``, ``lustre``): its command lines, its pure
  output parser, how to read one sample, and the ReFrame base classes of
  its checks; each builds on ``suite``, never the reverse.
- ``verdicts``: the ``microbench`` command's analysis, outside ReFrame's
  run.  ``storage`` (the one module that knows ReFrame's results storage
  and uses its private API), ``figures`` (the storage as a data frame),
  ``cache``, ``history`` (night summaries), ``changes`` (Otava's change
  points, the test of the last nights), ``nightly`` (tonight's verdict
  under one budget), ``triage`` (the verdict made actionable:
  acknowledgements, events, the confirmation rerun's outcome), ``acks``
  (the acknowledgements files), ``events`` (one event per root cause),
  ``prepost`` (sessions a side), ``rule`` (bands), ``compare`` and
  ``compare_json`` (its JSON, the one format its readers share),
  ``confirm``, ``ack`` and ``acked``, ``advise``, ``baseline``,
  ``stored``, ``limits``, ``report`` (plots and the page), ``weather``
  (the users' page), ``export`` (Prometheus).
- ``bundles``: one archive per run: ``bundle``, ``check``, ``replay``.
- ``audit``: ``microbench audit``, the pitfall catalogue on anyone's
  benchmark command, fio job file, batch script or Darshan log (its
  parsers, rules, rewrites, output formats and ``--measure``).
- At the top, what both sides share: ``fields`` (the record fields),
  ``units``, ``references``, ``provenance``, ``spack``, ``paths``,
  ``knobs`` (every pitfall's knob: the options of each variant, which the
  checks build their variants from and the audit rewrites with); and
  ``cli``, the ``microbench`` command (argparse only).

Nothing here knows about a specific system.
'''
