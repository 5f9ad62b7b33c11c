'''``microbench bisect``: the package of a lock diff that moves a figure,
found by experiment.

    microbench bisect LOCK_A LOCK_B (--checks CHECK... | --moved AB_JSON)
                      [--mode quick] [--system S[:P]] [--stacks-dir DIR]
                      [--spack-scope DIR] [-S VAR=VAL]... [--json FILE]

1. The units: the packages that changed of their own between the two
   locks (:mod:`.diff`: version, variants, dependencies, external, target,
   recipe; a package that is only rebuilt follows its dependencies, one
   that comes with a change moves with it), joined into groups that must
   move together by the recipes' rule (:func:`.stacks.recipe_couples`:
   P and Q move together where P's recipe, at its version on one side,
   constrains Q so that Q's version on the other side does not satisfy
   it; ``--coupling edges``: every dependency edge between two units,
   without asking Spack).  ``k``: the groups.
2. The full A/B of A against B (``microbench ab``'s runner and rule), or
   the one given (``--moved``): the figures that moved (``B slower``,
   ``B faster``, ``B higher``, ``B lower``).
3. The bisection (:mod:`.bisection`): each step is lock A with a subset of
   the groups at B's versions, concretized and installed by the pinned
   Spack (:mod:`.bisectstep`: the nodes of A and B are reused, nothing is
   compiled where they are installed), and an A/B of A against it that
   stops as soon as every moved figure is decided.  A figure is named in
   at most ``ceil(log2 k) + 1`` A/B steps (the full one included) where
   one unit moves it and every step is decided; a step that cannot be
   concretized or installed is said in one line and the other half tried,
   and what the steps could not decide is said, never guessed.

Both locks must be installed, as environments holding them (the lock's
own folder, or a folder of ``--stacks-dir``, default MICROBENCH_STACKS,
holding the same lock with an installed view).  Everything given is
checked before anything runs: a file that is not a Spack lock, two
identical locks, a stack that is not installed, an unknown check, a
``--moved`` that is not the A/B of these locks: one line, exit 2, nothing
stored.  The A/Bs are stored as ``microbench ab`` stores them (``--db``,
default perflogs/ab.db); the bisection's steps and JSON below
``bisect-runs/<id>/`` beside it.  Exit 0 where every moved figure is named
(or none moved), 1 where one is not decided.
'''

import datetime
import hashlib
import os
import re
import secrets
import time

from microbench import sides, spack
from microbench.cause import (ab, ab_json, abchecks, bisect_json, bisectdoc,
                              bisection, bisectstep, bisecttext, diff,
                              intermediate, locks, nightstacks, stacks)
from microbench.verdicts import compare

HELP = ('name the package of a lock diff that moves a figure: A/B steps of '
        'intermediate stacks')


