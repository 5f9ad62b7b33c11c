'''Every figure as a share of its hardware limit, from a real session: the
fio checks run on the local default of the development VM with its
measured limits in force (tests/data/results/fio-quick-limits.json), read
by the results storage, ``compare --json``, the report's "Share of the
hardware" section and the Prometheus export; a session recorded before
the limits existed (fio-quick-1.json) has none, and says so.  The same
session on a machine whose measured limits were withheld (its records
mutated so) has no bar and no share, in the report, compare's JSON and
the weather page, and each says why and how to measure this machine's
own; an older share is never shown as the latest.'''

import copy
import html
import json
import os
import re
import subprocess
import sys
import uuid

import matplotlib.image
import numpy as np
import pytest
from prometheus_client.parser import text_string_to_metric_families

from microbench import components, fields
from microbench.verdicts import figures, storage, weather
from microbench.verdicts.export import destinations
from microbench.verdicts.report import shares

import weather_history
from fixtures import path
from weather_history import SCRATCH

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')

#: tab:blue (a storage figure's bar) and tab:orange (a cache figure's)
BLUE = (0.122, 0.467, 0.706)
ORANGE = (1.0, 0.498, 0.055)


def report(name):
    with open(path(f'results/{name}.json')) as fp:
        return json.load(fp)


def pairs(text):
    return dict(item.split('=', 1) for item in filter(None, text.split(';')))


def recorded_shares(source):
    '''{(check, variant, figure): (limit name, limit, share %)} as the
    report's test cases record them.'''
    out = {}
    for case in source['runs'][-1]['testcases']:
        names, values, found = (pairs(case.get(field) or '')
                                for field in figures.LIMIT)
        for figure, share in found.items():
            out[case['display_name'].split()[0], case.get('variant', ''),
                figure] = (names[figure], float(values[figure]),
                           float(share))
    return out


def same(got, want):
    '''Whether two {key: (limit name, limit, share)} agree: the names
    exactly, the numbers to the records' six significant digits.'''
    assert got.keys() == want.keys()
    for key, (name, limit, share) in want.items():
        assert got[key][0] == name, key
        assert got[key][1:] == pytest.approx((limit, share), rel=1e-5), key
    return True


@pytest.fixture(scope='module')
def limited():
    return report('fio-quick-limits')


@pytest.fixture(scope='module')
def db(tmp_path_factory, limited):
    '''A results storage holding a session without limits, then the one
    with them.'''
    found = tmp_path_factory.mktemp('shares') / 'results.db'
    storage.store(str(found), report('fio-quick-1'))
    storage.store(str(found), limited)
    return found


def test_every_realistic_fio_figure_has_its_share(limited):
    got = recorded_shares(limited)
    # every write figure of the three fio pitfalls, each of its variants
    assert len(got) == 8
    values = {}
    for case in limited['runs'][-1]['testcases']:
        for key, (value, *_) in (case.get('perfvalues') or {}).items():
            values[case['display_name'].split()[0], case.get('variant', ''),
                   key.split(':')[-1]] = value
    for key, (name, limit, share) in got.items():
        assert name == 'storage_write_mib_s (measured)', key
        assert share == pytest.approx(100 * values[key] / limit, rel=1e-3)
    # the benchmark default and its realistic form, side by side
    direct = got['fio_cache_flags', 'direct', 'write_median_mib_s'][2]
    both = got['fio_cache_flags', 'both', 'write_median_mib_s'][2]
    assert both < direct


def test_the_results_storage_reads_the_shares(db, limited):
    frame = figures.load(figures.ALL, str(db))
    session = limited['session_info']['uuid']
    mine = frame[(frame['session'] == session)
                 & np.isfinite(frame['share_of_limit'].astype(float))]
    want = recorded_shares(limited)
    assert same({(r.check, r.variant, r.figure): (r.limit_name,
                                                  r.limit_value,
                                                  r.share_of_limit)
                 for r in mine.itertuples()}, want)
    older = frame[frame['session'] != session]
    assert not older.empty
    assert not np.isfinite(older['share_of_limit'].astype(float)).any()


