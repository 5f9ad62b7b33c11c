'''The suite's library, by audience (``tests/repository/test_layout.py``
keeps the boundaries).

- ``suite``: the job ReFrame runs.  ``rounds`` and ``rounds.sh`` (the
  rounds fixture: one job measuring every variant of a pitfall
  round-robin; ``skeleton`` declares the shell skeleton's inputs;
  ``progress`` and ``progress.sh``: the lock, and what a running job says
  on the console; ``missing``: how a skip says to give a program);
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
  run.  ``storage`` (the one module that knows ReFrame's results storage:
  its schema, through :mod:`microbench.private` its private names),
  ``figures`` (the storage as a data frame),
  ``suggest`` (did you mean: what the storage holds, in words),
  ``cache``, ``history`` (night summaries), ``changes`` (Otava's change
  points, the test of the last nights), ``nightly`` (tonight's verdict
  under one budget), ``triage`` (the verdict made actionable:
  acknowledgements, events, the confirmation rerun's outcome), ``acks``
  (the acknowledgements files), ``events`` (one event per root cause),
  ``prepost`` (sessions a side), ``rule`` (bands), ``compare`` and
  ``compare_json`` (its JSON, the one format its readers share),
  ``confirm``, ``ack_add`` and ``ack_list``, ``advise``, ``baseline``,
  ``stored``, ``limits``, ``report`` (plots and the page), ``weather``
  (the users' page), ``export`` (Prometheus).
- ``bundles``: one archive per run: ``bundle``, ``check``, ``replay``.
- ``audit``: ``microbench audit``, the pitfall catalogue on anyone's
  benchmark command, fio job file, batch script or Darshan log (its
  parsers, rules, rewrites, output formats and ``--measure``).
- ``cause``: why a figure moved, by experiment: ``microbench ab`` (two
  stacks interleaved on the same nodes; ``sequential`` its rule,
  ``ab_json`` its document), ``microbench diagnose`` (an event's cause:
  ``classify``, ``nightstacks``, ``diagnosis_json``) and ``microbench
  bisect`` (the package of a lock diff: ``locks``, ``diff``,
  ``intermediate``, ``bisection``, ``bisect_json``); ``docformat`` the
  checks their documents share.
- At the top, what both sides share: ``fields`` (the record fields),
  ``units``, ``references``, ``provenance``, ``spack``, ``paths``,
  ``components`` and ``limitsfile`` (the component limits, where they
  apply, and their files), ``knobs`` (every pitfall's knob: the options
  of each variant, which the checks build their variants from and the
  audit rewrites with), ``witnesses`` (every witness, described once:
  what each check declares it runs), ``sides`` (the stacks of an A/B
  experiment, as the rounds job is told them), ``private`` (ReFrame's
  private API: its one module); and
  ``cli``, the ``microbench`` command (argparse only).

Nothing here knows about a specific system.
'''
