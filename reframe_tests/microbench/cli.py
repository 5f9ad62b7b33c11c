'''``microbench``: verdicts from the suite's results storage.

    microbench baseline SESSIONS... --partition SYS:PART [--write]
    microbench compare BEFORE AFTER [--json FILE]
    microbench compare --last [--window N] [--json FILE]
    microbench report [SESSIONS] -o DIR [--verdicts FILE]
    microbench bundle SESSION -o run-<date>-<system>.tar.gz
    microbench check-bundle ARCHIVE [--no-spack]
    microbench replay ARCHIVE [--run [--into DIR]]

SESSIONS, BEFORE and AFTER are ReFrame's session queries: a session UUID,
a time period (``now-7d:now``), a filter on ``--session-extras``
(``'?tag=="pre"'``), or a period and a filter.  Every subcommand reads
ReFrame's results storage (``--db``, else ``RFM_SQLITE_DB_FILE``, else
``perflogs/results.db``).  A bundle is one archive per run (a session, or
``last``): what it measured, what ran and how; reframe_tests/microbench/
bundle.py says what it holds.  The band rule and the test: the README's
"Verdicts", and reframe_tests/microbench/verdicts.py.
'''

import argparse
import difflib
import json
import os
import sys

import pandas as pd

from microbench.bundles import bundle, check as checkbundle, replay
from microbench.verdicts import compare as comparison, storage as results, rule as verdicts
from microbench import paths, references

#: Every session of the results storage
ALL = results.ALL


def _load_many(queries, db, partition=None):
    frames = [results.load(q, db, partition) for q in queries]
    if len(frames) == 1:
        return frames[0]
    out = pd.concat(frames, ignore_index=True)
    return out.drop_duplicates(subset=['session', *results.key_columns()])


def with_samples(frame):
    return frame[frame['samples'].map(len) > 0]


def baseline_entries(frame, floor, margin):
    '''{(check, variant, figure): ([value, lower, upper, unit], values)}
    of every figure with samples of ``frame`` (one partition).'''
    out = {}
    for (check, variant, figure), rows in with_samples(frame).groupby(
            ['check', 'variant', 'figure']):
        values = rows.groupby('session')['value'].median()
        last = rows.iloc[-1]
        one_sided = comparison.cache_figure(last)
        above = comparison.gap_direction(last['ref'], last['lower'],
                                         last['upper'], last['unit'])
        try:
            ref, lower, upper = verdicts.band(values, floor, margin,
                                              one_sided, above)
        except ValueError as err:
            print(f'not baselined: {check} {variant} {figure}: {err}',
                  file=sys.stderr)
            continue

        out[check, variant, figure] = (
            [ref, lower, upper, last['unit']], values
        )

    return out


def baseline(args):
    frame = _load_many(args.sessions, args.db, args.partition)
    entries = baseline_entries(frame, args.floor, args.margin)
    nsessions = frame['session'].nunique()
    user = args.user or not references.facility(args.partition)
    texts, failures = {}, []
    for (check, variant, figure), (entry, values) in sorted(entries.items()):
        source = references.file_of(check)
        if source is None:
            print(f'not baselined: {check}: no committed references file '
                  f'has it', file=sys.stderr)
            continue

        target = references.user_file() if user else source
        if target not in texts:
            texts[target] = (open(target).read() if os.path.exists(target)
                             else '')
        path = references.entry_path(references.load(source), check,
                                     args.partition, variant, figure)
        texts[target] = references.set_entry(texts[target], path, entry,
                                             tail=2 if len(path) > 3 else 1)
        for session, value in values.items():
            if not verdicts.passes(value, *entry[:3]):
                failures.append(f'{check} {variant} {figure}: session '
                                f'{session} ({value:.4g}) is outside')

    print(f'baseline of {args.partition} from {nsessions} session(s): '
          f'{len(entries)} figures; band: the median of the sessions, '
          f'{args.margin} x the farthest session on each side, at least '
          f'{args.floor:.0%}', file=sys.stderr)
    if failures:
        print('\n'.join(failures), file=sys.stderr)
        return 1
    print(f'every baseline session passes its band ({nsessions} '
          f'session(s) x {len(entries)} figures)', file=sys.stderr)
    for target, text in texts.items():
        before = open(target).read() if os.path.exists(target) else ''
        name = os.path.relpath(target, paths.ROOT)
        lhs, rhs = ((f'a/{name}', f'b/{name}') if not name.startswith('..')
                    else (target, target))
        sys.stdout.writelines(difflib.unified_diff(
            before.splitlines(True), text.splitlines(True), lhs, rhs))
        if args.write:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, 'w') as fp:
                fp.write(text)
            print(f'written: {target}' + (
                f' (the next run on {args.partition} is checked against it)'
                if user else ''), file=sys.stderr)

    if not args.write:
        print('(a diff: nothing written; --write applies it)',
              file=sys.stderr)

    return 0


def sides(args):
    '''(before, after, their descriptions)'''
    if not args.last:
        if not args.before or not args.after:
            raise results.ResultsError('compare needs BEFORE and AFTER, or '
                                       '--last')
        return (_load_many([args.before], args.db, args.partition),
                _load_many([args.after], args.db, args.partition),
                (args.before, args.after))

    frame = results.load(ALL, args.db, args.partition)
    order = (frame.drop_duplicates('session').sort_values('start')
             ['session'].tolist())
    if len(order) < 2:
        raise results.ResultsError(f'--last needs at least two sessions, '
                                   f'the results storage has {len(order)}')
    last, window = order[-1], order[-1 - args.window:-1]
    return (frame[frame['session'].isin(window)],
            frame[frame['session'] == last],
            (f'{len(window)} session(s) before the last '
             f'({window[0]} .. {window[-1]})', f'the last session {last}'))


