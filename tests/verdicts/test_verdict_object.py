'''A figure's verdict as an object (microbench.verdicts.verdict): the
triage adds reasons of declared kinds instead of editing prose; the
verdict says itself, the latest reason first, and knows its exit code.'''

import pytest

from microbench.verdicts import vocabulary
from microbench.verdicts.verdict import Verdict


def _row(word='regression', why='tonight 0.5 of the 14 nights before'):
    return {'verdict': word, 'why': why}


def test_a_row_without_reasons_has_its_why_as_its_statistics():
    verdict = Verdict(_row())
    assert verdict.reasons == [('statistics',
                                'tonight 0.5 of the 14 nights before')]
    assert verdict.word == 'regression' and verdict.fails()


def test_a_reason_comes_first_and_may_change_the_word():
    row = _row()
    Verdict(row).add('event', 'joins the event since 2026-11-20',
                     vocabulary.DEGRADED)
    assert row['verdict'] == 'degraded'
    assert row['why'] == ('joins the event since 2026-11-20; tonight 0.5 of '
                          'the 14 nights before')
    assert [kind for kind, _ in Verdict(row).reasons] == ['event',
                                                          'statistics']
    assert not Verdict(row).fails()


def test_a_reason_may_come_last():
    row = _row()
    Verdict(row).add('confirmation', 'confirmed by the rerun').add(
        'confirmation', 'the first run: 0.4', last=True)
    assert row['why'] == ('confirmed by the rerun; tonight 0.5 of the 14 '
                          'nights before; the first run: 0.4')


def test_an_undeclared_kind_or_word_is_refused():
    with pytest.raises(ValueError, match='not one of statistics'):
        Verdict(_row()).add('mood', 'x')
    with pytest.raises(KeyError):
        Verdict(_row()).add('event', 'x', 'worse')


def test_every_kind_of_reason_is_declared_with_its_meaning():
    assert list(vocabulary.REASONS) == [
        'statistics', 'acknowledgement', 'event', 'downstream',
        'confirmation', 'behaviour']
    assert all(vocabulary.REASONS.values())
