'''The figures IOR's JSON summary states twice, held to each other.

Each summary entry's max, min, mean and standard deviation are those of its
per-repetition "Results" rows, its operations per second its bandwidth over
the transfer size, its mean time the rows' mean, its bytes the first row's
bandwidth times its time, and every parameter the entry and the Options
repeat is the Parameters'.  IOR prints every figure with 4 decimals: two
figures agree when they differ by no more than the rounding of their inputs
allows (:func:`~.summary_fields.near`).
'''

import math

from microbench.suite.output import OutputError, member, number
from microbench.tools.ior.summary_fields import (HALF, float_of, int_of,
                                                 text_of, near)
from microbench.units import KIB, MIB

def _disagree(what, said, other, how):
    return OutputError(f'the summary says {what} {said:.4f} but {how} '
                       f'{other:.4f}: IOR prints one from the other, so the '
                       f'output was edited or corrupted')


def _product(a, b):
    '''(lowest, highest) of the product of two figures IOR printed, each
    off by up to its rounding.'''
    return (max(a - HALF, 0) * max(b - HALF, 0),
            (a + HALF) * (b + HALF))


def rows_of(test, repetitions, phases):
    '''{operation: [row of each repetition]} of the test's "Results".'''
    rows = member(test, 'Results', 'the test')
    if not isinstance(rows, list) or not all(isinstance(r, dict)
                                             for r in rows):
        raise OutputError(f'the test\'s "Results" are {rows!r:.60}, not a '
                          f'list of rows')

    found = {}
    for row in rows:
        access = text_of(row, 'access', 'a Results row')
        found.setdefault(access, []).append(row)

    for op in phases:
        got = len(found.get(op, []))
        if got != repetitions:
            raise OutputError(f'the test has {got} "{op}" Results rows where '
                              f'its {repetitions} repetitions print one '
                              f'each: the output is not complete')

    return found


