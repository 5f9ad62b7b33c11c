'''``microbench baseline``: references and bands from sessions of one
partition, written as a reviewable diff.

A figure's reference is the median of its values in the baseline
sessions (one value per session, :func:`figures.session_values`); its
band is :func:`rule.band`'s.  The entries go into the committed reference
file of the check where the partition is a facility's (it has reference
values there), else into the user's own file
(:func:`references.user_file`), which the configuration lays over the
committed ones.  Without ``--write`` the command prints the diff and
writes nothing.
'''

import os
import sys

from microbench import references
from microbench.verdicts import figures, reviewed, rule

HELP = 'references and bands from sessions of one partition, as a diff'


def add_arguments(parser):
    parser.add_argument('sessions', nargs='+', help='session queries')
    parser.add_argument('--partition', required=True,
                        help='SYSTEM:PARTITION')
    parser.add_argument('--write', action='store_true', help='apply the '
                        'diff')
    parser.add_argument('--user', action='store_true', help='write to the '
                        'user file even for a facility partition')
    rule.add_band_arguments(parser)
    parser.set_defaults(handler=run)


def entries(frame, floor, margin, max_spread=rule.MAX_SPREAD,
            refused=None):
    '''{(check, variant, figure): ([value, lower, upper, unit], values)}
    of every figure with samples of ``frame`` (one partition); a figure
    whose band is refused (:func:`rule.refusal`) is left out, one line on
    stderr saying why, and counted in ``refused`` (a list) if given.'''
    out = {}
    for (check, variant, figure), rows in figures.with_samples(
            frame).groupby(['check', 'variant', 'figure']):
        values = figures.session_values(rows)
        last = rows.iloc[-1]
        one_sided = rule.cache_figure(last)
        above = rule.gap_direction(last['ref'], last['lower'],
                                   last['upper'], last['unit'])
        try:
            ref, lower, upper = rule.band(values, floor, margin, one_sided,
                                          above)
        except ValueError as err:
            print(f'not baselined: {check} {variant} {figure}: {err}',
                  file=sys.stderr)
            continue
        why = rule.refusal(values, lower, upper, max_spread)
        if why:
            print(f'refused: {check} {variant} {figure}: {why}; no entry '
                  f'written, its reference stays as it was', file=sys.stderr)
            if refused is not None:
                refused.append((check, variant, figure))
            continue

        out[check, variant, figure] = (
            [ref, lower, upper, last['unit']], values
        )

    return out


def _texts(found, partition, user):
    '''{reference file: its text with ``found``'s entries set}, and the
    sessions outside the bands they make.'''
    texts, failures = {}, []
    for (check, variant, figure), (entry, values) in sorted(found.items()):
        source = references.file_of(check)
        if source is None:
            print(f'not baselined: {check}: no committed references file '
                  f'has it', file=sys.stderr)
            continue

        target = references.user_file() if user else source
        if target not in texts:
            texts[target] = reviewed.read(target)
        path = references.entry_path(references.load(source), check,
                                     partition, variant, figure)
        texts[target] = references.set_entry(texts[target], path, entry,
                                             tail=2 if len(path) > 3 else 1)
        for session, value in values.items():
            if not rule.passes(value, *entry[:3]):
                failures.append(f'{check} {variant} {figure}: session '
                                f'{session} ({value:.4g}) is outside')

    return texts, failures


def _unwritable(target):
    '''Why ``target`` (a references file, its folder made if missing)
    cannot be written, or None.'''
    if os.path.isdir(target):
        return f'{target} is a directory'
    if os.path.exists(target):
        return None if os.access(target, os.W_OK) else \
            f'{target} cannot be written (permission denied)'
    folder = os.path.dirname(os.path.abspath(target))
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        return f'{target} cannot be made ({folder} cannot be written)'
    return None


def run(args):
    frame = figures.load_many(args.sessions, args.db, args.partition)
    refused = []
    found = entries(frame, args.floor, args.margin, args.max_spread,
                    refused)
    nsessions = frame['session'].nunique()
    user = args.user or not references.facility(args.partition)
    texts, failures = _texts(found, args.partition, user)
    print(f'baseline of {args.partition} from {nsessions} session(s): '
          f'{len(found)} figures; band: the median of the sessions, '
          f'{args.margin} x the farthest session on each side, at least '
          f'{args.floor:.0%}; sessions spread more than x'
          f'{args.max_spread:g} refused'
          + (f' ({len(refused)} figure(s), above)' if refused else ''),
          file=sys.stderr)
    if failures:
        print('\n'.join(failures), file=sys.stderr)
        return 1
    print(f'every baseline session passes its band ({nsessions} '
          f'session(s) x {len(found)} figures)', file=sys.stderr)
    if args.write:
        # every file said before any is written: none or all of them
        for target in texts:
            why = _unwritable(target)
            if why:
                raise ValueError(f'{why}: nothing written')
    for target, text in texts.items():
        sys.stdout.writelines(reviewed.diff(target, text))
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
