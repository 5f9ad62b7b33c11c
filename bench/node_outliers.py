#!/usr/bin/env python3
'''The same-night rule for nodes (:mod:`microbench.nodes.outliers`) on
partitions with known answers (a benchmark script, not a timed test).

The model is the suite's (``bench/known_answers.py``): one-way random
effects on a log scale, a node's sample of a figure on a night being
``level x exp(drift_night + offset_node + within_sample)``.
``drift_night`` is normal with standard deviation ``--drift`` and falls on
every node alike; ``within_sample`` is normal with the figure's own
within-night spread, taken from the suite's real stored samples
(``tests/data/results``, the sessions ``known_answers.py`` reads: every
figure with a better side, its samples' log standard deviation);
``offset_node`` models nodes that are not identical: normal with log
standard deviation ``--offset`` (2 %), drawn once per node and figure and
kept over the nights.  Each node gives ``--samples`` samples a night.

Reported, per partition of 4, 8 and 16 nodes:

(a) ``--partitions`` partitions of ``--nights`` clean nights: the nodes
    falsely named slow (a node-night slow in any figure), for the fio
    figures of spread up to 10 % and for every figure, and the false slow
    figure-nights per 1000 by band of spread;
(b) one node throttled to 0.3, 0.5 and 0.7 of its level (a time lasts
    1/0.3, ...), in one figure: the share of ``--draws`` nights where it
    is named slow (its first night: the rule reads no history), and the
    other nodes falsely named slow;
(c) the nights of (a) moved by a drift of exactly +10 % or -10 % on every
    node: the nodes falsely named slow, and the nights the drift changed
    what was called (none: the rule reads each node against its peers).

Exit 1 when a target is missed: a false slow node over the clean nights
of the fio figures of spread up to 10 %, or under the drift of (c), or a
night the drift changed; a node throttled to 0.3 in those figures named
slow in less than 95 % of its nights, to 0.5 in less than 90 %.  Exit 2,
in one line, where what it judged is not what it claims (:mod:`claims`).

    bench/node_outliers.py [--partitions 10] [--nights 30] [--draws 200]
                           [--nodes 4 8 16] [--samples 3] [--drift 0.05]
                           [--offset 0.02] [--seed 0]
'''

import argparse
import json
import os
import time

import numpy as np

import claims
from microbench import paths
from microbench.nodes import outliers
from microbench.verdicts import figures, history

DATA = os.path.join(paths.ROOT, 'tests', 'data', 'results')
SOURCES = ('all-quick.json', 'fio-quick-1.json', 'fio-quick-2.json')
THROTTLES = (0.3, 0.5, 0.7)
#: Bands of within-night spread (log standard deviation), upper bounds
BANDS = (0.10, 0.25, 0.50, np.inf)
#: The spread up to which the fio figures must give no false node
QUIET = 0.10
DRIFT_STEP = 0.10
LEVEL = 1000.0
#: The least share of nights a node throttled to 0.3 and 0.5 in a quiet
#: fio figure is named slow
NAMED = {0.3: 0.95, 0.5: 0.90}


def figure_noise():
    '''``[(figure name, direction, within-night log standard deviation,
    fio)]`` of every figure with a better side of the stored sessions.'''
    out = []
    for name in SOURCES:
        with open(os.path.join(DATA, name)) as fp:
            table = history.nights(figures.frame([json.load(fp)]))
        table = table.dropna(subset=['log_sd'])
        found = 0
        for row in table.itertuples():
            direction = outliers.direction_of(row.unit)
            if direction is None:
                continue
            measured = row.figure.split('_median')[0].replace('_', ' ')
            out.append((f'{row.check} {row.variant} {measured}', direction,
                        float(row.log_sd), row.check.startswith('fio')))
            found += 1
        claims.check(f'{name} gave figures with a better side', found > 0,
                     True)
    return out


def band_of(spread):
    '''The index of the band of :data:`BANDS` ``spread`` falls in.'''
    return int(np.searchsorted(BANDS, spread))


def band_name(index):
    '''``<= 10 %``, ``10-25 %``, ..., ``> 50 %``.'''
    if index == 0:
        return f'<= {BANDS[0]:.0%}'
    if np.isinf(BANDS[index]):
        return f'> {BANDS[index - 1]:.0%}'
    return f'{BANDS[index - 1]:.0%}-{BANDS[index]:.0%}'.replace('%-', '-')


