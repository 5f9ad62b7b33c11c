#!/usr/bin/env python3
'''A slow node planted for real on the Slurm test cluster, and the node
vetting names (a benchmark script, not a timed test; root, fio and the
test cluster up with four nodes or more:
``MICROBENCH_SLURM_NODES=4 ci/slurm_testbed.sh start``).

**Nights.**  A vetting night is ``microbench vet --system
slurm_testbed:node_local`` (``fio_cache_flags`` in quick mode on every node
of the test cluster, one node after another), into one results storage,
its JSON kept (microbench/nodes/nodes_json.py); the vetting sessions go to
``vetting.db`` there.

**The plan.**  ``--clean`` nights with nothing planted (wanted: no node
slow, none failed), then ``--plants`` nights, each with one node made
slow for real, the nodes in turn: a cgroup v1 ``blkio`` write throttle
(``blkio.throttle.write_bps_device``; cgroup v2 ``io.max`` where the v2
hierarchy has the io controller) of the scratch disk at ``--fraction`` of
the clean nights' median O_DIRECT write level, on that node's slurmd
(its jobs are its children: proctrack/linuxproc), removed after the night
whatever happens (:mod:`plants`).  Wanted: the planted node, and only it,
named slow on its night.

**Replayed clean nights.**  ``--replay`` nights drawn from the clean
nights' recorded per-node samples with the suite's noise model
(bench/known_answers.py: a night's drift, normal with standard deviation
``--drift`` on a log scale, falls on every node alike; each sample keeps
its own recorded within-night spread, drawn again by a normal on a log
scale with the node's own recorded log standard deviation), judged by the
same rule: wanted, no node slow.

Results: ``<dir>/nights.jsonl``, one line per night (tag, planted node,
the nodes named slow and failed, the wall time), the counts on standard
output; exit 1 where a count is not what is wanted.

    bench/node_plants.py --dir DIR [--clean 3] [--plants 10]
                         [--fraction 0.3] [--replay 30] [--drift 0.05]
'''

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np

import plants
from microbench import paths
from microbench.nodes import nodes_json, outliers, vetting

BIN = os.path.join(paths.ROOT, '.venv', 'bin')

#: The test cluster's partition with a scratch directory of each node's own
SYSTEM = 'slurm_testbed:node_local'

#: Its scratch directory (systems/slurm_testbed.py)
SCRATCH = '/var/tmp/microbench-testbed'

#: Where the test cluster keeps its daemons' process ids
RUN = os.path.join(os.environ.get('MICROBENCH_SLURM_TESTBED',
                                  '/tmp/microbench-slurm'), 'run')

#: The figure whose clean level sets the throttle
LEVEL = 'fio_cache_flags direct write'


def slurmd_pid(node):
    '''The process id of ``node``'s slurmd.'''
    with open(os.path.join(RUN, f'slurmd-{node}.spawned')) as fp:
        pid = int(fp.read().split()[0])
    with open(f'/proc/{pid}/comm') as fp:
        if fp.read().strip() != 'slurmd':
            raise RuntimeError(f'{node}: process {pid} is not slurmd')
    return pid