def compare(args):
    before, after, names = sides(args)
    table = comparison.compare(before, after, args.alpha, args.floor,
                               args.margin)
    if table.empty:
        raise results.ResultsError('the two sides have no figure with '
                                   'samples in common')
    diffs = comparison.differences(before, after)
    sys.stdout.write(comparison.text(table, diffs, names, args.alpha))
    if args.json:
        with open(args.json, 'w') as fp:
            fp.write(comparison.as_json(table, diffs, names, args.alpha))

    return 1 if (table['verdict'] == 'regression').any() else 0


def report(args):
    from microbench.verdicts import report as html

    frame = _load_many(args.sessions or [ALL], args.db, args.partition)
    found = None
    if args.verdicts:
        with open(args.verdicts) as fp:
            found = json.load(fp)['figures']

    print(html.render(frame, found, args.output))
    return 0


def make_bundle(args):
    uuid, names = bundle.make(args.session, args.output, args.db)
    print(f'{args.output}: session {uuid}, {len(names)} files')
    return 0


def check_bundle(args):
    problems, checked = checkbundle.check(args.archive, not args.no_spack)
    for problem in problems:
        print(f'{args.archive}: {problem}')
    print(f'{args.archive}: {"FAILED" if problems else "OK"}: '
          f'{"; ".join(checked)}')
    return 1 if problems else 0


def replay_bundle(args):
    return replay.replay(args.archive, args.run, args.into)


def parser():
    top = argparse.ArgumentParser(
        prog='microbench', formatter_class=argparse.RawDescriptionHelpFormatter,
        description='Verdicts from the suite\'s results storage.',
        epilog=__doc__.split('\n\n', 1)[1].replace('``', ''))
    top.add_argument('--db', help='the results storage (default: '
                     'RFM_SQLITE_DB_FILE, else perflogs/results.db)')
    sub = top.add_subparsers(dest='command', required=True)

    def stats(p):
        p.add_argument('--floor', type=float, default=verdicts.FLOOR,
                       help='the least half-width of a band, a fraction '
                       '(default %(default)s)')
        p.add_argument('--margin', type=float, default=verdicts.MARGIN,
                       help='a band reaches this many times the farthest '
                       'baseline session (default %(default)s)')

    p = sub.add_parser('baseline', help='references and bands from '
                       'sessions of one partition, as a diff')
    p.add_argument('sessions', nargs='+', help='session queries')
    p.add_argument('--partition', required=True, help='SYSTEM:PARTITION')
    p.add_argument('--write', action='store_true', help='apply the diff')
    p.add_argument('--user', action='store_true', help='write to the '
                   'user file even for a facility partition')
    stats(p)
    p.set_defaults(func=baseline)

    p = sub.add_parser('compare', help='did any figure change? (exit 1 on '
                       'a regression)')
    p.add_argument('before', nargs='?', help='session query')
    p.add_argument('after', nargs='?', help='session query')
    p.add_argument('--last', action='store_true', help='the last session '
                   'against the --window sessions before it')
    p.add_argument('--window', type=int, default=7, help='sessions before '
                   'the last one (default %(default)s)')
    p.add_argument('--partition', help='SYSTEM:PARTITION (default: all)')
    p.add_argument('--alpha', type=float, default=verdicts.ALPHA,
                   help='significance level (default %(default)s)')
    p.add_argument('--json', help='also write the verdicts as JSON here')
    stats(p)
    p.set_defaults(func=compare)

    p = sub.add_parser('report', help='an HTML report with plots')
    p.add_argument('sessions', nargs='*', help='session queries (default: '
                   'all)')
    p.add_argument('-o', '--output', required=True, help='directory')
    p.add_argument('--verdicts', help='the JSON of a compare')
    p.add_argument('--partition', help='SYSTEM:PARTITION (default: all)')
    p.set_defaults(func=report)

    p = sub.add_parser('bundle', help='one archive of a run: figures, '
                       'environments, machine, command line')
    p.add_argument('session', help="a session query selecting one session, "
                   "or 'last'")
    p.add_argument('-o', '--output', required=True,
                   help='the archive (run-<date>-<system>.tar.gz)')
    p.set_defaults(func=make_bundle)

    p = sub.add_parser('check-bundle', help='is a bundle whole? (exit 1 '
                       'if not)')
    p.add_argument('archive')
    p.add_argument('--no-spack', action='store_true', help='do not '
                   'concretize its environments again (with the pinned '
                   'Spack on PATH they are)')
    p.set_defaults(func=check_bundle)

    p = sub.add_parser('replay', help='the commands that run a bundled '
                       'session again')
    p.add_argument('archive')
    p.add_argument('--run', action='store_true', help='run its reframe '
                   'command line (exit: reframe\'s)')
    p.add_argument('--into', help='write the replay here, not where the '
                   'run wrote')
    p.set_defaults(func=replay_bundle)
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except (results.ResultsError, bundle.BundleError, OSError,
            ValueError) as err:
        print(f'microbench {args.command}: error: {err}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
