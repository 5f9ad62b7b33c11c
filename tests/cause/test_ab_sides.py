'''The two sides of an A/B as one text (microbench/sides.py): what the runner
writes, the rounds fixture reads back whole or refuses in one line; the
order of the rounds (A B B A ...), and a side's name of a variant.'''

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench import sides

SPEC = ('A:name=apt;prefix=/usr;fio=/usr/bin,'
        'B:name=fio-3.40;prefix=/opt/v;lock=' + 'a' * 64
        + ';env=/opt/envs/x;fio=/opt/v/bin;ior=/opt/v/bin')


def test_a_spec_reads_each_side_and_is_spelt_back():
    found = sides.parse(SPEC)
    assert list(found) == ['A', 'B']
    assert found['A'].dir('fio') == '/usr/bin'
    assert found['A'].dir('ior') is None
    assert found['B'].tools() == ['fio', 'ior']
    assert found['B'].lock == 'a' * 64 and found['B'].env == '/opt/envs/x'
    assert sides.parse(sides.spell(found)) == found


def test_the_sides_may_come_in_either_order():
    one, two = SPEC.split(',')
    assert sides.parse(f'{two},{one}') == sides.parse(SPEC)


@pytest.mark.parametrize('text, said', [
    ('', "'' is not <side>:<items>"),
    ('A:name=x;fio=/a', 'exactly the sides A and B'),
    ('A:name=x;fio=/a,A:name=y;fio=/b', 'sides A, A'),
    ('A:name=x;fio=/a,C:name=y;fio=/b', "'C:name=y;fio=/b' is not"),
    ('A:fio=/a,B:name=y;fio=/b', 'side A has no name'),
    ('A:name=x,B:name=y;fio=/b', 'side A names no tool directory'),
    ('A:name=x;fio=/a;fio=/c,B:name=y;fio=/b', 'fio is given twice'),
    ('A:name=x;gcc=/a,B:name=y;fio=/b', "'gcc' is neither a tool"),
    ('A:name=x;fio,B:name=y;fio=/b', "'fio' is not <key>=<value>"),
    ('A:name=x;fio=,B:name=y;fio=/b', 'side A: fio is empty'),
    ('A:name=x;lock=abc;fio=/a,B:name=y;fio=/b', 'is not a sha256'),
    ('A:name=x\n;fio=/a,B:name=y;fio=/b', 'a control character'),
])
def test_a_wrong_spec_is_one_line_naming_what(text, said):
    with pytest.raises(sides.SpecError, match='stacks') as err:
        sides.parse(text)
    assert said in str(err.value) and '\n' not in str(err.value)


def test_a_value_holding_a_separator_cannot_be_spelt():
    found = sides.parse(SPEC)
    bad = dict(found, A=sides.Side('A', 'a,b', dirs=(('fio', '/a'),)))
    with pytest.raises(sides.SpecError, match='separate the sides'):
        sides.spell(bad)


def test_a_spec_too_long_is_refused_before_it_is_read():
    with pytest.raises(sides.SpecError, match='more than'):
        sides.parse('A:' + 'x' * sides.LONGEST)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_spec_or_one_line(text):
    try:
        found = sides.parse(text)
    except sides.SpecError as err:
        assert '\n' not in str(err)
    else:
        assert sides.parse(sides.spell(found)) == found


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(SPEC) - 1), st.characters())
def test_a_spec_with_a_character_changed_is_read_or_refused(at, char):
    text = SPEC[:at] + char + SPEC[at + 1:]
    try:
        sides.parse(text)
    except sides.SpecError as err:
        assert '\n' not in str(err)


def test_the_rounds_alternate_abba():
    assert ''.join(sides.order(4)) == 'ABBAABBA'
    assert ''.join(sides.order(3)) == 'ABBAAB'
    assert sides.indices(3) == {'A': [1, 4, 5], 'B': [2, 3, 6]}
    assert sides.indices(2, first=7) == {'A': [7, 10], 'B': [8, 9]}


@given(st.integers(1, 50))
def test_every_pair_of_rounds_holds_one_round_of_each_side(per_side):
    order = sides.order(per_side)
    assert order.count('A') == order.count('B') == per_side
    assert all({order[i], order[i + 1]} == {'A', 'B'}
               for i in range(0, len(order), 2))


def test_a_variants_name_on_a_side():
    assert sides.key('direct', 'A') == 'direct@A'
    assert sides.split_key('direct@A') == ('direct', 'A')
    assert sides.split_key('@B') == ('', 'B')
    assert sides.split_key('direct') == ('direct', '')
    assert sides.split_key('user@host') == ('user@host', '')


def test_the_stack_record_names_its_side():
    side = sides.parse(SPEC)['B']
    said = sides.identity(side, 'fio', 'fio-3.40')
    assert said == (f'B: fio-3.40; prefix /opt/v; environment /opt/envs/x; '
                    f'fio /opt/v/bin (fio-3.40); lock {"a" * 64}')
    assert sides.label_of(said) == 'B'
    assert sides.label_of('A') == 'A'
    assert sides.label_of('') == sides.label_of('C: x') == ''
