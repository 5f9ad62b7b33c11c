'''microbench.nodes.links: one bad link among the pairs of n nodes found
by group testing, on simulated runs with known answers: the run count for
every link position (8 and 16 nodes, no noise), the ring, the shapes of
the runs, no run asked twice, no bad link, a wrong answer, and a measure
that raises or gives garbage.'''

import itertools
import math
import time

import pytest

from microbench.nodes import links


def names(count):
    '''``count`` node names, mbnode0 on.'''
    return [f'mbnode{index}' for index in range(count)]


class Noiseless:
    '''A measure without noise: a run is slow exactly where it holds the
    bad link; every run asked is kept.'''

    def __init__(self, bad=None, lie_at=None):
        '''``bad`` the bad link or None; ``lie_at`` the run (from 1) whose
        answer is the wrong one, or None.'''
        self.bad, self.lie_at = bad, lie_at
        self.asked = []

    def __call__(self, run_links):
        '''Slow (True) where the run holds the bad link.'''
        self.asked.append(run_links)
        slow = self.bad in run_links
        return not slow if len(self.asked) == self.lie_at else slow


def every_link(count):
    '''``(nodes, [(bad link, its measure, its result)])`` of a search for
    every link of ``count`` nodes.'''
    nodes = names(count)
    out = []
    for bad in itertools.combinations(nodes, 2):
        measure = Noiseless(bad)
        out.append((bad, measure, links.find_bad_link(nodes, measure)))
    return nodes, out


@pytest.fixture(scope='module')
def eight():
    '''Every link of 8 nodes searched.'''
    return every_link(8)


@pytest.fixture(scope='module')
def sixteen():
    '''Every link of 16 nodes searched.'''
    return every_link(16)


def runnable(run, nodes):
    '''Whether ``run`` is of a shape the search may ask for: the ring over
    ``nodes``, or every pair of its nodes.'''
    ring = {tuple(sorted((nodes[index], nodes[(index + 1) % len(nodes)]),
                         key=nodes.index)) for index in range(len(nodes))}
    every_pair = set(itertools.combinations(run.nodes, 2))
    if run.shape == links.RING:
        return set(run.links) == ring and run.nodes == tuple(nodes)
    return set(run.links) == every_pair and len(run.nodes) >= 2


def test_every_link_of_8_nodes_is_found_within_the_bound(eight):
    nodes, searches = eight
    bound = math.ceil(math.log2(28)) + 3
    assert len(searches) == 28
    for bad, measure, result in searches:
        assert result.status == links.FOUND, result.describe()
        assert result.link == bad
        assert result.count <= bound, result.describe()
        assert result.count == len(measure.asked)
        assert result.runs[0].purpose == links.RING


def test_every_link_of_16_nodes_is_found_within_10_runs(sixteen):
    nodes, searches = sixteen
    assert len(searches) == 120
    counts = [result.count for _, _, result in searches]
    assert all(result.link == bad for bad, _, result in searches)
    assert max(counts) <= 10
    # far fewer than the 120 pair runs one by one: about the halvings of
    # a perfect split, the ring and the confirmation
    assert sorted(counts)[60] <= math.ceil(math.log2(120)) + 2


def test_no_run_is_asked_twice_and_every_run_is_runnable(eight, sixteen):
    for nodes, searches in (eight, sixteen):
        for _, measure, result in searches:
            assert len(set(measure.asked)) == len(measure.asked)
            assert [run.links for run in result.runs] == measure.asked
            assert all(runnable(run, nodes) for run in result.runs)


def test_a_link_is_named_as_the_nodes_were_given(sixteen):
    '''The links measure sees are pairs of node names, the first given
    first; the one-line description names the link and the counts.'''
    nodes, searches = sixteen
    for _, measure, _ in searches:
        for run_links in measure.asked:
            assert all(nodes.index(first) < nodes.index(second)
                       for first, second in run_links)
    bad, _, result = searches[37]
    assert result.describe() == (
        f'link {bad[0]}-{bad[1]} found in {result.count} runs '
        f'({result.breakdown()}); 120 pairs one by one would take 120')
    assert result.breakdown().startswith('ring, ')
    assert result.breakdown().endswith('halvings, 1 confirmation')


def test_the_ring_catches_a_ring_link():
    nodes = names(8)
    for bad in [('mbnode2', 'mbnode3'), ('mbnode0', 'mbnode7')]:
        result = links.find_bad_link(nodes, Noiseless(bad))
        assert result.runs[0].purpose == links.RING
        assert result.runs[0].outcome == links.SLOW
        assert bad in result.runs[0].links
        assert len(result.runs[0].links) == 8
        assert result.link == bad
        # 8 suspects left: 3 halvings and a confirmation at most
        assert result.count <= 1 + 3 + 1