def add_arguments(parser):
    parser.description = (
        'The units of the lock diff, grouped by what must move together, '
        'are bisected: each step is lock A with a subset of them at B\'s '
        'versions, installed by the pinned Spack, and an A/B of A against '
        'it.  docs/operators/bisect.md')
    parser.add_argument('lock_a', metavar='LOCK_A', help='the spack.lock '
                        'before (the reference)')
    parser.add_argument('lock_b', metavar='LOCK_B', help='the spack.lock '
                        'after')
    parser.add_argument('--checks', nargs='+', metavar='CHECK',
                        help='variant checks by name, as microbench ab '
                        'takes them (default, with --moved: its A/B\'s)')
    parser.add_argument('--mode', choices=['quick'], help="the suite's "
                        'quick mode for every A/B')
    parser.add_argument('--system', metavar='SYSTEM[:PARTITION]',
                        help="ReFrame's --system")
    parser.add_argument('--stacks-dir', metavar='DIR', help='where the '
                        'installed environments of the locks are (default: '
                        f'{nightstacks.STACKS_VARIABLE}, else '
                        f'{nightstacks.STACKS})')
    parser.add_argument('--moved', metavar='AB_JSON', help='the A/B of A '
                        'against B already run (microbench ab --json): its '
                        'moved figures, instead of running it')
    parser.add_argument('--spack-scope', metavar='DIR', help='a Spack '
                        'configuration folder for the steps (spack -C: the '
                        'install tree of the locks, the source mirror)')
    parser.add_argument('--coupling', choices=bisect_json.COUPLINGS,
                        default='recipes', help='how units that must move '
                        'together are found (default: %(default)s)')
    parser.add_argument('--roots', nargs='+', metavar='PACKAGE',
                        help='what a step installs (default: the packages '
                        'of the tools the checks ran)')
    parser.add_argument('--decide-identical', action='store_true',
                        help='decide a step whose programs are the same '
                        'files as A\'s (or B\'s) without an A/B')
    parser.add_argument('--max-steps', type=int, metavar='N', help='the '
                        'most steps (default: k, the groups)')
    parser.add_argument('--confirm', action='store_true', help='run the '
                        'own step of a unit named by elimination (one '
                        'step past the budget at most)')
    parser.add_argument('-S', dest='setvars', action='append', default=[],
                        metavar='[TEST.]VAR=VAL', help="ReFrame's -S, for "
                        'every A/B')
    parser.add_argument('-J', dest='job_options', action='append',
                        default=[], metavar='OPT', help="ReFrame's -J")
    parser.add_argument('--first', type=int, default=ab.FIRST,
                        metavar='PAIRS', help='pairs of rounds of each '
                        'A/B\'s first batch (default %(default)s)')
    parser.add_argument('--batch', type=int, default=ab.BATCH,
                        metavar='PAIRS', help='pairs of rounds of each '
                        'further batch (default %(default)s)')
    parser.add_argument('--cap', type=int, metavar='PAIRS', help='the most '
                        'pairs of rounds of an A/B (default: the rule\'s)')
    parser.add_argument('--json', metavar='FILE', help='write the '
                        'bisection\'s JSON here too')
    parser.set_defaults(handler=run)


def _sha256(path):
    with open(path, 'rb') as fp:
        return hashlib.sha256(fp.read(locks.MAX_BYTES + 1)).hexdigest()


def installed(lock_path, stacks_dir, what):
    '''The installed environment folder holding the lock ``lock_path``:
    its own folder, else a folder of ``stacks_dir`` whose spack.lock is
    the same file (sha256) and whose view is installed.

    :raises ValueError: none is (one line).'''
    wanted = _sha256(lock_path)
    folders = [os.path.dirname(os.path.abspath(lock_path))]
    try:
        names = sorted(os.listdir(stacks_dir))[:nightstacks.MOST_STACKS]
    except OSError:
        names = []
    folders += [os.path.join(stacks_dir, name) for name in names]
    for env in folders:
        if spack.lock_digest(env) == wanted and os.path.isdir(
                bisectstep.view_of(env)):
            return env
    raise ValueError(f'{what} {lock_path}: its stack is not installed: no '
                     f'environment with an installed view holds lock '
                     f'{wanted[:12]} (not its folder, nor one of '
                     f'{stacks_dir}); install it (spack -e <env> install) '
                     f'or give --stacks-dir')


def _matches(check, row_check):
    '''Whether a figure's check (``fio_cache_flags_dontcache_gap``) is
    ``check`` or one of its gaps.'''
    return re.match(abchecks.pattern([check]), row_check) is not None


def _read(path, what):
    '''The lock at ``path``, or its one line with ``what`` it is.'''
    try:
        return locks.read(path)
    except locks.LockError as err:
        raise locks.LockError(f'{what} {err}') from None


