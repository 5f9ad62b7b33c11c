#!/usr/bin/env python3
'''Acknowledgements, events and root causes on replayed histories with
known answers (a benchmark script, not a timed test).

A history is one partition's nights as :func:`microbench.verdicts.
figures.load` gives them, drawn from the model of
``bench/known_answers.py`` (one-way random effects on a log scale: each
night's level drifts by ``--drift`` with nothing changed, each figure's
samples spread by a within-night noise of the suite's own real figures):
ten figures judged against the partition's measured storage write limit
(as the fio and IOR write figures are), the limit's own figure
(``component_limits write``) and ten figures with no limit.  Each case is
replayed ``--draws`` times on ``MIN_NIGHTS + 10`` nights before its
change (:func:`microbench.verdicts.triage.judge`, what ``compare --last``
runs); printed, the share of histories where the known answer holds:

- ``unacknowledged``: one figure drops 50 %: its verdict is the nightly
  verdict's alone, night after night, and the night it is called exits 1;
- ``noise``: one figure drops 50 % on one night only, acknowledged as
  noise: that night ``acknowledged`` (no exit 1 for it); the next night
  not called;
- ``expired``: a 50 % drop that stays, acknowledged as known until the
  night after it: ``acknowledged`` on both, ``degraded`` the night after
  (its verdict back, one warning);

(the other figures' own false alarms, at the nightly budget, may set a
night's exit code or be events of their own: the cases look at the
figures they are about)
- ``expected``: a 25 % drop acknowledged as expected: no night after it
  called (13 nights), then a further 25 % drop called within 3 nights;
- ``one event``: ten figures drop 40 % on one night: on each of the 3
  nights from it those called so far are in one event (one called a
  night later joins it), one of the nights is a regression of theirs,
  and the third holds all ten;
- ``root``: the limit and its ten figures drop 40 % on one night: the
  same, the limit the event's root, the ten downstream of it.

Exit 1 when a case holds in less than its target (:data:`TARGETS`).
Exit 2, in one line, where what it judged is not what it says
(:mod:`claims`): a history of other than its nights and figures, a
figure the verdict did not judge, or a case over other than ``--draws``
histories.

    bench/triage.py [--draws 50] [--drift 0.05] [--samples 3]
'''

import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

from microbench import fields
from microbench.verdicts import acks, figures, nightly, triage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import claims  # noqa: E402
from known_answers import suite_noise  # noqa: E402

#: The share of histories each case must hold in
TARGETS = {'unacknowledged': 1.0, 'noise': 1.0, 'expired': 1.0,
           'expected: quiet after': 0.95, 'expected: later drop called':
           0.95, 'one event': 0.95, 'root': 0.95}

LIMIT = ('component_limits', 'write', 'write_median_mib_s')
#: The figures of a history: (check, variant, figure, limit name)
FIGURES = ([(f'fio_check{i}', 'realistic', 'write_median_mib_s',
             'storage_write_mib_s (measured)') for i in range(10)]
           + [(*LIMIT, '')]
           + [(f'other{i}', 'realistic', 'read_median_mib_s', '')
              for i in range(10)])
START = 1_790_000_000
BEFORE = nightly.MIN_NIGHTS + 10


def frame(levels, within, drift, samples, rng):
    '''The rows of one partition's nights: ``levels`` (nights x figures)
    times each night's drift, ``samples`` samples a night of each figure
    spread by its ``within`` noise.'''
    nights, count = levels.shape
    shift = rng.normal(0, drift, (nights, 1))
    draws = levels[:, :, None] * np.exp(
        shift[:, :, None] + rng.normal(0, 1, (nights, count, samples))
        * within[None, :, None])
    rows = []
    for night in range(nights):
        session = f'night-{night:03d}'
        for f, (check, variant, figure, limit) in enumerate(FIGURES):
            values = tuple(float(v) for v in draws[night, f])
            rows.append({
                'session': session, 'start': START + night * 86400.0,
                'tag': '', figures.CONFIRMS: '', 'system': 'bench',
                'partition': 'part', 'environ': 'builtin', 'check': check,
                'variant': variant, 'measures': 'storage',
                'figure': figure, 'value': float(np.median(values)),
                'unit': 'MiB/s', 'ref': None, 'lower': None,
                'upper': None, 'result': 'pass', 'samples': values,
                **{name: '' for name in fields.CONTEXT},
                'node': 'n1', 'kernel': '6.1', 'limit_name': limit,
                'limit_value': np.nan, 'share_of_limit': np.nan})
    out = pd.DataFrame(rows, columns=figures.COLUMNS)
    out['when'] = pd.to_datetime(out['start'], unit='s')
    claims.check('(nights, figure rows) of a history',
                 (out['session'].nunique(), len(out)),
                 (nights, nights * len(FIGURES)))
    return out


def history(args, rng, noise, scale):
    '''A history of ``BEFORE + 16`` nights; ``scale(nights)`` (the levels,
    nights x figures, all 1) sets its changes.'''
    levels = np.ones((BEFORE + 16, len(FIGURES)))
    scale(levels)
    return frame(levels, rng.choice(noise, len(FIGURES)), args.drift,
                 args.samples, rng)


def upto(rows, night):
    return rows[rows['start'] <= START + night * 86400.0]


def ack(kind, night, which=FIGURES[0], expires=''):
    return acks.Ack(system='bench', partition='part', check=which[0],
                    variant=which[1], figure=which[2],
                    night=f'night-{night:03d}', kind=kind, reason=kind,
                    expires=expires, index=1, path='bench.yaml')


