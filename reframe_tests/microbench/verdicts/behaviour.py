'''Counted figures judged by rule: a behaviour change on the first night.

A counted figure (:mod:`microbench.suite.counted`: the scratch disk's
bytes and requests per byte a sample moved) is not a time: on a quiet
machine it repeats night after night to a few per cent, and a changed
behaviour (a read-ahead, a request size, a write-back, a benchmark's
default block size) moves it by a factor.  So it is judged by a rule, not
by the timed figures' statistics, and on one night:

- the night's value of a counted figure is the median of its samples
  (one per sample); its *history* is its values on the up to
  :data:`HISTORY` nights before tonight (at least :data:`LEAST` of them,
  else ``inconclusive``);
- tonight is a ``behaviour change`` when it lies outside the history's
  range widened by :data:`TOLERANCE` of it on each side and by the
  figure's own :data:`SLACK` (what the disk's other users add in a
  sample's window: absolute, so that a count near zero, a merge now and
  then, never alarms), else ``same behaviour``.

The verdicts go to the compare JSON's ``behaviour`` member (its own rows,
never among the figures: a count never fails the night, and never enters
a timed figure's history) and to compare's text, with the values before
and after.  Its false-alarm rate on unchanged nights and its hits on
planted changes are measured by bench/settings_plants.py.
'''

import math
import statistics

from microbench import fields
from microbench.verdicts import compare_json, figures, vocabulary

#: The nights of history a counted figure is judged against, at most and
#: at least
HISTORY, LEAST = 14, 3

#: A change smaller than this share of the history's range is the same
#: behaviour
TOLERANCE = 0.25

#: Per counted figure: the least absolute change that is a behaviour
#: change (requests per MiB: 0.25, a quarter of a 4 MiB request's worth;
#: 1.0 missed a change from 0.25 to 1.0 in bench/settings_plants.py)
SLACK = {'device_read_per_byte': 0.05, 'device_write_per_byte': 0.05,
         'device_ios_per_mib': 0.25, 'device_merges_per_mib': 1.0}

#: What identifies a counted figure across nights
KEY = ('system', 'partition', 'environ', 'check', 'variant', 'figure')

#: The verdicts, from worst
CHANGE, SAME, UNDECIDED = vocabulary.BEHAVIOUR_WORDS

#: The members of a row of the compare JSON's ``behaviour``
ROW = compare_json.BEHAVIOUR


def _values(frame):
    '''``{key: {session: night's value}}`` of every counted figure of
    ``frame`` (rows of :func:`microbench.verdicts.figures.load`, with
    their ``counted`` column), and ``{key: tonight's samples}``.'''
    found, samples = {}, {}
    if figures.COUNTED not in frame:
        return found, samples
    cases = frame.drop_duplicates(
        ['session', 'system', 'partition', 'environ', 'check', 'variant'])
    for row in cases.itertuples(index=False):
        counted = fields.COUNTED.read(getattr(row, figures.COUNTED) or '')
        for name, values in counted.items():
            # a count is finite and not negative: anything else is no count
            values = [v for v in values if math.isfinite(v) and v >= 0]
            if not values:
                continue
            key = (row.system, row.partition, row.environ, row.check,
                   row.variant, name)
            found.setdefault(key, {})[row.session] = statistics.median(
                values)
            samples.setdefault(key, {})[row.session] = list(values)
    return found, samples


def judge_one(tonight, history, figure):
    '''``(verdict, why, low, high)`` of ``tonight``'s value of a counted
    ``figure`` against its ``history`` (the nights before, oldest
    first).'''
    if len(history) < LEAST:
        return (UNDECIDED, f'history: {len(history)} nights, needs {LEAST}',
                None, None)
    low, high = min(history), max(history)
    slack = SLACK.get(figure, 0.0)
    floor = low * (1 - TOLERANCE) - slack
    ceiling = high * (1 + TOLERANCE) + slack
    if floor <= tonight <= ceiling:
        return (SAME, f'within the {len(history)} nights before '
                f'({low:.4g} to {high:.4g}, widened to {max(floor, 0):.4g} '
                f'to {ceiling:.4g})', low, high)
    ratio = tonight / statistics.median(history) if statistics.median(
        history) else float('inf')
    return (CHANGE, f'{tonight:.4g} against {low:.4g} to {high:.4g} on the '
            f'{len(history)} nights before (x{ratio:.3g}; beyond '
            f'{TOLERANCE:.0%} of that range and {slack:g})', low, high)


def judge(frame, order):
    '''The ``behaviour`` rows of the last of the nights ``order``
    (sessions, oldest first) in ``frame``: one per counted figure measured
    tonight, worst first.'''
    if not order:
        return []
    found, samples = _values(frame)
    tonight, before = order[-1], order[:-1]
    rows = []
    for key, nights in found.items():
        if tonight not in nights:
            continue
        history = [nights[s] for s in before if s in nights][-HISTORY:]
        verdict, why, low, high = judge_one(nights[tonight], history,
                                            key[-1])
        rows.append({**dict(zip(KEY, key)), 'verdict': verdict, 'why': why,
                     'tonight': nights[tonight],
                     'samples': samples[key][tonight],
                     'before_median': statistics.median(history)
                     if history else None,
                     'before_low': low, 'before_high': high,
                     'nights': len(history)})
    rank = {word: i for i, word in enumerate(vocabulary.BEHAVIOUR_WORDS)}
    return sorted(rows, key=lambda r: (rank[r['verdict']],
                                       *(r[k] for k in KEY)))


def lines(rows):
    '''compare's text of the behaviour rows: every change, then a count of
    the others.'''
    changed = [row for row in rows if row['verdict'] == CHANGE]
    out = [f'{CHANGE}: {row["check"]} {row["variant"]} {row["figure"]}: '
           f'{row["why"]}' for row in changed]
    rest = len(rows) - len(changed)
    if rows:
        out.append(f'{len(rows)} counted figure(s) (microbench/suite/'
                   f'counted.py): {len(changed)} {CHANGE}, {rest} not')
    return out
