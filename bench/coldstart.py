#!/usr/bin/env python3
'''The cold-start witness on series with known answers (a benchmark
script, not a timed test): how often the rule (:mod:`microbench.suite.
coldstart`) flags round 1 of pure noise, and how often it finds a round 1
planted slower.

A figure's samples are ``level x exp(noise)``, the noise iid normal on a
log scale with spread ``--spreads`` (2 to 30 %: the real within-night
spreads of the suite's figures run from 2 % to far above); a planted cold
start divides round 1 by ``--ratios`` (1.5, 2, 3).  Each cell is the
share of ``--draws`` series flagged, at 3, 5 and 9 samples.  Then the
rule on every figure of the real stored sessions in
``tests/data/results`` (quick nights on the development VM): how many it
flags, and which.

Exit 1 when a target is missed: more than 1 % false alarms at 3 samples
and a spread of 5 %, or fewer than 95 % of rounds 1 twice as slow found at
3 samples and a spread of 10 %.  Exit 2, in one line, where what it
judged is not what it says (:mod:`claims`): a cell of other than
``--draws`` series, or a stored session that gave no figure.

    bench/coldstart.py [--draws 20000] [--seed 1]
'''

import argparse
import json
import os
import sys

import numpy as np

import claims
from microbench import paths
from microbench.suite import coldstart
from microbench.verdicts import figures

SAMPLES = (3, 5, 9)
SPREADS = (0.02, 0.05, 0.10, 0.20, 0.30)
RATIOS = (1.5, 2.0, 3.0)
DATA = os.path.join(paths.ROOT, 'tests', 'data', 'results')

#: The targets: (samples, spread, most false alarms) and (samples,
#: spread, planted ratio, least found)
FALSE_TARGET = (3, 0.05, 0.01)
FOUND_TARGET = (3, 0.10, 2.0, 0.95)


def flagged(rng, draws, samples, spread, ratio=1.0):
    '''The share of ``draws`` series flagged (round 1 divided by
    ``ratio``).'''
    series = np.exp(rng.normal(scale=spread, size=(draws, samples)))
    series[:, 0] /= ratio
    said = [bool(coldstart.judge(row, 'MiB/s')) for row in series]
    claims.check(f'series judged at {samples} samples, spread {spread}',
                 (len(said), len(series[0])), (draws, samples))
    return sum(said) / draws


def simulated(draws, seed):
    '''{(samples, spread, ratio): share flagged}; ratio 1: pure noise.'''
    rng = np.random.default_rng(seed)
    return {(n, s, r): flagged(rng, draws, n, s, r)
            for n in SAMPLES for s in SPREADS for r in (1.0, *RATIOS)}


def real():
    '''[(session file, check, variant, figure, samples, words)] of every
    figure with samples of the stored sessions, the flagged ones with
    their words.'''
    out = []
    names = sorted(name for name in os.listdir(DATA)
                   if name.endswith('.json'))
    for name in names:
        with open(os.path.join(DATA, name), encoding='utf-8') as fp:
            found = json.load(fp)
        sessions = found if isinstance(found, list) else [found]
        rows = figures.with_samples(figures.frame(sessions))
        for row in rows.itertuples():
            out.append((name, row.check, row.variant, row.figure,
                        row.samples, coldstart.judge(row.samples, row.unit)))
    claims.check('stored session files that gave figures with samples',
                 {item[0] for item in out}, set(names))
    return out


def table(found):
    lines = [f'{"samples":>7} {"spread":>6}  {"noise":>7}  '
             + '  '.join(f'{"x" + format(r, "g") + " found":>9}'
                         for r in RATIOS)]
    for n in SAMPLES:
        for s in SPREADS:
            cells = '  '.join(f'{found[(n, s, r)]:>9.1%}' for r in RATIOS)
            lines.append(f'{n:>7} {s:>6.0%}  {found[(n, s, 1.0)]:>7.2%}  '
                         f'{cells}')
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--draws', type=int, default=20000)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()

    found = simulated(args.draws, args.seed)
    print(f'the cold-start rule on {args.draws} series a cell: noise, the '
          f'share of iid series flagged (false alarms); xR found, the share '
          f'with round 1 R times slower flagged')
    print(table(found))
    stored = real()
    hits = [item for item in stored if item[-1]]
    print(f'\nreal stored sessions (tests/data/results): {len(hits)} of '
          f'{len(stored)} figures with samples flagged')
    for name, check, variant, figure, samples, words in hits:
        print(f'  {name} {check} {variant} {figure}: {words} '
              f'({", ".join(f"{v:.4g}" for v in samples)})')

    n, s, most = FALSE_TARGET
    missed = []
    if found[(n, s, 1.0)] > most:
        missed.append(f'false alarms {found[(n, s, 1.0)]:.2%} > {most:.0%} '
                      f'at {n} samples, spread {s:.0%}')
    n, s, r, least = FOUND_TARGET
    if found[(n, s, r)] < least:
        missed.append(f'x{r:g} found {found[(n, s, r)]:.1%} < {least:.0%} '
                      f'at {n} samples, spread {s:.0%}')
    for line in missed:
        print(f'target missed: {line}', file=sys.stderr)
    return 1 if missed else 0


if __name__ == '__main__':
    claims.main(main)
