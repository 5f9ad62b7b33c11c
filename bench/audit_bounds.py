#!/usr/bin/env python3
'''``microbench audit``'s work against the size of its input, measured
(not a timed test): time, peak memory and output for every kind of input
issue 42 found quadratic or unbounded, and the refusals that must stay
one line whatever the input.

    .venv/bin/python bench/audit_bounds.py [--case NAME]... [--repeat 3]
        [--scale N] [--library DIR]

``--scale N`` divides every size by N; ``--library DIR`` measures the
``microbench`` package under DIR instead of the checkout's (an older copy:
the growth cases only), to see what the bench says of it.

Growth: each case is audited (``judge.audit_bytes``, then the text and
JSON reports, as the command writes them) at four sizes, each double the
one before, the largest the size the issue reported (a 2 MiB line, 5000
job sections, 10 000 continuation lines).  Time is the CPU time of the
process, the least of ``--repeat`` runs (the machine is shared: wall time
would add the waits for a core); peak memory is what Python allocated
(``tracemalloc``, a run of its own); output is the bytes of both
reports.  The growth of
each is the slope of its logarithm over the size's: 1 is linear, 2
quadratic.  A case fails where the time's slope passes
:data:`TIME_SLOPE` or the memory's or the output's :data:`SIZE_SLOPE`.
What it measured is held to what it claims (:mod:`claims`, exit 2): each
input judged (or refused) as its case says, for a bench that timed a
refusal would not measure the audit's work; each input twice the size of
the one before.

Refusals: each input the audit must refuse (``include /dev/zero``, a
FIFO, a directory, a huge file, an include cycle, deep nesting, binary,
empty, non-UTF-8 input, a Python file, a missing path...) is audited by
the command itself, a whole process: exit 2, one line naming what is
wrong, nothing on standard error, within :data:`REFUSAL_SECONDS` and
:data:`REFUSAL_RSS_MIB` (its peak resident memory, the interpreter and
its imports included, as GNU time reports it; not checked without it).

Exit 1 if any case fails, with the reason; 2 where what it measured is
not what it claims; 0 otherwise.
'''

import argparse
import functools
import math
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _library(argv):
    '''The directory of the ``microbench`` package measured: ``--library
    DIR``, else the checkout's (read before the package is imported).'''
    if '--library' in argv[:-1]:
        return os.path.abspath(argv[argv.index('--library') + 1])
    return os.path.join(ROOT, 'reframe_tests')


sys.path.insert(0, _library(sys.argv))

import claims                                              # noqa: E402
from audit_bounds_cases import CASES, GIB                  # noqa: E402
from microbench.audit import judge, render                 # noqa: E402

BIN = os.path.join(ROOT, '.venv', 'bin', 'microbench')
#: Every line as soon as it is measured (a pipe would hold them)
print = functools.partial(print, flush=True)
#: The slope of log(time) over log(size) past which growth is superlinear
#: (linear code measures 0.8-1.2 here, quadratic code 1.8-2.0)
TIME_SLOPE = 1.4
#: The same for peak memory and output, which do not vary run to run
SIZE_SLOPE = 1.2
#: What a refusal may take, as a whole process
REFUSAL_SECONDS = 60
REFUSAL_RSS_MIB = 512


def _audit(name, data, directory):
    '''(the report, the bytes of its text and JSON).'''
    context = judge.new_context(name, 24 * GIB, directory=directory)
    report = judge.audit_bytes(name, data, context)
    out = len(render.text([report])) + len(render.as_json([report]))
    return report, out


def measure(case, size, repeat, directory):
    '''(seconds, peak MiB allocated, output bytes, error) of one size.'''
    name, data = case.make(size)
    name = os.path.join(directory, name)
    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        report, out = _audit(name, data, directory)
        best = min(best, time.process_time() - start)
    tracemalloc.start()
    _audit(name, data, directory)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, peak, out, report.error


def slope(sizes, values):
    '''The least-squares slope of log(value) over log(size).'''
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(v, 1e-9)) for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            / sum((x - mx) ** 2 for x in xs))


