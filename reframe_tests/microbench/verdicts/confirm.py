'''``microbench confirm``: a confirmation rerun before anyone is paged.

When tonight's verdict would exit 1 (a new, unacknowledged regression),
the nightly recipe (ci/nightly.sh) gives this command tonight's compare
JSON and the ReFrame command line of the night.  It reruns only the
affected checks (every variant of each, round-robin as always: the
check of each regression, the base check of a gap's), with the samples a
night the advisor (:mod:`.advise`) gives those figures, at least the
night's own count and at most ``--cap`` (:data:`CAP`, 10: a
confirmation costs at most about 3 times the affected checks' nightly
time at the default 3 samples); as a second session of the same night,
tagged ``--session-extras confirms=<tonight's session>``.  Then it
judges the night again (``compare --last``, the rerun's figures standing
for the night's: :mod:`.history`), writes the verdicts over the JSON it
was given, prints them, and exits as they say:

- ``regression (confirmed)``: the rerun finds it too; exit 1;
- ``not confirmed (lone night)`` (``unconfirmed``): the rerun does not;
  exit 0, listed with both sessions.

The night's own ReFrame options are kept (``--mode``, ``-S``, the
system) but its ``-n`` (the rerun names its checks), ``-S samples`` and
``--report-file``.  A rerun ReFrame cannot store leaves the verdicts as
they were (exit 1: the regression stands, unconfirmed), saying so.
'''

import math
import os
import re
import shlex
import subprocess
import sys
import time

from microbench.verdicts import (advise, compare, compare_json, figures,
                                 history, nightly, rule, storage, stored,
                                 vocabulary)

HELP = 'rerun the checks of tonight\'s regressions, then judge again'

#: The most samples a night a confirmation takes
CAP = 10

#: Options of the night's command line the rerun sets itself: option ->
#: whether it takes a value
REPLACED = {'-n': True, '--name': True, '--report-file': True}


def add_arguments(parser):
    parser.add_argument('--verdicts', required=True, metavar='FILE',
                        help="tonight's compare --last JSON (written over "
                        'with the verdicts after the rerun)')
    parser.add_argument('--report-file', required=True, help="the rerun's "
                        'ReFrame run report')
    parser.add_argument('--cap', type=int, default=CAP, help='the most '
                        'samples a night (default %(default)s)')
    parser.add_argument('--partition', help='SYSTEM:PARTITION, as compare '
                        'was given')
    parser.add_argument('--dry-run', action='store_true', help='print the '
                        'rerun\'s command, run nothing')
    parser.add_argument('reframe', nargs='+', metavar='-- REFRAME ...',
                        help="the night's ReFrame command line")
    parser.set_defaults(handler=run)


def regressions(found):
    '''The figures (dicts of the compare JSON) a confirmation reruns.'''
    return [row for row in found.figures
            if row['verdict'] == vocabulary.REGRESSION
            and not row.get('confirmation')]


def base(check, figure=''):
    '''The check whose variants a gap compares: ``<check>_gap``, or
    ``<check>_<variant>_gap`` for the gaps of a variant that can be
    skipped apart (its figures name that variant: ``dontcache_over_direct``
    of ``fio_cache_flags_dontcache_gap``).'''
    if not check.endswith('_gap'):
        return check
    name = check.removesuffix('_gap')
    head, _, last = name.rpartition('_')
    variants = re.split(r'_over_|_per_core$', figure)
    return head if head and last in variants else name


def checks(rows):
    '''The checks to rerun: each figure's, a gap's base check.'''
    return sorted({base(row['check'], row.get('figure', ''))
                   for row in rows})


def pattern(names):
    '''ReFrame's ``-n`` pattern of exactly these checks and their gaps,
    a variant's own gaps too (it matches a test's display name without
    its spaces).'''
    return f'^({"|".join(names)})((_[a-z0-9]+)?_gap)?(%|/|$)'


