'''The report's plots, and the processes that draw them.

Which plots a report has (:func:`jobs`): per pitfall of each partition (a
check and its ``<check>_gap``), the violin plots of its latest session
(:mod:`.violins`) and the trend of each figure with samples over the
sessions (:mod:`.trends`); per partition, each figure's share of its
limit (:mod:`.shares`).  Drawing them is most of a report's work:
:func:`drawing` draws them in forked processes, one per core, while the
caller makes the rest of the page.  The workers inherit the figures from
the fork: only a plot's index and its PNG cross between processes.
'''

import contextlib
import gc
import math
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np
import pandas as pd

from microbench.verdicts import figures, vocabulary
from microbench.verdicts.report import canvas, shares, trends, violins

#: Drawing the plots is most of the work: a process per core
WORKERS = min(4, os.cpu_count() or 1)

#: The columns a plot (and the latest figures' table) reads of the figures
COLUMNS = [*figures.KEY, 'session', 'start', 'when', 'value', 'unit', 'ref',
           'lower', 'upper', 'result', 'samples', figures.COLD_START,
           figures.MEMORY]

#: The plots :func:`drawing` is drawing (its forked workers inherit them)
_JOBS = []


def _png(index):
    '''The PNG of plot ``index`` of :data:`_JOBS` (a function and its
    arguments), or None: nothing to plot.'''
    with canvas.drawing():
        fig = _JOBS[index][0](*_JOBS[index][1:])
        return None if fig is None else canvas.png(fig)


def _cost(job):
    '''What a plot costs to draw, roughly: a plot of the shares (its
    layout is computed) costs as much as the largest trend, any other
    plot in proportion to its rows.'''
    return math.inf if job[0] is shares.figure else len(job[1])


@contextlib.contextmanager
def drawing(jobs, workers=WORKERS):
    '''Draw ``jobs`` (a function and its arguments each, :func:`_png`) in
    ``workers`` forked processes (1: in this one, when asked) while the
    block runs; it is given a function that waits for every PNG and
    returns them in the order of ``jobs`` (None: nothing to plot).'''
    global _JOBS
    _JOBS = list(jobs)
    if workers <= 1:
        yield lambda: [_png(index) for index in range(len(_JOBS))]
        return

    # the costliest first: the last plots to finish are then small ones
    order = sorted(range(len(_JOBS)), key=lambda index: -_cost(_JOBS[index]))
    pool = ProcessPoolExecutor(workers, mp_context=get_context('fork'))
    try:
        # What this process holds now, the figures above all, the workers
        # only read: their collector need not walk it (every page it
        # touched would be copied into the worker).  The workers are
        # forked at the first submit.
        gc.freeze()
        try:
            drawn = {index: pool.submit(_png, index) for index in order}
        finally:
            gc.unfreeze()
        yield lambda: [drawn[index].result() for index in range(len(jobs))]
    except BaseException:
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown()


def _latest(rows):
    '''The rows of the latest session among ``rows``.'''
    return rows[rows['session'] == rows.loc[rows['start'].idxmax(),
                                            'session']]


def _is_point(point):
    '''Whether a change point of a compare JSON can be drawn.'''
    try:
        pd.Timestamp(point['date'])
        return all(np.isfinite(float(point[k]))
                   for k in ('mean_before', 'mean_after'))
    except (KeyError, TypeError, ValueError):
        return False


def marks(verdicts):
    '''What the trends mark of a comparison's ``verdicts`` (the dicts of
    its JSON's ``figures``), by figure (:data:`figures.KEY`): whether
    tonight is a regression, and the change points that can be drawn.'''
    return {tuple(verdict.get(key) for key in figures.KEY): {
        'alarm': verdict.get('verdict') == vocabulary.REGRESSION,
        'points': [point for point in verdict.get('change_points') or ()
                   if isinstance(point, dict) and _is_point(point)]}
        for verdict in verdicts or ()}


def _trend(rows, found, title):
    '''The trends of a pitfall's ``rows`` (:func:`trends.figure`), each
    session's least and largest sample taken here, in the worker.'''
    samples = figures.with_samples(rows)['samples']
    return trends.figure(rows.assign(low=samples.map(min),
                                     high=samples.map(max)), found, title)


def jobs(frame, verdicts):
    '''The plots of ``frame`` (rows of :func:`figures.load`) marked with
    ``verdicts`` (:func:`marks`): ``(section, file name, heading, job)``
    each (:func:`drawing`), the violins first, then the trends; and the
    latest session's rows of each check.'''
    frame = frame[COLUMNS]
    if not frame['start'].is_monotonic_increasing:
        frame = frame.sort_values('start', kind='stable')
    frame.index = pd.RangeIndex(len(frame))
    found = marks(verdicts)
    plots, trend_plots, latest = [], [], []
    for (system, partition), part in frame.groupby(['system', 'partition']):
        where, stem = f'{system}:{partition}', f'{system}-{partition}'
        checks = dict(iter(part.groupby('check')))
        latest += [_latest(rows) for rows in checks.values()]
        for base in sorted({check.removesuffix('_gap')
                            for check in checks}):
            mine = pd.concat([checks[check]
                              for check in (base, base + '_gap')
                              if check in checks])
            rows = _latest(mine)
            when = f'{rows["when"].iloc[0]:%Y-%m-%d %H:%M}'
            title = f'{base} on {where}, session {when}'
            plots.append(('pitfalls', f'violin-{stem}-{base}', title, (
                violins.figure, rows[rows['check'] == base],
                rows[rows['check'] == base + '_gap'], title)))
            # A pitfall's trends, its gaps' included, in one plot (a plot
            # costs more than its boxes)
            title = f'{base} on {where}'
            trend_plots.append(('trends', f'trend-{stem}-{base}', title,
                                (_trend, mine, found, title)))
    return plots + trend_plots, latest
