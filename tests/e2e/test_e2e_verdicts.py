'''End to end: verdicts from real sessions on the local default.

Two real quick sessions of fio_cache_flags, then ``microbench baseline``,
``compare`` and ``report``; a third session checked against the applied
baseline; the report looked at in headless Chromium; a corrupted and an
empty results storage.
'''

import html
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
import yaml

import project
import perflog

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
LOCAL = 'local:default'


def microbench(tmp, *args):
    env = {**os.environ, 'RFM_SQLITE_DB_FILE': str(tmp / 'results.db'),
           'MICROBENCH_REFERENCES': str(tmp / 'user' / 'references.yaml')}
    return subprocess.run([MICROBENCH, *args], env=env, capture_output=True,
                          text=True, timeout=300)


#: fio_cache_flags' four variants of the paper and their gap (ReFrame's
#: ``-n`` matches a display name without its spaces)
PAPER_VARIANTS = '^fio_cache_flags(_gap$|%mode=(buffered|direct|sync|both)$)'


def session(tmp, tag, referenced=False):
    '''A real quick session of fio_cache_flags' paper variants and their
    gap (not dontcache, which runs only with fio 3.40 or later), short
    (``project.SHORT_FIO``: the verdicts are read, not the speed), tagged
    ``tag``; with ``referenced``, checked against references a figure may
    miss (then its gap is skipped).'''
    (tmp / 'scratch').mkdir(exist_ok=True)
    proc = project.run_checks(
        tmp, '--mode', 'quick', '-n', PAPER_VARIANTS, *project.SHORT_FIO,
        '-S', f'scratch_dir={tmp}/scratch', '--session-extras', f'tag={tag}',
        env={'MICROBENCH_REFERENCES': str(tmp / 'user' / 'references.yaml')}
    )
    if not referenced:
        assert 'Ran 6/6 test case(s)' in proc.stdout, proc.stdout[-3000:]
        return proc

    phases = [line.split(':', 1)[1].strip()
              for line in proc.stdout.splitlines()
              if 'Failing phase:' in line]
    assert set(phases) <= {'performance'}, proc.stdout[-3000:]
    assert 'Ran 6/6 test case(s)' in proc.stdout or 'Ran 5/6' in proc.stdout
    return proc


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('verdicts')
    session(tmp, 'one')
    session(tmp, 'two')
    return tmp


#: Two quick sessions on a busy machine can differ by more than baseline's
#: default spread (x1.5, tests/verdicts/test_baseline.py holds that rule),
#: and a short sync write by x15 (seen in CI): with the default margin
#: (1.5 x the farthest session) such a band reaches below zero and is
#: refused, as it should be (test_baseline.py holds that rule too).  Here
#: the band is what is tested, from whatever two sessions gave: a margin
#: of 1 puts its edge at the farthest session, above zero whatever it was
SPREAD = ('--max-spread', '100', '--margin', '1')


def test_baseline_is_a_diff_then_written(runs):
    proc = microbench(runs, 'baseline', '?tag=="one"', '?tag=="two"',
                      '--partition', LOCAL, *SPREAD)
    assert proc.returncode == 0, proc.stderr
    assert 'every baseline session passes its band (2 session(s) x 7 ' \
           'figures)' in proc.stderr
    assert 'nothing written' in proc.stderr
    assert '+    direct: {write_median_mib_s: [' in proc.stdout
    assert not (runs / 'user' / 'references.yaml').exists()

    proc = microbench(runs, 'baseline', '?tag=="one"', '?tag=="two"',
                      '--partition', LOCAL, '--write', *SPREAD)
    assert proc.returncode == 0, proc.stderr
    user = yaml.safe_load((runs / 'user' / 'references.yaml').read_text())
    mine = user['fio_cache_flags'][LOCAL]
    assert set(mine) == {'buffered', 'direct', 'sync', 'both'}
    assert mine['buffered']['write_median_mib_s'][2] is None   # page cache
    gaps = user['fio_cache_flags_gap'][LOCAL]
    ref, lower, _, unit = gaps['buffered_over_direct']
    assert unit == 'x' and ref * (1 + lower) >= 1              # its direction
    # Nothing committed changed
    diff = subprocess.run(['git', 'diff', '--quiet', '--',
                           'reframe_tests/references'], cwd=project.ROOT)
    assert diff.returncode == 0


