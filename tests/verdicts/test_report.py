'''The HTML report (microbench.verdicts.report) of two real sessions of the fio
checks (tests/data/results).'''

import base64
import html
import json
import os
import re
from types import SimpleNamespace

import matplotlib.image
import numpy as np
import pytest

from microbench.verdicts import advise, figures, prepost
from microbench.verdicts.report import canvas, page

from fixtures import path

#: tab:red (failed or regressed points); tab:green at alpha 0.2 on white (a
#: reference band); tab:blue at alpha 0.3 on white (a violin: more pixels
#: than the edges of blue lines)
RED = (0.839, 0.153, 0.157)
BAND = (0.835, 0.925, 0.835)
VIOLIN = (0.737, 0.840, 0.912)
#: tab:orange: a change point and its levels
ORANGE = (1.0, 0.498, 0.055)
BODY = 500
PITFALLS = ['fio_cache_flags', 'fio_fallocate', 'fio_time_based_overwrite']


def sessions(*numbers):
    '''The frame of the recorded sessions ``numbers``.'''
    found = []
    for number in numbers:
        with open(path(f'results/fio-quick-{number}.json')) as fp:
            found.append(json.load(fp))
    return figures.frame(found)


def render(frame, verdicts, outdir, **kwargs):
    '''The report of ``frame``: its page's text, its PNG files as images
    and as bytes.'''
    written = page.render(frame, verdicts, str(outdir), **kwargs)
    assert written == os.path.join(str(outdir), 'report.html')
    with open(written, encoding='utf-8') as fp:
        out = SimpleNamespace(text=fp.read(), images={}, files={})
    for name in sorted(os.listdir(outdir)):
        if name.endswith('.png'):
            out.images[name] = matplotlib.image.imread(outdir / name)
            out.files[name] = (outdir / name).read_bytes()
    return out


def has(image, colour, least=1):
    '''Whether ``least`` pixels of ``image`` are ``colour``.'''
    return (np.abs(image[..., :3] - colour) < 0.03).all(-1).sum() >= least


def section(text, ident):
    return re.search(f'<section id="{ident}">(.*?)</section>', text,
                     re.S)[1]


@pytest.fixture(scope='module')
def verdicts():
    return prepost.compare(sessions(1), sessions(2))[0].to_dict('records')


@pytest.fixture(scope='module')
def both(verdicts, tmp_path_factory):
    '''The report of both sessions, with their comparison.'''
    return render(sessions(1, 2), verdicts, tmp_path_factory.mktemp('both'))


def test_one_violin_plot_and_one_trend_plot_per_pitfall(both):
    assert set(both.images) == {
        *(f'violin-local-default-{c}.png' for c in PITFALLS),
        *(f'trend-local-default-{c}.png' for c in PITFALLS)}


def test_every_png_is_embedded_once_with_alt_text(both):
    tags = re.findall(r'<img [^>]*>', both.text)
    assert len(tags) == both.text.count('<img') == len(both.files)
    embedded = []
    for tag in tags:
        assert 'class="plot"' in tag
        assert re.search(r' alt="[^"]{20,}"', tag)
        data = re.search(r' src="data:image/png;base64,([^"]+)"', tag)[1]
        embedded.append(base64.b64decode(data))
    assert sorted(embedded) == sorted(both.files.values())


def test_the_page_is_self_contained(both):
    assert not re.search(r'(src|href)="(?!data:)', both.text)
    assert '<style>' in both.text and 'http' not in both.text


def test_the_violins_are_of_the_samples(both):
    for check in PITFALLS:
        assert has(both.images[f'violin-local-default-{check}.png'], VIOLIN,
                   BODY)


def test_every_png_is_a_picture(both):
    for name, image in both.images.items():
        height, width, _ = image.shape
        assert height >= 150 and width >= 300, name
        colours = np.unique(image.reshape(-1, image.shape[-1]), axis=0)
        assert len(colours) > 20, name
        # not a blank page: a fair share of the pixels is drawn on
        assert (image[..., :3] < 0.9).any(-1).mean() > 0.01, name


def test_plots_come_before_tables(both):
    text = both.text
    order = [text.index(f'<section id="{s}">')
             for s in ('pitfalls', 'trends', 'verdicts', 'latest')]
    assert order == sorted(order)
    assert text.rindex('<img') < text.index('<table')


def verdict_cells(table):
    return re.findall(r'<td class="(regression|changed|inconclusive|'
                      r'improvement|unchanged)">([^<]*)</td>', table)


