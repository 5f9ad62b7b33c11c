'''One step of ``microbench bisect``: its stack (lock A with a subset of
the units at B's versions, concretized and installed by the pinned Spack:
the nodes already installed are reused, nothing is compiled where they
all are), its sides, and its A/B against A through the ``microbench ab``
runner, stopped as soon as every moved figure is decided.

A step's stack installs the roots the checks run (``roots``: the packages
of the tools the full A/B ran, ``fio`` for the fio checks), not every
root of the locks: a root whose source is not here (OSU, a release
tarball) would fail every step, and a step needs only what its checks
run.  Its sides name the programs the A/B gives each check: the tool's
folder in the view, or the prefix of a tool that is an external of the
lock (Debian's ``/usr/bin/fio`` in ``local-2023``), which no view holds
(:func:`side_of`).

What a step came to is one of :data:`.bisection.STATUSES`: ``measured``
(its A/B ran), ``identical to A`` or ``identical to B`` (its programs are
the same files as a side's once links are followed: decided without an
A/B where asked, ``--decide-identical``), ``not concretized`` or ``not
installed`` (Spack's one line kept, and its log), ``not measured`` (the
A/B could not run it: ReFrame's refusal, or no pair measured).
'''

import argparse
import os
import shutil
import time

from microbench import sides, spack
from microbench.cause import (ab, ab_json, abrun, abstacks, bisectdoc,
                              bisection, intermediate, locks, sequential,
                              stacks)

#: What a step came to (:data:`.bisection.STATUSES`)
(MEASURED, IDENTICAL_A, IDENTICAL_B, NOT_CONCRETIZED, NOT_INSTALLED,
 NOT_MEASURED) = bisection.STATUSES


class StepStackError(ValueError):
    '''An installed environment that gives no tool (one line).'''


def view_of(env_dir):
    return os.path.join(env_dir, '.spack-env', 'view')


def side_of(label, env_dir, name):
    '''The :class:`~microbench.sides.Side` of the installed Spack
    environment ``env_dir``: each tool's folder in its view, or of the
    lock's external prefix where the tool's package is an external.

    :raises locks.LockError: its spack.lock is not one.
    :raises StepStackError: it gives none of the tools.'''
    lock = locks.read(os.path.join(env_dir, 'spack.lock'))
    externals = {node.name: node.external for node in lock.nodes.values()
                 if node.external}
    view = view_of(env_dir)
    dirs = []
    for tool in sides.TOOLS:
        program = abstacks.PROGRAMS[tool]
        (package,) = spack.packages([program])
        if package in externals:
            candidates = [os.path.join(externals[package], 'bin')]
        else:
            candidates = [view] + [os.path.join(view, d)
                                   for d in abstacks.view_dirs()]
        for directory in candidates:
            if os.access(os.path.join(directory, program), os.X_OK):
                dirs.append((tool, directory))
                break
    if not dirs:
        raise StepStackError(
            f'{env_dir}: not an installed stack: none of '
            f'{", ".join(abstacks.PROGRAMS.values())} in its view {view} '
            f'nor in the prefix of an external of its lock')
    return sides.Side(label, name, prefix=view,
                      lock=spack.lock_digest(env_dir), env=env_dir,
                      dirs=tuple(dirs))


def programs(side, tools):
    '''{tool: the file its program is, links followed} of ``side``'s
    ``tools`` (None where the side lacks one).'''
    out = {}
    for tool in tools:
        directory = side.dir(tool)
        out[tool] = (os.path.realpath(os.path.join(
            directory, abstacks.PROGRAMS[tool])) if directory else None)
    return out


def identical(step, one, two, tools):
    ''':data:`IDENTICAL_A` or :data:`IDENTICAL_B` where ``step`` runs the
    same program files as side ``one`` (A) or ``two`` (B) for every tool
    of ``tools``, else None.'''
    mine = programs(step, tools)
    if None in mine.values():
        return None
    if mine == programs(one, tools):
        return IDENTICAL_A
    if mine == programs(two, tools):
        return IDENTICAL_B
    return None


def make(found, names, repos, roots, where, scope):
    '''Write, concretize and install the step that moves the units
    ``names`` in the new folder ``where``; its environment folder.

    :raises stacks.StepError: Spack cannot concretize or install it.
    :raises locks.LockError: a name or root the locks do not have.'''
    manifest = intermediate.intermediate(found, set(names), repos, roots)
    intermediate.write(where, manifest)
    stacks.concretize(where, scope)
    stacks.install(where, scope)
    return where


def plan_of(args, checks, one, two):
    '''The :class:`microbench.cause.ab.Plan` of an A/B of side ``one``
    (A) against ``two``, with the bisection's ReFrame options.  The plan
    is made for an A/A of ``one`` given as ``tool=dir`` pairs (always
    resolvable, never refused as two identical stacks: a step may run
    A's programs on purpose), then given both sides whole, with their
    locks and environments, which pairs do not carry.'''
    given = argparse.Namespace(
        checks=list(checks), a=','.join(f'{tool}={d}' for tool, d in
                                        one.dirs),
        b=None, aa=True, a_name=one.name, b_name=two.name,
        system=args.system, mode=args.mode, setvars=list(args.setvars),
        job_options=list(args.job_options), json=None, first=args.first,
        batch=args.batch, cap=args.cap, db=args.db, dry_run=False)
    plan = ab.Plan(given)
    plan.stacks = {'A': one, 'B': two}
    plan.spec = sides.spell(plan.stacks)
    return plan


