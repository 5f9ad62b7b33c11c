'''``compare --last`` judges the nights only: the sessions ci/nightly.sh
tags ``kind=nightly`` and their confirmation reruns, on nights made from a
real recorded session (tests/data/results/fio-quick-limits.json,
tests/helpers/changes.py).  An ad-hoc session (a one-check trial run in
the same results storage, its O_DIRECT write halved) after the last night
is not judged, said in one line; one among the nights leaves the
histories; a store with no tagged session is judged as before, every
session a night, said in one line; the untagged nights of a store made
before the tag stay nights.
'''

import copy
import os
import re
import subprocess

import pytest

from microbench import paths
from microbench.verdicts import compare, confirm, figures, storage

from changes import CHANGE, WATCHED, history, is_watched, session
from nights import MICROBENCH

HOUR = 3600


def tagged(reports, start=0):
    '''``reports`` with the sessions from index ``start`` on tagged as
    ci/nightly.sh tags them.'''
    out = copy.deepcopy(reports)
    for report in out[start:]:
        report['session_info'][figures.KIND] = figures.NIGHTLY
    return out


def trial(report, hours=1, **extras):
    '''An ad-hoc session ``hours`` after ``report``: its fio_cache_flags
    test cases only, the watched figure halved, no tag (``extras``
    added).'''
    out = copy.deepcopy(report)
    info = out['session_info']
    info.pop(figures.KIND, None)
    info.update(extras)
    info['uuid'] = info['uuid'][:-4] + 'adc0'
    info['time_start_unix'] += hours * HOUR
    run = out['runs'][-1]
    run['testcases'] = [case for case in run['testcases']
                        if case['display_name'].startswith('fio_cache')]
    for case in run['testcases']:
        if is_watched(case):
            case['figure_samples'] = ';'.join(
                f'{name}=' + ','.join(repr(v / 2) for v in values)
                for name, values in figures.parse_samples(
                    case['figure_samples']).items())
            for value in case['perfvalues'].values():
                value[0] /= 2
    return out


def watched(doc):
    return next(row for row in doc['figures']
                if (row['check'], row['variant'], row['figure']) == WATCHED)


@pytest.fixture(scope='module')
def nights():
    return history(CHANGE)


def test_an_ad_hoc_run_after_the_last_night_is_not_judged(nights):
    reports = tagged(nights)
    frame = figures.frame([*reports, trial(reports[-1])])
    doc, about, _ = compare.last(frame, found=[])
    assert doc['session'] == session(reports, CHANGE - 1)
    assert doc['exit_code'] == 0 and watched(doc)['verdict'] == 'unchanged'
    line = ('1 ad-hoc session after the last night is not judged (not '
            f'tagged kind=nightly: the newest '
            f'{session(reports, CHANGE - 1)[:-4]}adc0)')
    assert about.splitlines()[1:] == [line]
    assert doc['test']['nights'] == [line]


def test_without_the_tag_every_session_is_a_night_said_once(nights):
    frame = figures.frame([*nights, trial(nights[-1])])
    doc, about, _ = compare.last(frame, found=[])
    # as before the tag: the trial run is the last night, its drop called
    assert doc['session'].endswith('adc0') and doc['exit_code'] == 1
    assert about.splitlines()[1:] == [
        'no session is tagged kind=nightly (ci/nightly.sh tags its runs): '
        'every session is judged as a night']


def test_the_untagged_nights_of_an_older_store_stay_nights(nights):
    reports = tagged(nights, start=10)
    frame = figures.frame([*reports, trial(reports[-1])])
    doc, about, _ = compare.last(frame, found=[])
    assert doc['session'] == session(reports, CHANGE - 1)
    assert watched(doc)['nights'] == CHANGE
    assert about.splitlines()[1:] == [
        f'1 ad-hoc session after the last night is not judged (not tagged '
        f'kind=nightly: the newest {session(reports, CHANGE - 1)[:-4]}adc0)',
        '10 untagged sessions from before the first tagged night judged as '
        'nights (stored before ci/nightly.sh tagged its runs)']


def test_an_ad_hoc_run_among_the_nights_leaves_the_histories(nights):
    reports = tagged(nights)
    among = trial(reports[12], tag='trial')
    frame = figures.frame([*reports[:13], among, *reports[13:]])
    doc, about, _ = compare.last(frame, found=[])
    assert doc['exit_code'] == 0 and watched(doc)['nights'] == CHANGE
    assert about.splitlines()[1:] == [
        '1 ad-hoc session among the nights left out of the histories']


def test_a_confirmation_of_a_night_is_part_of_it(nights):
    reports = tagged(nights)
    rerun = trial(reports[-1], **{figures.CONFIRMS:
                                  session(reports, CHANGE - 1)})
    doc, about, _ = compare.last(figures.frame([*reports, rerun]), found=[])
    assert doc['sessions'] == [session(reports, CHANGE - 1),
                               rerun['session_info']['uuid']]
    assert about.splitlines()[1:] == []


def test_the_nightly_recipe_tags_its_run_and_not_its_confirmation():
    with open(os.path.join(paths.ROOT, 'ci', 'nightly.sh')) as fp:
        script = fp.read()
    assert f'nightly_tag={figures.KIND}={figures.NIGHTLY}\n' in script
    run, = re.findall(r'\n\.venv/bin/reframe -c reframe_tests [^\n]*\n'
                      r'[^\n]*\n', script)
    assert '--session-extras "$nightly_tag"' in run
    rerun = confirm.command(['reframe', '-c', 'reframe_tests', '-r'],
                            ['fio_cache_flags'], 3, 's-1', 'r.json')
    assert rerun[rerun.index('--session-extras') + 1] == 'confirms=s-1'
    assert rerun.count('--session-extras') == 1


def test_compare_says_the_ad_hoc_sessions_it_left_out(nights, tmp_path):
    db = tmp_path / 'results.db'
    reports = tagged(nights)
    for report in [*reports, trial(reports[-1])]:
        storage.store(str(db), report)
    proc = subprocess.run([MICROBENCH, '--db', str(db), 'compare', '--last'],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f'after:  the last night {session(reports, CHANGE - 1)}\n' in \
        proc.stdout
    assert '\n1 ad-hoc session after the last night is not judged' in \
        proc.stdout
