'''``microbench weather``: the I/O weather page for users, from nights in
ReFrame's results storage made of real recorded sessions
(tests/helpers/weather_history.py: two partitions, every check on one, the fio
checks on the other).

A state change: ``scratch``'s O_DIRECT write drops to 69 % on a night
whose records carry a new kernel; the page says so in plain words, with
the night and the percentage, and the tile of that figure is degraded
since that night while the other partition stays normal; the verdicts of
``compare --last --json`` and those judged by ``weather`` itself give the
same page.  Too little history is unknown; a rise is improved; the share
of a limit is shown where the figures have it.  Bad input: a last session
without figures, a query without figures, no realistic figure, a foreign
verdicts file, the verdicts of another night.
'''

import json
import os
import re
import subprocess
import sys

import pytest

import project
import weather_history
from weather_history import KERNEL, SCRATCH, date, history

from microbench.verdicts import figures, storage
from microbench.verdicts import weather
from microbench.verdicts.weather import realistic

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
NIGHTS, CHANGE = 22, 16
#: The kernel of the recorded sessions
OLD_KERNEL = '6.18.44-fc-v782'
CHECKS = project.CHECKS_DIR


def microbench(db, *args):
    proc = subprocess.run([MICROBENCH, '--db', str(db), *args],
                          capture_output=True, text=True, timeout=300)
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc


def text_of(page):
    '''What a reader reads of ``page``: its text, tags and style gone.'''
    page = re.sub(r'<style>.*?</style>|</?span[^>]*>', '', page,
                  flags=re.S)
    return re.sub(r'\s+', ' ', re.sub(r'<[^>]+>', ' ', page)).replace(
        '&gt;', '>').replace('&#x27;', "'").strip()


def tile_texts(page):
    '''``{(partition, words): the tile's text}`` of ``page``.'''
    out = {}
    for section in re.findall(r'<section class="partition".*?</section>',
                              page, re.S):
        partition = re.search(r'<h2>(\S+) on ', section)[1]
        for tile in re.findall(r'<li class="tile.*?</li>', section, re.S):
            words = re.search(r'<div class="what">(.*?)</div>', tile)[1]
            out[partition, words] = text_of(tile)
    return out


@pytest.fixture(scope='module')
def changed(tmp_path_factory):
    '''A results storage of nights where scratch's O_DIRECT write drops
    on night CHANGE, with a new kernel; the pages with the verdicts of
    compare --last --json, and judged by weather itself.'''
    tmp = tmp_path_factory.mktemp('weather')
    db = tmp / 'results.db'
    for report in history(NIGHTS, change=CHANGE):
        storage.store(str(db), report)
    verdicts = tmp / 'verdicts.json'
    proc = microbench(db, 'compare', '--last', '--json', str(verdicts))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = microbench(db, 'weather', '-o', str(tmp / 'given'),
                      '--verdicts', str(verdicts))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp / 'given' / 'weather.html')
    own = microbench(db, 'weather', '-o', str(tmp / 'own'))
    assert own.returncode == 0, own.stderr
    return (tmp, db, (tmp / 'given' / 'weather.html').read_text(),
            (tmp / 'own' / 'weather.html').read_text())


def test_a_state_change_in_plain_words(changed):
    tmp, db, page, _ = changed
    said = text_of(page)
    found = re.findall(
        r'scratch on local: O_DIRECT writes (\d+) % slower since '
        r'(\S+), after the kernel update \((\S+) -> (\S+)\)', said)
    assert len(found) == 1, said
    pct, night, before, after = found[0]
    assert night == date(CHANGE)
    assert (before, after) == (OLD_KERNEL, KERNEL)
    assert int(pct) == pytest.approx(100 * (1 - weather_history.DROP),
                                     abs=6)
    # one line per change: nothing else changed
    assert said.count(' since 20') == 2, said      # the line and the tile

    tiles = tile_texts(page)
    assert tiles[SCRATCH, 'O_DIRECT writes'].endswith(
        f'degraded since {date(CHANGE)}: {pct} % slower')
    assert 'normal' in tiles['default', 'O_DIRECT writes']
    assert re.search(r'<h2>scratch on local <span class="badge degraded">',
                     page)
    assert re.search(r'<h2>default on local <span class="badge normal">',
                     page)
    assert '2 partition(s): 1 degraded, 1 normal.' in said
    # the sparkline: 22 nights, the change's night a dashed line
    spark = re.search(r'<div class="what">O_DIRECT writes</div>.*?</svg>',
                      page.split('<h2>scratch on local')[1], re.S)[0]
    assert f'{NIGHTS} night(s)' in spark and 'class="since"' in spark
    assert spark.count('<polyline') == 1