def samples(rows, frame, cap, table=None):
    '''The samples a night of the rerun: the most the advisor gives the
    figures ``rows`` (``table``, else :func:`.advise.advice` of the
    nights of ``frame``; none where too few nights tell, or where the
    drift between nights dominates), at least the night's own count, at
    most ``cap``.'''
    table = advise.advice(frame) if table is None else table
    mine = {tuple(row[k] for k in figures.KEY) for row in rows}
    chosen = table[[key in mine for key in table[figures.KEY].itertuples(
        index=False, name=None)]]
    now = [n for n in chosen['samples_now'] if n == n]
    needed = [n for n in chosen['needed']
              if n is not None and not (isinstance(n, float) and
                                        math.isnan(n))]
    most = max([*needed, *now, 1])
    return int(min(cap, math.ceil(most)))


def command(night, names, count, session, report):
    '''The rerun's command: the night's, its ``-n``, ``-S samples`` and
    ``--report-file`` replaced.'''
    out, skip = [], False
    for arg in night:
        if skip:
            skip = False
            continue
        name = arg.split('=', 1)[0]
        if name in REPLACED:
            skip = '=' not in arg
            continue
        if arg.startswith('-n') and len(arg) > 2 and not arg.startswith(
                '--'):
            continue                    # -nPATTERN
        if out and out[-1] == '-S' and arg.split('=', 1)[0] == 'samples':
            out.pop()
            continue
        out.append(arg)
    return [*out, '-n', pattern(names), '-S', f'samples={count}',
            '--session-extras', f'{figures.CONFIRMS}={session}',
            '--report-file', report]


def run(args):
    if not os.path.isfile(args.verdicts):
        raise ValueError(f'--verdicts {args.verdicts}: no such file (the '
                         f'JSON of tonight\'s compare --last)')
    # the rerun's report and the verdicts after it: said before the rerun
    compare.writable(args.verdicts, '--verdicts')
    compare.writable(args.report_file, '--report-file')
    found = compare_json.read(args.verdicts)
    if found.kind != 'nightly':
        raise ValueError(f'{args.verdicts}: the verdicts of compare BEFORE '
                         f'AFTER; a confirmation reruns a night (compare '
                         f'--last)')
    rows = regressions(found)
    if not rows:
        print(f'confirm: no new regression in {args.verdicts}: nothing to '
              f'rerun')
        return found.exit_code
    # the nights only, as compare --last judged them (ad-hoc runs apart)
    frame, _ = history.nightly(figures.load(figures.ALL, args.db,
                                            args.partition), nightly.CAP)
    names = checks(rows)
    # the advice of the nights before tonight: tonight's drop is no spread
    count = samples(rows, frame[~frame['session'].isin(found.sessions)],
                    args.cap)
    night = args.reframe[1:] if args.reframe[0] == '--' else args.reframe
    cmd = command(night, names, count, found.session, args.report_file)
    print(f'confirm: {len(rows)} regression(s) of {", ".join(names)}: '
          f'rerun with {count} samples (cap {args.cap}):\n  '
          f'{shlex.join(cmd)}', flush=True)
    if args.dry_run:
        return found.exit_code
    start = time.monotonic()
    status = subprocess.run(cmd).returncode
    took = time.monotonic() - start
    print(f'confirm: the rerun took {took / 60:.1f} min (ReFrame exit '
          f'{status})', flush=True)
    db = storage.database(args.db)
    try:
        stored.check(args.report_file, db)
    except stored.NotStored as err:
        print(f'microbench confirm: error: {err}: the verdicts stand, '
              f'unconfirmed', file=sys.stderr)
        return found.exit_code
    frame = figures.load(figures.ALL, args.db, args.partition)
    budget = (found.test or {}).get('budget', nightly.BUDGET)
    floor = (found.test or {}).get('floor', rule.FLOOR)
    doc, about, extra = compare.last(frame, budget, floor)
    doc['confirmation'] = {**(doc['confirmation'] or {}),
                           'checks': names, 'samples': count,
                           'minutes': round(took / 60, 2)}
    for warning in doc['acks']['warnings']:
        print(f'microbench confirm: warning: {warning}', file=sys.stderr)
    sys.stdout.write(compare.text(doc, about, extra))
    compare_json.write(args.verdicts, doc)
    return doc['exit_code']
