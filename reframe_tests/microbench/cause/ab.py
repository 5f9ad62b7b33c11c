'''``microbench ab``: the same checks on two software stacks, interleaved in
one job on the same nodes, judged B against A.

    microbench ab CHECK... --a STACK --b STACK [--system S[:P]]
                  [--mode quick] [-S VAR=VAL]... [--json FILE]

A stack is a Spack environment with an installed view, an install prefix
or a folder of programs, or ``tool=dir`` pairs (:mod:`.abstacks`).  Each
batch is one ReFrame run (:mod:`.abrun`): every rounds job of the checks
holds both stacks, its rounds alternating A B B A ... (samples rounds of
each), the variants round-robin within a round as always; each variant and
gap check is a test of each side (``-P stack=A,B``), against the same
references.  After a batch the sequential rule
(:mod:`.sequential`) judges every figure from all the pairs of rounds so
far and says whether more are needed; each further batch is another job,
pinned to the nodes of the first where the scheduler can be told
(Slurm: ``-J nodelist=...``), until the rule stops or the cap.

The sessions go to a results storage of their own (``--db``, default
``perflogs/ab.db``; the nightly storage is refused), tagged
``--session-extras kind=ab,ab=<id>,batch=<n>``, and the perflogs, stage
and output directories below ``ab-runs/<id>/`` beside it: an A/B is never
part of the nightly history (``compare --last`` judges sessions tagged
``kind=nightly``).  The result is printed (:mod:`.abtext`) and written as
the A/B JSON (:mod:`.ab_json`): to ``--json``, and always to
``ab-runs/<id>/ab.json``.  Exit 1 where a figure is ``B slower``.

Before anything runs, a dry run of the first batch holds the input to the
suite: a check that is not one (did you mean), a gap, a stack that is not
installed, two identical stacks (``--aa`` asks for an A/A on purpose), a
check whose tool a stack lacks: one line, exit 2, nothing stored.
'''

import datetime
import os
import secrets
import shutil
import tempfile

from microbench import paths, sides
from microbench.cause import (ab_json, abchecks, abrun, abstacks, abtext,
                              sequential, stopping)
from microbench.verdicts import compare, storage

HELP = ('run checks on two software stacks interleaved on the same nodes, '
        'and judge B against A')

#: The storage of A/B sessions, beside the nightly's
DB = os.path.join(paths.PERFLOGS, 'ab.db')

#: Pairs of rounds of the first batch and of each one after it
FIRST = 4
BATCH = 4

#: Variables the runner sets itself (``-S``)
OWN = ('samples', 'stacks', 'stack')

#: Schedulers whose jobs a batch pins to the first batch's nodes, and how
PIN = {'slurm': 'nodelist', 'squeue': 'nodelist'}


def add_arguments(parser):
    parser.description = (
        'The A/B\'s sessions go to --db, default perflogs/ab.db of the '
        'checkout (a storage of their own: RFM_SQLITE_DB_FILE, the nightly '
        'storage, is neither read nor written).')
    parser.add_argument('checks', nargs='+', metavar='CHECK',
                        help='variant checks by name (fio_fallocate); their '
                        'gaps come with them')
    parser.add_argument('--a', required=True, metavar='STACK',
                        help='stack A (the reference): a Spack environment '
                        'with an installed view, a prefix or a folder of '
                        'programs, or tool=dir pairs (fio=/usr/bin)')
    parser.add_argument('--b', metavar='STACK', help='stack B, as --a')
    parser.add_argument('--aa', action='store_true', help='an A/A '
                        'experiment: the stack of --a on both sides (every '
                        'figure should say same)')
    parser.add_argument('--a-name', metavar='NAME', help="stack A's name "
                        '(default: the environment, or the path given)')
    parser.add_argument('--b-name', metavar='NAME', help="stack B's name")
    parser.add_argument('--system', metavar='SYSTEM[:PARTITION]',
                        help="ReFrame's --system")
    parser.add_argument('--mode', choices=['quick'], help="the suite's "
                        'quick mode (short runs; the rule\'s cap '
                        f'{sequential.CAP_QUICK} pairs, else '
                        f'{sequential.CAP})')
    parser.add_argument('-S', dest='setvars', action='append', default=[],
                        metavar='[TEST.]VAR=VAL', help="ReFrame's -S, as a "
                        'night gives it (not samples: the runner sets it)')
    parser.add_argument('-J', dest='job_options', action='append',
                        default=[], metavar='OPT', help="ReFrame's -J")
    parser.add_argument('--json', metavar='FILE', help='write the A/B JSON '
                        'here too')
    parser.add_argument('--first', type=int, default=FIRST, metavar='PAIRS',
                        help='pairs of rounds of the first batch (default '
                        '%(default)s)')
    parser.add_argument('--batch', type=int, default=BATCH, metavar='PAIRS',
                        help='pairs of rounds of each further batch '
                        '(default %(default)s)')
    parser.add_argument('--watch', action='append', default=[],
                        metavar='CHECK:VARIANT:FIGURE', help='stop when '
                        'these figures are decided (default: every figure; '
                        'the others undecided then are inconclusive)')
    parser.add_argument('--cap', type=int, metavar='PAIRS', help='the most '
                        'pairs of rounds (default: the rule\'s)')
    parser.add_argument('--dry-run', action='store_true', help='check the '
                        'input and write the first batch\'s job scripts; '
                        'run nothing')
    parser.set_defaults(handler=run)


