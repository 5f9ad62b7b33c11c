'''From alarm to action, on histories with known answers: nights made from
a real recorded session (tests/data/results/fio-quick-limits.json: the
fio checks on the local default, every write figure with its limit),
each night's samples times that night's drift, chosen figures scaled
from a night on.

- an unacknowledged regression exits 1 exactly as the nightly verdict
  alone says;
- ``noise`` turns that night's regression into ``acknowledged``, exit 0,
  and leaves the history: a drop that stays is called the next night;
- ``known`` acknowledges a change while it holds; past its expiry day
  the verdict is back, with one warning line;
- ``expected`` restarts the level: the figure is normal on the following
  nights, and a later 25 % drop is still called within 3 nights;
- figures that change on one night in one partition are one event, with
  a stable fingerprint, classed by what differs in the records;
- a confirmation rerun that does not see the drop makes it a lone night
  (exit 0), one that sees it confirms it (exit 1).
'''

import copy

import pytest

from microbench.verdicts import acks, figures, nightly, triage
from microbench.verdicts.history import nights as night_summaries

from changes import CHANGE, WATCHED, drop, history, is_watched, session

def upto(reports, night_index):
    return figures.frame(reports[:night_index + 1])


def watched(found):
    return next(row for row in found.figures if
                (row['check'], row['variant'], row['figure']) == WATCHED)


def ack(kind, night_session, expires='', **names):
    values = dict(zip(('check', 'variant', 'figure'), WATCHED))
    values.update(names)
    return acks.Ack(system='local', partition='default', night=night_session,
                    kind=kind, reason=f'a {kind} change', expires=expires,
                    index=1, path='/facility/acks/local.yaml', **values)


def test_an_unacknowledged_regression_exits_1_as_before():
    reports = history(CHANGE + 1, drop(0.5))
    frame = upto(reports, CHANGE)
    found = triage.judge(frame, found=[])
    alone = nightly.judge_last(frame)
    assert found.exit_code == alone.exit_code == 1
    assert [row['verdict'] for row in found.figures] == \
        alone.figures['verdict'].tolist()
    mine = watched(found)
    assert mine['label'] == 'regression' and mine['ack'] is None
    event, = found.events
    assert event['new'] and event['members'][0]['check'] == WATCHED[0]
    assert event['cause'] == 'nothing recorded'


def test_noise_acknowledges_its_night_and_leaves_the_history():
    lone = history(CHANGE + 2, drop(0.5, end=CHANGE + 1))
    noise = ack('noise', session(lone, CHANGE))
    found = triage.judge(upto(lone, CHANGE), found=[noise])
    mine = watched(found)
    assert found.exit_code == 0 and mine['verdict'] == 'acknowledged'
    assert mine['verdict_unacknowledged'] == 'regression'
    assert mine['label'] == 'acknowledged (noise: a noise change)'
    assert mine['ack']['kind'] == 'noise'
    # the next night is back: unchanged, the noise night left out
    found = triage.judge(upto(lone, CHANGE + 1), found=[noise])
    assert watched(found)['verdict'] == 'unchanged'
    assert watched(found)['nights'] == CHANGE + 1

    # a drop that stays: the night after the noise night is a new one
    stays = history(CHANGE + 2, drop(0.5))
    found = triage.judge(upto(stays, CHANGE + 1),
                         found=[ack('noise', session(stays, CHANGE))])
    assert found.exit_code == 1 and watched(found)['verdict'] == 'regression'
    assert watched(found)['since_session'] == session(stays, CHANGE + 1)


def test_known_holds_while_the_change_holds_then_expires():
    reports = history(CHANGE + 3, drop(0.5))
    frame = upto(reports, CHANGE + 1)
    day = triage.day_of(frame[frame['session'] ==
                              session(reports, CHANGE + 1)])
    known = ack('known', session(reports, CHANGE), expires=day)
    for index in (CHANGE, CHANGE + 1):
        found = triage.judge(upto(reports, index), found=[known])
        assert found.exit_code == 0
        assert watched(found)['verdict'] == 'acknowledged'
        assert watched(found)['label'] == \
            'acknowledged (known: a known change)'
    # the next day it has expired: degraded again, said once
    found = triage.judge(upto(reports, CHANGE + 2), found=[known])
    assert watched(found)['verdict'] == 'degraded'
    assert found.exit_code == 0
    warning, = found.warnings
    assert f'expired on {day}: its verdict is back' in warning


def test_expected_restarts_the_level_and_a_later_drop_is_called():
    later = CHANGE + 14
    scale = drop(0.75)
    reports = history(later + 3, lambda i, case: scale(i, case) * (
        0.75 if i >= later and is_watched(case) else 1.0))
    expected = ack('expected', session(reports, CHANGE))
    verdicts = [watched(triage.judge(upto(reports, index),
                                     found=[expected]))['verdict']
                for index in range(CHANGE, later + 3)]
    assert verdicts[:later - CHANGE] == ['unchanged'] * (later - CHANGE)
    assert 'regression' in verdicts[later - CHANGE:]
    # without the acknowledgement the first drop is called on its night
    assert watched(triage.judge(upto(reports, CHANGE), found=[]))[
        'verdict'] == 'regression'


def _kernel(reports, start, kernel='6.19.0-new'):
    out = copy.deepcopy(reports)
    for report in out[start:]:
        for case in report['runs'][-1]['testcases']:
            case['kernel'] = kernel
    return out


