'''From event to cause (issue 43): A/B experiments of two software stacks,
and the lock side of a bisection.

The lock side:

- :mod:`microbench.cause.locks` reads a Spack lock (``spack.lock``) and
  rejects what is not one in one line;
- :mod:`microbench.cause.diff` says, by package name, what differs between
  two locks and which changes must move together;
- :mod:`microbench.cause.intermediate` writes the Spack environment of a
  bisection step: lock A with a subset of the changes taken from lock B;
- :mod:`microbench.cause.stacks` installs such an environment with the
  pinned Spack (or takes a stack already installed: a view or a prefix)
  and says where each benchmark of it is.

The event side (``microbench diagnose``):

- :mod:`microbench.cause.nightstacks` names the stack a night ran from its
  records (``tool_path``, ``spack_lock``) and says whether it is still
  installed (its environment, or one kept by lock hash);
- :mod:`microbench.cause.diagnose` reruns an event's checks on the
  night-before stack and tonight's (an A/B) and classes the event
  (:mod:`microbench.cause.classify`);
- :mod:`microbench.cause.diagnosis_json` is the diagnosis's JSON, and
  gives each event of compare its cause by experiment.

The bisection (``microbench bisect``):

- :mod:`microbench.cause.bisect` is the command: the units of two locks,
  the full A/B, the steps, the result;
- :mod:`microbench.cause.bisection` is its search (pure: the steps an
  oracle) and how a step's A/B reads against the full A/B;
- :mod:`microbench.cause.bisectstep` makes a step's stack and runs its
  A/B; :mod:`microbench.cause.bisectdoc`, :mod:`microbench.cause.
  bisect_json` and :mod:`microbench.cause.bisecttext` are its document,
  JSON format and text.
'''
