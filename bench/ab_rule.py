#!/usr/bin/env python3
'''The sequential rule of ``microbench ab`` (:mod:`microbench.cause.
sequential`) on A/A and planted A/B series drawn with the noise of the
suite's real recorded samples (a benchmark script, not a timed test).

**The experiments** are the real ones of the stored sessions
(``tests/data/results``, 6 quick sessions of the development VM): each
check of a session with its gap check is one experiment (20 of them, 3 to
27 figures, 135 figures in all), judged as one family as ``microbench ab``
judges a run's checks.

**The noise of a figure** is its own: a round's value is ``exp(drift_t x
tau + e x sigma)``, with

- ``sigma`` the figure's spread in its session (the standard deviation of
  the log of its 3 real rounds' samples, from 0.5 % to 155 %);
- ``e`` drawn from the real rounds of every figure held in several
  sessions, each a round's deviation from its session's mean over its
  figure's pooled spread (scaled to variance 1): the tails of real rounds,
  a busy session's included, not a normal's;
- ``drift_t`` a random walk of the machine shared by the experiment's
  figures (normal steps), its step ``tau = c x sigma``, ``c`` from the real
  rounds: over every figure of every session, the squared difference of
  rounds 1 and 3 against that of adjacent rounds (each over its figure's
  session variance: 1 for rounds that do not drift) is ``R``, and a walk
  with steps ``tau`` gives ``R = (2 tau^2 + 2 sigma^2) / (tau^2 + 2
  sigma^2)``.

Reported, in quick mode (cap 10 pairs) and otherwise (20), rounds A B A
B:

- A/A: the share of experiments where every figure says ``same`` (and by
  check), where
  any says a difference (false), where any is ``inconclusive`` (at the
  cap: an interval reaching beyond ±50 %, too noisy to say ``same``); the
  false ``B slower`` per 1000 figures; the mean pairs run; the share of
  figures saying ``same`` by their spread;
- B slower by 5, 10, 20, 30 % on every figure with a better side
  (bandwidths x(1 - d), latencies x(1 + d); gaps left as they are): the
  share of those figures called ``B slower`` and the mean pairs of the
  call, overall and by the figure's spread (under 10 %, 10 to 30 %, 30 %
  and more); calls the other way, and on the gaps (false);
- a machine that slows linearly by 20 % over a full run (the cap's
  rounds), A/A: the share of experiments with a false difference when
  the rounds run A B A B, A B B A, and all A then all B (pairs: round k of
  A with round k of B), and the last without the linear drift.

Exit 1 when a target is missed: A/A experiments with a false difference
over 5 %, A/A figures under 10 % spread saying ``same`` in under 95 %
(noisier figures are often too noisy to bound within ±50 % in the cap's
rounds: reported, not a target), a 30 % drop of the
figures under 10 % spread called in under 90 % (full mode), or a false
difference over 5 % under the linear drift with the rounds interleaved.
Exit 2, in one line, where what it judged is not what it says
(:mod:`claims`): a session that gave another count of experiments or
figures, an experiment not judged, a figure without a final verdict.

    bench/ab_rule.py [--draws 40] [--seed 0] [--modes quick full]
                     [--max-reach 0.5]
'''

import argparse
import collections
import json
import os
import time

import numpy as np

import claims
from microbench import paths
from microbench.cause import sequential
from microbench.verdicts import figures

DATA = os.path.join(paths.ROOT, 'tests', 'data', 'results')
SOURCES = ('all-quick.json', 'fio-quick-1.json', 'fio-quick-2.json',
           'fio-quick-limits.json', 'limits-quick.json', 'memory-quick.json')
#: What the sources hold: experiments (check with its gap, per session)
#: and figures with samples
EXPERIMENTS, FIGURES = 20, 135
DROPS = (0.05, 0.10, 0.20, 0.30)
#: The machine's linear drift over a full run
DRIFT = -0.20
#: The classes of a figure's spread
CLASSES = ((0, 0.10, 'spread < 10 %'), (0.10, 0.30, '10 to 30 %'),
           (0.30, np.inf, '>= 30 %'))
DIFFERENCES = ('B slower', 'B faster', 'B higher', 'B lower')


