'''microbench.cause.bisection: the search logic of ``microbench bisect``
(an oracle in place of the steps' A/Bs: the search alone, for every
culprit among k units; the A/Bs themselves run in test_bisect_e2e.py),
and how one step's judgement of a figure reads against the full A/B.'''

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench.cause import bisection, sequential

KEY = ('fio_data_reduction', 'incompressible', 'write', 'MiB/s',
       'higher-is-better')
OTHER = ('fio_data_reduction', 'zeros', 'write', 'MiB/s',
         'higher-is-better')


def _groups(k):
    return [(f'p{index}',) for index in range(k)]


def _oracle(culprits, undecided=(), unbuildable=()):
    '''What each step says where ``culprits`` ({key: group index}) move
    the figures; a step moving a set of ``unbuildable`` is not built, one
    of ``undecided`` says nothing.'''
    def answer(subset):
        if subset in unbuildable:
            return 'not concretized', {}
        if subset in undecided:
            return 'measured', {}
        return 'measured', {
            key: (bisection.REPRODUCED if culprit in subset
                  else bisection.NOT_REPRODUCED)
            for key, culprit in culprits.items()}
    return answer


def _search(k, culprits, cap=None, **oracle):
    search = bisection.Search(_groups(k), list(culprits), cap)
    answer = _oracle(culprits, **oracle)
    while (subset := search.next_subset()) is not None:
        search.record(subset, *answer(subset))
    return search


@pytest.mark.parametrize('k', range(1, 17))
def test_one_cause_is_named_within_the_budget_for_every_culprit(k):
    for culprit in range(k):
        search = _search(k, {KEY: culprit})
        result, left, _ = search.result(KEY)
        assert (result, left) == (bisection.NAMED, [culprit])
        assert len(search.steps) + 1 <= bisection.budget(k)


def test_the_budget_is_ceil_log2_k_plus_the_full_ab():
    assert [bisection.budget(k) for k in (1, 2, 3, 4, 5, 8, 9)] == \
        [1, 2, 3, 3, 4, 4, 5]


def test_the_planted_five_groups_take_three_steps_at_most():
    groups = [('darshan-runtime',), ('darshan-util',),
              ('fabtests', 'libfabric'), ('fio',), ('ior',)]
    search = bisection.Search(groups, [KEY])
    answer = _oracle({KEY: 3})
    spelt = []
    while (subset := search.next_subset()) is not None:
        spelt.append(search.spelt(subset))
        search.record(subset, *answer(subset))
    assert spelt == ['darshan-runtime, darshan-util, fabtests+libfabric',
                     'fio']
    assert search.result(KEY)[:2] == (bisection.NAMED, [3])
    assert search.result(KEY)[2].startswith('named by steps 1, 2: step 2 '
                                            'reproduced it')


def test_a_step_that_cannot_be_built_tries_the_other_half():
    first = frozenset({0, 1, 2})
    search = _search(5, {KEY: 3}, unbuildable={first})
    assert search.steps[0].subset == first
    assert search.steps[0].status == 'not concretized'
    assert search.steps[1].subset == frozenset({3, 4})
    assert search.result(KEY)[:2] == (bisection.NAMED, [3])


def test_when_neither_half_decides_nothing_is_guessed():
    search = _search(4, {KEY: 2}, undecided={frozenset({0, 1}),
                                             frozenset({2, 3})})
    result, left, why = search.result(KEY)
    assert result == bisection.NOT_DECIDED
    assert left == [0, 1, 2, 3]
    assert 'left it undecided' in why and 'p0, p1' in why
    assert len(search.steps) == 2


def test_an_undecided_half_step_narrows_through_the_other_half():
    '''The first half says nothing; the second reproduces: the culprit is
    among it, and the search goes on there.'''
    search = _search(4, {KEY: 3}, undecided={frozenset({0, 1})})
    assert search.result(KEY)[:2] == (bisection.NAMED, [3])


