#!/usr/bin/env python3
'''What the parsers reject, by class of fault, and what a long line costs.

``classes``: runs the validation-by-class tests
(tests/tools/test_validation_*.py and each tool's,
tests/tools/test_{ior,elbencho,mdtest}_*.py) with a tally of
every example they try (``VALIDATION_TALLY``), then prints, per class,
how many mutated real outputs were read (on each path: the parser, and a
sample as a rounds job keeps it), how many were rejected and
the longest read.  ``MUTATIONS_PROFILE=mutations-long`` tries ten times as
many examples.

``long-lines``: every real output of the catalogue
(tests/helpers/catalogue.py) with one line of 10 MB of every pattern of
tests/tools/test_validation_faults.py inserted in its middle, read on both
paths; prints the longest read, per tool and overall; exit 1 where one
was read with other figures than the real ones.

Each holds what it measured to what it claims (:mod:`claims`: one line
and exit 2): ``classes``, that it found the test modules and every one
of them ran and passed, and that the tally holds reads of every tool of
the catalogue; ``long-lines``, that it read every output of the
catalogue with every pattern on every path.

    bench/validation.py classes [--long]
    bench/validation.py long-lines [--megabytes 10]
'''

import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import claims

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, 'tests')
PYTHON = os.path.join(ROOT, '.venv', 'bin', 'python')
#: Where the tests and their helpers are
TOOL_TESTS = os.path.join(TESTS, 'tools')
HELPERS = os.path.join(TESTS, 'helpers')

#: The tests that break real outputs by class and tally every example:
#: every tool's generic classes, and each tool's own
CLASS_TESTS = ('test_validation_', 'test_ior_', 'test_elbencho_',
               'test_mdtest_')


def classes(long):
    with tempfile.TemporaryDirectory() as scratch:
        tally = os.path.join(scratch, 'tally.jsonl')
        env = {**os.environ, 'VALIDATION_TALLY': tally}
        if long:
            env['MUTATIONS_PROFILE'] = 'mutations-long'

        tests = sorted(
            path for path in glob.glob(os.path.join(TESTS, '**', 'test_*.py'),
                                       recursive=True)
            if os.path.basename(path).startswith(CLASS_TESTS))
        # none found: pytest would run every test of the checkout instead
        claims.check('validation test modules found', bool(tests), True)
        started = time.monotonic()
        ran = subprocess.run([PYTHON, '-m', 'pytest', '-p',
                              'no:cacheprovider', '-rA', *tests], env=env,
                             cwd=ROOT, capture_output=True, text=True)
        print(ran.stdout.strip().splitlines()[-1])
        if ran.returncode:
            print(ran.stdout[-3000:], file=sys.stderr)
            sys.exit(f'the validation tests failed (exit {ran.returncode})')
        passed = {os.path.join(ROOT, name) for name in re.findall(
            r'^PASSED (\S+?)::', ran.stdout, re.M)}
        claims.check('validation test modules that ran and passed', passed,
                     set(tests))

        with open(tally) as fp:
            rows = [json.loads(line) for line in fp]

    sys.path[:0] = [HELPERS]
    from catalogue import CASES
    claims.check('tools of the catalogue the tally has no read of',
                 {case.split('/')[0] for case in CASES}
                 - {row['case'].split('/')[0] for row in rows}, set())
    print(f'{len(rows)} reads in {time.monotonic() - started:.0f} s')
    counts = collections.defaultdict(lambda: [0, 0, 0.0, set()])
    for row in rows:
        entry = counts[row['class']]
        entry[0] += 1
        entry[1] += row['rejected']
        entry[2] = max(entry[2], row['seconds'])
        entry[3].add(row['case'].split('/')[0])

    print(f'{"class":32} {"reads":>7} {"rejected":>9} {"longest":>9}  tools')
    for name in sorted(counts):
        reads, rejected, longest, tools = counts[name]
        print(f'{name:32} {reads:7} {rejected:9} {longest * 1000:7.1f} ms'
              f'  {", ".join(sorted(tools))}')
    return 0


def long_lines(megabytes):
    sys.path[:0] = [HELPERS, TOOL_TESTS, os.path.join(ROOT, 'reframe_tests')]
    from catalogue import CASES, REJECTED, expected, parsed, sampled
    from classes import insert_line
    from test_validation_faults import PATTERNS

    longest = collections.defaultdict(lambda: (0.0, ''))
    outcomes = collections.Counter()
    for case in CASES.values():
        at = len(case.data.splitlines()) // 2
        for pattern in PATTERNS:
            line = pattern * (megabytes * 2**20 // len(pattern))
            data = insert_line(case.data, at, line)
            readers = [('parse', parsed)] + (
                [('sample', sampled)] if case.read_sample else [])
            for name, reader in readers:
                start = time.perf_counter()
                got = reader(case, data)
                seconds = time.perf_counter() - start
                outcomes['rejected' if got == REJECTED else
                         'read' if got == expected(case.id, name) else
                         'WRONG'] += 1
                tool = case.id.split('/')[0]
                if seconds > longest[tool][0]:
                    longest[tool] = (seconds, f'{case.id} ({name}), '
                                              f'{pattern!r}')

    print(f'{sum(outcomes.values())} reads of outputs with a '
          f'{megabytes} MB line: {outcomes["rejected"]} rejected, '
          f'{outcomes["read"]} read with their real figures, '
          f'{outcomes["WRONG"]} with other figures')
    for tool, (seconds, what) in sorted(longest.items()):
        print(f'{tool:10} longest {seconds * 1000:7.1f} ms  {what}')

    worst = max(longest.values())
    print(f'longest overall: {worst[0] * 1000:.1f} ms ({worst[1]})')
    claims.check('reads of outputs with a long line', sum(outcomes.values()),
                 sum(len(PATTERNS) * (2 if case.read_sample else 1)
                     for case in CASES.values()))
    return 1 if outcomes['WRONG'] else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    run = sub.add_parser('classes')
    run.add_argument('--long', action='store_true',
                     help='the mutations-long profile: 10x the examples')
    run = sub.add_parser('long-lines')
    run.add_argument('--megabytes', type=int, default=10)
    args = parser.parse_args()
    if args.command == 'classes':
        return classes(args.long)
    return long_lines(args.megabytes)


if __name__ == '__main__':
    claims.main(main)
