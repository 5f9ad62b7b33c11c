'''``microbench audit``: its arguments and its handler.

    microbench audit [--format text|json|sarif] INPUT...
    microbench audit [--format ...] -- PROGRAM ARGS...
    microbench audit --measure [-S samples=N] INPUT

An INPUT is a file (a command line, a fio job file, a batch script, a
Darshan log) or ``-`` for standard input; after ``--``, a command line.
Exit 0 clean, 1 findings, 2 unreadable input, each said in one line.
What an input may make the audit read, expand and write is capped
(:mod:`.bounds`).
'''

import os
import sys
from importlib.metadata import PackageNotFoundError, version

from microbench.audit import bounds, judge, measure, render
from microbench.audit.findings import Unreadable
from microbench.audit.fiojob import size_bytes

HELP = ('the pitfall catalogue on a benchmark command, fio job file, batch '
        'script or Darshan log')


def add_arguments(parser):
    parser.add_argument('inputs', nargs='*', metavar='INPUT',
                        help='files (- for standard input), or after -- a '
                        'command line')
    parser.add_argument('--format', choices=('text', 'json', 'sarif'),
                        default='text', help='text (default), json or sarif '
                        '(SARIF 2.1.0)')
    parser.add_argument('--memory', metavar='SIZE', help='the memory of the '
                        'node that runs the benchmark (default: this '
                        'node\'s), e.g. 256g')
    parser.add_argument('--osu-version', metavar='X.Y.Z', help='the OSU '
                        'release the commands run (where the input does '
                        'not say)')
    parser.add_argument('--section', action='append', default=[],
                        metavar='NAME', help='a fio job file\'s sections to '
                        'judge (as fio --section)')
    parser.add_argument('--measure', action='store_true', help='run the '
                        'input and its realistic form round-robin with the '
                        'suite\'s rounds, here, and print the gap')
    parser.add_argument('-S', dest='settings', action='append', default=[],
                        metavar='NAME=VALUE', help='--measure: a ReFrame '
                        'variable of the rounds (samples=5, runtime_s=5)')
    parser.add_argument('--partition', metavar='SYS:PART', help='--measure '
                        'on this ReFrame partition (default: local:default; '
                        'never a facility partition unless asked)')
    parser.set_defaults(handler=handler)


def _is_command(inputs):
    first = inputs[0]
    return first != '-' and not os.path.exists(first)


def reports_of(args, stdin=None):
    '''The :class:`~.judge.Report` of every input of ``args``.'''
    memory = size_bytes(args.memory) if args.memory else None
    if args.memory and not memory:
        raise ValueError(f'--memory {args.memory}: not a size')
    if not args.inputs:
        raise ValueError('no input: give files, - for standard input, or '
                         '-- and a command line')
    of = 'the node given (--memory)' if memory else None
    if _is_command(args.inputs):
        context = judge.new_context('argv', memory, of, args.osu_version)
        return [judge.audit_argv(args.inputs, context)]
    reports = []
    for name in args.inputs:
        directory = os.path.dirname(os.path.abspath(name)) \
            if name != '-' else os.getcwd()
        context = judge.new_context(name, memory, of, args.osu_version,
                                    directory)
        try:
            data = (bounds.read_capped(stdin or sys.stdin.buffer, name)
                    if name == '-' else bounds.read_input(name))
        except Unreadable as err:
            reports.append(judge.Report(name, error=str(err)))
            continue
        if args.section:
            context = context.with_(sections=tuple(args.section))
        reports.append(judge.audit_bytes(name, data, context))
    return reports


def handler(args):
    reports = reports_of(args)
    if args.format == 'json':
        sys.stdout.write(render.as_json(reports))
    elif args.format == 'sarif':
        try:
            own = version('microbench-pitfalls')
        except PackageNotFoundError:
            own = '0'
        sys.stdout.write(render.sarif(reports, own))
    else:
        sys.stdout.write(render.text(reports))
    code = render.exit_code(reports)
    if args.measure and code == 1:
        sys.stdout.flush()
        return measure.run(reports, args) or code
    return code