class Plan:
    '''What an A/B runs, checked before anything does: the checks, both
    stacks, the ReFrame options, the rule, the storage and the id.'''

    def __init__(self, args):
        self.checks = abchecks.chosen(args.checks)
        self.stacks = stacks_of(args)
        self.spec = sides.spell(self.stacks)
        self.options = options_of(args)
        self.setvars = list(args.setvars)
        self.rule = rule_of(args)
        if min(args.first, args.batch) < 1:
            raise ValueError(f'--first {args.first} --batch {args.batch}: '
                             f'a batch runs at least one pair of rounds')
        self.first, self.batch = args.first, args.batch
        self.watched = watched_of(getattr(args, 'watch', None) or ())
        self.db = storage_of(args.db)
        if args.json:
            compare.writable(args.json, '--json')
        stamp = datetime.datetime.now(datetime.timezone.utc)
        self.id = f'{stamp:%Y%m%dT%H%M%S}-{secrets.token_hex(2)}'
        self.work = os.path.join(os.path.dirname(self.db), 'ab-runs',
                                 self.id)
        self.mode = 'quick' if args.mode else 'full'
        self.pattern = abchecks.pattern(self.checks)
        self.fixtures = abchecks.fixtures(self.checks)


def watched_of(items):
    '''``{(check, variant, figure)}`` of ``--watch`` items.'''
    out = set()
    for item in items:
        parts = tuple(item.split(':')) if isinstance(item, str) else item
        if len(parts) != 3 or not all(parts):
            raise ValueError(f'--watch {str(item)[:80]!r}: not '
                             f'CHECK:VARIANT:FIGURE')
        out.add(parts)
    return out


def stacks_of(args):
    '''``{label: Side}`` of ``--a`` and ``--b`` (or ``--aa``).'''
    one = abstacks.resolve('A', args.a, args.a_name)
    if args.aa:
        if args.b:
            raise ValueError('--aa runs the stack of --a on both sides: '
                             'give no --b')
        two = sides.Side('B', args.b_name or one.name, one.prefix,
                         one.lock, one.env, one.dirs)
        return {'A': one, 'B': two}
    if not args.b:
        raise ValueError('--b STACK is needed (or --aa: the stack of --a '
                         'on both sides)')
    two = abstacks.resolve('B', args.b, args.b_name)
    if abstacks.same(one, two):
        raise ValueError(f'--a {args.a} and --b {args.b} are the same stack '
                         f'({abstacks.described(one)}): an A/A experiment '
                         f'is asked with --aa')
    return {'A': one, 'B': two}


