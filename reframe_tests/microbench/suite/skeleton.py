'''The inputs of the rounds job's shell skeleton (``rounds.sh``), declared
once.

A job script sources the skeleton, sets its inputs, calls
``rounds_begin``, declares the commands of every variant and calls
``rounds_run``.  :data:`INPUTS` names every input, how it is written and
its default.  :func:`inputs_of` asks a rounds fixture for the inputs of
its tool's job; :func:`job_lines` writes a job script's lines from them
(the rounds fixture and the skeleton's own tests both use it), leaving
out every input at its default: the skeleton sets the defaults itself,
so each tool's job holds only the settings it uses.  A test holds
:data:`INPUTS` against the skeleton's header.
'''

import os
import shlex

from microbench import paths
from microbench.suite import progress

#: The shell skeleton of every rounds job
SKELETON = paths.SKELETON

#: The job's private scratch directory, as the variant commands name it
#: (the skeleton makes it under the scratch root, ``scratch_root``, for
#: each round and removes it after)
SCRATCH = '$scratch'

#: What every stage directory holds beside the job script: the skeleton,
#: the lock and progress lines it sources, the residency witness's node
#: script, the machine settings' node script, the disk counts it sources
STAGED = (paths.SKELETON, paths.PROGRESS, paths.RESIDENCY, paths.SETTINGS,
          paths.COUNTS, paths.RANK)

#: How an input is written:
#: ``literal``: shell-quoted, evaluated when the skeleton uses it;
#: ``expanded``: in double quotes, the shell expands it when it is set;
#: ``array``: an array of shell-quoted words;
#: ``by_variant``: an associative array (by variant, or by name), each
#: value expanded when declared (None: not declared);
#: ``expanded_array``: an array, each item expanded when declared
KINDS = ('literal', 'expanded', 'array', 'by_variant', 'expanded_array')

#: Every input, in the order a job script sets it: (name, kind, default);
#: a default of None: every job sets it.  Those before ``rounds_begin``
#: first, then those declared between it and ``rounds_run``.
BEFORE = (
    ('scratch_root', 'expanded', ''),
    ('tool', 'literal', None),
    ('version_command', 'literal', ''),
    ('job_name', 'literal', None),
    ('nodes_command', 'literal', ''),
    ('address_suffix', 'literal', ''),
    ('job_nodes_command', 'literal', ''),
    ('samples', 'literal', None),
    ('warmup_rounds', 'literal', 0),
    ('stdout_file', 'literal', ''),
    ('witness_tool', 'literal', ''),
    ('service', 'literal', ''),
    ('service_stop', 'literal', ''),
    ('service_port', 'literal', ''),
    ('server_start_s', 'literal', 0),
    ('client_timeout_s', 'literal', 0),
    ('darshan_flavour', 'literal', ''),
    ('darshan_candidates', 'literal', ''),
    ('lock_file', 'literal', ''),
    ('lock_reminder_s', 'literal', 300),
    ('progress_file', 'literal', ''),
    ('run_by', 'literal', ''),
    ('tools', 'array', None),
    ('variants', 'array', None),
    ('outputs', 'array', ()),
    ('sides', 'array', ()),
)
BETWEEN = (
    ('commands', 'by_variant', None),
    ('servers', 'by_variant', {}),
    ('prepares', 'by_variant', {}),
    ('residencies', 'by_variant', {}),
    ('witnesses', 'by_variant', {}),
    ('darshans', 'by_variant', {}),
    ('probes', 'by_variant', {}),
    ('probe_reasons', 'by_variant', {}),
    ('facts', 'by_variant', {}),
    ('preflight', 'expanded_array', ()),
    ('preflight_reasons', 'expanded_array', ()),
    ('versions', 'by_variant', {}),
)
INPUTS = BEFORE + BETWEEN


def expanded(text):
    '''``text`` in double quotes: the shell expands its variables.'''
    escaped = (str(text).replace('\\', '\\\\').replace('"', '\\"')
               .replace('`', '\\`'))
    return f'"{escaped}"'


def _declared(values):
    '''The values of a ``by_variant`` input that are declared.'''
    return {key: value for key, value in values.items() if value is not None}