def test_a_figure_left_undecided_does_not_spend_the_others_steps():
    '''The planted k = 8 bisection (bench/bisect_planted.py --b
    planted-d), as it ran: three figures moved by fio (group 6); the first
    step (the four groups before darshan-util) cleared two of them and
    left the noisy third undecided.  The next steps halve the set the two
    share, and they are named by steps 1 to 3, within the budget: the
    undecided figure follows them (halving its eight candidates first took
    a fourth step, past the budget).'''
    default = ('fio_data_reduction', 'default', 'write', 'MiB/s',
               'higher-is-better')
    groups = [('bystander-one',), ('bystander-three',), ('bystander-two',),
              ('darshan-runtime',), ('darshan-util',),
              ('fabtests', 'libfabric'), ('fio',), ('ior',)]
    keys = [default, KEY, OTHER]
    search = bisection.Search(groups, keys)
    first = frozenset({0, 1, 2, 3})
    spelt = []
    while (subset := search.next_subset()) is not None:
        spelt.append(search.spelt(subset))
        fio = bisection.REPRODUCED if 6 in subset else \
            bisection.NOT_REPRODUCED
        said = {key: fio for key in keys}
        if subset == first:
            del said[default]
        search.record(subset, 'measured', said)
    assert spelt[:3] == [
        'bystander-one, bystander-three, bystander-two, darshan-runtime',
        'darshan-util, fabtests+libfabric', 'fio']
    for key in (KEY, OTHER):
        assert search.result(key)[:2] == (bisection.NAMED, [6])
        assert max(search.deciding(key)) + 1 <= bisection.budget(8)
    assert search.result(default)[:2] == (bisection.NAMED, [6])
    assert len(search.steps) == 3


def test_two_figures_with_two_causes_are_named_each():
    search = _search(8, {KEY: 1, OTHER: 6})
    assert search.result(KEY)[:2] == (bisection.NAMED, [1])
    assert search.result(OTHER)[:2] == (bisection.NAMED, [6])
    # they share the first step, then split
    assert len(search.steps) <= 2 * math.ceil(math.log2(8))


def _together(confirm):
    '''A figure moved only where units 0 and 3 move together.'''
    search = bisection.Search(_groups(4), [KEY], confirm=confirm)
    while (subset := search.next_subset()) is not None:
        word = (bisection.REPRODUCED if {0, 3} <= subset
                else bisection.NOT_REPRODUCED)
        search.record(subset, 'measured', {KEY: word})
    return search


def test_elimination_is_said_as_such():
    '''Two units that move a figure only together break the one-cause
    assumption: halving clears 0 (with 1) and 2, and names 3 by
    elimination, saying so: its own step was not run.'''
    search = _together(confirm=False)
    result, left, why = search.result(KEY)
    assert (result, left) == (bisection.NAMED, [3])
    assert search.evidence(KEY) == bisection.ELIMINATION
    assert 'by elimination' in why


def test_confirm_runs_the_step_of_a_unit_named_by_elimination():
    search = _together(confirm=True)
    result, _, why = search.result(KEY)
    assert result == bisection.NOT_DECIDED
    assert search.steps[-1].subset == frozenset({3})
    assert 'no one unit moves it' in why


def test_confirm_adds_no_step_where_a_step_reproduced_the_unit():
    plain = _search(5, {KEY: 3})
    confirmed = bisection.Search(_groups(5), [KEY], confirm=True)
    answer = _oracle({KEY: 3})
    while (subset := confirmed.next_subset()) is not None:
        confirmed.record(subset, *answer(subset))
    assert len(confirmed.steps) == len(plain.steps)
    assert confirmed.evidence(KEY) == bisection.REPRODUCTION


def test_the_cap_stops_the_search_and_says_so():
    search = _search(16, {KEY: 9}, cap=2)
    result, left, why = search.result(KEY)
    assert result == bisection.NOT_DECIDED and len(left) == 4
    assert 'the cap of 2 steps' in why