def options_of(args):
    '''The user's ReFrame options; none the runner sets itself.'''
    for setting in args.setvars:
        name = setting.partition('=')[0].rpartition('.')[2]
        if '=' not in setting:
            raise ValueError(f'-S {setting}: not VAR=VAL')
        if name in OWN:
            raise ValueError(f'-S {setting}: the runner sets {name} itself '
                             f'(--first, --batch and --cap say the rounds)')
    out = [*(['--system', args.system] if args.system else []),
           *(['--mode', args.mode] if args.mode else [])]
    for setting in args.setvars:
        out += ['-S', setting]
    for option in args.job_options:
        out += ['-J', option]
    return out


def rule_of(args):
    '''The sequential rule of the mode, capped at ``--cap``.'''
    numbers = {'cap': args.cap} if args.cap is not None else {}
    return (sequential.Rule.quick(**numbers) if args.mode
            else sequential.Rule(**numbers))


def storage_of(db):
    '''The A/B's results storage: ``--db``, else :data:`DB`; never the
    nightly one.'''
    path = os.path.abspath(db or DB)
    if path == storage.database(None) or path == paths.RESULTS_DB:
        raise ValueError(f'--db {path}: the nightly results storage; an A/B '
                         f'is stored apart (default {DB})')
    if os.path.exists(path):
        storage.check_file(path)
    elif not os.path.isdir(os.path.dirname(path)):
        raise ValueError(f'--db {path}: no such directory')
    return path


def dry_run(plan):
    '''Hold the input to the suite: a dry run of the first batch (nothing
    stored); its folder.

    :raises ValueError: ReFrame refuses it (its first failure, one line).'''
    where = tempfile.mkdtemp(prefix='ab-dry-run-')
    cmd = abrun.command(plan.pattern, plan.fixtures, plan.spec, plan.first,
                        os.path.join(where, 'batch-0'), plan.options,
                        dry_run=True)
    try:
        status, _, said = abrun.launch(cmd, abrun.environment(plan.db),
                                       quiet=True)
        held(plan, status, said,
             os.path.join(where, 'batch-0', 'report.json'))
    except (ValueError, abrun.RunError):
        shutil.rmtree(where, ignore_errors=True)
        raise
    return where


def held(plan, status, said, report):
    '''Raise :class:`ValueError` (one line) where the dry run's
    ``report`` says the A/B cannot run.'''
    try:
        found = abrun.report(report)
    except abrun.RunError:
        last = (said.strip().splitlines() or ['no output'])[-1]
        raise ValueError(f'ReFrame refused the A/B (exit {status}): '
                         f'{last[:300]}') from None
    why = abrun.refused(found)
    if why:
        raise ValueError(why)
    if not found['runs'][-1]['testcases']:
        system = (f' on {plan.options[1]}' if plan.options[:1] ==
                  ['--system'] else '')
        raise ValueError(f'ReFrame selected no test of '
                         f'{", ".join(plan.checks)}{system}: not valid on '
                         f'this system?')


def pinned(plan, first):
    '''The options that pin a further batch to the first one's nodes
    (every rounds job of it: ReFrame's ``-J`` is every job's); none where
    the scheduler cannot be told, where the user pinned them, or where
    the first batch's jobs ran on different nodes (said).'''
    flag = PIN.get(first.scheduler)
    if not flag or not first.nodes or any(
            option.startswith(flag) for option in plan.options):
        return []
    if len(set(first.placements)) > 1:
        print(f'ab: the rounds jobs of batch 1 ran on different nodes '
              f'({"; ".join(",".join(p) for p in first.placements)}): the '
              f'batches after it are not pinned (one check an A/B pins '
              f'them)', flush=True)
        return []
    return ['-J', f'{flag}={",".join(first.nodes)}']


def one_batch(plan, number, count, extra, env):
    '''Run batch ``number`` of ``count`` pairs; its :class:`abrun.Batch`.'''
    where = os.path.join(plan.work, f'batch-{number}')
    cmd = abrun.command(plan.pattern, plan.fixtures, plan.spec, count,
                        where, plan.options + extra,
                        {'kind': abrun.KIND, 'ab': plan.id,
                         'batch': number})
    print(f'ab: batch {number}: {count} pairs of rounds (A B B A ...)',
          flush=True)
    status, minutes, _ = abrun.launch(cmd, env)
    batch = abrun.Batch(number, count, status=status, minutes=minutes)
    session = abrun.stored(plan.db, os.path.join(where, 'report.json'))
    abrun.read(session, batch)
    for failure in batch.failures:
        print(f'ab: batch {number}: {failure}', flush=True)
    print(f'ab: batch {number} took {minutes:.1f} min on '
          f'{", ".join(batch.nodes) or "?"} (jobs '
          f'{", ".join(batch.jobs) or "-"}; ReFrame exit {status})',
          flush=True)
    return batch