def verdict(found, which=FIGURES[0]):
    said = [row['verdict'] for row in found.figures
            if (row['check'], row['variant'], row['figure']) == which[:3]]
    claims.check(f'verdicts of {"/".join(which[:3])} on a night',
                 len(said), 1)
    return said[0]


def _day(night):
    return time.strftime('%Y-%m-%d', time.gmtime(START + night * 86400))


def unacknowledged(rows):
    '''Whether, night after night, the dropped figure's verdict is the
    nightly verdict's alone, and the night it is a regression exits 1.'''
    for night in range(BEFORE, BEFORE + 3):
        mine = upto(rows, night)
        found = triage.judge(mine, found=[])
        alone = nightly.judge_last(mine).figures
        said = alone[(alone['check'] == FIGURES[0][0])]['verdict'].iloc[0]
        if verdict(found) != said:
            return False
        if said == 'regression' and found.exit_code != 1:
            return False
    return True


def noise(rows):
    lone = [ack('noise', BEFORE)]
    tonight = triage.judge(upto(rows, BEFORE), found=lone)
    after = triage.judge(upto(rows, BEFORE + 1), found=lone)
    return verdict(tonight) == 'acknowledged' and \
        verdict(after) not in ('regression', 'degraded', 'acknowledged')


def expired(rows):
    known = [ack('known', BEFORE, expires=_day(BEFORE + 1))]
    held = [triage.judge(upto(rows, night), found=known)
            for night in (BEFORE, BEFORE + 1)]
    back = triage.judge(upto(rows, BEFORE + 2), found=known)
    return (all(verdict(f) == 'acknowledged' for f in held)
            and verdict(back) == 'degraded' and len(back.warnings) == 1)


def expected(rows):
    '''(no night after the acknowledged drop called, the later drop
    called within 3 nights).'''
    accepted = [ack('expected', BEFORE)]
    quiet = all(verdict(triage.judge(upto(rows, night), found=accepted))
                in ('unchanged', 'improvement', 'improved')
                for night in range(BEFORE + 1, BEFORE + 13))
    later = any(verdict(triage.judge(upto(rows, night), found=accepted))
                == 'regression' for night in range(BEFORE + 13,
                                                   BEFORE + 16))
    return quiet, later


def grouped(rows, count, root):
    '''Whether, on each of the 3 nights from the drop on, the dropped
    figures called so far are in one event (one called a night later
    joins it), one of those nights is a regression of theirs (exit 1)
    and the others are not, and on the third night the event holds the
    ``count`` of them (and the limit as its root, the others downstream
    of it).'''
    dropped = {f[0] for f in FIGURES[:count]} | ({LIMIT[0]} if root
                                                  else set())
    alarms = []
    for night in range(BEFORE, BEFORE + 3):
        found = triage.judge(upto(rows, night), found=[])
        mine = [row for row in found.figures if row['check'] in dropped]
        alarms.append(any(row['verdict'] == 'regression' for row in mine))
        if len({row['event'] for row in mine if row['event']}) > 1:
            return False
    event = next((e for e in found.events if any(
        m['check'] in dropped for m in e['members'])), None)
    if sum(alarms) != 1 or event is None:
        return False
    roles = sorted(m['role'] for m in event['members']
                   if m['check'] in dropped)
    if root:
        return (event['root'] == ['storage_write_mib_s']
                and roles == ['downstream'] * count + ['root'])
    return roles == ['member'] * count


def drop(factor, which, start=BEFORE, end=None):
    def scale(levels):
        levels[start:end, list(which)] *= factor
    return scale


def cases(args, rng, noise_of):
    '''{case: [whether its answer held, per history]}.'''
    out = {name: [] for name in TARGETS}
    ten, limit = range(10), [10]
    for _ in range(args.draws):
        out['unacknowledged'].append(unacknowledged(history(
            args, rng, noise_of, drop(0.5, [0]))))
        out['noise'].append(noise(history(
            args, rng, noise_of, drop(0.5, [0], end=BEFORE + 1))))
        out['expired'].append(expired(history(
            args, rng, noise_of, drop(0.5, [0]))))

        def twice(levels):
            drop(0.75, [0])(levels)
            drop(0.75, [0], start=BEFORE + 13)(levels)
        quiet, later = expected(history(args, rng, noise_of, twice))
        out['expected: quiet after'].append(quiet)
        out['expected: later drop called'].append(later)
        out['one event'].append(grouped(history(
            args, rng, noise_of, drop(0.6, ten)), 10, False))
        out['root'].append(grouped(history(
            args, rng, noise_of, drop(0.6, [*ten, *limit])), 10, True))
    for name, held in out.items():
        claims.check(f'histories of the case {name}', len(held), args.draws)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--draws', type=int, default=50)
    parser.add_argument('--drift', type=float, default=0.05)
    parser.add_argument('--samples', type=int, default=3)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    # the quiet figures of the suite (a noisy one needs more samples a
    # night to show a drop at all: bench/known_answers.py, advise)
    noise_of = suite_noise()
    noise_of = noise_of[noise_of <= 0.10]
    start = time.monotonic()
    found = cases(args, rng, noise_of)
    print(f'{args.draws} histories per case, {len(FIGURES)} figures, '
          f'drift {args.drift:.0%}, {args.samples} samples a night, '
          f'within-night noise of the suite\'s figures up to 10 % '
          f'({time.monotonic() - start:.0f} s)')
    failed = []
    for name, held in found.items():
        share = float(np.mean(held))
        print(f'  {name}: {share:.0%} (target {TARGETS[name]:.0%})')
        if share < TARGETS[name]:
            failed.append(name)
    print('summary: ' + ('every case holds' if not failed else
                         f'missed: {", ".join(failed)}'))
    return 1 if failed else 0


if __name__ == '__main__':
    claims.main(main)