def test_the_figures_a_user_sees_with_units(changed):
    _, _, page, _ = changed
    tiles = tile_texts(page)
    groups = re.findall(r'<h3>(.*?)</h3>', page.split(
        '<section id="about">')[0])
    assert groups == [*realistic.GROUPS, realistic.GROUPS[0]]
    expected = {('default', 'MPI latency'): ' us ',
                ('default', 'MPI bandwidth between two nodes'): ' MiB/s ',
                ('default', 'file creates, a directory per task'):
                ' ops/s ',
                ('default', 'O_DIRECT reads, a file per task (IOR)'):
                ' MiB/s '}
    for key, unit in expected.items():
        assert unit in tiles[key], tiles[key]
        assert 'normal' in tiles[key]
    # no benchmark default, no figure from a cache
    shown = {words for _, words in tiles}
    assert not any('buffered' in words for words in shown)
    assert 'class="tile' in page and 'page cache' not in text_of(
        page).split('What this page shows')[0]
    assert len(tiles) == 15 + 3


def test_own_verdicts_are_those_of_compare_last(changed):
    _, _, given, own = changed
    assert tile_texts(given) == tile_texts(own)
    news = re.compile(r'<ul class="news">.*?</ul>', re.S)
    assert news.search(given)[0] == news.search(own)[0]


def test_the_page_is_self_contained_and_says_how_it_was_made(changed):
    tmp, db, page, own = changed
    for text in (page, own):
        for outside in ('<script', 'http://', 'https://', '<link',
                        '@import', 'url(', '<img', '<iframe', '@font-face'):
            assert outside not in text.lower(), outside
        assert '<meta name="viewport" content="width=device-width' in text
    made = re.search(r'Made (\S+ \S+) UTC from the session of (\S+ \S+) '
                     r'UTC \(([0-9a-f-]{36})\)', page)
    assert made and made[2].startswith(date(NIGHTS - 1))
    assert made[3] == figures.sessions(figures.ALL, str(db))[-1]
    commands = re.search(r'<pre>(.*?)</pre>', page, re.S)[1].splitlines()
    assert commands == [
        f'microbench --db {db} compare --last --json '
        f'{tmp}/verdicts.json',
        f'microbench --db {db} weather -o {tmp}/given --verdicts '
        f'{tmp}/verdicts.json']
    assert re.search(r'<pre>(.*?)</pre>', own, re.S)[1] == \
        f'microbench --db {db} weather -o {tmp}/own'


def test_too_little_history_is_unknown(tmp_path):
    frame = figures.frame(history(4))
    found, happened = weather.judged(frame)
    path = weather.write(frame, found, str(tmp_path), [], events=happened)
    page = open(path).read()
    tiles = tile_texts(page)
    assert len(tiles) == 15 + 3
    assert all(text.endswith('unknown: too little history (3 nights, '
                             'needs 14)') for text in tiles.values()), tiles
    assert 'No change in the history shown.' in page
    assert '2 partition(s): 2 unknown.' in text_of(page)


def test_a_rise_is_improved(tmp_path):
    frame = figures.frame(history(NIGHTS, change=CHANGE, drop=1.5, seed=3))
    found, happened = weather.judged(frame)
    path = weather.write(frame, found, str(tmp_path), [], events=happened)
    said = text_of(open(path).read())
    found = re.findall(r'scratch on local: O_DIRECT writes (\d+) % faster '
                       r'since (\S+), after the kernel update', said)
    assert [night for _, night in found] == [date(CHANGE)], said
    assert int(found[0][0]) == pytest.approx(50, abs=8)
    assert f'improved since {date(CHANGE)}: {found[0][0]} % faster' in said


def test_the_share_of_a_limit_where_one_is_known(tmp_path):
    frame = figures.frame(history(3))
    last = frame['start'] == frame['start'].max()
    watched = (last & (frame['partition'] == SCRATCH)
               & (frame['check'] == 'fio_cache_flags')
               & (frame['variant'] == 'direct')
               & (frame['figure'] == 'write_median_mib_s'))
    limited = frame.assign(
        limit_name=None, limit_value=None, share_of_limit=None)
    limited.loc[watched, 'limit_name'] = 'storage_write_mib_s'
    limited.loc[watched, 'limit_value'] = 1907.0
    limited.loc[watched, 'share_of_limit'] = 100 * frame.loc[
        watched, 'value'] / 1907
    share = round(float(limited.loc[watched, 'share_of_limit'].iloc[0]))
    for data, shares in ((frame, 0), (limited, 1)):
        path = weather.write(data, [], str(tmp_path), [])
        page = open(path).read()
        assert page.count("of the partition's limit") == shares
    tile = tile_texts(page)[SCRATCH, 'O_DIRECT writes']
    assert f"{share} % of the partition's limit (1,907 MiB/s)" in tile
    # no verdict tonight: unknown, never normal
    assert tile.endswith('unknown: not measured in the last session')


