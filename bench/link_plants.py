#!/usr/bin/env python3
'''A bad link planted for real on the Slurm test cluster, and the link
``microbench links`` finds (a benchmark script, not a timed test; root,
fi_pingpong and the test cluster up with three nodes or more:
``MICROBENCH_SLURM_NODES=6 ci/slurm_testbed.sh start``).

**The plan.**  ``--clean`` searches with nothing planted (wanted: no bad
link seen), then ``--plants`` searches, each with one link made slow for
real, a link drawn at random (``--seed``) without repeat while links
remain: an htb class at ``--rate`` on both nodes' interfaces for what each
sends the other (tests/helpers/slurm_bed.py's ``slow_link``), removed
after the search whatever happens.  Wanted: the planted link found, in
fewer runs than the pairs one by one.  Each search is ``microbench links
--system slurm_testbed:shared --size 65536 --iterations 5 --margin 0.8``
(the e2e test's).

Results: ``<dir>/searches.jsonl``, one line per search (the planted link,
the status, the link found, the runs, the wall time), the counts on
standard output; exit 1 where a count is not what is wanted.

    bench/link_plants.py --dir DIR [--clean 5] [--plants 10]
                         [--rate 1mbit] [--seed 0]
'''

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'helpers'))

import slurm_bed  # noqa: E402

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
SEARCH = ('--system', 'slurm_testbed:shared', '--size', '65536',
          '--iterations', '5', '--margin', '0.8')


def nodes():
    '''The test cluster's nodes, from sinfo.'''
    shown = subprocess.run(['sinfo', '-h', '-N', '-o', '%N'],
                           capture_output=True, text=True, check=True)
    return sorted(set(shown.stdout.split()))


def search(where, number):
    '''One search; its document and wall time.'''
    out = os.path.join(where, f'search-{number}.json')
    started = time.monotonic()
    subprocess.run([MICROBENCH, 'links', *SEARCH, '--json', out],
                   capture_output=True, text=True, timeout=3600)
    with open(out) as fp:
        return json.load(fp), time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dir', required=True)
    parser.add_argument('--clean', type=int, default=5)
    parser.add_argument('--plants', type=int, default=10)
    parser.add_argument('--rate', default='1mbit')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    names = nodes()
    pairs = list(itertools.combinations(names, 2))
    draws = random.Random(args.seed).sample(pairs, min(args.plants,
                                                       len(pairs)))
    plan = [None] * args.clean + draws
    counts = {'clean right': 0, 'found right': 0, 'runs': []}
    with open(os.path.join(args.dir, 'searches.jsonl'), 'w') as log:
        for number, planted in enumerate(plan):
            if planted is None:
                doc, seconds = search(args.dir, number)
                right = doc['status'] == 'no bad link seen'
                counts['clean right'] += right
            else:
                with slurm_bed.slow_link(*planted, rate=args.rate):
                    doc, seconds = search(args.dir, number)
                right = doc['link'] == list(planted)
                counts['found right'] += right
                counts['runs'].append(len(doc['runs']))
            line = {'planted': planted, 'status': doc['status'],
                    'found': doc['link'], 'runs': len(doc['runs']),
                    'seconds': round(seconds, 1), 'right': right}
            log.write(json.dumps(line) + '\n')
            log.flush()
            print(json.dumps(line), flush=True)
    runs = counts['runs']
    print(f'{len(names)} nodes ({len(pairs)} links): clean searches with '
          f'no link named {counts["clean right"]} of {args.clean}; planted '
          f'links found {counts["found right"]} of {len(draws)}, in '
          f'{min(runs, default=0)} to {max(runs, default=0)} runs (median '
          f'{sorted(runs)[len(runs) // 2] if runs else 0})')
    wanted = counts['clean right'] == args.clean and \
        counts['found right'] == len(draws) and \
        all(count < len(pairs) for count in runs)
    return 0 if wanted else 1


if __name__ == '__main__':
    sys.exit(main())