def test_a_single_unit_needs_no_step():
    search = _search(1, {KEY: 0})
    assert search.steps == []
    assert search.result(KEY)[:2] == (bisection.NAMED, [0])
    assert search.evidence(KEY) == bisection.REPRODUCTION


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.integers(2, 40), st.data())
def test_the_search_never_names_a_wrong_unit(k, data):
    '''Whatever steps fail or say nothing, a figure is named only as its
    culprit, or not named.'''
    culprit = data.draw(st.integers(0, k - 1))
    search = bisection.Search(_groups(k), [KEY])
    while (subset := search.next_subset()) is not None:
        if data.draw(st.booleans()) and data.draw(st.booleans()):
            search.record(subset, 'not installed', {})
            continue
        word = (bisection.REPRODUCED if culprit in subset
                else bisection.NOT_REPRODUCED)
        search.record(subset, 'measured', {KEY: word})
    result, left, _ = search.result(KEY)
    assert culprit in left
    if result == bisection.NAMED:
        assert left == [culprit]
    assert len(search.steps) <= k


# -- a step's judgement against the full A/B ---------------------------------

@pytest.mark.parametrize('verdict, low, high, wanted', [
    # B's 0.70: the midpoint sqrt(0.70) = 0.837
    ('same', 0.95, 1.04, bisection.NOT_REPRODUCED),
    ('continue', 0.86, 1.12, bisection.NOT_REPRODUCED),
    ('B slower', 0.62, 0.79, bisection.REPRODUCED),
    ('B slower', 0.70, 0.90, bisection.REPRODUCED),
    ('continue', 0.78, 0.83, bisection.REPRODUCED),
    ('continue', 0.80, 1.05, bisection.UNDECIDED),
    ('B slower', 0.86, 0.93, bisection.UNDECIDED),
    ('B faster', 1.10, 1.30, bisection.UNDECIDED),
    ('same', None, None, bisection.UNDECIDED),
])
def test_a_step_is_read_against_the_midpoint_of_a_and_b(verdict, low, high,
                                                       wanted):
    assert bisection.outcome('B slower', 0.70, verdict, low, high)[0] == \
        wanted


def test_a_rise_is_read_the_other_way():
    assert bisection.outcome('B faster', 1.5, 'B faster', 1.3, 1.7)[0] == \
        bisection.REPRODUCED
    assert bisection.outcome('B faster', 1.5, 'same', 0.97, 1.04)[0] == \
        bisection.NOT_REPRODUCED


def _rounds(a_values, b_values):
    '''Rounds A B B A ... of the values given.'''
    out, index = [], 1
    for pair, (a, b) in enumerate(zip(a_values, b_values)):
        order = (('A', a), ('B', b)) if pair % 2 == 0 else (('B', b),
                                                            ('A', a))
        for side, value in order:
            out.append((index, side, [value]))
            index += 1
    return out


def test_a_step_of_b_is_judged_reproduced_at_its_level():
    moved = bisection.Moved(KEY, 'B slower', 0.70)
    a = [500, 520, 480, 510, 495, 505]
    b = [value * 0.70 for value in a]
    b = [value * factor for value, factor in
         zip(b, itertools.cycle([1.02, 0.98, 1.01]))]
    found = bisection.judged(moved, _rounds(a, b), sequential.Rule.quick(),
                             1)
    assert found.outcome == bisection.REPRODUCED and found.settled
    assert found.high < math.sqrt(0.70)


def test_too_few_pairs_are_undecided_and_not_settled():
    moved = bisection.Moved(KEY, 'B slower', 0.70)
    found = bisection.judged(moved, _rounds([500, 510], [350, 360]),
                             sequential.Rule.quick(), 1)
    assert found.outcome == bisection.UNDECIDED and not found.settled


def test_the_family_widens_the_interval():
    moved = bisection.Moved(KEY, 'B slower', 0.70)
    a = [500, 540, 470, 515, 490]
    b = [505, 520, 480, 500, 470]
    rule = sequential.Rule.quick()
    one = bisection.judged(moved, _rounds(a, b), rule, 1)
    six = bisection.judged(moved, _rounds(a, b), rule, 6)
    assert six.low < one.low and six.high > one.high
    assert six.level < one.level
