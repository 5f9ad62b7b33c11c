'''A row of fabtests' result table, and how its figures follow one another.

fabtests' ``show_perf`` (common/shared.c) prints, for ``tsize``-byte
messages, ``iters`` iterations of ``xfers_per_iter`` transfers each and the
``elapsed`` microseconds they took:

- ``bytes`` and ``total`` by ``size_str`` (binary suffix, one truncated
  decimal below 10: ``1.9m``), ``iters`` by ``cnt_str`` (decimal suffix,
  truncated: ``10k`` is 10000 to 10999);
- ``time`` = elapsed / 10^6 s, ``MB/sec`` = total / elapsed, ``usec/xfer`` =
  elapsed / iters / xfers_per_iter and ``Mxfers/sec`` = 1 / usec/xfer, each
  with two decimals.

So every figure of a row follows from the others, up to what the printing
rounded.  :func:`check` holds them to that, as intervals: each printed token
stands for every value that prints as it, and a row is consistent when some
true values fit every token at once.  A figure edited or corrupted beyond
rounding, or a row of another program (a ping-pong makes two transfers per
iteration, a bandwidth test one), is rejected naming both values.
'''

import re

from microbench.suite.output import OutputError, number
from microbench.units import size_bytes

#: Transfers per iteration of the programs the suite runs (show_perf's
#: ``xfers_per_iter``)
TRANSFERS = {'fi_msg_pingpong': 2, 'fi_msg_bw': 1, 'fi_pingpong': 2}

_SIZE = re.compile(r'(?P<whole>\d+)(\.(?P<tenth>\d))?(?P<mag>[kmg]?)')
_SIZE_BASE = {'': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}

_COUNT = re.compile(r'(?P<whole>\d+)(?P<mag>[kmb]?)')
_COUNT_BASE = {'': 1, 'k': 10 ** 3, 'm': 10 ** 6, 'b': 10 ** 9}


#: Most digits of a count fabtests print (a long long has 19)
_DIGITS = 18


def _whole(match, token, what):
    if len(match['whole']) > _DIGITS:
        raise OutputError(f'{what} is a number of {len(match["whole"])} '
                          f'digits, more than fabtests print')

    return int(match['whole'])


def size_range(token, what):
    '''[low, high] of the byte counts ``size_str`` prints as ``token``.'''
    match = _SIZE.fullmatch(token)
    if not match:
        raise OutputError(f'{what} is {token!r}, not a size')

    whole, base = _whole(match, token, what), _SIZE_BASE[match['mag']]
    if match['tenth'] is not None or whole < 10 and base > 1:
        tenth = int(match['tenth'] or 0)
        return ((whole + tenth / 10) * base,
                (whole + (tenth + 1) / 10) * base - 1)

    return whole * base, (whole + 1) * base - 1


def count_range(token, what):
    '''[low, high] of the counts ``cnt_str`` prints as ``token``.'''
    match = _COUNT.fullmatch(token)
    if not match:
        raise OutputError(f'{what} is {token!r}, not a count')

    whole, base = _whole(match, token, what), _COUNT_BASE[match['mag']]
    return whole * base, (whole + 1) * base - 1


def fixed_range(token, what, positive=True):
    '''[low, high] of the values ``%.2f`` (or any fixed precision) prints
    as ``token``: a time or a rate may print as 0.00.'''
    value = number(token, what, positive=positive)
    decimals = len(token.partition('.')[2])
    half = 0.5 * 10 ** -decimals
    return max(value - half, 0.0), value + half


def _product(a, b):
    return a[0] * b[0], a[1] * b[1]


def _quotient(a, b):
    return a[0] / b[1], a[1] / b[0] if b[0] > 0 else float('inf')


def _meets(a, b, slack=1e-6):
    '''Whether intervals ``a`` and ``b`` overlap (``slack``: relative, for
    the float arithmetic of the tool and of this check).'''
    return a[0] <= b[1] * (1 + slack) and b[0] <= a[1] * (1 + slack)


class Row:
    '''The seven tokens of one result row, as intervals.'''

    def __init__(self, fields):
        size, iters, total, time, mb_s, usec, mxfers = fields
        self.tokens = dict(zip(('bytes', 'iters', 'total', 'time', 'MB/sec',
                                'usec/xfer', 'Mxfers/sec'), fields))
        self.size = size_range(size, 'the size of a row')[0]
        try:
            if self.size != size_bytes(size):
                raise ValueError(size)
        except ValueError:
            raise OutputError(f'the size of a row is {size!r}, not a '
                              f'message size the suite asks for') from None
        self.iters = count_range(iters, 'the iterations of a row')
        self.total = size_range(total, 'the total of a row')
        if not time.endswith('s'):
            raise OutputError(f'the time of a row is {time!r}')
        self.elapsed_us = tuple(
            1e6 * t for t in fixed_range(time[:-1], 'the time of a row',
                                         positive=False))
        self.mb_s = fixed_range(mb_s, 'the MB/sec of a row')
        self.usec = fixed_range(usec, 'the usec/xfer of a row')
        self.mxfers = fixed_range(mxfers, 'the Mxfers/sec of a row',
                                  positive=False)

    def disagreement(self, transfers):
        '''What does not follow from the rest of the row if every iteration
        made ``transfers`` transfers; None if everything does.'''
        size = (self.size, self.size)
        tok = self.tokens
        moved = (self.size * self.iters[0] * transfers,
                 self.size * self.iters[1] * transfers)
        if not _meets(moved, self.total):
            return (f'total {tok["total"]} is not {tok["bytes"]} bytes x '
                    f'{tok["iters"]} iterations x {transfers} transfers')

        moved = (max(moved[0], self.total[0]), min(moved[1], self.total[1]))
        implied = _quotient(moved, self.elapsed_us)
        if not _meets(implied, self.mb_s):
            return (f'MB/sec {tok["MB/sec"]} is not its total over its time '
                    f'({moved[0]:.4g} bytes in {tok["time"]}: '
                    f'{implied[0]:.4g} to {implied[1]:.4g} MB/sec)')

        xfers = (self.iters[0] * transfers, self.iters[1] * transfers)
        implied = _quotient(self.elapsed_us, xfers)
        if not _meets(implied, self.usec):
            return (f'usec/xfer {tok["usec/xfer"]} is not its time over '
                    f'{tok["iters"]} x {transfers} transfers '
                    f'({implied[0]:.4g} to {implied[1]:.4g} us)')

        if not _meets(_product(self.mb_s, self.usec), size):
            return (f'MB/sec {tok["MB/sec"]} x usec/xfer {tok["usec/xfer"]} '
                    f'is not the {tok["bytes"]}-byte message size')

        if not _meets(_quotient((1.0, 1.0), self.usec), self.mxfers):
            return (f'Mxfers/sec {tok["Mxfers/sec"]} is not 1 / usec/xfer '
                    f'{tok["usec/xfer"]}')

        return None


def check(row, program=None):
    '''Raise unless the figures of ``row`` follow from one another for
    ``program`` (any program the suite runs, where None).'''
    if program is not None and program not in TRANSFERS:
        raise OutputError(f'{program} is not a program the suite reads')

    counts = [TRANSFERS[program]] if program else sorted(
        set(TRANSFERS.values()))
    found = [row.disagreement(count) for count in counts]
    if all(found):
        what = f'a row of {program}' if program else 'a row'
        raise OutputError(f'{what}: {found[0]}: the output is corrupted, or '
                          f'of another program')