def cell(hits, others, draws):
    '''A cell of the table (b): ``97% of 200; 0``.'''
    if not draws:
        return 'no figure'
    return f'{hits / draws:.0%} of {draws}; {others}'


def node_names(count):
    '''``mbnode1`` ... ``mbnode<count>``.'''
    return [f'mbnode{index + 1}' for index in range(count)]


def draw_night(spreads, offsets, drift, samples, rng):
    '''Samples of one night: ``(nodes, figures, samples)``.'''
    within = rng.normal(0, 1, (*offsets.shape, samples)) * \
        np.asarray(spreads)[None, :, None]
    return LEVEL * np.exp(drift + offsets[:, :, None] + within)


def slow_nodes(night, names, noise, which):
    '''{figure index: the nodes named slow} of the figures ``which``.'''
    out = {}
    for column in which:
        figure, direction, _, _ = noise[column]
        nodes = {name: night[row, column].tolist()
                 for row, name in enumerate(names)}
        judgement = outliers.judge_figure(figure, nodes, direction)
        claims.check(f'nodes judged of {figure}', len(judgement.results),
                     len(names))
        out[column] = {result.node for result in judgement.results
                       if result.state == outliers.SLOW}
    return out


def clean_nights(noise, count, args, rng):
    '''(a) and (c) on the same draws: {'quiet': false slow node-nights of
    the quiet fio figures, 'all': of every figure, 'band': false slow
    figure-nights by band, 'judged': figure-nights by band, 'drift': false
    slow node-nights of the quiet fio figures with every node moved
    +-10 %, 'moved': nights whose slow nodes the drift changed,
    'nights'}.'''
    names = node_names(count)
    spreads = [spread for _, _, spread, _ in noise]
    quiet = [column for column, (_, _, spread, fio) in enumerate(noise)
             if fio and spread <= QUIET]
    out = dict(quiet=0, all=0, band=np.zeros(len(BANDS), int),
               judged=np.zeros(len(BANDS), int), drift=0, moved=0, nights=0)
    for _ in range(args.partitions):
        offsets = rng.normal(0, args.offset, (count, len(noise)))
        for night in range(args.nights):
            samples = draw_night(spreads, offsets, rng.normal(0, args.drift),
                                 args.samples, rng)
            slow = slow_nodes(samples, names, noise, range(len(noise)))
            out['quiet'] += len(set().union(*(slow[column]
                                              for column in quiet)))
            out['all'] += len(set().union(*slow.values()))
            for column, named in slow.items():
                out['band'][band_of(spreads[column])] += len(named)
                out['judged'][band_of(spreads[column])] += count
            step = DRIFT_STEP if night % 2 else -DRIFT_STEP
            drifted = slow_nodes(samples * np.exp(step), names, noise, quiet)
            out['drift'] += len(set().union(*drifted.values()))
            out['moved'] += any(drifted[column] != slow[column]
                                for column in quiet)
            out['nights'] += 1
    claims.check('clean nights judged', out['nights'],
                 args.partitions * args.nights)
    return out


def throttled(noise, count, throttle, args, rng):
    '''(b): {column of :data:`COLUMNS`: (nights the throttled node is
    named slow, other nodes falsely named slow, nights)}, ``--draws``
    nights a column, each of a figure drawn from the column's.'''
    names = node_names(count)
    spreads = [spread for _, _, spread, _ in noise]
    tally = {}
    for key in COLUMNS:
        pool = [column for column, (_, _, spread, fio) in enumerate(noise)
                if in_column(key, spread, fio)]
        hits = others = 0
        for _ in range(args.draws if pool else 0):
            column = pool[int(rng.integers(len(pool)))]
            direction = noise[column][1]
            offsets = rng.normal(0, args.offset, (count, len(noise)))
            samples = draw_night(spreads, offsets, rng.normal(0, args.drift),
                                 args.samples, rng)
            samples[0, column] *= (throttle if direction == 'higher'
                                   else 1 / throttle)
            slow = slow_nodes(samples, names, noise, [column])[column]
            hits += names[0] in slow
            others += len(slow - {names[0]})
        tally[key] = (hits, others, args.draws if pool else 0)
    claims.check('throttled nights drawn', sum(
        draws for _, _, draws in tally.values()), args.draws * sum(
        any(in_column(key, spread, fio) for _, _, spread, fio in noise)
        for key in COLUMNS))
    return tally