def sessions():
    '''``{source: frame of its figures with 3 samples or more}``.'''
    out = {}
    for name in SOURCES:
        with open(os.path.join(DATA, name)) as fp:
            table = figures.frame([json.load(fp)])
        keep = table['samples'].map(
            lambda found: len(found) >= 3 and min(found) > 0)
        out[name] = table[keep].reset_index(drop=True)
    return out


def templates(found):
    '''The experiments: lists of ``(figure key, sigma)``.'''
    out = []
    for table in found.values():
        family = table['check'].str.replace('_gap$', '', regex=True)
        for _, rows in table.groupby(family, sort=True):
            out.append([((row.check, row.variant, row.figure, row.unit,
                          sequential.direction(row.unit)),
                         float(np.std(np.log(row.samples), ddof=1)))
                        for row in rows.itertuples()])
    return out


def tails(found):
    '''The real rounds' deviations from their session's mean over their
    figure's pooled spread, of every figure held in several sessions
    (variance 1).'''
    by_figure = collections.defaultdict(list)
    for table in found.values():
        for row in table.itertuples():
            logs = np.log(row.samples)
            by_figure[row.check, row.variant, row.figure].append(
                logs - logs.mean())
    pool = []
    for residuals in by_figure.values():
        if len(residuals) < 2:
            continue
        dof = sum(r.size - 1 for r in residuals)
        spread = np.sqrt(sum(float((r ** 2).sum()) for r in residuals) / dof)
        if spread > 0:
            pool += [r * np.sqrt(r.size / (r.size - 1)) / spread
                     for r in residuals]
    pool = np.concatenate(pool)
    return pool / pool.std()


def walk_step(found):
    '''``c``: the machine's random-walk step over a figure's spread, from
    the real rounds (module docstring).'''
    far, near = [], []
    for table in found.values():
        for row in table.itertuples():
            logs = np.log(row.samples[:3])
            variance = logs.var(ddof=1)
            if variance > 0:
                far.append((logs[2] - logs[0]) ** 2 / variance)
                near.append(((logs[1] - logs[0]) ** 2
                             + (logs[2] - logs[1]) ** 2) / 2 / variance)
    ratio = float(np.mean(far) / np.mean(near))
    return float(np.sqrt(max(0.0, 2 * (ratio - 1) / (2 - ratio)))), ratio


def spread_class(spread):
    '''The name of the class of a figure's spread (:data:`CLASSES`).'''
    return next(label for low, high, label in CLASSES
                if low <= spread < high)


def _plant(key, drop):
    '''The log factor of B's values of a figure B slower by ``drop``.'''
    better = sequential.DIRECTIONS[key[4]]
    if not drop or not better:
        return 0.0
    return float(np.log(1 - drop) if better > 0 else np.log(1 + drop))


def draw(template, cap, noise, rng, drop=0.0, slope=0.0):
    '''The log values of the ``2 x cap`` rounds of each figure of
    ``template`` (array figures x rounds, time order) and of B's planted
    change (array of log factors).'''
    pool, step = noise
    rounds = 2 * cap
    walk = np.cumsum(rng.standard_normal(rounds))
    sigma = np.array([spread for _, spread in template])[:, None]
    logs = (sigma * step * walk[None, :]
            + sigma * rng.choice(pool, size=(len(template), rounds))
            + slope * np.arange(rounds)[None, :])
    return logs, np.array([_plant(key, drop) for key, _ in template])