def vet(work, tag):
    '''One vetting night into ``work``'s storage: its JSON document and
    the wall time in s.'''
    out = os.path.join(work, f'{tag}.json')
    start = time.monotonic()
    proc = subprocess.run(
        [os.path.join(BIN, 'microbench'), '--db',
         os.path.join(work, 'results.db'), 'vet', '--system', SYSTEM,
         '--work', os.path.join(work, 'runs'), '--json', out],
        capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode not in (0, 1) or not os.path.exists(out):
        sys.exit(f'{tag}: microbench vet exited {proc.returncode}:\n'
                 f'{proc.stdout[-2000:]}{proc.stderr[-2000:]}')
    print(proc.stdout.strip(), flush=True)
    return nodes_json.read(out), seconds


def named(doc, state):
    '''The nodes of a vetting document in ``state``.'''
    return sorted(item['node'] for item in doc['nodes']
                  if item['state'] == state)


def level(doc):
    '''The median over nodes of :data:`LEVEL` in a document (MiB/s).'''
    values = [row['value'] for item in doc['nodes']
              for row in item['figures']
              if row['figure'] == LEVEL and row['value']]
    return float(np.median(values))


def done(path):
    '''The nights already in ``path``.'''
    if not os.path.exists(path):
        return []
    with open(path) as fp:
        return [json.loads(line) for line in fp if line.strip()]


def night(work, log, tag, planted=None, throttle=None):
    '''One vetting night, its line appended to ``log``.'''
    doc, seconds = vet(work, tag)
    row = {'tag': tag, 'planted': planted,
           'throttle': throttle.said if throttle else None,
           'slow': named(doc, outliers.SLOW),
           'failed': named(doc, outliers.FAILED) + sorted(doc['failed']),
           'level_mib_s': level(doc), 'seconds': round(seconds, 1),
           'vetting': doc['tag']}
    with open(log, 'a') as fp:
        fp.write(json.dumps(row) + '\n')
    print(json.dumps(row), flush=True)
    return row


def replay(work, nights, drift, seed):
    '''The slow nodes of ``nights`` nights drawn from the clean nights'
    per-node samples (the module docstring's model): a list of lists.'''
    rows = vetting.vetting_rows(os.path.join(work, vetting.STORAGE), SYSTEM)
    clean = [row['vetting'] for row in done(os.path.join(work,
                                                         'nights.jsonl'))
             if not row['planted']]
    recorded = rows[rows['tag'].isin(clean)]
    figures = vetting.night_figures(recorded)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(nights):
        shift = rng.normal(0, drift)
        drawn = {}
        for figure, (direction, nodes, unit) in figures.items():
            drawn[figure] = (direction, {}, unit)
            for node, samples in nodes.items():
                logs = np.log([value for value in samples if value > 0])
                spread = float(np.std(logs, ddof=1)) if len(logs) > 1 else 0
                centre = float(np.median(logs))
                draw = centre + shift + rng.normal(0, spread, len(logs))
                drawn[figure][1][node] = [math.exp(v) for v in draw]
        judged = outliers.judge_night(drawn)
        found.append(judged.named(outliers.SLOW))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--dir', required=True)
    parser.add_argument('--clean', type=int, default=3)
    parser.add_argument('--plants', type=int, default=10)
    parser.add_argument('--fraction', type=float, default=0.3)
    parser.add_argument('--replay', type=int, default=30)
    parser.add_argument('--drift', type=float, default=0.05)
    parser.add_argument('--seed', type=int, default=45)
    args = parser.parse_args()
    work = os.path.abspath(args.dir)
    os.makedirs(work, exist_ok=True)
    for line in plants.restore_left(work):
        print(line)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(3))
    log = os.path.join(work, 'nights.jsonl')
    tags = {row['tag'] for row in done(log)}
    for index in range(args.clean):
        if f'clean-{index:02d}' not in tags:
            night(work, log, f'clean-{index:02d}')
    clean_level = np.median([row['level_mib_s'] for row in done(log)
                             if not row['planted']])
    nodes = sorted(json.loads(open(os.path.join(
        work, done(log)[0]['tag'] + '.json')).read())['asked'])
    bps = int(clean_level * args.fraction * 2**20)
    for index in range(args.plants):
        tag = f'plant-{index:02d}'
        if tag in tags:
            continue
        node = nodes[index % len(nodes)]
        with plants.Throttle(work, SCRATCH, bps) as throttle:
            with open(os.path.join(throttle.group, 'cgroup.procs'),
                      'w') as fp:
                fp.write(str(slurmd_pid(node)))
            print(f'{tag}: {node} throttled: {throttle.said}', flush=True)
            night(work, log, tag, node, throttle)
    rows = done(log)
    clean = [row for row in rows if not row['planted']]
    planted = [row for row in rows if row['planted']]
    clean_ok = sum(1 for row in clean if not row['slow']
                   and not row['failed'])
    named_right = sum(1 for row in planted if row['slow'] == [row['planted']]
                      and not row['failed'])
    replayed = replay(work, args.replay, args.drift, args.seed)
    false_nodes = sum(len(slow) for slow in replayed)
    seconds = [row['seconds'] for row in rows]
    print(f'clean nights without a slow or failed node: {clean_ok} of '
          f'{len(clean)}')
    print(f'plants named, and only their node, on their night: '
          f'{named_right} of {len(planted)} (throttle {args.fraction} of '
          f'the clean O_DIRECT level {clean_level:.0f} MiB/s)')
    print(f'replayed clean nights (drift {args.drift}): {false_nodes} false '
          f'slow nodes over {args.replay} nights of {len(nodes)} nodes')
    print(f'wall time of a vetting night of {len(nodes)} nodes: median '
          f'{np.median(seconds):.0f} s, max {max(seconds):.0f} s')
    wanted = (clean_ok == len(clean) and named_right == len(planted)
              and false_nodes == 0)
    return 0 if wanted else 1


if __name__ == '__main__':
    sys.exit(main())