def test_figures_that_change_on_one_night_are_one_event():
    def every_write(case):
        return case.get('variant') != 'gap'
    reports = _kernel(history(CHANGE + 2, drop(0.5, which=every_write)),
                      CHANGE)
    found = triage.judge(upto(reports, CHANGE), found=[])
    down = [row for row in found.figures if row['verdict'] == 'regression']
    assert len(down) == 8 and found.exit_code == 1
    event, = [e for e in found.events if e['verdict'] == 'regression']
    assert len(event['members']) == len([
        row for row in found.figures if row['event'] == event['fingerprint']])
    assert {(m['check'], m['variant']) for m in event['members']} >= {
        (row['check'], row['variant']) for row in down}
    assert event['cause'] == 'machine'
    assert event['differences']['kernel']['after'] == ['6.19.0-new']
    assert event['night'] == session(reports, CHANGE)
    # the same night judged again: the same fingerprint
    again = triage.judge(upto(reports, CHANGE), found=[])
    assert [e['fingerprint'] for e in again.events] == \
        [e['fingerprint'] for e in found.events]


def test_a_limit_that_drops_is_the_root_of_its_figures():
    def storage_writes(case):
        name = case['display_name'].split()[0]
        return (name, case.get('variant')) == ('component_limits', 'write') \
            or 'storage_write_mib_s' in (case.get('limit_name') or '')
    reports = history(CHANGE + 2, drop(0.6, which=storage_writes),
                      limits=True)
    found = triage.judge(upto(reports, CHANGE), found=[])
    assert found.exit_code == 1
    event, = found.events
    assert event['root'] == ['storage_write_mib_s']
    roles = {(m['check'], m['variant']): m['role'] for m in event['members']}
    assert roles.pop(('component_limits', 'write')) == 'root'
    assert set(roles.values()) == {'downstream'} and len(roles) >= 6
    root = next(m for m in event['members'] if m['role'] == 'root')
    for row in found.figures:
        if row['role'] == 'downstream':
            assert row['downstream_of'] == {'limit': 'storage_write_mib_s',
                                            'change_pct': root['change_pct']}
            assert row['why'].startswith('downstream of storage_write_mib_s')
    # acknowledged at the root: the figures under it with it
    known = ack('known', session(reports, CHANGE), check='component_limits',
                variant='write')
    found = triage.judge(upto(reports, CHANGE), found=[known])
    assert found.exit_code == 0
    down = [row for row in found.figures if row['role'] == 'downstream']
    assert down and {row['verdict'] for row in down} == {'acknowledged'}
    assert down[0]['label'].startswith('acknowledged (downstream of '
                                       'storage_write_mib_s, known: ')
    # the next night: the members found then join it, no new alarm
    later = triage.judge(upto(reports, CHANGE + 1), found=[])
    assert later.exit_code == 0
    assert all(e['root'] == ['storage_write_mib_s'] for e in later.events)


def _confirmation(report, of, scale_watched):
    '''``report`` as a confirmation rerun of session ``of``: the
    fio_cache_flags cases only, the watched one times ``scale_watched``
    (against ``report``'s own), later by an hour.'''
    out = copy.deepcopy(report)
    info = out['session_info']
    info['uuid'] = info['uuid'][:-4] + 'c0f1'
    info['time_start_unix'] += 3600
    info[figures.CONFIRMS] = of
    run = out['runs'][-1]
    run['testcases'] = [case for case in run['testcases']
                        if case['display_name'].startswith('fio_cache')]
    for case in run['testcases']:
        if is_watched(case):
            case['figure_samples'] = ';'.join(
                f'{name}=' + ','.join(repr(v * scale_watched) for v in values)
                for name, values in figures.parse_samples(
                    case['figure_samples']).items())
    return out


@pytest.mark.parametrize('rerun, verdict, code', [
    (2.0, 'unconfirmed', 0), (1.0, 'regression', 1)])
def test_a_confirmation_rerun(rerun, verdict, code):
    reports = history(CHANGE + 2, drop(0.5, end=CHANGE + 1))
    tonight = session(reports, CHANGE)
    rerun_report = _confirmation(reports[CHANGE], tonight, rerun)
    nights = [*reports[:CHANGE + 1], rerun_report]
    found = triage.judge(figures.frame(nights), found=[])
    mine = watched(found)
    assert found.exit_code == code and mine['verdict'] == verdict
    assert found.session == tonight and len(found.sessions) == 2
    assert mine['confirmation']['sessions'] == found.sessions
    state = 'not confirmed' if code == 0 else 'confirmed'
    assert mine['confirmation']['state'] == state
    assert mine['label'] == ('not confirmed (lone night)' if code == 0 else
                             'regression (confirmed)')
    # the figures not rerun keep the first run's verdicts
    others = {row['check'] for row in found.figures
              if row['confirmation'] is None}
    assert 'fio_fallocate' in others
    # the rerun's figures stand for the night, under its first session
    table = history_of(figures.frame(nights))
    assert table['session'].iloc[-1] == tonight
    assert table['night'].iloc[-1] == pytest.approx(mine['median_after'])
    assert mine['confirmation']['rerun_median'] == pytest.approx(
        rerun * mine['confirmation']['first_median'])
    # the next night, back to its level: unchanged either way
    after = triage.judge(figures.frame([*nights, reports[CHANGE + 1]]),
                         found=[])
    assert watched(after)['verdict'] == 'unchanged' and after.exit_code == 0


def history_of(frame):
    '''The watched figure's night summaries.'''
    table = night_summaries(frame)
    return table[(table['check'] == WATCHED[0])
                 & (table['variant'] == WATCHED[1])
                 & (table['figure'] == WATCHED[2])]