class Given:
    '''What a bisection runs, checked before anything does: the locks and
    their difference, the groups, the checks, both installed stacks, the
    recipes, the full A/B's plan (or the one given).'''

    def __init__(self, args):
        self.a_lock = _read(args.lock_a, 'LOCK_A')
        self.b_lock = _read(args.lock_b, 'LOCK_B')
        if _sha256(args.lock_a) == _sha256(args.lock_b):
            raise locks.LockError(f'{args.lock_b}: the same lock as '
                                  f'{args.lock_a}: nothing to bisect')
        self.found = diff.require_changes(diff.diff(self.a_lock,
                                                    self.b_lock))
        if not args.checks and not args.moved:
            raise ValueError('--checks CHECK... is needed (or --moved '
                             'AB_JSON: the checks of its A/B)')
        self.moved = ab_json.read(args.moved).doc if args.moved else None
        if self.moved is not None:
            # the steps run as the A/B given ran, unless told otherwise
            if args.mode is None and self.moved['mode'] == 'quick':
                args.mode = 'quick'
            args.setvars = args.setvars or list(self.moved['options'])
        self.checks = abchecks.chosen(args.checks or self.moved['checks'])
        if args.json:
            compare.writable(args.json, '--json')
        if args.max_steps is not None and args.max_steps < 1:
            raise ValueError(f'--max-steps {args.max_steps}: at least one')
        where = nightstacks.stacks_directory(args.stacks_dir)
        self.env_a = installed(args.lock_a, where, 'LOCK_A')
        self.env_b = installed(args.lock_b, where, 'LOCK_B')
        self.a = bisectstep.side_of('A', self.env_a,
                                    os.path.basename(self.env_a))
        self.b = bisectstep.side_of('B', self.env_b,
                                    os.path.basename(self.env_b))
        self.full = self.given_ab(args) if args.moved else None
        stacks.pinned_spack()
        self.repos = intermediate.repos_of(self.env_b)
        couples = (stacks.recipe_couples(self.found, self.repos)
                   if args.coupling == 'recipes'
                   else diff.edge_couples(self.found))
        self.couples = [list(pair) for pair in couples]
        self.groups = diff.groups(self.found, couples)
        if args.roots:
            self.hold_roots(args.roots)
        self.plan = None
        if not args.moved:
            self.plan = bisectstep.plan_of(args, self.checks, self.a,
                                           self.b)
            ab.dry_run(self.plan)

    def given_ab(self, args):
        '''The A/B document of ``--moved``, held to these locks and
        checks.'''
        doc = self.moved
        for side, wanted in (('A', self.a.lock), ('B', self.b.lock)):
            found = doc['stacks'][side]['lock_hash']
            if found != wanted:
                raise ValueError(
                    f'--moved {args.moved}: its stack {side} ran lock '
                    f'{(found or "none")[:12]}, not '
                    f'{"LOCK_A" if side == "A" else "LOCK_B"}\'s '
                    f'{wanted[:12]}: not the A/B of these locks')
        missing = [check for check in self.checks
                   if check not in doc['checks']]
        if missing:
            raise ValueError(f'--moved {args.moved}: its A/B ran '
                             f'{", ".join(doc["checks"]) or "no check"}, '
                             f'not {", ".join(missing)}')
        return doc

    def hold_roots(self, roots):
        '''Raise the one line of a root the locks do not have.'''
        for subset in (set(), set(self.found.units())):
            intermediate.intermediate(self.found, subset, self.repos, roots)


def moved_of(doc, checks):
    '''The :class:`.bisection.Moved` figures of an A/B document, of the
    ``checks``.'''
    return [bisection.Moved(tuple(row[k] for k in ab_json.KEY),
                            row['verdict'], row['ratio'], row['low'],
                            row['high'])
            for row in doc['figures']
            if row['verdict'] in bisection.MOVES and row['ratio']
            and any(_matches(check, row['check']) for check in checks)]


def tools_of(doc):
    '''The tools an A/B ran (each side's recorded versions).'''
    return sorted({tool for side in ('A', 'B')
                   for tool in doc['stacks'][side]['tools']})


def roots_of(doc):
    '''The packages of the tools an A/B ran: what a step installs.'''
    return spack.packages([bisectstep.abstacks.PROGRAMS[tool]
                           for tool in tools_of(doc)])


