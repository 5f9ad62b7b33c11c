'''Tonight's verdicts, made actionable: the nightly verdict
(:mod:`.nightly`) with the facility's acknowledgements (:mod:`.acks`),
one event per root cause (:mod:`.events`) and the confirmation rerun
(:mod:`.confirm`).

Acknowledgements act in two places:

- on a figure's history, before it is judged (:meth:`Acknowledged.
  adjust`): an ``expected`` change carries the nights before its night to
  the new level (each times the new level over the old: the geometric
  mean of the nights from the change night up to tonight, tonight left
  out unless it is the change night, over that of the :data:`PRIOR`
  nights before it), so the night-to-night spread those nights measured
  still counts, later nights are judged against the new level at once,
  and a new change after it is called as any other; a ``noise`` night
  leaves the history (it was no evidence of the level), unless it is
  tonight;
- on tonight's verdict (:meth:`Acknowledged.relabel`): a change that
  began on a ``known`` or ``expected`` acknowledgement's night (or the
  night next to it: the two tests may date a change a night apart), or on
  the ``noise`` night itself, is ``acknowledged (<kind>: <reason>)``, exit
  0; the verdict it had is kept beside it (``verdict_unacknowledged``).

An acknowledgement past its ``expires`` day, or one that cannot apply
(its partition, figure or night is not in the results storage) is one
warning line, and acts nowhere: its verdict comes back.
'''

import collections
import datetime
import math

import numpy as np

from microbench import fields, settings
from microbench.verdicts import (acks as ackfiles, compare_json, events,
                                 figures, history, nightly, rule, vocabulary)
from microbench.verdicts.verdict import Verdict

#: Nights before an ``expected`` change whose level is the old one
PRIOR = nightly.PRIOR_CAP

#: Verdicts an acknowledgement turns into ``acknowledged``
ACKNOWLEDGEABLE = vocabulary.ACKNOWLEDGEABLE


def partition_nights(frame):
    '''``{(system, partition): [(session, 'YYYY-MM-DD HH:MM')]}``: each
    partition's nights (their first sessions, not the confirmation
    reruns), oldest first.'''
    rows = frame.drop_duplicates(['system', 'partition', 'session']) \
        .sort_values('start', kind='stable')
    if figures.CONFIRMS in rows:
        rows = rows[rows[figures.CONFIRMS].fillna('').astype(str) == '']
    out = {}
    for system, partition, session, when in zip(
            rows['system'], rows['partition'], rows['session'],
            rows['when']):
        out.setdefault((system, partition), []).append(
            (session, when.strftime('%Y-%m-%d %H:%M')))
    return out


def day_of(frame):
    '''The date of the last session of ``frame`` (YYYY-MM-DD, UTC).'''
    start = float(frame['start'].max())
    return datetime.datetime.fromtimestamp(
        start, datetime.timezone.utc).strftime('%Y-%m-%d')


class Acknowledged:
    '''The acknowledgements in force tonight, applied to figures.'''

    def __init__(self, found, nights):
        self.acks = found
        self.order = {key: [s for s, _ in mine]
                      for key, mine in nights.items()}
        self._mine = {}

    def of(self, key):
        '''The acknowledgements that name the figure ``key``.'''
        if key not in self._mine:
            system, partition, _, check, variant, figure = key
            self._mine[key] = [a for a in self.acks if a.matches(
                system, partition, check, variant, figure)]
        return self._mine[key]

    def adjust(self, key, rows):
        '''A figure's nights as they are judged: ``noise`` nights left
        out (but tonight), the nights before an ``expected`` change
        carried to its new level.'''
        mine = self.of(key)
        if not mine:
            return rows
        tonight = rows['session'].iloc[-1]
        noise = {a.night for a in mine if a.kind == 'noise'} - {tonight}
        if noise:
            rows = rows[~rows['session'].isin(noise)]
        for ack in mine:
            if ack.kind == 'expected':
                rows = _restarted(rows, ack.night)
        return rows

    def _near(self, key, night, since):
        order = self.order.get(key[:2], [])
        if night not in order or since not in order:
            return False
        return abs(order.index(night) - order.index(since)) <= 1

    def relabel(self, row, tonight):
        '''Tonight's verdict ``row`` (a dict) acknowledged where an
        acknowledgement covers its change; ``ack``: the one that does, or
        an ``expected`` one whose level it is judged against.'''
        key = tuple(row[k] for k in compare_json.KEY)
        row['verdict_unacknowledged'], row['ack'] = row['verdict'], None
        since = row.get('since_session')
        for ack in self.of(key):
            covers = (ack.night == since or ack.night == tonight
                      if ack.kind == 'noise'
                      else self._near(key, ack.night, since))
            if row['verdict'] in ACKNOWLEDGEABLE and since and covers:
                row['ack'] = ack.as_json()
                Verdict(row).add('acknowledgement', f'acknowledged in '
                                 f'{ack.where()} ({ack.words()})',
                                 vocabulary.ACKNOWLEDGED)
                return row
        accepted = [a for a in self.of(key) if a.kind == 'expected']
        if accepted:
            ack = accepted[-1]
            row['ack'] = ack.as_json()
            Verdict(row).add('acknowledgement', f'judged against the level '
                             f'accepted from {ack.date[:10]} '
                             f'({ack.words()})')
        return row