def in_column(key, spread, fio):
    '''Whether a figure of ``spread`` (a fio one: ``fio``) is of the
    column ``key`` of the table (b).'''
    if key == QUIET_FIO:
        return fio and spread <= QUIET
    return band_name(band_of(spread)) == key


QUIET_FIO = 'fio <= 10%'
#: The columns of (b): the quiet fio figures, then every figure by band
COLUMNS = (QUIET_FIO, *(band_name(band) for band in range(len(BANDS))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--partitions', type=int, default=10)
    parser.add_argument('--nights', type=int, default=30)
    parser.add_argument('--draws', type=int, default=200)
    parser.add_argument('--nodes', type=int, nargs='+', default=[4, 8, 16])
    parser.add_argument('--samples', type=int, default=3)
    parser.add_argument('--drift', type=float, default=0.05)
    parser.add_argument('--offset', type=float, default=0.02)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    noise = figure_noise()
    quiet = [figure for figure, _, spread, fio in noise
             if fio and spread <= QUIET]
    print(f'{len(noise)} figures with a better side ({len(quiet)} fio '
          f'figures of spread <= {QUIET:.0%}); rule: {outliers.MIN_PEERS} '
          f'peers at least, z {outliers.Z_SLOW}, minimum effect '
          f'{outliers.MIN_EFFECT:.0%}, floor {outliers.FLOOR:.0%}; model: '
          f'{args.samples} samples a node, drift {args.drift:.0%}, node '
          f'offset {args.offset:.0%}, {args.partitions} partitions x '
          f'{args.nights} nights, {args.draws} draws per throttle',
          flush=True)
    failed = []
    for count in args.nodes:
        start = time.monotonic()
        clean = clean_nights(noise, count, args, rng)
        nights = clean['nights']
        print(f'\n{count} nodes ({time.monotonic() - start:.0f} s)')
        print(f'  (a) clean: {clean["quiet"]} false slow nodes in {nights} '
              f'nights x {count} nodes (fio, spread <= {QUIET:.0%}); '
              f'{clean["all"]} over every figure ('
              f'{clean["all"] / (nights * count):.1%} of node-nights)')
        rates = ', '.join(
            f'{band_name(band)}: '
            f'{1000 * clean["band"][band] / clean["judged"][band]:.2f}'
            for band in range(len(BANDS)) if clean['judged'][band])
        print(f'      false slow per 1000 node-figure-nights: {rates}')
        print(f'  (c) drift +-{DRIFT_STEP:.0%} on every node, same draws: '
              f'{clean["drift"]} false slow nodes (fio, spread <= '
              f'{QUIET:.0%}), {clean["moved"]} nights called otherwise')
        if clean['quiet']:
            failed.append(f'{count} nodes: {clean["quiet"]} false slow nodes '
                          f'over clean nights')
        if clean['drift'] or clean['moved']:
            failed.append(f'{count} nodes: {clean["drift"]} false slow nodes '
                          f'under drift, {clean["moved"]} nights changed')
        print('  (b) one node throttled: the share of its nights it is named '
              'slow, of nights; other nodes named slow')
        print('      to   ' + ''.join(f'{key:>16}' for key in COLUMNS))
        for throttle in THROTTLES:
            tally = throttled(noise, count, throttle, args, rng)
            print(f'      {throttle:<5}' + ''.join(
                f'{cell(*tally[key]):>16}' for key in COLUMNS))
            hits, _, draws = tally[QUIET_FIO]
            if throttle in NAMED and draws and \
                    hits / draws < NAMED[throttle]:
                failed.append(f'{count} nodes: throttled to {throttle}, '
                              f'named in {hits / draws:.0%} (target '
                              f'{NAMED[throttle]:.0%})')
    print('\nreproduce: .venv/bin/python bench/node_outliers.py '
          f'--partitions {args.partitions} --nights {args.nights} --draws '
          f'{args.draws} --nodes {" ".join(map(str, args.nodes))} '
          f'--samples {args.samples} --drift {args.drift} --offset '
          f'{args.offset} --seed {args.seed}'
          + ''.join(f'\nmissed: {line}' for line in failed))
    return 1 if failed else 0


if __name__ == '__main__':
    claims.main(main)
