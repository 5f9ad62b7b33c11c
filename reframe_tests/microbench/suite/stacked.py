'''An A/B experiment in one rounds job: two software stacks, the same
variants, the same nodes.

Where the rounds fixture's ``stacks`` is set (:mod:`microbench.sides`
spells it; ``microbench ab`` sets it), its job measures every variant on
both stacks.  The rounds alternate between the sides, A B B A A B B A ...
(a drift of the machine linear in time falls on both alike), every
variant round-robin within a round as always, ``samples`` rounds of each
side.  Each side's commands are the fixture's own with its tool's
directory set to the side's (:func:`view`): the job names them
``<variant>@<side>`` (``direct@A``: its records, its commands), and what a
side's witnesses and samples write goes to a directory of its own below
the stage directory (``A/``: the skeleton runs them there).

A variant or gap check of one side (``-P stack=A``) reads the view of its
side (:func:`view`): a copy of the fixture whose stage and output
directories are the side's, whose records are the side's as a job of that
side alone would have printed them (:func:`microbench.suite.records.of_side`),
whose tool directory, tool version and Spack environment are the side's.
So every reader of the job's files (a tool's witnesses included) reads
one side unchanged, and figures of the two sides are two test cases of
one session, against the same references.
'''

import os

from reframe.core.exceptions import ReframeError

from microbench import private, sides, spack
from microbench.suite import records, skeleton

#: The inputs of the skeleton that are the same on both sides (taken from
#: side A's view); the others are by variant, merged under each side's
#: names of its variants
BY_VARIANT = ('commands', 'servers', 'prepares', 'residencies', 'witnesses',
              'darshans', 'probes', 'probe_reasons')


class StacksError(ReframeError):
    '''The fixture's ``stacks`` cannot be run (one line: ReFrame says it
    as the test's failure, ``stacks error: ...``, without a traceback).'''


def tool_of(rounds):
    '''The tool whose directory a side gives (``fio`` of ``fio_bindir``),
    or None where the fixture has no directory variable.'''
    return rounds.bindir.removesuffix('_bindir') if rounds.bindir else None


def parsed(rounds):
    '''``{label: Side}`` of the fixture's ``stacks``; each must give the
    fixture's tool.

    :raises StacksError: it does not (one line).'''
    name = type(rounds).__name__
    try:
        found = sides.parse(rounds.stacks)
    except sides.SpecError as err:
        raise StacksError(f'{name}: -S stacks: {err}') from None
    tool = tool_of(rounds)
    if tool not in sides.TOOLS:
        raise StacksError(f'{name}: its programs have no directory '
                          f'variable of {", ".join(sides.TOOLS)}: an A/B '
                          f'cannot give it two stacks')
    for side in found.values():
        if side.dir(tool) is None:
            raise StacksError(f'{name}: stack {side.label} ({side.name}) has '
                              f'no {tool}; it gives '
                              f'{", ".join(side.tools())}')
    for variant in rounds.variants:
        if '@' in variant:
            raise StacksError(f'{name}: variant {variant!r} holds "@", '
                              f'which names a side in an A/B job')
    return found


def labels(rounds):
    '''The sides of the fixture's job, A and B; none without stacks.'''
    return list(sides.SIDES) if rounds.stacks else []


def job_variants(rounds):
    '''The names of the variants in the job: each variant on each side
    (``direct@A``), side A's first; the variants without stacks.'''
    if not rounds.stacks:
        return list(rounds.variants)
    return [sides.key(variant, label) for label in sides.SIDES
            for variant in rounds.variants]


def side_spack(side, programs):
    '''(environment, concrete specs) a side's records carry: its Spack
    environment's (:func:`microbench.spack.record`), else its name.'''
    if not side.env:
        return f'{side.name} (no Spack environment)', ''
    name, specs = spack.record(side.env, programs)
    return (side.env if name.startswith('..') else name), specs


def view(rounds, label):
    '''The fixture as side ``label``'s job alone would have left it: a
    copy with the side's tool directory, stage and output directories
    (``<stage>/<label>``), and, once the job has run, its records, tool
    version and Spack environment.  A view of a view is the base
    fixture's view.'''
    base = getattr(rounds, 'ab_base', None) or rounds
    if getattr(rounds, 'ab_side', None) and rounds.ab_side.label == label:
        return rounds
    side = parsed(base)[label]
    out = object.__new__(type(base))
    out.__dict__.update(base.__dict__)
    out.ab_base, out.ab_side = base, side
    setattr(out, base.bindir, side.dir(tool_of(base)))
    private.relocate(out, _below(base.stagedir, label),
                     _below(base.outputdir, label))
    if getattr(base, 'records', None) is not None:
        out.records = records.of_side(base.records, label, base.variants)
        out.tool_version = ' '.join(out.records.get('version', []))
        out.spack_env, out.spack_spec = side_spack(side, base.launched())
        # the side's program among the job's (both sides' are found)
        out.tool_path, out.spack_lock = spack.found(
            [line for line in base.records.get('found', [])
             if os.path.dirname(line.partition(spack.LEADS)[0]) ==
             os.path.normpath(side.dir(tool_of(base)))],
            base.launched(), side.env or None)
    return out


def _below(directory, label):
    return os.path.join(directory, label) if directory else directory


def identity(rounds):
    '''What a check's ``stack`` record says of the side ``rounds`` (a
    view) is: the stack, its tool's directory and version, its lock.'''
    return sides.identity(rounds.ab_side, tool_of(rounds),
                          rounds.tool_version)


def inputs(rounds):
    '''The skeleton's inputs of an A/B job: every input of side A's view
    (:func:`skeleton.inputs_of`), but the variants and every input by
    variant, which are each side's under its names of the variants; the
    programs of both sides; each side's version command.'''
    views = {label: view(rounds, label) for label in sides.SIDES}
    per_side = {label: skeleton.inputs_of(found)
                for label, found in views.items()}
    out = dict(per_side['A'])
    for name in BY_VARIANT:
        out[name] = {sides.key(variant, label): value
                     for label in sides.SIDES
                     for variant, value in per_side[label][name].items()}
    tools = [tool for label in sides.SIDES
             for tool in per_side[label]['tools']]
    out.update(variants=job_variants(rounds),
               tools=list(dict.fromkeys(tools)), version_command='',
               versions={label: found.version_command() or None
                         for label, found in views.items()},
               sides=list(sides.SIDES))
    return out


def missing_hint(rounds, program, node):
    '''The skip of a check whose A/B job did not find ``program``: which
    stack lacks it.'''
    found = parsed(rounds)
    tool = tool_of(rounds)
    lacking = [side for side in found.values()
               if os.path.dirname(program) == side.dir(tool).rstrip('/')]
    said = (f'stack {lacking[0].label} ({lacking[0].name}: -S stacks '
            f'{tool}={lacking[0].dir(tool)})' if lacking
            else 'the stacks (-S stacks)')
    return (f'{program} not found on {node}: {said} does not hold it '
            f'there (microbench ab checks each stack on this node before '
            f'it runs; the job runs on {node})')