def test_every_verdict_is_in_its_table(both, verdicts):
    table = section(both.text, 'verdicts')
    assert len(verdicts) == 13
    assert verdict_cells(table) == [('inconclusive',) * 2] * len(verdicts)
    for v in verdicts:
        assert f'>{v["median_after"]:.4g}<' in table
        assert f'>{v["check"]}<' in table


def test_verdicts_worst_first_and_coloured(verdicts, tmp_path):
    verdicts = [dict(v) for v in verdicts]
    verdicts[0]['verdict'] = 'improvement'
    verdicts[-1]['verdict'] = 'regression'
    verdicts[3]['verdict'] = 'changed'
    text = render(sessions(1, 2), verdicts, tmp_path).text
    cells = verdict_cells(section(text, 'verdicts'))
    assert [c for c, _ in cells] == [v for _, v in cells]
    assert [v for _, v in cells] == ['regression', 'changed'] + \
        ['inconclusive'] * 10 + ['improvement']
    assert '.regression,.fail{background:#f4b3b3}' in text


def test_the_latest_figures_are_in_their_table(both):
    table = section(both.text, 'latest')
    latest = sessions(2)
    assert table.count('<tr>') == len(latest) + 1
    for value in latest['value']:
        assert f'>{value:.4g}<' in table
    # a gap's bare direction as its band
    assert table.count('&gt;= 1<') == 3


def test_every_storage_figure_shows_its_data_over_memory(tmp_path):
    '''A real session whose storage figures recorded their data over the
    node's memory (tests/data/results/memory-quick.json): each median
    figure's row in the latest figures says it; its min and max, a cache
    figure by design and a gap have none.'''
    with open(path('results/memory-quick.json')) as fp:
        frame = figures.frame([json.load(fp)])
    column = frame.set_index(['check', 'variant', 'figure'])[figures.MEMORY]
    assert column['elbencho_storage', 'direct.grow',
                  'read_median_mib_s'] == '0.0425x memory'
    assert column['component_limits', 'randread',
                  'ops_median_iops'] == '0.0212x memory'
    assert column['elbencho_storage', 'direct.grow', 'read_min_mib_s'] == ''
    assert column['component_limits', 'cached_read',
                  'read_median_mib_s'] == ''
    table = section(render(frame, None, tmp_path).text, 'latest')
    assert '<th>data / memory</th>' in table
    rows = re.findall(r'<tr>(.*?)</tr>', table, re.S)
    said = [row for row in rows if '0.0425x memory' in row]
    # elbencho's four variants, their write and read medians
    assert len(said) == 8
    assert all('_median_mib_s' in row for row in said)
    assert len([row for row in rows if '0.0212x memory' in row]) == 4


def test_no_verdicts_no_verdict_table(tmp_path):
    text = render(sessions(1, 2), None, tmp_path).text
    assert 'id="verdicts"' not in text
    assert 'id="latest"' in text


def test_a_regression_and_a_failure_are_red(verdicts, tmp_path):
    frame = sessions(1, 2)
    gap = (frame['check'] == 'fio_cache_flags_gap') & \
        (frame['start'] == frame['start'].min())
    frame.loc[gap, 'result'] = 'fail'
    verdicts = [dict(v, verdict='regression')
                if (v['check'], v['variant']) == ('fio_fallocate', 'none')
                else v for v in verdicts]
    out = render(frame, verdicts, tmp_path)
    red = {n for n, image in out.images.items() if has(image, RED)}
    assert red == {'trend-local-default-fio_fallocate.png',
                   'trend-local-default-fio_cache_flags.png'}


def test_change_points_are_marked_on_the_trends_and_listed(verdicts,
                                                          tmp_path):
    frame = sessions(1, 2)
    second = frame['when'].max().strftime('%Y-%m-%d %H:%M')
    point = {'session': frame['session'].iloc[-1], 'date': second,
             'mean_before': 80.0, 'mean_after': 60.0, 'change_pct': -25.0,
             'p': 1e-6, 'differences': {}}
    marked = [dict(v, change_points=[point], since_date=second,
                   verdict='degraded')
              if (v['check'], v['variant'], v['figure']) ==
              ('fio_fallocate', 'none', 'write_median_mib_s') else v
              for v in verdicts]
    out = render(frame, marked, tmp_path / 'marked')
    orange = {n for n, image in out.images.items() if has(image, ORANGE)}
    assert orange == {'trend-local-default-fio_fallocate.png'}
    table = section(out.text, 'verdicts')
    assert f'{second[:10]} -25 %' in table
    assert '<td class="degraded">degraded</td>' in table

    out = render(frame, verdicts, tmp_path / 'none')
    assert not any(has(image, ORANGE) for image in out.images.values())


