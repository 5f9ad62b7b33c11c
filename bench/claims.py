'''What a bench measured, held to what it claims to have measured.

A bench prints figures about something: N jobs replayed, N draws per
cell, N sessions judged.  Where what it did differs from that (a job it
did not find, a draw that was dropped, a session that was not stored) the
figure it prints is about something else, and looks just as good.  Every
bench counts what it measured and holds it to the claim with
:func:`check`; :func:`main` turns a mismatch into one line on standard
error and exit 2, before any figure is trusted.

    claims.check('rounds jobs replayed', len(replayed), len(ran))
'''

import os
import sys


class Mismatch(Exception):
    '''What a bench measured is not what it claims.'''


def check(what, measured, claimed):
    '''Raise :class:`Mismatch` unless ``measured == claimed``; ``what``
    names the count (``rounds jobs replayed``).'''
    if measured != claimed:
        raise Mismatch(f'{what}: measured {_said(measured)}, but the bench '
                       f'claims {_said(claimed)}')


def _said(value):
    '''A count, or a collection as its size and items (at most 6; a set's
    in order).'''
    if isinstance(value, (set, frozenset, list, tuple)):
        items = list(map(str, value))
        if isinstance(value, (set, frozenset)):
            items.sort()
        more = f', ... ({len(items) - 6} more)' if len(items) > 6 else ''
        return f'{len(items)} ({", ".join(items[:6])}{more})'
    return str(value)


def main(function):
    '''Run a bench's ``function`` and exit with its code; a
    :class:`Mismatch` is one line on standard error and exit 2.'''
    try:
        code = function()
    except Mismatch as err:
        name = os.path.basename(sys.argv[0])
        print(f'{name}: what it measured is not what it claims: {err}',
              file=sys.stderr)
        code = 2
    sys.exit(code)