def check_rows(op, entry, rows, params):
    '''The summary entry of ``op`` against its per-repetition rows: what
    IOR computes of them (4 decimals each).'''
    where = f'the {op} summary'
    transfer, block = (number(member(params, key, 'the Parameters'),
                              f'the Parameters {key}', integer=True)
                       for key in ('transferSize', 'blockSize'))
    bws, totals = [], []
    for num, row in enumerate(rows, start=1):
        at = f'{op} Results row {num}'
        bw = float_of(row, 'bwMiB', at)
        total = float_of(row, 'totalTime', at)
        access = float_of(row, 'wrRdTime', at)
        iops = float_of(row, 'iops', at)
        for key, size in (('blockKiB', block), ('xferKiB', transfer)):
            said = float_of(row, key, at)
            if not near(said, size / KIB, HALF):
                raise OutputError(f'{at} says {key} {said:.4f} but the '
                                  f'Parameters say {size} bytes '
                                  f'({size / KIB:.4f} KiB)')

        if access > total + 2 * HALF:
            raise OutputError(f'{at} says wrRdTime {access:.4f} s, longer '
                              f'than its totalTime {total:.4f} s: a part '
                              f'longer than the whole')

        # The bytes moved, once as bandwidth x time, once as IOPS x
        # transfer x access time: the intervals the rounding allows meet
        by_bw = _product(bw, total)
        by_iops = tuple(v * transfer / MIB for v in _product(iops, access))
        if by_bw[0] > by_iops[1] + HALF or by_iops[0] > by_bw[1] + HALF:
            raise OutputError(
                f'{at}: bwMiB {bw:.4f} x totalTime {total:.4f} s is '
                f'{bw * total:.4f} MiB but iops {iops:.4f} x wrRdTime '
                f'{access:.4f} s x {transfer} bytes is '
                f'{iops * access * transfer / MIB:.4f} MiB: IOR computes '
                f'both of the same bytes, so the output was edited or '
                f'corrupted')

        bws.append(bw)
        totals.append(total)

    mean = sum(bws) / len(bws)
    spread = math.sqrt(sum((b - mean) ** 2 for b in bws) / len(bws))
    stats = {'bwMaxMIB': (max(bws), 'the largest row bwMiB is'),
             'bwMinMIB': (min(bws), 'the smallest row bwMiB is'),
             'bwMeanMIB': (mean, 'the mean of its row bwMiB is'),
             'bwStdMIB': (spread, 'the standard deviation of its rows is')}
    said = {}
    for key, (computed, how) in stats.items():
        said[key] = float_of(entry, key, where)
        if not near(said[key], computed, 2 * HALF):
            raise _disagree(f'{op} {key}', said[key], computed, how)

    if not said['bwMinMIB'] <= said['bwMeanMIB'] <= said['bwMaxMIB']:
        raise OutputError(f'the {op} summary\'s mean {said["bwMeanMIB"]} is '
                          f'not between its min {said["bwMinMIB"]} and max '
                          f'{said["bwMaxMIB"]}')

    per_op = MIB / transfer
    for key, ops_key in (('bwMaxMIB', 'OPsMax'), ('bwMinMIB', 'OPsMin'),
                         ('bwMeanMIB', 'OPsMean'), ('bwStdMIB', 'OPsSD')):
        ops = float_of(entry, ops_key, where)
        if not near(ops, said[key] * per_op, HALF * (1 + per_op)):
            raise _disagree(f'{op} {ops_key}', ops, said[key] * per_op,
                            f'{key} over the {transfer}-byte transfer is')

    mean_time = float_of(entry, 'MeanTime', where)
    if not near(mean_time, sum(totals) / len(totals), 2 * HALF):
        raise _disagree(f'{op} MeanTime', mean_time,
                        sum(totals) / len(totals),
                        'the mean of its rows\' totalTime is')

    xsize = float_of(entry, 'xsizeMiB', where)
    lo, hi = _product(bws[0], totals[0])
    if not lo - HALF <= xsize <= hi + HALF:
        raise _disagree(f'{op} xsizeMiB', xsize, bws[0] * totals[0],
                        'its first row\'s bwMiB x totalTime is')

    stonewall = entry.get('StoneWallTime')
    if stonewall is not None and number(
            stonewall, f'{where} StoneWallTime',
            positive=False) > mean_time + 2 * HALF:
        raise OutputError(f'the {op} summary says StoneWallTime '
                          f'{stonewall} s, longer than its whole phase, '
                          f'MeanTime {mean_time:.4f} s')

    return said['bwMeanMIB'], mean_time, xsize


#: Figures the summary entry of every operation repeats from the
#: Parameters (entry key, Parameters key)
_REPEATED = (('segmentCount', 'segmentCount'), ('blockSize', 'blockSize'),
             ('transferSize', 'transferSize'),
             ('tasksPerNode', 'tasksPerNode'),
             ('repetitions', 'repetitions'), ('filePerProc', 'filePerProc'),
             ('reorderTasks', 'reorderTasks'),
             ('reorderTasksRandom', 'reorderTasksRandom'),
             ('reorderTasksRandomSeed', 'reorderTasksRandomSeed'))

#: What the Options section repeats (Options key, Parameters key)
_OPTIONS = (('segments', 'segmentCount'), ('nodes', 'nodes'),
            ('clients per node', 'tasksPerNode'),
            ('repetitions', 'repetitions'))


def check_repeated(op, entry, params, options):
    '''What the summary entry of ``op`` and the Options repeat of the
    Parameters is the Parameters' value.'''
    for key, param in _REPEATED:
        said = int_of(entry, key, f'the {op} summary')
        stated = int_of(params, param, 'the Parameters')
        if said != stated:
            raise OutputError(f'the {op} summary says {key} {said} but the '
                              f'Parameters say {param} {stated}: IOR prints '
                              f'both of one run')

    for key, param in _OPTIONS:
        said = int_of(options, key, 'the Options')
        stated = int_of(params, param, 'the Parameters')
        if said != stated:
            raise OutputError(f'the Options say {key} {said} but the '
                              f'Parameters say {param} {stated}: IOR prints '
                              f'both of one run')