def test_compare_json_carries_the_shares_of_the_after_side(db, limited,
                                                          tmp_path):
    before = report('fio-quick-1')['session_info']['uuid']
    after = limited['session_info']['uuid']
    out = tmp_path / 'verdicts.json'
    proc = subprocess.run([MICROBENCH, '--db', str(db), 'compare', before,
                           after, '--json', str(out)],
                          capture_output=True, text=True, timeout=300)
    assert 'Traceback' not in proc.stderr, proc.stderr
    found = json.loads(out.read_text())['figures']
    want = recorded_shares(limited)
    with_share = {(f['check'], f['variant'], f['figure']):
                  (f['limit_name'], f['limit_value'], f['share_of_limit'])
                  for f in found if f.get('share_of_limit') is not None}
    assert same(with_share, want)


def test_the_report_draws_storage_blue_and_cache_orange(db, tmp_path):
    frame = figures.load(figures.ALL, str(db))
    text = '\n'.join(shares.section(frame, str(tmp_path)))
    assert '<h2>Share of the hardware</h2>' in text
    assert 'local:default' in text
    png, = [name for name in os.listdir(tmp_path) if name.endswith('.png')]
    image = matplotlib.image.imread(tmp_path / png)
    close = [(np.abs(image[..., :3] - colour) < 0.03).all(-1).sum()
             for colour in (BLUE, ORANGE)]
    # one bar per figure with a share, its latest session's: seven
    # storage bars, one cache bar (the buffered writes), each as long as
    # its share
    rows = shares.latest(frame)
    assert len(rows) == 8
    cache = rows['measures'] == 'page cache'
    assert cache.sum() == 1
    want = (rows[~cache]['share_of_limit'].sum()
            / rows[cache]['share_of_limit'].sum())
    assert close[1] > 1000
    assert close[0] / close[1] == pytest.approx(want, rel=0.15), close


def test_no_limit_no_bars(tmp_path):
    frame = figures.frame([report('fio-quick-1')])
    text = '\n'.join(shares.section(frame, str(tmp_path)))
    assert 'No figure has a limit in force' in text
    assert not [n for n in os.listdir(tmp_path) if n.endswith('.png')]


def test_the_export_gives_each_share_as_a_ratio(db, limited):
    session = limited['session_info']['uuid']
    rows = figures.load(session, str(db))
    text = destinations.openmetrics_text(session, rows)
    got = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == 'microbench_figure_share_of_limit':
                got[sample.labels['check'], sample.labels['variant'],
                    sample.labels['figure']] = (
                    sample.labels['limit_name'], sample.value)
    want = {key: (name, share / 100)
            for key, (name, _, share) in recorded_shares(limited).items()}
    assert got.keys() == want.keys()
    for key, (name, ratio) in want.items():
        assert got[key][0] == name
        assert got[key][1] == pytest.approx(ratio, rel=1e-6)


def test_a_session_without_limits_exports_no_share(db):
    session = report('fio-quick-1')['session_info']['uuid']
    text = destinations.openmetrics_text(session,
                                         figures.load(session, str(db)))
    assert 'microbench_figure{' in text
    assert 'share_of_limit' not in text


# -- a measured limit withheld: no bar, no wrong share, and why -------------

def withheld_copy(source, reason, later=0):
    '''``source`` (a real report) as a session on a machine whose
    measured limits were withheld for ``reason``: each figure's limit
    named withheld, no value and no share (a mutation of the real
    records), ``later`` seconds after it, a session of its own.'''
    found = copy.deepcopy(source)
    info = found['session_info']
    info['uuid'] = str(uuid.UUID(int=uuid.UUID(info['uuid']).int ^ 1))
    info['time_start_unix'] += later
    for case in found['runs'][-1]['testcases']:
        names = fields.LIMIT_NAME.decode(case.get('limit_name'))
        case['limit_name'] = fields.LIMIT_NAME.encode(
            (figure, components.withheld_label(fields.limit_of(name), reason))
            for figure, name in names.items())
        case['limit_value'] = case['share_of_limit'] = ''
    return found