#: The sides of each round of a design (the first ``2 x cap`` of them)
def _sides(design, rounds):
    if design == 'blocked':
        return ['A'] * (rounds // 2) + ['B'] * (rounds // 2)
    return [design[t % 4] for t in range(rounds)]


def judged(template, rule, noise, rng, design='ABAB', drop=0.0, slope=0.0):
    '''``(judgements by figure key, pairs run)`` of one experiment.'''
    cap = rule.cap
    logs, planted = draw(template, cap, noise, rng, drop, slope)
    sides = _sides(design, 2 * cap)
    is_b = np.array([side == 'B' for side in sides])
    values = np.exp(logs + planted[:, None] * is_b[None, :])
    keys = [key for key, _ in template]
    if design == 'blocked':
        out = {key: sequential.judge(
            list(zip(row[:cap], row[cap:])), sequential.DIRECTIONS[key[4]],
            rule, len(keys), cap) for key, row in zip(keys, values)}
        return out, cap
    experiment = sequential.Experiment(rule)
    experiment.update({key: [(t, side, [float(row[t])])
                             for t, side in enumerate(sides)]
                       for key, row in zip(keys, values)})
    looks = [found.look for found in experiment.judgements.values()]
    return experiment.judgements, max(looks)


class Tally:
    '''The counts of one scenario.'''

    def __init__(self):
        self.experiments = 0
        self.figures = 0
        self.all_same = self.any_false = self.any_inconclusive = 0
        self.pairs = []
        self.verdicts = collections.Counter()
        self.called = collections.Counter()      # (class, 'called'/'of')
        self.looks = collections.defaultdict(list)
        self.by_class = collections.defaultdict(collections.Counter)
        self.by_check = collections.defaultdict(collections.Counter)
        self.wrong = 0

    def add(self, template, found, run, drop=0.0):
        self.experiments += 1
        self.pairs.append(run)
        false = inconclusive = False
        for (key, spread), (_, got) in zip(template, found.items()):
            self.figures += 1
            self.verdicts[got.verdict] += 1
            inconclusive |= got.verdict == 'inconclusive'
            planted = _plant(key, drop) != 0
            name = spread_class(spread)
            self.by_class[name][got.verdict] += 1
            if got.verdict in DIFFERENCES and not (
                    planted and got.verdict == 'B slower'):
                false = True
                self.wrong += 1
            if planted:
                for group in (name, 'all'):
                    self.called[group, 'of'] += 1
                    if got.verdict == 'B slower':
                        self.called[group, 'called'] += 1
                        self.looks[group].append(got.look)
        same = all(got.verdict == 'same' for got in found.values())
        check = template[0][0][0].removesuffix('_gap')
        self.by_check[check]['same'] += same
        self.by_check[check]['of'] += 1
        self.all_same += same
        self.any_false += false
        self.any_inconclusive += inconclusive

    def share(self, count):
        return count / max(self.experiments, 1)


def scenario(tmpl, rule, noise, rng, draws, **how):
    tally = Tally()
    for template in tmpl:
        for _ in range(draws):
            found, run = judged(template, rule, noise, rng, **how)
            claims.check('figures judged in one experiment', len(found),
                         len(template))
            finals = sum(got.verdict != 'continue' for got in found.values())
            claims.check('figures with a final verdict', finals,
                         len(template))
            tally.add(template, found, run, how.get('drop', 0.0))
    claims.check('experiments judged', tally.experiments,
                 len(tmpl) * draws)
    claims.check('figures judged', tally.figures,
                 sum(map(len, tmpl)) * draws)
    return tally


def report_aa(tally):
    per = 1000 * tally.verdicts['B slower'] / tally.figures
    print(f'  A/A: {tally.experiments} experiments ({tally.figures} '
          f'figures): every figure same in {tally.share(tally.all_same):.1%}'
          f'; a false difference in {tally.share(tally.any_false):.1%}; '
          f'an inconclusive in {tally.share(tally.any_inconclusive):.1%}; '
          f'false B slower {per:.2f} per 1000 figures; mean pairs run '
          f'{np.mean(tally.pairs):.1f}')
    print('       figures: ' + ', '.join(
        f'{verdict} {count}' for verdict, count in
        sorted(tally.verdicts.items())))
    print('       every figure same, by check: ' + '; '.join(
        f'{check} {found["same"] / found["of"]:.0%} of {found["of"]}'
        for check, found in sorted(tally.by_check.items())))
    print('       same, by spread: ' + '; '.join(
        f'{label} {same_share(tally, label):.1%} of '
        f'{sum(tally.by_class[label].values())}'
        for _, _, label in CLASSES))


def same_share(tally, label):
    '''The share of a class's figures that say ``same``.'''
    found = tally.by_class[label]
    return found['same'] / max(sum(found.values()), 1)


def report_drop(drop, tally):
    parts = []
    for _, _, label in (*CLASSES, (0, 0, 'all')):
        of = tally.called[label, 'of']
        if of:
            called = tally.called[label, 'called']
            looks = tally.looks[label]
            mean = f'{np.mean(looks):.1f}' if looks else '-'
            parts.append(f'{label}: {called / of:.0%} of {of} (pairs '
                         f'{mean})')
    print(f'  B slower by {drop:.0%}: called ' + '; '.join(parts)
          + f'; false calls (other way, or a gap) {tally.wrong}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--draws', type=int, default=40,
                        help='experiments drawn per real experiment and '
                        'scenario (default %(default)s)')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--modes', nargs='+', default=['quick', 'full'],
                        choices=['quick', 'full'])
    parser.add_argument('--max-reach', type=float,
                        default=sequential.MAX_REACH,
                        help='the farthest a same at the cap may reach '
                        '(default %(default)s; 1000: same whatever it '
                        'reaches)')
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    found = sessions()
    tmpl = templates(found)
    claims.check('experiments of the stored sessions', len(tmpl),
                 EXPERIMENTS)
    claims.check('figures of the stored sessions', sum(map(len, tmpl)),
                 FIGURES)
    pool = tails(found)
    step, ratio = walk_step(found)
    spreads = np.array([spread for t in tmpl for _, spread in t])
    kurtosis = float(np.mean(pool ** 4))
    print(f'{len(tmpl)} experiments, {spreads.size} figures (spread '
          f'{spreads.min():.1%} to {spreads.max():.1%}, median '
          f'{np.median(spreads):.1%}); tails: {pool.size} real rounds, '
          f'kurtosis {kurtosis:.2f} (normal: 3); drift: R = {ratio:.3f}, '
          f'walk step c = {step:.2f} x spread; {args.draws} draws per '
          f'experiment and scenario', flush=True)
    noise = (pool, step)
    failed = []
    for mode in args.modes:
        cap = sequential.CAP_QUICK if mode == 'quick' else sequential.CAP
        rule = sequential.Rule(cap=cap, max_reach=args.max_reach)
        start = time.monotonic()
        print(f'\n{mode} mode: cap {cap} pairs, first look after '
              f'{sequential.MIN_PAIRS}, same at the cap reaching at most '
              f'±{args.max_reach:.0%}', flush=True)
        aa = scenario(tmpl, rule, noise, rng, args.draws)
        report_aa(aa)
        if aa.share(aa.any_false) > sequential.ALPHA:
            failed.append(f'{mode}: A/A false difference in '
                          f'{aa.share(aa.any_false):.1%}')
        quiet = same_share(aa, CLASSES[0][2])
        if quiet < 0.95:
            failed.append(f'{mode}: A/A same for {quiet:.1%} of the figures '
                          f'under 10 % spread')
        for drop in DROPS:
            tally = scenario(tmpl, rule, noise, rng, args.draws, drop=drop)
            report_drop(drop, tally)
            called = tally.called[CLASSES[0][2], 'called'] / max(
                tally.called[CLASSES[0][2], 'of'], 1)
            if mode == 'full' and drop == 0.30 and called < 0.90:
                failed.append(f'{mode}: a 30 % drop of quiet figures called '
                              f'in {called:.0%}')
        slope = np.log(1 + DRIFT) / (2 * cap)
        for design, drifting in (('ABAB', True), ('ABBA', True),
                                 ('blocked', True), ('blocked', False)):
            tally = scenario(tmpl, rule, noise, rng, args.draws,
                             design=design,
                             slope=slope if drifting else 0.0)
            said = 'all A, then all B' if design == 'blocked' else design
            print(f'  drift {DRIFT:.0%} over the run' if drifting else
                  '  no linear drift', end='')
            print(f', rounds {said}: a false difference in '
                  f'{tally.share(tally.any_false):.1%} of A/A experiments '
                  f'(false B slower {tally.verdicts["B slower"]} of '
                  f'{tally.figures} figures)')
            if drifting and design != 'blocked' \
                    and tally.share(tally.any_false) > sequential.ALPHA:
                failed.append(f'{mode}: drift, {design}: false difference '
                              f'in {tally.share(tally.any_false):.1%}')
        print(f'  ({time.monotonic() - start:.0f} s)', flush=True)
    print('\nsummary: ' + ('every target met' if not failed else
                           'missed: ' + '; '.join(failed)))
    return 1 if failed else 0


if __name__ == '__main__':
    claims.main(main)