def _restarted(rows, night):
    '''``rows`` with the nights before ``night`` carried to the level
    from ``night`` on (unchanged where ``night`` is not among them).'''
    sessions = rows['session'].tolist()
    if night not in sessions:
        return rows
    at = sessions.index(night)
    values = rows['night'].to_numpy(dtype=float)
    new = values[at:-1] if at < values.size - 1 else values[at:]
    old = values[max(0, at - PRIOR):at]
    if not old.size or not history.usable(new) or not history.usable(old):
        return rows
    ratio = math.exp(np.log(new).mean() - np.log(old).mean())
    values = values.copy()
    values[:at] *= ratio
    return rows.assign(night=values)


def with_limits(rows, frame):
    '''The :data:`figures.LIMIT` members of each figure's latest row in
    ``frame`` set in ``rows`` (dicts): the limit in force when it was
    measured and its share of it; and its :data:`figures.COLD_START`.'''
    latest = (frame.sort_values('start', kind='stable')
              .drop_duplicates(figures.KEY, keep='last')
              .set_index(figures.KEY)[[*figures.LIMIT, figures.COLD_START]])
    found = latest.to_dict('index')
    for row in rows:
        limit = found.get(tuple(row[k] for k in figures.KEY), {})
        for name in figures.LIMIT:
            row[name] = limit.get(name, '' if name == 'limit_name'
                                  else math.nan)
        row[figures.COLD_START] = limit.get(figures.COLD_START, '')
    return rows


def label(row):
    '''A verdict as people read it.'''
    verdict = row['verdict']
    state = (row.get('confirmation') or {}).get('state')
    if verdict == vocabulary.REGRESSION and state == 'confirmed':
        return 'regression (confirmed)'
    if verdict == vocabulary.UNCONFIRMED:
        return 'not confirmed (lone night)'
    if verdict == vocabulary.ACKNOWLEDGED:
        ack = row.get('ack') or {}
        downstream = (f'downstream of {ack["downstream_of"]}, '
                      if ack.get('downstream_of') else '')
        return f'acknowledged ({downstream}{ack.get("kind")}: ' \
               f'{ack.get("reason")})'
    if verdict in (vocabulary.DEGRADED, vocabulary.IMPROVED,
                   vocabulary.SHIFTED) and row.get('since_date'):
        return f'{verdict} since {row["since_date"][:10]}'
    return verdict


class Night:
    '''Tonight's verdicts: ``figures`` (dicts, the compare JSON's),
    ``events``, ``exit_code``, how it was tested (``judged``, ``level``,
    ``max_p``), ``warnings`` (one line each), ``acks`` (in force),
    ``session`` (tonight's night) and ``sessions`` (its sessions).'''

    def __init__(self, rows, got, warnings, found, session, sessions):
        self.figures, self.events = rows, []
        self.judged, self.level, self.max_p = got.judged, got.level, \
            got.max_p
        self.warnings, self.acks = warnings, found
        self.session, self.sessions = session, sessions
        self.confirmation = None

    @property
    def exit_code(self):
        return int(any(row['verdict'] == vocabulary.REGRESSION
                       for row in self.figures))

    def counts(self):
        found = collections.Counter(row['verdict'] for row in self.figures)
        return {v: found[v] for v in compare_json.VERDICTS if found[v]}


def acknowledgements(frame, nights, day, found=None):
    '''``(Acknowledged, warnings)``: the acknowledgements of the systems of
    ``frame`` (their files, or ``found``) that apply on ``day``.'''
    problems = []
    if found is None:
        found, problems = ackfiles.load_all(frame['system'].unique())
    keys = frame.drop_duplicates(figures.KEY)[figures.KEY].itertuples(
        index=False, name=None)
    applied, said = ackfiles.check(found, nights, list(keys), day)
    return Acknowledged(applied, nights), problems + said