def test_the_data_over_memory_of_a_storage_figure(tmp_path):
    '''A real session whose storage figures recorded their data over the
    node's memory (tests/data/results/memory-quick.json): elbencho's
    O_DIRECT write and read say it on their tiles.'''
    frame = figures.frame([weather_history.recorded('memory-quick')])
    page = open(weather.write(frame, [], str(tmp_path), [])).read()
    tiles = tile_texts(page)
    for words in ('O_DIRECT writes, many threads (elbencho)',
                  'O_DIRECT reads, many threads (elbencho)'):
        assert 'data on a node: 0.0425x memory' in tiles['default', words]
    assert page.count('data on a node: ') == 2


def test_the_realistic_table_names_real_variants():
    '''Every variant of the table is one its check runs: in the recorded
    sessions, else in the check's source; and no recorded figure of a
    benchmark default or a cache is picked.'''
    with open(os.path.join(weather_history.path('results'),
                           'all-quick.json')) as fp:
        frame = figures.frame([json.load(fp)])
    ran = set(zip(frame['check'], frame['variant']))
    for check, variant, _ in realistic.TABLE:
        if check in set(frame['check']):
            assert (check, variant) in ran, (check, variant)
        else:
            with open(os.path.join(CHECKS, f'{check}.py')) as fp:
                source = fp.read()
            for part in variant.split('.'):
                assert f"'{part}'" in source, (check, variant)
    picked = realistic.pick(frame)
    assert len(picked) == 15
    assert not any('_cache_' in name for name in picked['figure'])
    assert not set(picked['variant']) & {
        'buffered', 'sync', 'default', 'easy.none', 'osu_bw.single',
        'osu_latency.single', 'spin', 'unbound', 'gap'}


def test_a_last_session_without_figures_is_a_clear_error(changed, tmp_path):
    _, db, _, _ = changed
    db_copy = tmp_path / 'results.db'
    db_copy.write_bytes(db.read_bytes())
    failed = history(NIGHTS + 1)[-1]
    for case in failed['runs'][-1]['testcases']:
        case['perfvalues'] = {}
        case['result'] = 'failure'
    storage.store(str(db_copy), failed)
    uuid = failed['session_info']['uuid']
    proc = microbench(db_copy, 'weather', '-o', str(tmp_path / 'out'))
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.startswith(
        f"microbench weather: error: the last session {uuid} of "
        f"'19700101:now+1d' has no figures"), proc.stderr
    proc = microbench(db_copy, 'weather', uuid, '-o', str(tmp_path / 'out'))
    assert proc.returncode == 2
    assert f"no figures in the results storage {db_copy} for '{uuid}'" in \
        proc.stderr
    assert not (tmp_path / 'out').exists()


def test_no_realistic_figure_and_foreign_or_stale_verdicts(changed,
                                                           tmp_path):
    tmp, db, _, _ = changed
    frame = figures.frame(history(2))
    gaps = frame[frame['check'].str.endswith('_gap')]
    with pytest.raises(ValueError, match="no figure a user's job sees"):
        weather.write(gaps, [], str(tmp_path), [])
    foreign = tmp_path / 'foreign.json'
    foreign.write_text('{"figures": 3}')
    proc = microbench(db, 'weather', '-o', str(tmp_path / 'out'),
                      '--verdicts', str(foreign))
    assert proc.returncode == 2
    assert 'not the JSON of microbench compare' in proc.stderr
    # the verdicts of the night before
    yesterday = json.loads((tmp / 'verdicts.json').read_text())
    before = figures.sessions(figures.ALL, str(db))[-2]
    yesterday['session'], yesterday['sessions'] = before, [before]
    stale = tmp_path / 'stale.json'
    stale.write_text(json.dumps(yesterday))
    proc = microbench(db, 'weather', '-o', str(tmp_path / 'out'),
                      '--verdicts', str(stale))
    assert proc.returncode == 2
    assert f'judges the session {before}, not the last session ' \
        'here' in proc.stderr, proc.stderr
    assert not (tmp_path / 'out').exists()
