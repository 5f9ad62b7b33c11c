'''The weather page as a user sees it: ``microbench weather`` on nights
made of real recorded sessions (tests/helpers/weather_history.py, scratch's
O_DIRECT write 31 % down since a kernel update), looked at in headless
Chromium at a phone's width (390 x 844) and a desktop's.

Headless Chromium lays a window out at least 500 px wide, so the page is
shown in a frame of the phone's width, as tests/e2e/test_e2e_verdicts.py
does; a probe in the frame's host (the page itself has no script)
measures what was rendered: every part there and visible, nothing wider
than the window.  The screenshot is not blank and shows the change in
its red.  Each Chromium has a temporary profile, gone afterwards with
its processes.
'''

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from weather_history import date, history

from microbench.verdicts import storage

pytestmark = pytest.mark.skipif(
    shutil.which('chromium') is None,
    reason='chromium is not installed (apt-get install chromium)')

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
NIGHTS, CHANGE = 22, 16
PHONE = (390, 844)
DESKTOP = (1280, 900)

#: What the browser rendered of the page in the frame ``page``
PROBE = """
const frame = document.getElementById('page');
frame.addEventListener('load', () => {
  const doc = frame.contentDocument, win = frame.contentWindow;
  const box = el => el.getBoundingClientRect();
  const shown = el => box(el).width > 0 && box(el).height > 0
    && win.getComputedStyle(el).visibility !== 'hidden';
  const text = el => el ? el.textContent.trim() : null;
  const sizes = [...doc.querySelectorAll('body *')]
    .filter(el => [...el.childNodes].some(
      n => n.nodeType === 3 && n.textContent.trim()))
    .map(el => parseFloat(win.getComputedStyle(el).fontSize));
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify({
    window: win.innerWidth, page: doc.documentElement.scrollWidth,
    wider: [...doc.querySelectorAll('body *')]
      .filter(el => box(el).right > win.innerWidth + 0.5)
      .map(el => el.tagName + '.' + el.className),
    title: text(doc.querySelector('h1')),
    made: text(doc.querySelector('.made')),
    news: [...doc.querySelectorAll('ul.news li')].map(text),
    partitions: [...doc.querySelectorAll('section.partition h2')]
      .map(text),
    tiles: [...doc.querySelectorAll('li.tile')].map(tile => ({
      what: text(tile.querySelector('.what')),
      value: text(tile.querySelector('.value')),
      status: text(tile.querySelector('.status')),
      left: box(tile).left,
      shown: [tile, ...tile.querySelectorAll('.what, .value, .status, svg')]
        .every(shown),
      spark: [...tile.querySelectorAll('svg polyline')].length})),
    commands: text(doc.querySelector('#about pre')),
    smallest_text: Math.min(...sizes)});
  document.body.appendChild(out);
});
"""


@pytest.fixture(scope='module')
def page(tmp_path_factory):
    '''The page ``microbench weather`` wrote of the nights.'''
    tmp = tmp_path_factory.mktemp('weather-chromium')
    db = tmp / 'results.db'
    for report in history(NIGHTS, change=CHANGE):
        storage.store(str(db), report)
    proc = subprocess.run([MICROBENCH, '--db', str(db), 'weather', '-o',
                           str(tmp / 'out')], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return tmp, (tmp / 'out' / 'weather.html').read_text()


def profiles_running(profile):
    '''Processes whose command line names the profile ``profile``.'''
    found = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as fp:
                if str(profile).encode() in fp.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def chromium(tmp, text, size, *args, probe=False):
    '''Headless Chromium on the page ``text`` in a frame of ``size``
    (a window that size, a temporary profile); its standard output.'''
    width, height = size
    host = tmp / f'host-{width}-{len(args)}.html'
    host.write_text(
        '<!DOCTYPE html><html><body style="margin:0">'
        f'<iframe id="page" style="border:0;width:{width}px;height:'
        f'{height}px" srcdoc="{html.escape(text)}"></iframe>'
        + (f'<script>{PROBE}</script>' if probe else '') + '</body></html>')
    with tempfile.TemporaryDirectory(prefix='weather-chromium-') as profile:
        proc = subprocess.run(
            ['chromium', '--headless', '--no-sandbox', '--disable-gpu',
             '--hide-scrollbars', '--no-first-run', '--disable-sync',
             '--disable-background-networking',
             '--disable-component-update', f'--user-data-dir={profile}',
             f'--window-size={width},{height}', *args, f'file://{host}'],
            capture_output=True, text=True, timeout=120, check=True)
        assert not profiles_running(profile), 'chromium left a process'
    assert not os.path.exists(profile)
    return proc.stdout


def probed(tmp, text, size):
    dom = chromium(tmp, text, size, '--dump-dom', probe=True)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    return json.loads(html.unescape(found[1]))


@pytest.mark.parametrize('size', [PHONE, DESKTOP], ids=['phone', 'desktop'])
def test_every_part_is_rendered_and_nothing_is_wider(page, size):
    tmp, text = page
    seen = probed(tmp, text, size)
    assert seen['window'] == size[0], seen['window']
    assert seen['page'] <= size[0] and not seen['wider'], seen
    assert seen['title'] == 'I/O and network weather'
    assert re.fullmatch(r'Made \S+ \S+ UTC from the session of '
                        rf'{date(NIGHTS - 1)} \S+ UTC \(\S+\)\.',
                        seen['made']), seen['made']
    line, = seen['news']
    assert re.fullmatch(
        rf'scratch on local: O_DIRECT writes (2[5-9]|3[0-7]) % slower '
        rf'since {date(CHANGE)}, after the kernel update '
        r'\(6\.18\.44-fc-v782 -> 6\.19\.2-weather\)', line), line
    assert seen['partitions'] == ['default on local normal',
                                  'scratch on local degraded']
    assert len(seen['tiles']) == 18
    for tile in seen['tiles']:
        assert tile['shown'] and tile['spark'] == 1, tile
        assert re.fullmatch(r'[\d,.]+ (MiB/s|ops/s|us)', tile['value'])
        assert tile['status'] == 'normal' or tile['status'].startswith(
            f'degraded since {date(CHANGE)}: '), tile
    assert sum(t['status'] != 'normal' for t in seen['tiles']) == 1
    assert seen['commands'].startswith('microbench --db ')
    assert seen['smallest_text'] >= 12
    columns = len({round(t['left']) for t in seen['tiles']})
    assert columns == (1 if size == PHONE else 4), columns


def test_a_phone_screenshot_shows_the_page(page):
    import matplotlib.image

    tmp, text = page
    shot = tmp / 'phone.png'
    chromium(tmp, text, PHONE, f'--screenshot={shot}')
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (PHONE[1], PHONE[0]), pixels.shape
    ink = (pixels < 0.85).any(-1)
    assert 0.03 < ink.mean() < 0.6, ink.mean()
    # ink in every quarter from top to bottom: the page fills the screen
    assert all(part.mean() > 0.01 for part in np.array_split(ink, 4))
    # the change is said in its red, near the top (What changed)
    red, green, blue = np.moveaxis(pixels, -1, 0)
    said = (red - green > 0.3) & (red - blue > 0.3)
    assert said[:PHONE[1] // 2].sum() > 100, said.sum()