def test_a_link_off_the_ring_leaves_the_ring_clean():
    result = links.find_bad_link(names(8), Noiseless(('mbnode0',
                                                      'mbnode4')))
    assert result.runs[0].outcome == links.CLEAN
    assert result.link == ('mbnode0', 'mbnode4')


def test_two_nodes_one_link_one_run():
    slow = links.find_bad_link(['a', 'b'], Noiseless(('a', 'b')))
    assert (slow.status, slow.link, slow.count) == (links.FOUND, ('a', 'b'),
                                                    1)
    clean = links.find_bad_link(['a', 'b'], Noiseless())
    assert (clean.status, clean.link, clean.count) == (links.NO_LINK, None,
                                                       1)
    assert clean.describe() == ('no bad link seen among 2 nodes (1 link) in '
                                '1 run (ring)')


def test_three_nodes():
    nodes = names(3)
    for bad in itertools.combinations(nodes, 2):
        measure = Noiseless(bad)
        result = links.find_bad_link(nodes, measure)
        assert result.link == bad
        assert result.count <= 4
        assert len(set(measure.asked)) == len(measure.asked)
    # the ring of 3 nodes is the whole partition: one clean run is enough
    assert links.find_bad_link(nodes, Noiseless()).count == 1


@pytest.mark.parametrize('count', [4, 8, 16])
def test_no_bad_link(count):
    nodes = names(count)
    checked = links.check_partition(nodes, Noiseless())
    assert checked.status == links.NO_LINK and checked.link is None
    assert [run.purpose for run in checked.runs] == [links.RING, links.WHOLE]
    # the search alone ends saying so too, once the whole partition ran
    # clean, within its budget
    searched = links.find_bad_link(nodes, Noiseless())
    assert searched.status == links.NO_LINK
    assert searched.runs[-1].purpose == links.WHOLE
    assert searched.count <= links.default_budget(count)


def test_the_no_bad_link_check_searches_on_where_one_is():
    nodes = names(16)
    bad = ('mbnode3', 'mbnode11')
    result = links.check_partition(nodes, Noiseless(bad))
    assert result.link == bad
    assert [run.outcome for run in result.runs[:2]] == [links.CLEAN,
                                                        links.SLOW]
    assert result.count <= 11


def test_a_clean_confirmation_is_said_and_names_no_wrong_link():
    '''The confirmation of the right link lies (clean): the pair is out,
    said in a note; no other link is named.'''
    nodes = names(8)
    bad = ('mbnode1', 'mbnode5')
    honest = links.find_bad_link(nodes, Noiseless(bad))
    assert honest.runs[-1].purpose == links.CONFIRMATION
    measure = Noiseless(bad, lie_at=honest.count)
    result = links.find_bad_link(nodes, measure)
    assert result.link is None and result.status == links.NOT_FOUND
    assert any('mbnode1-mbnode5 alone was clean' in note
               for note in result.notes)
    assert result.count <= links.default_budget(8)
    assert len(set(measure.asked)) == len(measure.asked)


def test_one_wrong_answer_never_names_a_wrong_link():
    nodes = names(16)
    pairs = list(itertools.combinations(nodes, 2))
    statuses = set()
    for bad in pairs[::7]:
        for lie_at in range(1, 10):
            result = links.find_bad_link(nodes, Noiseless(bad, lie_at))
            assert result.link in (bad, None), (bad, lie_at)
            assert result.status != links.NO_LINK, (bad, lie_at)
            assert result.count <= links.default_budget(16)
            statuses.add(result.status)
    assert links.FOUND in statuses


def test_the_budget_ends_the_search():
    result = links.find_bad_link(names(16), Noiseless(('mbnode0',
                                                       'mbnode9')),
                                 budget=3)
    assert (result.status, result.link, result.count) == (links.NOT_FOUND,
                                                          None, 3)
    assert 'within the budget of 3 runs' in result.describe()
    assert 0 < len(result.suspects) < 120


def raises_on(number, error):
    '''A measure clean until run ``number``, which raises ``error``.'''
    asked = []

    def measure(run_links):
        '''Clean, but at run ``number``.'''
        asked.append(run_links)
        if len(asked) == number:
            raise error
        return False

    return measure


