'''The cold-start witness in the verdicts: the flag a run records
(``cold_start``) is read per figure, carried in the compare JSON (and
back), listed by compare, shown in the report, and turned into advice by
``microbench advise`` from the nights it recurs on.

The nights are copies of a real recorded session
(tests/data/results/fio-quick-limits.json, helpers/changes.py), each test
case's ``cold_start`` set by the rule (microbench/suite/coldstart.py) on
its real samples: its buffered write wrote 1658 MiB/s in round 1 against
2357 and 2704.
'''

import pytest

from microbench.suite import coldstart
from microbench.suite.stats import Samples
from microbench.verdicts import advise, compare, compare_json, figures
from microbench.verdicts.report import page

from changes import CHANGE, drop, history

BUFFERED = ('fio_cache_flags', 'buffered', 'write_median_mib_s')
FLAG = 'round 1 x1.5 slower'


def witnessed(reports, flagged=lambda index: True, warmup=lambda index: 0):
    '''``reports`` with each test case's ``cold_start`` as the rule says
    of its samples (on the nights ``flagged`` says; none on the others),
    and ``warmup(night)`` warm-up rounds recorded.'''
    for index, report in enumerate(reports):
        for case in report['runs'][-1]['testcases']:
            units = {key.split(':')[-1]: value[4] for key, value in
                     (case.get('perfvalues') or {}).items()}
            found = coldstart.flags({
                name: Samples(values, units[name]) for name, values in
                figures.parse_samples(case.get('figure_samples')).items()})
            case['cold_start'] = (coldstart.record(found)
                                  if flagged(index) else '')
            case['warmup_rounds'] = warmup(index)
    return reports


def key_of(row):
    return (row['check'], row['variant'], row['figure'])


@pytest.fixture(scope='module')
def frame():
    return figures.frame(witnessed(history(CHANGE + 1, drop(0.5))))


@pytest.fixture(scope='module')
def doc(frame):
    made, _, _ = compare.last(frame, found=[])
    return made


def test_the_flag_is_read_per_figure(frame):
    found = {key_of(row): row[figures.COLD_START]
             for _, row in figures.with_samples(frame).iterrows()}
    assert found[BUFFERED] == FLAG
    assert found[('fio_cache_flags', 'direct', 'write_median_mib_s')] == ''
    # the gap's own rounds: buffered over direct, round 1 x1.6 lower
    assert found[('fio_cache_flags_gap', 'gap', 'buffered_over_direct')] \
        == 'round 1 x1.6 lower'
    # min and max rows carry no flag: only the figures with samples do
    assert set(frame.loc[frame['samples'].map(len) == 0,
                         figures.COLD_START]) == {''}
    assert set(frame[figures.WARMUP]) == {0}


def test_compare_json_carries_the_flag_and_round_trips(doc, tmp_path):
    rows = {key_of(row): row for row in doc['figures']}
    assert rows[BUFFERED]['cold_start'] == FLAG
    assert sum(bool(row['cold_start']) for row in doc['figures']) == 2
    path = tmp_path / 'verdicts.json'
    compare_json.write(str(path), doc)
    found = compare_json.read(str(path))
    assert found.doc == doc
    back = {key_of(row): row['cold_start'] for row in found.figures}
    assert back[BUFFERED] == FLAG


def test_compare_lists_the_flag(doc):
    text = compare.text(doc, 'about', ('since', lambda row: '-'))
    line, = [line for line in text.splitlines()
             if line.startswith('cold start: ') and 'buffered write' in line]
    assert line.endswith(f'fio_cache_flags buffered write_median_mib_s: '
                         f'{FLAG} (microbench advise says what to do)')


def _advice(frame):
    table = advise.advice(frame)
    return {(row.check, row.variant, row.figure): row
            for row in table.itertuples()}


def test_advise_says_run_a_warmup_round(frame):
    row = _advice(frame)[BUFFERED]
    nights = CHANGE + 1
    assert row.cold_start == (
        f'round 1 cold on {nights} of {nights} nights (last: {FLAG}): run '
        f'a warm-up round, -S warmup_rounds=1, or find what round 1 pays '
        f'(file system allocation, first touch of buffers, connection '
        f'setup)')
    assert row.advice.endswith(row.cold_start)
    direct = _advice(frame)[('fio_cache_flags', 'direct',
                             'write_median_mib_s')]
    assert direct.cold_start == '' and 'cold' not in direct.advice


def test_advise_after_a_warmup_round_looks_elsewhere():
    frame = figures.frame(witnessed(history(8), warmup=lambda n: int(n > 3)))
    assert _advice(frame)[BUFFERED].cold_start == (
        f'round 1 cold on 8 of 8 nights (last: {FLAG}) even after 1 '
        f'warm-up round(s): the cause is not the first round alone (look '
        f'at the samples)')


def test_advise_on_a_flag_now_and_then():
    frame = figures.frame(witnessed(history(8), flagged=lambda n: n == 2))
    assert _advice(frame)[BUFFERED].cold_start == (
        f'round 1 cold on 1 of 8 nights (last: {FLAG}): now and then, as '
        f'noise at this spread can')


def test_the_report_shows_the_flag(frame, doc, tmp_path):
    written = page.render(frame, doc['figures'], str(tmp_path), workers=1,
                          advice=advise.advice(frame))
    with open(written, encoding='utf-8') as fp:
        text = fp.read()
    for ident in ('verdicts', 'advice', 'latest'):
        body = text.split(f'<section id="{ident}">', 1)[1]
        body = body.split('</section>', 1)[0]
        assert '<th>cold start</th>' in body or ident == 'advice'
        assert FLAG in body, ident