def experiment(plan):
    '''Run batches until the rule stops or the cap: (the judged
    experiment, its series, the batches).'''
    env = abrun.environment(plan.db)
    state = sequential.Experiment(plan.rule)
    batches, extra, found = [], [], {}
    while not batches or stopping.needs_more(state, plan.watched):
        count = plan.first if not batches else plan.batch
        count = min(count, plan.rule.cap - state.pairs_run)
        try:
            batch = one_batch(plan, len(batches) + 1, count, extra, env)
        except abrun.RunError as err:
            if not batches:
                raise ValueError(str(err)) from None
            print(f'ab: {err}: judged on the batches before it', flush=True)
            break
        batches.append(batch)
        if len(batches) == 1:
            extra = pinned(plan, batch)
        found = abrun.series(batches)
        state.update(found)
        if not any(len(both) == len(sides.SIDES)
                   for both in batch.samples.values()):
            print(f'ab: batch {batch.number} measured no figure on both '
                  f'stacks (see above): no more batches', flush=True)
            break
    stopping.settle(state)
    return state, found, batches


def document(plan, state, found, batches):
    '''The A/B JSON of the experiment.'''
    stacks = {label: {'name': side.name, 'lock_hash': side.lock or None,
                      'prefix': side.prefix or None,
                      'tools': {tool: version for batch in batches
                                for tool, version in
                                batch.tools.get(label, {}).items()},
                      'session': ' '.join(b.session for b in batches)
                      or None}
              for label, side in plan.stacks.items()}
    nodes = list(dict.fromkeys(n for b in batches for n in b.nodes))
    jobs = list(dict.fromkeys(j for b in batches for j in b.jobs))
    last = batches[-1] if batches else abrun.Batch(0, 0)
    doc = ab_json.document(
        state, found, plan.mode, last.system, last.partition, stacks,
        plan.checks, plan.setvars, ''.join(sides.PATTERN), nodes, jobs,
        date=datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec='seconds'))
    # members the format keeps unchecked: what each batch was
    doc['id'] = plan.id
    doc['batches'] = [batch.summary() for batch in batches]
    doc['watched'] = [':'.join(key) for key in sorted(plan.watched)]
    doc['minutes'] = round(sum(batch.minutes for batch in batches), 2)
    return doc


def run(args):
    plan = Plan(args)
    for side in plan.stacks.values():
        print(f'ab: {abstacks.described(side)}', flush=True)
    where = dry_run(plan)
    if args.dry_run:
        print(f'ab: the input holds; the first batch\'s job scripts: '
              f'{where}/batch-0/stage')
        return 0
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(plan.work, exist_ok=True)
    state, found, batches = experiment(plan)
    if not found:
        raise ValueError(f'no figure of {", ".join(plan.checks)} was '
                         f'measured on both stacks (see the batches\' '
                         f'failures above; sessions in {plan.db})')
    doc = document(plan, state, found, batches)
    ab_json.write(os.path.join(plan.work, 'ab.json'), doc)
    if args.json:
        ab_json.write(args.json, doc)
    print(abtext.text(doc), end='')
    written = args.json or os.path.join(plan.work, 'ab.json')
    print(f'ab: {len(batches)} batch(es), {state.pairs_run} pairs of '
          f'rounds in {doc["minutes"]:.1f} min; sessions in {plan.db} '
          f'(ab={plan.id}); the JSON: {written}')
    if not any(row['pairs'] for row in doc['figures']):
        raise ValueError(f'no figure of {", ".join(plan.checks)} has a '
                         f'pair of rounds measured on both stacks: nothing '
                         f'is judged (the batches\' failures above; '
                         f'{written})')
    return doc['exit_code']
