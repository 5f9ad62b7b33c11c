'''``microbench``: verdicts, reports and bundles from the suite's results
storage.

    microbench baseline SESSIONS... --partition SYS:PART [--write]
    microbench compare BEFORE AFTER [--json FILE]
    microbench compare --last [--json FILE]
    microbench confirm --verdicts FILE --report-file R -- REFRAME...
    microbench ack --partition SYS:PART (--check C --figure F --night N
                   | --event FINGERPRINT --verdicts FILE) --kind KIND
                   --reason TEXT [--write]
    microbench acks [--stats] [--check]
    microbench advise [SESSIONS] [--partition SYS:PART]
    microbench report [SESSIONS] -o DIR [--verdicts FILE]
    microbench bundle SESSION -o run-<date>-<system>.tar.gz
    microbench check-bundle ARCHIVE [--no-spack]
    microbench replay ARCHIVE [--run [--into DIR]]
    microbench stored REPORT_OR_UUID...
    microbench limits [SESSIONS] --partition SYS:PART [--write]
    microbench weather [SESSIONS] -o DIR [--verdicts FILE]
    microbench export [SESSION] [--verdicts FILE] (--openmetrics FILE
                      | --textfile DIR | --push URL)...
    microbench audit [--format text|json|sarif] [--measure] INPUT...
    microbench audit [--format ...] -- PROGRAM ARGS...
    microbench ab CHECK... --a STACK (--b STACK | --aa) [--mode quick]
                  [--system S:P] [-S VAR=VAL]... [--json FILE]
    microbench diagnose EVENT --verdicts FILE [--a STACK] [--mode quick]
    microbench bisect LOCK_A LOCK_B (--checks CHECK... | --moved AB_JSON)
                      [--mode quick] [--system S:P] [--stacks-dir DIR]
    microbench vet --system S:P [--nodes N,N,...] [-n CHECK]... [--json FILE]
    microbench nodes --partition S:P [TAG] [--json FILE]
    microbench links --system S:P [--nodes N,N,...] [--margin M] [--json FILE]

SESSIONS, BEFORE and AFTER are ReFrame's session queries: a session UUID,
a time period (``now-7d:now``), a filter on ``--session-extras``
(``'?tag=="pre"'``), or a period and a filter.  Every subcommand reads
ReFrame's results storage (``--db``, else ``RFM_SQLITE_DB_FILE``, else
``perflogs/results.db``).  Each subcommand's arguments and code are in its
own module (its ``HELP``, ``add_arguments`` and the ``handler`` they set):
the nightly verdict in microbench/verdicts/nightly.py, with the
acknowledgements, events and confirmation in
microbench/verdicts/triage.py; what a bundle holds in
microbench/bundles/bundle.py; whether a run's session was stored
(exit 4 if not) in microbench/verdicts/stored.py.
'''

import argparse
import gc
import os
import sys

from microbench.audit import command as audit
from microbench.bundles import bundle, check, replay
from microbench.cause import ab, bisect, diagnose
from microbench.nodes import linkscmd, show, vet
from microbench.verdicts import (ack_add, ack_list, advise, baseline, compare,
                                 confirm, export, limits, report, storage,
                                 stored, weather)

#: Every subcommand: its name and its module
COMMANDS = {'baseline': baseline, 'compare': compare, 'confirm': confirm,
            'ack': ack_add, 'acks': ack_list, 'advise': advise,
            'report': report,
            'bundle': bundle, 'check-bundle': check, 'replay': replay,
            'stored': stored, 'limits': limits, 'weather': weather,
            'export': export, 'audit': audit, 'ab': ab,
            'diagnose': diagnose, 'bisect': bisect, 'vet': vet,
            'nodes': show, 'links': linkscmd}

#: What a subcommand may fail with: a message and exit code 2
ERRORS = (storage.ResultsError, bundle.BundleError, OSError, ValueError)

#: The environment variable that lets an unexpected error show where it
#: was raised (a maintainer's switch; the door itself says one line)
TRACEBACK = 'MICROBENCH_TRACEBACK'

#: The exit code of a door that cannot go on (bad input, an unexpected
#: error); 1 is kept for what a subcommand found (a regression), 4 for
#: ``stored``'s run that stored nothing
CANNOT_GO_ON = 2

#: Every session of the results storage
ALL = storage.ALL


def parser():
    top = argparse.ArgumentParser(
        prog='microbench',
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description='Verdicts from the suite\'s results storage.',
        epilog=__doc__.split('\n\n', 1)[1].replace('``', ''))
    top.add_argument('--db', help=DB_HELP)
    sub = top.add_subparsers(dest='command', required=True)
    for name, module in COMMANDS.items():
        command = sub.add_parser(name, help=module.HELP)
        # ``microbench compare --last --db FILE`` as well as ``microbench
        # --db FILE compare --last``: where a person types it
        command.add_argument('--db', default=argparse.SUPPRESS,
                             help=DB_HELP)
        module.add_arguments(command)
    return top


DB_HELP = ('the results storage (default: RFM_SQLITE_DB_FILE, else '
           'perflogs/results.db)')


def main(argv=None):
    '''Run the command of ``argv``; its exit code.  The process is meant
    to end after it: what it holds is left out of Python's cyclic garbage
    collector (:func:`gc.freeze`).'''
    args = parser().parse_args(argv)
    # The modules imported so far (pandas, numpy, the subcommands) live as
    # long as the process: a full collection need not walk them again on
    # every pass while a year of figures is read and judged
    gc.freeze()
    try:
        return args.handler(args)
    except ERRORS as err:
        print(f'microbench {args.command}: error: {one_line(err)}',
              file=sys.stderr)
        return CANNOT_GO_ON
    except KeyboardInterrupt:
        print(f'microbench {args.command}: interrupted', file=sys.stderr)
        return 130
    except Exception as err:
        # Every door answers in one line, never a traceback: an error no
        # reader expected is still said as what it is (and is a bug)
        if os.environ.get(TRACEBACK):
            raise
        print(f'microbench {args.command}: internal error: '
              f'{type(err).__name__}: {one_line(err)} (a bug of microbench; '
              f'{TRACEBACK}=1 shows where)', file=sys.stderr)
        return CANNOT_GO_ON
    finally:
        # Python's exit collects once more over every object of pandas,
        # matplotlib, SciPy and ReFrame before it frees them: a fifth of a
        # second of a night's report or compare, for nothing the process
        # still needs
        gc.freeze()


def one_line(err, limit=500):
    '''``err``'s message on one line, at most ``limit`` characters (a
    message may quote a whole input).'''
    text = ' '.join(str(err).split()) or type(err).__name__
    return text if len(text) <= limit else text[:limit - 3] + '...'


if __name__ == '__main__':
    sys.exit(main())