def test_a_withheld_session_has_no_bar_and_says_why(limited, tmp_path):
    frame = figures.frame([withheld_copy(limited, components.ELSEWHERE)])
    assert shares.latest(frame).empty
    assert shares.withheld(frame) == {
        ('local', 'default'): {components.ELSEWHERE: 8}}
    text = '\n'.join(shares.section(frame, str(tmp_path)))
    assert ('<p class="withheld">No share of a measured limit on '
            'local:default (8 figures): its limits were measured on '
            'another machine; measure them here: reframe -c reframe_tests '
            '-n &#x27;^component_limits&#x27; -r --system local:default, '
            'then microbench limits --partition local:default --write.</p>'
            ) in text
    assert not [n for n in os.listdir(tmp_path) if n.endswith('.png')]


def test_an_older_share_is_not_shown_as_tonights(limited, tmp_path):
    # the same figures measured with shares, then on a machine whose
    # limits are withheld: the older share is no figure's latest
    later = withheld_copy(limited, components.ELSEWHERE, later=86400)
    frame = figures.frame([limited, later])
    assert shares.latest(frame).empty
    assert shares.plots(frame) == []
    # and the other way round: the shares are the latest
    earlier = withheld_copy(limited, components.ELSEWHERE, later=-86400)
    frame = figures.frame([earlier, limited])
    assert len(shares.latest(frame)) == 8
    assert shares.withheld(frame) == {}


def test_the_records_of_a_withheld_session_reach_compare_json(limited,
                                                              tmp_path):
    db = tmp_path / 'results.db'
    storage.store(str(db), report('fio-quick-1'))
    after = withheld_copy(limited, components.REJECTED)
    storage.store(str(db), after)
    out = tmp_path / 'verdicts.json'
    proc = subprocess.run(
        [MICROBENCH, '--db', str(db), 'compare',
         report('fio-quick-1')['session_info']['uuid'],
         after['session_info']['uuid'], '--json', str(out)],
        capture_output=True, text=True, timeout=300)
    assert 'Traceback' not in proc.stderr, proc.stderr
    found = json.loads(out.read_text())['figures']
    said = {f['limit_name'] for f in found if f.get('limit_name')}
    assert said == {'storage_write_mib_s (withheld: its limits file is '
                    'rejected)'}
    assert all(f.get('share_of_limit') is None for f in found)


def weather_tiles(frame, tmp_path):
    '''{words: the tile's text} of scratch's tiles on the weather page of
    ``frame``.'''
    page = open(weather.write(frame, [], str(tmp_path), [])).read()
    section, = [s for s in re.findall(
        r'<section class="partition".*?</section>', page, re.S)
        if re.search(rf'<h2>{SCRATCH} on ', s)]
    return {re.search(r'<div class="what">(.*?)</div>', tile)[1]:
            html.unescape(re.sub(r'\s+', ' ', re.sub(r'<[^>]+>', ' ',
                                                     tile)))
            for tile in re.findall(r'<li class="tile.*?</li>', section,
                                   re.S)}


@pytest.mark.parametrize('name, value, share, said', [
    ('storage_write_mib_s (measured)', 1907.0, 54.0,
     "54 % of the partition's limit (1,907 MiB/s, measured)"),
    ('storage_write_mib_s (declared)', 1907.0, 54.0,
     "54 % of the partition's limit (1,907 MiB/s, declared)"),
    ('storage_write_mib_s (withheld: its limits were measured on another '
     'machine)', None, None,
     f'No share of a measured limit on local:{SCRATCH}: its limits were '
     f'measured on another machine; measure them here: reframe -c '
     f"reframe_tests -n '^component_limits' -r --system local:{SCRATCH}, "
     f'then microbench limits --partition local:{SCRATCH} --write'),
])
def test_the_weather_says_where_a_share_comes_from(name, value, share,
                                                   said, tmp_path):
    frame = figures.frame(weather_history.history(3))
    watched = ((frame['start'] == frame['start'].max())
               & (frame['partition'] == SCRATCH)
               & (frame['check'] == 'fio_cache_flags')
               & (frame['variant'] == 'direct')
               & (frame['figure'] == 'write_median_mib_s'))
    limited = frame.assign(limit_name='', limit_value=float('nan'),
                           share_of_limit=float('nan'))
    limited.loc[watched, 'limit_name'] = name
    if value:
        limited.loc[watched, 'limit_value'] = value
        limited.loc[watched, 'share_of_limit'] = share
    tile = weather_tiles(limited, tmp_path)['O_DIRECT writes']
    assert said in tile, tile
    assert ('% of the partition' in tile) == (share is not None)
