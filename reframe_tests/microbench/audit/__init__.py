'''``microbench audit``: the pitfall catalogue turned on anyone's own
benchmark command, fio job file, batch script or Darshan log.

- ``findings``: what a finding is (catalogue entry, evidence and where,
  why, certainty, the realistic form) and the catalogue entries the audit
  judges, each with the check that measures it.
- ``bounds``: every cap on what an input can make the audit read, expand
  and write, and the reading of files within them (regular files only,
  bytes, includes): the audit's work is linear in its input.
- ``words``: an input's lines and words (``shellwords``: continuations,
  comments, quoting, in linear time) and its launcher (``srun``,
  ``mpirun``/``mpiexec``, ``aprun``, ``jsrun``, ``flux run``): nodes, tasks
  and binding; ``runners``: the programs the input does not define that
  run a benchmark they are given (a script, another file's function).
- One module per tool, its options and its rules: ``fio`` (command lines
  and job files: ``fiojob``, the settings jobs inherit: ``fiosettings``,
  rewritten: ``fiorewrite``), ``ior`` (IOR and mdtest), ``network`` (OSU
  and fabtests), ``elbencho``; ``options`` reads the option tables of
  ``data/`` (each from the tool's own source).
- ``batch``: Slurm and PBS scripts, every benchmark line in them, their
  variables (``shellvars``); ``darshanlog``: a Darshan log judged with the
  suite's witness rules.
- ``judge``: an input to its findings; ``render``: text, JSON and SARIF;
  ``measure``: the user's form and the realistic one, round-robin through
  the suite's own rounds (a ReFrame run); ``command``: the subcommand.

The realistic rewrite of every knob comes from :mod:`microbench.knobs`,
the tables the checks build their variants from.
'''