@pytest.mark.parametrize('number', [1, 3])
def test_a_measure_that_raises_is_a_failed_run(number):
    result = links.find_bad_link(names(8),
                                 raises_on(number, OSError('no route')))
    assert result.status == links.RUN_FAILED and result.link is None
    assert result.count == number
    assert result.runs[-1].outcome == links.FAILED
    assert 'measure raised OSError: no route' in result.describe()
    assert result.describe().startswith(f'run {number} failed')


@pytest.mark.parametrize('answer', [None, float('nan'), float('inf'), -1.0,
                                    'slow', [1.0], {'figure': 1}])
def test_garbage_is_a_failed_run(answer):
    result = links.find_bad_link(names(8), lambda run_links: answer,
                                 links.Threshold(100.0))
    assert result.status == links.RUN_FAILED and result.count == 1
    assert repr(answer) in result.runs[0].why


def test_figures_are_judged_by_the_threshold():
    nodes = names(8)
    bad = ('mbnode2', 'mbnode6')

    def bandwidth(run_links):
        '''MB/s: a healthy link 100, the bad one 40.'''
        return 40.0 if bad in run_links else 98.0

    def latency(run_links):
        '''Microseconds: a healthy link 2, the bad one 5.'''
        return 5.0 if bad in run_links else 2.1

    found = links.find_bad_link(nodes, bandwidth, links.Threshold(100.0))
    assert found.link == bad and found.runs[-1].figure == 40.0
    slower = links.Threshold(2.0, higher_is_better=False)
    assert links.find_bad_link(nodes, latency, slower).link == bad
    # a figure just inside the margin is clean
    assert links.judge(75.1, links.Threshold(100.0))[0] == links.CLEAN
    assert links.judge(74.9, links.Threshold(100.0))[0] == links.SLOW
    assert links.find_bad_link(nodes, bandwidth,
                               lambda figure: figure < 50).link == bad


def test_a_figure_without_a_threshold_or_with_a_broken_one_fails():
    nodes = names(4)
    alone = links.find_bad_link(nodes, lambda run_links: 90.0)
    assert alone.status == links.RUN_FAILED
    assert 'no threshold' in alone.describe()
    broken = links.find_bad_link(nodes, lambda run_links: 90.0,
                                 lambda figure: 'yes')
    assert broken.status == links.RUN_FAILED
    assert "said 'yes'" in broken.describe()
    raising = links.find_bad_link(nodes, lambda run_links: 90.0,
                                  lambda figure: 1 / 0)
    assert 'ZeroDivisionError' in raising.describe()


@pytest.mark.parametrize('nodes, words', [
    ([], '0 nodes given'),
    (['only'], '1 node given'),
    (['a', 'b', 'a'], 'given twice: a'),
    ('ab', 'give a list'),
    (['a', ''], 'non-empty strings'),
    (['a', 7], 'non-empty strings'),
    ([['a'], 'b'], 'non-empty strings'),
])
def test_wrong_nodes_are_a_value_error(nodes, words):
    with pytest.raises(ValueError, match=words):
        links.find_bad_link(nodes, Noiseless())
    with pytest.raises(ValueError, match=words):
        links.check_partition(nodes, Noiseless())


@pytest.mark.parametrize('keywords, words', [
    ({'budget': 0}, 'budget'),
    ({'budget': 2.5}, 'budget'),
    ({'budget': True}, 'budget'),
    ({'threshold': 75}, 'threshold'),
    ({'measure': None}, 'measure'),
])
def test_wrong_settings_are_a_value_error(keywords, words):
    arguments = {'nodes': names(4), 'measure': Noiseless(), **keywords}
    with pytest.raises(ValueError, match=words):
        links.find_bad_link(**arguments)


@pytest.mark.parametrize('level, margin', [(0, 0.25), (float('nan'), 0.25),
                                           (100, 0), (100, 1.5)])
def test_a_wrong_threshold_is_a_value_error(level, margin):
    with pytest.raises(ValueError, match='clean level'):
        links.Threshold(level, margin)


def test_64_nodes_stay_fast():
    nodes = names(64)
    started = time.monotonic()
    for bad in [('mbnode0', 'mbnode1'), ('mbnode5', 'mbnode40'),
                ('mbnode62', 'mbnode63'), ('mbnode17', 'mbnode33')]:
        result = links.find_bad_link(nodes, Noiseless(bad))
        assert result.link == bad
        assert result.count <= math.ceil(math.log2(2016)) + 3
    assert time.monotonic() - started < 5


def test_the_default_budget():
    assert links.default_budget(16) == 2 * 7 + 2
    assert links.default_budget(2) == 2
    assert links.default_budget(64) == 2 * 11 + 2