def _line(name, kind, value):
    if kind == 'literal':
        return f'{name}={shlex.quote(str(value))}'
    if kind == 'expanded':
        return f'{name}={expanded(value)}'
    if kind == 'array':
        return f'{name}=({" ".join(shlex.quote(str(item)) for item in value)})'
    if kind == 'expanded_array':
        return f'{name}=({" ".join(map(expanded, value))})'
    pairs = ' '.join(f'[{shlex.quote(key)}]={expanded(item)}'
                     for key, item in _declared(value).items())
    return f'declare -A {name}=({pairs})'


def _at_default(kind, value, default):
    if default is None:
        return False
    if kind == 'by_variant':
        return not _declared(value)
    if kind.endswith('array'):
        return not list(value)
    return value in ('', None) or value == default


def job_lines(inputs, source=None):
    '''The lines of a job script: source the skeleton (at ``source``,
    default: ``./rounds.sh``, the copy in the stage directory), set
    ``inputs`` ({name: value} of :data:`INPUTS`; one at its default is left
    out), call ``rounds_begin`` and declare the inputs that follow it.

    :raises ValueError: an input :data:`INPUTS` does not name, or a missing
        one that has no default.
    '''
    known = {name for name, _, _ in INPUTS}
    unknown = sorted(set(inputs) - known)
    missing = sorted(name for name, _, default in INPUTS
                     if default is None and name not in inputs)
    if unknown or missing:
        raise ValueError(f'the inputs of {os.path.basename(SKELETON)}: '
                         f'unknown {unknown}, missing {missing}')

    def lines(declared):
        return [_line(name, kind, inputs[name])
                for name, kind, default in declared
                if name in inputs
                and not _at_default(kind, inputs[name], default)]

    source = source or f'./{os.path.basename(SKELETON)}'
    return [f'. {shlex.quote(source)}', *lines(BEFORE), 'rounds_begin',
            *lines(BETWEEN)]


def inputs_of(rounds):
    '''The inputs of the job of ``rounds`` (a
    :class:`~microbench.suite.rounds.Rounds` test, set up): what its tool
    uses, asked of its methods.'''
    service = rounds.service() or ('', '', '')
    probes = {variant: rounds.probe(variant) for variant in rounds.variants}
    checks, reasons = list(zip(*rounds.preflight())) or [(), ()]
    by_variant = {name: {variant: method(variant)
                         for variant in rounds.variants}
                  for name, method in (
                      ('commands', rounds.variant_command),
                      ('servers', rounds.server_command),
                      ('prepares', rounds.prepare_command),
                      ('residencies', rounds.residency_command),
                      ('witnesses', rounds.witness_command),
                      ('darshans', rounds.darshan_command))}
    return {
        # The scratch root may name the user ($USER): expanded when
        # set; the other settings are evaluated when the skeleton uses
        # them
        'scratch_root': rounds.scratch_dir if rounds.uses_scratch else '',
        'tool': rounds.tool,
        'version_command': rounds.version_command() or '',
        'job_name': rounds.unique_name,
        'nodes_command': rounds.nodes_command() or '',
        'address_suffix': rounds.address_suffix(),
        'job_nodes_command': rounds.job_nodes_command(required=False),
        'samples': rounds.samples,
        'warmup_rounds': rounds.warmup_rounds,
        'stdout_file': rounds.stdout_file or '',
        'witness_tool': rounds.witness_tool or '',
        'service': service[0], 'service_stop': service[1],
        'service_port': service[2],
        'server_start_s': getattr(rounds, 'server_start_s', 0),
        'client_timeout_s': getattr(rounds, 'client_timeout_s', 0),
        **rounds.darshan_settings(),
        # What the job says while it runs, and who runs it (the lock's
        # holder line): microbench.suite.progress
        'progress_file': progress.FILE,
        'run_by': progress.run_by(),
        # The benchmark lock: the partition's own (extras.benchmark_lock),
        # else the node's /tmp/microbench-<uid>.lock (progress.sh)
        'lock_file': rounds.current_partition.extras.get('benchmark_lock',
                                                         ''),
        'tools': rounds.tools_needed(),
        'variants': rounds.variants,
        'outputs': [*rounds.output_files,
                    *([rounds.stdout_file] if rounds.stdout_file else [])],
        **by_variant,
        'probes': {variant: found[0]
                   for variant, found in probes.items() if found},
        'probe_reasons': {variant: found[1]
                          for variant, found in probes.items() if found},
        'facts': rounds.recorded_facts(),
        'preflight': checks,
        'preflight_reasons': reasons,
    }
