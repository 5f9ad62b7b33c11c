'''The verdict vocabulary (microbench.verdicts.vocabulary): every word a
figure's verdict may say is declared there once, every table the suite
reads is derived from it, every word the rules emit is declared, and every
declared word is emitted by some module.'''

import ast
import os

import numpy as np
import pytest

from microbench import paths
from microbench.cause import classify, sequential
from microbench.verdicts import (acks, compare_json, events, nightly,
                                 prepost, rule, triage, vocabulary)
from microbench.verdicts.export import gauges
from microbench.verdicts.report import absection, bisectsection
from microbench.verdicts.weather import status

VOCABULARY = os.path.join(paths.LIBRARY, 'verdicts', 'vocabulary.py')

def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            out.add(id(node.body[0].value))
    return out


def spelt(words, root=paths.LIBRARY):
    '''``[(module, line, word)]``: every string constant of the library
    (or of ``root``; docstrings aside) that is one of ``words``, outside
    the vocabulary.'''
    found = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if not name.endswith('.py') or path == VOCABULARY:
                continue
            with open(path, encoding='utf-8') as fp:
                tree = ast.parse(fp.read(), path)
            docs = _docstrings(tree)
            found += [(rel, node.lineno, node.value) for node in ast.walk(tree)
                      if isinstance(node, ast.Constant)
                      and isinstance(node.value, str)
                      and node.value in words and id(node) not in docs]
    return found


def test_a_figure_verdict_is_spelt_only_in_the_vocabulary():
    '''The weather page's statuses too (``changed``, ``degraded``,
    ``improved``: :data:`vocabulary.STATUSES`) are the vocabulary's
    constants.'''
    assert spelt(set(vocabulary.VERDICT_WORDS)) == []


def test_the_scan_finds_a_spelt_word(tmp_path):
    '''The scan above is able to fail: a module that spells a verdict word
    is found, its docstring is not.'''
    (tmp_path / 'news.py').write_text(
        "'''changed'''\n\nSTATE = 'changed'\n")
    assert spelt({'changed'}, root=str(tmp_path)) == [
        ('news.py', 3, 'changed')]


def _constant_names():
    '''``{word: [the vocabulary's constants of it]}``.'''
    out = {}
    for name, word in vars(vocabulary).items():
        if name.isupper() and isinstance(word, str):
            out.setdefault(word, []).append(name)
    return out


def _library_text():
    out = []
    for folder, _, names in os.walk(paths.LIBRARY):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith('.py') and path != VOCABULARY:
                with open(path, encoding='utf-8') as fp:
                    out.append(fp.read())
    return '\n'.join(out)


def test_every_declared_verdict_is_emitted():
    '''Each figure verdict is said by a module (through its constant), or
    is the verdict of a change that holds (``nightly.STATES``).'''
    text = _library_text()
    names = _constant_names()
    held = {pair[1] for pair in vocabulary.states().values()}
    silent = [word for word in vocabulary.VERDICT_WORDS
              if not any(f'vocabulary.{name}' in text
                         or f'vocabulary import {name}' in text
                         for name in names[word])
              and not (word in held and 'STATES[' in text)]
    assert silent == []


def test_the_tables_are_derived_from_it():
    assert nightly.VERDICTS == vocabulary.said_by(vocabulary.NIGHTLY)
    assert rule.VERDICTS == vocabulary.said_by(vocabulary.SIDES)
    assert compare_json.VERDICTS == vocabulary.VERDICT_WORDS
    assert triage.ACKNOWLEDGEABLE == vocabulary.ACKNOWLEDGEABLE
    assert events.CHANGED == vocabulary.CHANGES
    assert events.CAUSES is vocabulary.RECORDED_CAUSES
    assert acks.KINDS is vocabulary.ACK_KINDS
    assert classify.CAUSES == tuple(vocabulary.EXPERIMENT_CAUSES)
    assert sequential.VERDICTS == tuple(vocabulary.AB_VERDICTS)
    assert status.STATUSES == tuple(vocabulary.STATUSES)


def test_what_the_derived_tables_say():
    '''The meaning the rest of the suite relies on, said once more here
    as a known answer (a change to the vocabulary that changes these is
    a change of behaviour, and must change this test too).'''
    assert nightly.STATES == {'down': ('regression', 'degraded'),
                              'up': ('improvement', 'improved'),
                              'moved': ('changed', 'shifted')}
    assert vocabulary.FAILING == ('regression',)
    assert status.STATUS['regression'] == 'degraded'
    assert status.STATUS['shifted'] == 'changed'
    assert status.STATUS['unchanged'] == 'normal'
    assert gauges.DIRECTION == {'unchanged': 0.0, 'unconfirmed': 0.0,
                                'regression': -1.0, 'degraded': -1.0,
                                'improvement': 1.0, 'improved': 1.0}
    assert absection.CLASSES['B slower'] == 'regression'
    assert absection.CLASSES['same'] == ''
    assert bisectsection.CLASSES == {'named': 'regression',
                                     'not decided': 'inconclusive'}
    assert 'unconfirmed' not in triage.ACKNOWLEDGEABLE
    assert 'acknowledged' in events.CHANGED


@pytest.mark.parametrize('better', [1, -1, 0])
def test_every_verdict_the_nightly_rule_emits_is_declared(better):
    rng = np.random.default_rng(7)
    said = set()
    for shift in (0.5, 0.9, 1.0, 1.1, 2.0):
        for nights in (3, 16, 40):
            values = rng.normal(100, 2, nights)
            values[-5:] *= shift
            said.add(nightly.judge(values, better, 0.01, 0.01)['verdict'])
    assert said <= set(vocabulary.said_by(vocabulary.NIGHTLY))
    assert vocabulary.INCONCLUSIVE in said


def test_every_verdict_of_two_sides_is_declared():
    rng = np.random.default_rng(3)
    said = {prepost.judge(rng.normal(100, 1, 6), rng.normal(mean, 1, 6),
                          better, 0.01)['verdict']
            for mean in (50, 100, 150) for better in (1, -1, 0)}
    assert said <= set(vocabulary.said_by(vocabulary.SIDES))
    assert {'regression', 'improvement', 'changed'} <= said


def test_the_pages_colour_every_coloured_word():
    css = vocabulary.css()
    for word in vocabulary.FIGURE_VERDICTS:
        assert (f'.{word.word}' in css) == bool(word.colour)
    assert '.fail' in css
    for name in vocabulary.STATUSES:
        assert f'li.{name}{{' in vocabulary.status_css()