def test_the_samples_a_night_are_a_section(tmp_path):
    frame = sessions(1, 2)
    out = render(frame, None, tmp_path, advice=advise.advice(frame))
    table = section(out.text, 'advice')
    assert table.count('<tr>') == 1 + 13        # heading and 13 figures
    assert '2 night(s) with samples: too few to tell (5 or more)' in table
    assert out.text.index('id="advice"') < out.text.index('id="latest"')
    assert 'id="advice"' not in render(frame, None, tmp_path / 'none').text


def test_reference_bands_are_shaded(tmp_path):
    frame = sessions(1, 2)
    out = render(frame, None, tmp_path / 'as-recorded')
    # the gaps' references only state a direction: the half-plane above 1
    assert has(out.images['violin-local-default-fio_fallocate.png'], BAND)

    frame['ref'] = 0.0
    out = render(frame, None, tmp_path / 'none')
    assert not any(has(image, BAND) for image in out.images.values())

    median = frame['figure'] == 'write_median_mib_s'
    frame.loc[median, ['ref', 'lower', 'upper']] = [100.0, -0.1, 0.1]
    out = render(frame, None, tmp_path / 'medians')
    assert has(out.images['violin-local-default-fio_fallocate.png'], BAND)
    assert has(out.images['trend-local-default-fio_fallocate.png'], BAND)


def test_bands():
    assert canvas.band({'ref': 100.0, 'lower': -0.1, 'upper': 0.1}) == \
        pytest.approx((90.0, 110.0))
    assert canvas.band({'ref': 1.0, 'lower': 0, 'upper': None}) == (1.0,
                                                                      None)
    assert canvas.band({'ref': 50.0, 'lower': float('nan'),
                         'upper': 0.2}) == (None, pytest.approx(60.0))
    assert canvas.band({'ref': 0.0, 'lower': -0.1, 'upper': 0.1}) is None
    assert page.band_text((1.0, None)) == '>= 1'
    assert page.band_text((None, 60.0)) == '<= 60'
    assert page.band_text((90.0, 110.0)) == '90 .. 110'
    assert page.band_text(None) == '-'


def test_text_is_escaped(tmp_path):
    frame = sessions(1, 2)
    evil = '<script>alert("$x_$ & 1")</script>'
    frame.loc[frame['variant'] == 'direct', 'variant'] = evil
    text = render(frame, None, tmp_path, title='<b>pitfalls</b>').text
    assert '<script' not in text and '<b>' not in text
    assert html.escape(evil) in text
    assert '<title>&lt;b&gt;pitfalls&lt;/b&gt;</title>' in text


def test_no_figures_no_report(tmp_path):
    with pytest.raises(ValueError, match='no figures'):
        page.render(sessions(1).iloc[:0], None, str(tmp_path))


@pytest.mark.parametrize('checks', [['fio_fallocate', 'fio_fallocate_gap'],
                                    None])
def test_figures_without_samples_still_render(checks, tmp_path):
    frame = sessions(1, 2)
    without = frame['check'].isin(checks or frame['check'])
    frame['samples'] = [() if w else s
                        for s, w in zip(frame['samples'], without)]
    out = render(frame, None, tmp_path)
    trends = {n for n in out.images if n.startswith('trend-')}
    violins = {n for n in out.images if n.startswith('violin-')}
    # a figure without samples has no trend; its violin is its value
    assert trends == ({f'trend-local-default-{c}.png' for c in PITFALLS}
                      - {f'trend-local-default-{c.removesuffix("_gap")}.png'
                         for c in checks}
                      if checks else set())
    assert violins == {f'violin-local-default-{c}.png' for c in PITFALLS}
    assert out.text.count('<img') == len(out.images)
    # no samples, no violin: the value alone
    assert {c for c in PITFALLS if has(
        out.images[f'violin-local-default-{c}.png'], VIOLIN, BODY)} == (
            set(PITFALLS) - set(checks) if checks else set())


def test_drawn_in_parallel_or_not_the_same(tmp_path):
    frame = sessions(1, 2)
    alone = render(frame, None, tmp_path / 'alone', workers=1)
    together = render(frame, None, tmp_path / 'together', workers=2)
    assert alone.files == together.files
    assert alone.text == together.text
