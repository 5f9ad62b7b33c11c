#!/usr/bin/env python3
'''The diagnose bench's plants (``bench/diagnose.py``) classed again by
the rule of this checkout, from what each diagnosis stored: the night's
compare JSON (the event, its levels before and tonight) and the A/B's JSON
(every figure's ratio, interval and levels).  The experiment is not run
again: the rule (:mod:`microbench.cause.classify`) is a pure function of
these, and an A/B's stopping never depends on it.

A rule changed after some plants were seen is measured on the plants
diagnosed after the change (``--since``, the change's time: held out)
apart from those before it (seen), each count printed on its own.

    bench/reclassify.py --dir DIR [--since 2026-11-28T01:10:00+00:00]
'''

import argparse
import datetime
import json
import os
import sys

from diagnose import WANTED
from microbench.cause import ab_json, diagnose, diagnosis_json
from microbench.verdicts import compare_json


def again(work, out):
    '''The cause of plant ``out`` by this checkout's rule, and when its
    diagnosis was written (``None`` where it has none).'''
    name = out['name']
    verdicts = compare_json.read(os.path.join(work, name, 'compare.json'))
    event = diagnose.find(verdicts, out['event'])
    found = ab_json.read(out['ab'])
    rows = diagnose.classified(event, diagnose.levels(verdicts), found)
    cause, why = diagnose.cause_of(rows)
    written = os.path.join(work, name, 'diagnoses',
                           f'{out["event"]}.json')
    date = diagnosis_json.read(written).doc['date']
    return cause, why, datetime.datetime.fromisoformat(date)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dir', required=True)
    parser.add_argument('--since', type=datetime.datetime.fromisoformat,
                        help='the rule change\'s time (ISO 8601, with its '
                        'zone): the plants diagnosed after it are held out')
    args = parser.parse_args()
    work = os.path.abspath(args.dir)
    with open(os.path.join(work, 'plants.jsonl')) as fp:
        results = [json.loads(line) for line in fp if line.strip()]
    tally = {}
    for out in results:
        wanted = WANTED[out['kind']]
        if not out.get('ab'):
            cause, why, part = out['cause'], out.get('why', ''), '-'
            right = out['right']
        else:
            cause, why, date = again(work, out)
            part = ('held out' if args.since and date > args.since
                    else 'seen')
            right = cause == wanted
        said = 'right' if right else f'WRONG: wanted {wanted}'
        changed = '' if cause == out['cause'] else \
            f' (as run: {out["cause"]})'
        print(f'{out["name"]:5} {out["plant"]:20} {part:8} {cause} '
              f'({said}){changed}')
        if not right:
            print(f'      {why[:300]}')
        key = (part, out['kind'])
        got, total = tally.get(key, (0, 0))
        tally[key] = (got + right, total + 1)
    for (part, kind), (got, total) in sorted(tally.items()):
        print(f'{part}: {kind}: {got} of {total} classed right')
    return 0


if __name__ == '__main__':
    sys.exit(main())