def full_ab(given, args):
    '''(the A/B document of A against B, its path, its id, its minutes):
    run here, or ``--moved``.'''
    if given.full is not None:
        return (given.full, os.path.abspath(args.moved),
                given.full.get('id'), given.full.get('minutes', 0.0))
    plan = given.plan
    print(f'bisect: the full A/B: {sides.spell(plan.stacks)[:200]}',
          flush=True)
    os.makedirs(plan.work, exist_ok=True)
    state, found, batches = ab.experiment(plan)
    if not found:
        raise ValueError(f'the full A/B measured no figure of '
                         f'{", ".join(plan.checks)} on both stacks '
                         f'(sessions in {plan.db})')
    doc = ab.document(plan, state, found, batches)
    path = os.path.join(plan.work, 'ab.json')
    ab_json.write(path, doc)
    return doc, path, plan.id, doc['minutes']


def _lock(path, lock, env):
    return {'path': path, 'sha256': _sha256(path), 'env': env,
            'spack': lock.spack}


def _head(given, args, full, start, roots):
    return {
        'date': datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec='seconds'),
        'minutes': round((time.monotonic() - start) / 60, 2),
        'mode': 'quick' if args.mode else 'full',
        'system': full['system'], 'partition': full['partition'],
        'locks': {'A': _lock(args.lock_a, given.a_lock, given.env_a),
                  'B': _lock(args.lock_b, given.b_lock, given.env_b)},
        'checks': list(given.checks), 'options': list(args.setvars),
        'roots': list(roots), 'coupling': args.coupling}


def work_folder(args):
    '''The new folder of a bisection's steps and JSON, beside the A/B
    storage.'''
    stamp = datetime.datetime.now(datetime.timezone.utc)
    name = f'{stamp:%Y%m%dT%H%M%S}-{secrets.token_hex(2)}'
    return os.path.join(os.path.dirname(ab.storage_of(args.db)),
                        'bisect-runs', name)


def run(args):
    start = time.monotonic()
    given = Given(args)
    print(f'bisect: A: {given.env_a} (lock {given.a.lock[:12]}); B: '
          f'{given.env_b} (lock {given.b.lock[:12]})', flush=True)
    search_groups = [' + '.join(group) for group in given.groups]
    print(f'bisect: {len(given.found.units())} units in '
          f'{len(given.groups)} groups (k), {args.coupling}\' coupling: '
          f'{"; ".join(search_groups)}', flush=True)
    work = work_folder(args)
    os.makedirs(work)
    doc, path, ident, minutes = full_ab(given, args)
    moved = moved_of(doc, given.checks)
    roots = args.roots or roots_of(doc)
    if not args.roots:
        given.hold_roots(roots)
    search = bisection.Search(given.groups, [m.key for m in moved],
                              args.max_steps, args.confirm)
    context = {'roots': roots, 'tools': tools_of(doc), 'work': work,
               'checks': [check for check in given.checks
                          if any(_matches(check, m.key[0])
                                 for m in moved)]}
    print(f'bisect: {len(moved)} figure(s) moved in the full A/B '
          f'({path}); each step installs {", ".join(roots)}', flush=True)
    for figure in moved:
        print(f'bisect:   {figure.name()}: {figure.verdict}, B/A '
              f'{figure.ratio:.3f}'
              + (f' [{figure.low:.3f}, {figure.high:.3f}]'
                 if figure.low and figure.high else ''), flush=True)
    steps = []
    while (subset := search.next_subset()) is not None:
        row, outcomes = bisectstep.run(given, args, search, subset, moved,
                                       context)
        steps.append(row)
        search.record(subset, row['status'], outcomes)
    full = {'source': 'given' if args.moved else 'run', 'path': path,
            'id': ident, 'pairs_run': doc['pairs_run'],
            'minutes': float(minutes or 0.0)}
    found = bisectdoc.document(_head(given, args, doc, start, roots),
                               given.found, given.groups, given.couples,
                               full, moved, steps, search)
    written = os.path.join(work, 'bisect.json')
    bisect_json.write(written, found)
    if args.json:
        bisect_json.write(args.json, found)
    print(bisecttext.text(found), end='')
    print(f'bisect: the JSON: {args.json or written}')
    return found['exit_code']
