'''microbench.cause.ab_json and .abtext: the versioned JSON of an A/B
result, written whole and read back validated, and its text, on the A/B
of the two real fio sessions of tests/data/results (dev1's rounds as A,
dev2's as B; one sample made NaN: a lost pair).'''

import copy
import json
import os

import pytest

from microbench.cause import ab_json, abtext, sequential

from ab_cases import STACKS, real_document, real_series


@pytest.fixture(scope='module')
def made():
    '''The document and the series it judged.'''
    return real_document()


def test_the_document_holds_what_ran_and_every_round(made):
    doc, series = made
    assert (doc['format'], doc['version']) == ('microbench ab', 1)
    assert doc['stacks']['A'] == STACKS['A']
    assert (doc['pairs_run'], doc['rounds_run'], doc['order']) == (3, 6,
                                                                   'ABAB')
    assert (doc['nodes'], doc['jobs']) == (['localhost'], ['4242'])
    assert doc['rule'] == sequential.Rule(cap=3).describe()
    assert len(doc['figures']) == len(series) == 13
    assert sum(doc['counts'].values()) == 13
    by_key = {tuple(row[k] for k in ab_json.KEY): row
              for row in doc['figures']}
    for key, rounds in series.items():
        row = by_key[key]
        assert [(r['round'], r['side']) for r in row['rounds']] == \
            [(index, side) for index, side, _ in rounds]
    lost = [row for row in doc['figures'] if row['lost']]
    assert len(lost) == 1 and None in lost[0]['rounds'][2]['samples']


def test_figures_are_worst_first(made):
    doc, _ = made
    rank = [sequential.VERDICTS.index(row['verdict'])
            for row in doc['figures']]
    assert rank == sorted(rank)


def test_written_whole_and_read_back_the_same(made, tmp_path):
    doc, _ = made
    where = tmp_path / 'ab.json'
    where.write_text('an older file')
    ab_json.write(str(where), doc)
    assert os.listdir(tmp_path) == ['ab.json']
    found = ab_json.read(str(where))
    assert found.doc == json.loads(json.dumps(doc))
    assert found.pairs_run == 3 and found.stacks['B']['lock_hash'] == \
        'def5678'
    assert set(found.by_key()) == {
        tuple(row[k] for k in ab_json.KEY) for row in doc['figures']}


def test_a_write_that_fails_leaves_nothing(made, tmp_path):
    doc, _ = made
    with pytest.raises(OSError):
        ab_json.write(str(tmp_path / 'missing' / 'ab.json'), doc)
    bad = {**doc, 'figures': [{'ratio': float('nan')}]}
    with pytest.raises(ValueError):
        ab_json.write(str(tmp_path / 'ab.json'), bad)
    assert os.listdir(tmp_path) == []


def _rejected(tmp_path, doc):
    where = tmp_path / 'ab.json'
    where.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    with pytest.raises(ab_json.FormatError) as err:
        ab_json.read(str(where))
    said = str(err.value)
    assert said.startswith(f'{where}: ') and '\n' not in said
    return said


def _edited(doc, change):
    out = copy.deepcopy(doc)
    change(out)
    return out


@pytest.mark.parametrize('change, said', [
    (lambda d: d.update(version=2), 'the JSON of microbench ab version 2; '
                                    'this microbench reads version 1'),
    (lambda d: d.update(format='microbench compare'),
     "not the JSON of microbench ab (no format: 'microbench ab' member)"),
    (lambda d: d.pop('stacks'), "the document has no member 'stacks'"),
    (lambda d: d['stacks'].pop('B'), "stacks has no stack 'B'"),
    (lambda d: d['stacks']['A'].update(tools={'fio': 3.33}),
     "stacks.A.tools.'fio' is 3.33, not a text"),
    (lambda d: d.update(mode='slow'), "mode is 'slow', not one of quick, "
                                      "full"),
    (lambda d: d.update(order='AABB'), "order is 'AABB'"),
    (lambda d: d.update(nodes=['n1', 7]), 'nodes[1] is 7, not a text'),
    (lambda d: d.update(pairs_run=-1), 'pairs_run is -1, not a count'),
    (lambda d: d['rule'].update(cap=1000), 'rule: pairs: from 3 to 1000'),
    (lambda d: d['rule'].update(alpha=None), 'rule: alpha None'),
    (lambda d: d['counts'].update(maybe=1), "a key of counts is 'maybe'"),
    (lambda d: d['figures'][0].update(verdict='worse'),
     "figures[0].verdict is 'worse', not one of B slower"),
    (lambda d: d['figures'][0].update(direction='up'),
     "figures[0].direction is 'up'"),
    (lambda d: d['figures'][0].update(ratio='0.9'),
     "figures[0].ratio is '0.9', not a number or null"),
    (lambda d: d['figures'][1]['rounds'][0].update(side='C'),
     "figures[1].rounds[0].side is 'C'"),
    (lambda d: d['figures'][1]['rounds'][0]['samples'].append('x'),
     "figures[1].rounds[0].samples[1] is 'x', not a number or null"),
    (lambda d: d['figures'][1]['rounds'].extend(
        d['figures'][1]['rounds'] * 2), 'more than the cap of 3 pairs'),
    (lambda d: d['figures'][2].pop('why'),
     "figures[2] has no member 'why'"),
    (lambda d: d['figures'].append([]), 'figures[13] is [], not an object'),
])
def test_each_wrong_member_is_one_line_naming_it(made, tmp_path, change,
                                                  said):
    doc, _ = made
    assert said in _rejected(tmp_path, _edited(doc, change))


@pytest.mark.parametrize('text, said', [
    ('', 'not JSON'), ('[]', 'not the JSON of microbench ab (not an '
                             'object)'),
    ('{"format": "microbench ab", "version": NaN}', 'version is NaN'),
    ('{"figures": [{"ratio": 1e400}]}', 'figures[0].ratio is 1e400'),
    ('[' * 100_000, 'not JSON')])
def test_what_no_writer_writes_is_one_line(tmp_path, text, said):
    assert said in _rejected(tmp_path, text)


def test_the_text_is_a_table_like_compares(made):
    doc, _ = made
    shown = abtext.text(doc)
    lines = shown.splitlines()
    assert lines[0] == ('A: fio-3.33 (dev1) (lock abc1234; /opt/fio-3.33; '
                        'fio 3.33)')
    assert 'nodes localhost (jobs 4242): 3 pairs of rounds (6 rounds, ' \
        'ABAB)' in shown
    head = next(line for line in lines if line.startswith('verdict'))
    assert head.split() == ['verdict', 'figure', 'A', 'B', 'B/A',
                            'interval', 'pairs']
    for row in doc['figures']:
        assert any(line.startswith(row['label']) and row['figure'] in line
                   for line in lines)
    assert '2 (1 lost)' in shown


def test_the_text_of_a_decided_experiment(tmp_path):
    series = real_series(factor=0.5)
    doc, _ = real_document(sequential.Rule(cap=3), series)
    shown = abtext.text(doc)
    assert doc['exit_code'] == 1 and 'B slower' in doc['counts']
    assert any(line.startswith('B slower: fio_cache_flags sync')
               for line in shown.splitlines())