def judge_all(series, moved, rule):
    '''{key: :class:`.bisection.Judged`} of the moved figures ``moved``
    in a step's ``series`` (a figure the step did not measure: undecided,
    settled).'''
    out = {}
    for figure in moved:
        rounds = series.get(figure.key)
        if rounds is None:
            out[figure.key] = bisection.Judged(
                bisection.UNDECIDED, 'the step\'s A/B did not measure it',
                settled=True)
            continue
        out[figure.key] = bisection.judged(figure, rounds, rule,
                                           len(moved))
    return out


def experiment(plan, moved):
    '''The A/B of a step: batches until every moved figure is settled
    (:attr:`.bisection.Judged.settled`) or the rule's cap.  (the A/B's
    judged experiment, its series, the batches, the moved figures'
    judgements).

    :raises ValueError: its first batch could not run (one line).'''
    env = abrun.environment(plan.db)
    state = sequential.Experiment(plan.rule)
    batches, extra, found, judged = [], [], {}, {}
    while state.pairs_run < plan.rule.cap:
        count = plan.first if not batches else plan.batch
        count = min(count, plan.rule.cap - state.pairs_run)
        try:
            batch = ab.one_batch(plan, len(batches) + 1, count, extra, env)
        except abrun.RunError as err:
            if not batches:
                raise ValueError(str(err)) from None
            print(f'bisect: {err}: judged on the batches before it',
                  flush=True)
            break
        batches.append(batch)
        if len(batches) == 1:
            extra = ab.pinned(plan, batch)
        found = abrun.series(batches)
        state.update(found)
        judged = judge_all(found, moved, plan.rule)
        if all(one.settled for one in judged.values()):
            break
    return state, found, batches, judged


def measure(plan, moved):
    '''Run a step's A/B (its dry run first); (its A/B document, the moved
    figures' judgements).  The document is written to the A/B's folder.

    :raises ValueError: the A/B cannot run it (one line).'''
    where = ab.dry_run(plan)
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(plan.work, exist_ok=True)
    state, found, batches, judged = experiment(plan, moved)
    if not found:
        raise ValueError(f'no figure of {", ".join(plan.checks)} was '
                         f'measured on both stacks')
    doc = ab.document(plan, state, found, batches)
    ab_json.write(os.path.join(plan.work, 'ab.json'), doc)
    return doc, judged


def _decided_by_identity(row, moved, status, side):
    '''The outcomes of a step whose programs are ``side``'s own files.'''
    word = (bisection.NOT_REPRODUCED if status == IDENTICAL_A
            else bisection.REPRODUCED)
    why = (f'the step runs {side.name}\'s own programs (the same files): '
           f'it is {side.label}, without an A/B')
    row['figures'] = [bisectdoc.figure_row(
        figure.key, bisection.Judged(word, why, settled=True))
        for figure in moved]
    return {figure.key: word for figure in moved}


def run(given, args, search, subset, moved, context):
    '''Make and measure the step that moves ``subset`` (group indices);
    (its document row, {key: outcome}).  ``context``: roots, tools,
    checks (the step's: those of the moved figures) and work (the
    bisection's folder).'''
    number = len(search.steps) + 1
    names = [name for index in sorted(subset)
             for name in search.groups[index]]
    row = bisectdoc.step_row(number, subset)
    where = os.path.join(context['work'], 'steps', str(number))
    row['env'] = where
    start = time.monotonic()
    print(f'bisect: step {number}: A with {search.spelt(subset)} at B\'s '
          f'versions ({where})', flush=True)
    outcomes = {}
    try:
        make(given.found, names, given.repos, context['roots'], where,
             args.spack_scope)
        row['lock_hash'] = spack.lock_digest(where)
        side = side_of('B', where, f'step-{number}')
    except stacks.StepError as err:
        row['status'] = (NOT_CONCRETIZED if err.kind == 'concretize'
                         else NOT_INSTALLED)
        row['said'] = f'{err.said} (Spack\'s log: {err.log})'
    except (StepStackError, locks.LockError) as err:
        row['status'], row['said'] = NOT_INSTALLED, str(err)
    else:
        same = (identical(side, given.a, given.b, context['tools'])
                if args.decide_identical else None)
        if same:
            row['status'] = same
            row['said'] = f'its {", ".join(context["tools"])} the same ' \
                          f'files as {"A" if same == IDENTICAL_A else "B"}\'s'
            outcomes = _decided_by_identity(
                row, moved, same, given.a if same == IDENTICAL_A
                else given.b)
        else:
            outcomes = _measured(row, args, context, given.a, side, moved)
    row['minutes'] = round((time.monotonic() - start) / 60, 2)
    print(f'bisect: step {number}: {row["status"]}'
          + (f': {row["said"]}' if row['said'] else '')
          + f' ({row["minutes"]:.1f} min)', flush=True)
    return row, outcomes


def _measured(row, args, context, one, side, moved):
    '''The A/B of A against a step's ``side``; the moved figures'
    outcomes (none where it could not run).'''
    try:
        plan = plan_of(args, context['checks'], one, side)
        doc, judged = measure(plan, moved)
    except (ValueError, abrun.RunError) as err:
        row['status'] = NOT_MEASURED
        row['said'] = ' '.join(str(err).split())[:300]
        return {}
    row.update(status=MEASURED, ab=os.path.join(plan.work, 'ab.json'),
               ab_id=plan.id, pairs_run=doc['pairs_run'],
               said=f'{doc["pairs_run"]} pairs of rounds on '
                    f'{", ".join(doc["nodes"]) or "no node recorded"}')
    row['figures'] = [bisectdoc.figure_row(key, found)
                      for key, found in judged.items()]
    for key, found in judged.items():
        print(f'bisect:   {" ".join(p for p in key[:3] if p)}: '
              f'{found.outcome}: {found.why}', flush=True)
    return {key: found.outcome for key, found in judged.items()}