def growth(cases, repeat, scale=1):
    '''Every case at its sizes, printed; the failures.'''
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        for case in cases:
            print(f'\n{case.name} ({"judged" if case.judged else "refused"})')
            print(f'  {case.unit:>14} {"input":>10} {"CPU s":>8} '
                  f'{"peak MiB":>9} {"output":>11}')
            rows = []
            for size in (size // scale for size in case.sizes):
                seconds, peak, out, error = measure(case, size, repeat,
                                                    directory)
                length = len(case.make(size)[1])
                rows.append((length, seconds, peak, out))
                print(f'  {size:>14} {length:>10} {seconds:>8.3f} '
                      f'{peak:>9.1f} {out:>11}')
                claims.check(f'{case.name} at {size} {case.unit}: judged '
                             f'(refused: {error})', error is None,
                             case.judged)
            lengths = [r[0] for r in rows]
            ratios = [b / a for a, b in zip(lengths, lengths[1:])]
            claims.check(f'{case.name}: inputs not about twice the one '
                         f'before (1.9 to 2.2)', [f'{r:.2f}' for r in ratios
                                                  if not 1.9 <= r <= 2.2],
                         [])
            slopes = [slope(lengths, [r[k] for r in rows])
                      for k in (1, 2, 3)]
            print(f'  growth (slope of log over log size): time '
                  f'{slopes[0]:.2f}, memory {slopes[1]:.2f}, output '
                  f'{slopes[2]:.2f}')
            for what, value, limit in zip(('time', 'memory', 'output'),
                                          slopes, (TIME_SLOPE, SIZE_SLOPE,
                                                   SIZE_SLOPE)):
                if value > limit:
                    failures.append(f'{case.name}: {what} grows as size^'
                                    f'{value:.2f}, past {limit}')
    return failures


def _include(directory, name, target):
    path = os.path.join(directory, name)
    with open(path, 'w') as fp:
        fp.write(f'[t]\nrw=write\ninclude {target}\n')
    return path


def refusals(directory):
    '''[(what, argv, standard input or None, what the line must say)].'''
    from microbench.audit import bounds
    def file(name, data):
        path = os.path.join(directory, name)
        with open(path, 'wb') as fp:
            fp.write(data)
        return path

    fifo = os.path.join(directory, 'fifo')
    os.mkfifo(fifo)
    huge = os.path.join(directory, 'huge.fio')
    with open(huge, 'wb') as fp:
        fp.truncate(50 * 2**20)                     # sparse: 50 MiB
    file('a.fio', b'[t]\nrw=write\ninclude b.fio\n')
    file('b.fio', b'size=1g\ninclude a.fio\n')
    for depth in range(20):
        file(f'deep{depth}.fio', f'include deep{depth + 1}.fio\n'.encode())
    file('deep20.fio', b'size=1g\n')
    file('common.fio', b'size=1g\n')
    fan = file('fan.fio', b'[t]\nrw=write\n'
               + b'include common.fio\n' * (bounds.MAX_FILES + 1))
    with open('/bin/ls', 'rb') as fp:
        elf = fp.read(65536)
    doubling = b'#!/bin/bash\nA=aaaaaaaa\n' + b'A=$A$A\n' * 40 + \
        b'fio --name=$A\n'
    nested = b'#!/bin/bash\n' + b'for i in 1 2; do\n' * 40 + b'fio\n'
    return [
        ('include /dev/zero', [_include(directory, 'zero.fio', '/dev/zero')],
         None, 'a character device, not a regular file'),
        ('include a FIFO', [_include(directory, 'fifo.fio', fifo)], None,
         'a FIFO (named pipe), not a regular file'),
        ('include a directory', [_include(directory, 'dir.fio', directory)],
         None, 'a directory, not a regular file'),
        ('include a 50 MiB file', [_include(directory, 'big.fio', huge)],
         None, 'larger than the 4.0 MiB'),
        ('an include cycle', [os.path.join(directory, 'a.fio')], None,
         'an include cycle'),
        ('includes 20 deep', [_include(directory, 'deep.fio',
                                       'deep0.fio')], None,
         f'nested more than {bounds.MAX_INCLUDE_DEPTH} deep'),
        (f'{bounds.MAX_FILES + 1} includes', [fan], None,
         f'more than {bounds.MAX_FILES} files'),
        ('/dev/zero as the input', ['/dev/zero'], None,
         'a character device'),
        ('a directory as the input', [directory], None, 'a directory'),
        ('an endless pipe (- from /dev/zero)', ['-'], '/dev/zero',
         'more than 4.0 MiB'),
        ('a 50 MiB file', [huge], None, 'larger than the 4.0 MiB'),
        ('a binary (ELF)', [file('blob.bin', elf)], None, 'a binary file'),
        ('NUL bytes', [file('nul.cmd', b'fio --name=t\0 --rw=write\n')],
         None, 'NUL bytes'),
        ('empty', [file('empty.fio', b'')], None, 'empty'),
        ('blanks only', [file('blank.cmd', b'  \n\t\n')], None, 'empty'),
        ('non-UTF-8', [file('latin1.cmd', 'fio --name=caf\u00e9\n'.encode(
            'latin-1'))], None, 'not UTF-8'),
        ('a Python script (this bench)', [os.path.abspath(__file__)], None,
         'a Python program, not a ReFrame check'),
        ('a Python module', [file('module.py', b'import os\n\n\ndef f():'
                                  b'\n    return os.getcwd()\n')], None,
         'a Python program, not a ReFrame check'),
        ('a missing path', [os.path.join(directory, 'missing.fio')], None,
         'no such file'),
        ('junk words', ['%%%', '\x01'], None, 'is not a benchmark'),
        ('variables doubling 40 times', [file('double.sh', doubling)], None,
         'expand to more than'),
        ('loops nested 40 deep', [file('nested.sh', nested)], None,
         'loops nested more than'),
    ]


#: GNU time, which reports its child's peak RSS (the bench's own
#: ``wait4`` would report the bench's: a forked child starts from its
#: parent's resident memory, which counts until it execs)
TIME = '/usr/bin/time'


def run_refusal(argv, stdin):
    '''(exit code, stdout, stderr, seconds, peak RSS MiB or None) of the
    command, a process of its own.'''
    with open(stdin or os.devnull, 'rb') as given, \
            tempfile.NamedTemporaryFile('r') as rss:
        command = [BIN, 'audit', *argv]
        if os.access(TIME, os.X_OK):
            command = [TIME, '-f', '%M', '-o', rss.name, *command]
        start = time.perf_counter()
        run = subprocess.run(command, stdin=given, capture_output=True,
                             timeout=REFUSAL_SECONDS * 2)
        seconds = time.perf_counter() - start
        said = rss.read().strip().splitlines()
    peak = int(said[-1]) / 1024 if said and said[-1].isdigit() else None
    return (run.returncode, run.stdout.decode(errors='replace'),
            run.stderr.decode(errors='replace'), seconds, peak)


def check_refusals():
    failures = []
    print('\nrefusals (the command, a process each: exit 2, one line, '
          'nothing on stderr)')
    print(f'  {"input":40} {"exit":>4} {"seconds":>8} {"peak RSS":>9}  line')
    with tempfile.TemporaryDirectory() as directory:
        for what, argv, stdin, needle in refusals(directory):
            code, out, err, seconds, rss = run_refusal(argv, stdin)
            lines = out.strip().splitlines()
            shown = lines[0] if lines else ''
            print(f'  {what:40} {code:>4} {seconds:>8.2f} '
                  f'{f"{rss:.0f} M" if rss else "n/a":>9}  {shown[:140]}')
            problems = []
            if code != 2:
                problems.append(f'exit {code}, not 2')
            if len(lines) != 1:
                problems.append(f'{len(lines)} lines of output, not 1')
            if needle not in out:
                problems.append(f'the line does not say {needle!r}')
            if err.strip():
                problems.append(f'standard error: {err.strip()[:200]!r}')
            if 'Traceback' in out + err:
                problems.append('a traceback')
            if seconds > REFUSAL_SECONDS:
                problems.append(f'{seconds:.0f} s')
            if rss and rss > REFUSAL_RSS_MIB:
                problems.append(f'peak RSS {rss:.0f} MiB')
            failures += [f'refusal of {what}: {p}' for p in problems]
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--case', action='append', default=[],
                        help='only the cases whose name holds this')
    parser.add_argument('--repeat', type=int, default=3,
                        help='timed runs per size (the fastest counts)')
    parser.add_argument('--no-refusals', action='store_true',
                        help='the growth cases only')
    parser.add_argument('--scale', type=int, default=1,
                        help='divide every size by this')
    parser.add_argument('--library', metavar='DIR', help='the directory of '
                        'the microbench package to measure (default: the '
                        'checkout\'s reframe_tests); no refusals then')
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.case or
             any(word in c.name for word in args.case)]
    print(f'microbench from {os.path.dirname(judge.__file__)}')
    failures = growth(cases, args.repeat, args.scale)
    args.no_refusals = args.no_refusals or args.library
    if not args.no_refusals and not args.case:
        failures += check_refusals()
    if failures:
        print(f'\nFAILED: {len(failures)}', file=sys.stderr)
        for failure in failures:
            print(f'  {failure}', file=sys.stderr)
        return 1
    print(f'\nall {len(cases)} growth cases linear (time slope <= '
          f'{TIME_SLOPE}, memory and output <= {SIZE_SLOPE})'
          + ('' if args.no_refusals or args.case else
             ', every refusal one line, exit 2'))
    return 0


if __name__ == '__main__':
    claims.main(main)
