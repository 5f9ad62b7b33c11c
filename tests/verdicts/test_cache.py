'''The cache of decoded sessions beside a results storage
(microbench.verdicts.cache): data only, validated on load, rebuilt when it
is not ours, and the same answers with it, without it, or after it.
'''

import json
import os
import pickle
import sqlite3
import stat

import numpy as np
import pandas as pd
import pytest

from microbench.verdicts import cache, figures, storage

from fixtures import path as data


@pytest.fixture
def stored(tmp_path):
    '''A results storage made by ReFrame, holding two real sessions.'''
    db = str(tmp_path / 'results.db')
    for number in (1, 2):
        with open(data(f'results/fio-quick-{number}.json')) as fp:
            storage.store(db, json.load(fp))
    return db


def answer(db):
    '''The figures of every session, in an order to compare.'''
    out = figures.load(storage.ALL, db)
    return out.sort_values(['session', *figures.KEY]).reset_index(drop=True)


def column(conn, name):
    '''The numbers (or codes) a cache keeps of column ``name``.'''
    dtype, data = conn.execute('SELECT dtype, data FROM figures WHERE name '
                               '= ?', (name,)).fetchone()
    return np.frombuffer(data, dtype=dtype)


class Payload:
    '''A pickle that, loaded, creates a file: the proof that it ran.'''

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, 'w'))


def test_the_cache_is_data_and_gives_the_same_answers(stored):
    fresh = answer(stored)
    path = cache.path_of(stored)
    assert os.path.exists(path)
    with sqlite3.connect(path) as conn:
        tables = {name for name, in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {'about', 'infos', 'figures', 'samples'}
    again = answer(stored)
    pd.testing.assert_frame_equal(fresh, again)
    assert stat.S_IMODE(os.stat(path).st_mode) == \
        stat.S_IMODE(os.stat(stored).st_mode) & 0o666


def test_a_planted_pickle_never_runs(stored, tmp_path, capsys):
    marker = tmp_path / 'ran'
    with open(cache.path_of(stored), 'wb') as fp:
        pickle.dump({'version': 2, 'payload': Payload(str(marker))}, fp)
    out = answer(stored)
    assert not marker.exists()
    assert 'ignored the cache' in capsys.readouterr().err
    assert len(out['session'].unique()) == 2
    # made again: ours now
    assert cache.read(stored, figures.CACHED).infos.keys() == set(
        out['session'])


@pytest.mark.parametrize('damage', ['truncated', 'foreign', 'other format',
                                    'not numbers', 'miscounted',
                                    'cut samples', 'codes outside',
                                    'values not plain', 'column missing'])
def test_a_cache_not_ours_is_ignored_and_made_again(stored, tmp_path,
                                                    damage, capsys):
    good = answer(stored)
    path = cache.path_of(stored)
    if damage == 'truncated':
        with open(path, 'r+b') as fp:
            fp.truncate(os.path.getsize(path) // 3)
    elif damage == 'foreign':
        # another storage's cache, of the same sessions
        other = str(tmp_path / 'other.db')
        storage.copy_session(stored, good['session'].iloc[0], other)
        figures.load(storage.ALL, other)
        os.replace(cache.path_of(other), path)
    else:
        with sqlite3.connect(path) as conn:
            if damage == 'other format':
                conn.execute("UPDATE about SET value = '0' WHERE key = "
                             "'version'")
            elif damage == 'miscounted':
                counts = column(conn, 'samples').copy()
                counts[0] += 1
                conn.execute("UPDATE figures SET data = ? WHERE name = "
                             "'samples'", (counts.tobytes(),))
            elif damage == 'cut samples':
                conn.execute('UPDATE samples SET data = substr(data, 1, '
                             'length(data) - 3)')
            elif damage == 'codes outside':
                codes = column(conn, 'check').copy()
                codes[-1] = 1000
                conn.execute("UPDATE figures SET data = ? WHERE name = "
                             "'check'", (codes.tobytes(),))
            elif damage == 'values not plain':
                conn.execute("UPDATE figures SET uniques = "
                             "'[{\"__reduce__\": \"open\"}]' WHERE name = "
                             "'check'")
            elif damage == 'column missing':
                conn.execute("DELETE FROM figures WHERE name = 'unit'")
            else:
                conn.execute("UPDATE figures SET data = "
                             "'[\"__import__\"]' WHERE name = 'samples'")
    capsys.readouterr()
    pd.testing.assert_frame_equal(answer(stored), good)
    assert 'ignored the cache' in capsys.readouterr().err
    pd.testing.assert_frame_equal(answer(stored), good)
    assert 'ignored the cache' not in capsys.readouterr().err


def test_a_directory_that_cannot_be_written_keeps_no_cache(stored,
                                                           monkeypatch):
    def refused(*args, **kwargs):
        raise PermissionError('read-only results directory')

    monkeypatch.setattr(cache.os, 'replace', refused)
    out = answer(stored)
    assert not os.path.exists(cache.path_of(stored))
    assert not [n for n in os.listdir(os.path.dirname(stored))
                if n.endswith('.tmp')]
    assert len(out['session'].unique()) == 2


def test_a_new_night_is_appended_not_written_again(tmp_path):
    db = str(tmp_path / 'results.db')
    sessions = []
    for number in (1, 2):
        with open(data(f'results/fio-quick-{number}.json')) as fp:
            sessions.append(json.load(fp))
    storage.store(db, sessions[0])
    answer(db)
    path = cache.path_of(db)
    inode = os.stat(path).st_ino
    storage.store(db, sessions[1])
    appended = answer(db)
    assert os.stat(path).st_ino == inode             # not replaced
    with sqlite3.connect(path) as conn:
        assert conn.execute('SELECT count(*) FROM samples').fetchone() == \
            (2,)                                      # one row per write
    os.unlink(path)
    pd.testing.assert_frame_equal(appended, answer(db))  # a fresh decode


def test_a_session_appended_by_another_process_is_not_added_twice(stored):
    answer(stored)
    known = cache.read(stored, figures.CACHED)
    uuid = next(iter(known.infos))
    again = cache.Known(known.figures[known.figures['session'] == uuid],
                        {uuid: known.infos[uuid]})
    cache.append(stored, again, figures.CACHED)     # already there
    after = cache.read(stored, figures.CACHED)
    assert len(after.figures) == len(known.figures)


def test_a_column_of_mixed_values_keeps_each_value_and_its_type(stored):
    '''Each distinct value is kept once, by its type too (1, 1.0 and True,
    None and NaN stay apart); a column of numbers and nulls is read back
    as floats, as a row-by-row read gives it.'''
    answer(stored)
    known = cache.read(stored, figures.CACHED)
    mixed = [1, 1.0, True, None, float('nan'), 'x', 2]
    frame = known.figures.copy()
    frame['tag'] = [mixed[i % len(mixed)] for i in range(len(frame))]
    frame['ref'] = [None if i % 2 else 1.5 for i in range(len(frame))]
    cache.write(stored, cache.Known(frame, known.infos), figures.CACHED)
    again = cache.read(stored, figures.CACHED).figures
    tags = again['tag'].tolist()
    for i, (got, want) in enumerate(zip(tags, frame['tag'])):
        assert type(got) is type(want), i
        assert got == want or (got != got and want != want), i
    assert again['ref'].dtype == float
    assert again['ref'].isna().sum() == len(frame) // 2