def _judged(frame, budget, floor, applied, tonight):
    '''``(rows, Nightly)``: the nightly verdicts of ``frame``'s last night,
    acknowledged.'''
    got = nightly.judge_last(frame, budget, floor, adjust=applied.adjust)
    rows = with_limits(got.figures.to_dict('records'), frame)
    for row in rows:
        applied.relabel(row, tonight)
        row['confirmation'] = None
    return rows, got


def judge(frame, budget=nightly.BUDGET, floor=rule.FLOOR, found=None):
    '''Tonight's verdicts: the last night of ``frame`` (rows of
    :func:`figures.load`; the night's confirmation rerun included) with
    the acknowledgements in force (those of the systems' files, or
    ``found``), the rerun's outcome and tonight's events.'''
    nights = partition_nights(frame)
    tonight, sessions = list(history.sessions_of_nights(frame).items())[-1]
    applied, warnings = acknowledgements(
        frame, nights, day_of(frame[frame['session'] == tonight]), found)
    rows, got = _judged(frame, budget, floor, applied, tonight)
    night = Night(rows, got, warnings, applied.acks, tonight, sessions)
    if len(sessions) > 1:
        reruns = frame[frame['session'].isin(sessions[1:])]
        first, _ = _judged(frame[~frame['session'].isin(sessions[1:])],
                           budget, floor, applied, tonight)
        confirmed(first, rows, set(reruns[figures.KEY].itertuples(
            index=False, name=None)), sessions)
        moved = settings_moved(frame[frame['session'] == tonight], reruns,
                               rows)
        night.confirmation = {'night': tonight, 'by': sessions[1:],
                              'figures': int(len(reruns)),
                              'settings_changed': moved}
    records = history.as_nights(frame)
    order = {key: [s for s, _ in mine] for key, mine in nights.items()}
    night.events = events.group(rows, records, order)
    for row in rows:
        row['label'] = label(row)
    return night


def settings_moved(run, rerun, rows):
    '''The machine settings that differ between a night's run and its
    confirmation ``rerun`` (their records), said (``block.vda.read_ahead_kb
    8192 -> 4096``); a regression the rerun did not confirm says them:
    a setting set back between the two explains it.'''
    moved = settings.said(fields.differences(run, rerun))
    for row in rows:
        if moved and (row.get('confirmation') or {}).get('state') == \
                'not confirmed':
            Verdict(row).add('confirmation', f'the machine\'s settings '
                             f'changed between the run and its rerun: '
                             f'{"; ".join(moved)}')
    return moved


def confirmed(first, rows, rerun, sessions):
    '''Tonight's ``rows`` (the night with its confirmation rerun) with
    what the rerun said of the regressions of its first run (``first``):
    ``regression`` with ``confirmation.state`` ``confirmed`` where the
    rerun finds it too; ``unconfirmed`` (not confirmed: a lone night) where
    it does not, exit 0; ``not rerun`` where the rerun has no samples of
    it (a regression still).  A regression the rerun alone finds stays
    one: the rerun's figures are the night's.'''
    before = {tuple(row[k] for k in compare_json.KEY): row for row in first}
    for row in rows:
        key = tuple(row[k] for k in compare_json.KEY)
        was = before.get(key)
        seen = {'sessions': list(sessions),
                'first_median': was['median_after'] if was else None,
                'first_verdict': was['verdict'] if was else None,
                'rerun_median': row['median_after'] if key in rerun
                else None}
        if was is None or was['verdict'] != vocabulary.REGRESSION:
            if row['verdict'] == vocabulary.REGRESSION and key in rerun:
                row['confirmation'] = {**seen, 'state': 'found in the rerun'}
            continue
        if key not in rerun:
            row['confirmation'] = {**seen, 'state': 'not rerun'}
            Verdict(row).add('confirmation', 'the confirmation rerun has '
                             'no samples of it')
        elif row['verdict'] == vocabulary.REGRESSION:
            row['confirmation'] = {**seen, 'state': 'confirmed'}
            Verdict(row).add('confirmation', 'confirmed by the rerun').add(
                'confirmation', f'the first run: {was["why"]}', last=True)
        else:
            row['confirmation'] = {**seen, 'state': 'not confirmed',
                                   'rerun_verdict': row['verdict']}
            Verdict(row).add('confirmation', f'the first run: '
                             f'{was["why"]}; the confirmation rerun: '
                             f'{row["verdict"]}', vocabulary.UNCONFIRMED)
    return rows