def test_compare_two_sessions(runs):
    out = runs / 'compare.json'
    proc = microbench(runs, 'compare', '?tag=="one"', '?tag=="two"',
                      '--json', str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures = json.loads(out.read_text())['figures']
    assert len(figures) == 7                       # 4 variants and 3 gaps
    assert {f['verdict'] for f in figures} == {'inconclusive'}
    assert "one session a side: a session's own offset cannot be told " \
        'from a change (too few stored sessions' in proc.stdout


def test_report(runs):
    verdicts = runs / 'report-verdicts.json'
    microbench(runs, 'compare', '?tag=="one"', '?tag=="two"', '--json',
               str(verdicts))
    proc = microbench(runs, 'report', '-o', str(runs / 'report'),
                      '--verdicts', str(verdicts))
    assert proc.returncode == 0, proc.stderr
    html = (runs / 'report' / 'report.html').read_text()
    pngs = sorted(p.name for p in (runs / 'report').glob('*.png'))
    assert pngs and html.count('<img') == len(pngs)
    assert 'fio_cache_flags' in html and 'inconclusive' in html


def test_the_applied_baseline_is_the_next_runs_reference(runs):
    user = yaml.safe_load((runs / 'user' / 'references.yaml').read_text())
    session(runs, 'three', referenced=True)
    frame = perflog.load(str(runs / 'perflogs'))
    rows = frame[(frame['name'] == 'fio_cache_flags %mode=direct')
                 & (frame['perf_var'] == 'write_median_mib_s')]
    ref, lower, upper, _ = user['fio_cache_flags'][LOCAL]['direct'][
        'write_median_mib_s']
    assert list(rows['perf_ref'].astype(float))[:2] == [0, 0]
    assert float(rows['perf_ref'].iloc[-1]) == pytest.approx(ref)
    assert float(rows['perf_lower_thres'].iloc[-1]) == pytest.approx(lower)
    assert float(rows['perf_upper_thres'].iloc[-1]) == pytest.approx(upper)

    # the night as the unit: 2 nights before tonight are too few (how many
    # figures tonight has depends on which checks met the new references)
    out = runs / 'last.json'
    proc = microbench(runs, 'compare', '--last', '--json', str(out))
    assert proc.returncode == 0, proc.stderr
    assert not proc.stderr, proc.stderr
    found = json.loads(out.read_text())['figures']
    assert found
    assert {(f['verdict'], f['why']) for f in found} == {
        ('inconclusive', 'history: 2 nights, needs 14')}


#: What a person sees of the report (in the frame ``page``), measured by
#: the browser once it has loaded: the frame's width, the page's, every plot
#: as loaded and as shown, every box that scrolls, the smallest text
PROBE = """
const frame = document.getElementById('page');
frame.addEventListener('load', () => {
  const doc = frame.contentDocument, win = frame.contentWindow;
  const style = el => win.getComputedStyle(el);
  const outer = el => el.closest('.scroll') || el.parentElement;
  const wide = [...doc.querySelectorAll('img, table')].map(el => ({
    tag: el.tagName, width: el.getBoundingClientRect().width,
    box: outer(el).getBoundingClientRect().width,
    overflow: style(outer(el)).overflowX}));
  const plots = [...doc.images].map(img => ({
    complete: img.complete, natural: [img.naturalWidth, img.naturalHeight],
    shown: [img.width, img.height],
    displayed: style(img).display !== 'none'}));
  const sizes = [...doc.querySelectorAll('body *')]
    .filter(el => [...el.childNodes].some(
      n => n.nodeType === 3 && n.textContent.trim()))
    .map(el => parseFloat(style(el).fontSize));
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify({
    window: win.innerWidth, page: doc.documentElement.scrollWidth,
    plots, wide, smallest_text: Math.min(...sizes)});
  document.body.appendChild(out);
});
"""

#: The widths a report is read at: a desktop's window, a phone's
WIDTHS = {'desktop': 1280, 'phone': 390}
HEIGHT = 1600
#: Headless Chromium's narrowest window: a phone's width is a frame in it
NARROWEST_WINDOW = 500


def chromium(runs, text, width, name, *args):
    '''Headless Chromium on the page ``text`` in a frame ``width`` px wide
    (a profile each: a second Chromium would hand its page to the first);
    the completed process.'''
    host = runs / f'{name}-{width}.html'
    host.write_text(
        '<!DOCTYPE html><html><body style="margin:0">'
        f'<iframe id="page" style="border:0;width:{width}px;height:'
        f'{HEIGHT}px" srcdoc="{html.escape(text)}"></iframe>'
        + ('<script>' + PROBE + '</script>' if '--dump-dom' in args else '')
        + '</body></html>')
    return subprocess.run(
        ['chromium', '--headless', '--no-sandbox', '--disable-gpu',
         '--hide-scrollbars', '--no-first-run', '--disable-sync',
         '--disable-background-networking', '--disable-component-update',
         f'--user-data-dir={runs}/chromium-{name}-{width}',
         f'--window-size={max(width, NARROWEST_WINDOW)},{HEIGHT}',
         *args, f'file://{host}'], capture_output=True, text=True,
        timeout=120, check=True)


def probed(runs, text, width):
    '''What :data:`PROBE` measured of the page ``text`` at ``width``.'''
    dom = chromium(runs, text, width, 'probe', '--dump-dom').stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    return json.loads(html.unescape(found[1]))


def screenshot(runs, text, width, name):
    '''The pixels of the page ``text`` at ``width``.'''
    import matplotlib.image

    shot = runs / f'{name}-{width}.png'
    chromium(runs, text, width, name, f'--screenshot={shot}')
    return matplotlib.image.imread(shot)[:, :width, :3]


@pytest.mark.skipif(shutil.which('chromium') is None,
                    reason='chromium is not installed (apt-get install '
                           'chromium)')
@pytest.mark.parametrize('width', WIDTHS.values(), ids=WIDTHS.keys())
def test_the_report_shows_its_plots_in_a_browser(runs, width):
    '''The page as a person reads it, at a desktop's and a phone's width,
    whatever the figures are: every plot loaded and shown at its natural
    size (its text as drawn), the page never wider than the window (what
    is wider scrolls in its own box), no text too small to read; and the
    plots are what is drawn: hidden, the screenshot changes.'''
    if not (runs / 'report' / 'report.html').exists():
        test_report(runs)
    text = (runs / 'report' / 'report.html').read_text()
    pngs = sorted((runs / 'report').glob('*.png'))
    seen = probed(runs, text, width)

    assert seen['window'] == width, seen['window']
    assert seen['page'] <= width, f'the page scrolls sideways: {seen}'
    assert len(seen['plots']) == len(pngs) > 0
    for plot in seen['plots']:
        assert plot['complete'] and plot['displayed'], plot
        assert min(plot['natural']) > 0, plot
        assert plot['shown'] == plot['natural'], plot
    for element in seen['wide']:
        assert element['box'] <= width, element
        if element['width'] > element['box'] + 1:
            assert element['overflow'] in ('auto', 'scroll'), element
    assert seen['smallest_text'] >= 12, seen['smallest_text']
    if width >= WIDTHS['desktop']:
        # a plot fits a desktop's window as drawn
        assert all(e['width'] <= e['box'] for e in seen['wide']
                   if e['tag'] == 'IMG'), seen['wide']

    shown = screenshot(runs, text, width, 'report')
    bare = screenshot(runs, text.replace(
        '<img', '<img style="visibility:hidden"'), width, 'bare')
    changed = np.abs(shown - bare).max(-1) > 0.1
    assert changed.mean() > 0.005, changed.mean()


def test_corrupted_or_empty_results_storage(runs):
    bad = runs / 'bad.db'
    bad.write_bytes(b'this is not an SQLite database' * 100)
    empty = runs / 'empty.db'
    empty.write_bytes(b'')
    for path, said in [(bad, 'cannot read the results storage'),
                       (empty, 'no results storage at'),
                       (runs / 'none.db', 'no results storage at')]:
        for args in (['compare', '--last'], ['report', '-o', str(runs)],
                     ['baseline', 'now-1d:now', '--partition', LOCAL]):
            proc = microbench(runs, '--db', str(path), *args)
            assert proc.returncode == 2, (args, proc.stderr)
            assert said in proc.stderr, proc.stderr
            assert 'Traceback' not in proc.stderr
