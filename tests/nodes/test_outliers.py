'''microbench.nodes.outliers: the same-night rule on series with known
answers (one node at 0.42 of its peers, all nodes slow alike, 2 peers, a
node whose job failed, peers with no spread, a latency), garbage that is
never a traceback, the node's earlier nights, and the drain command.'''

import math
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench.nodes import outliers

FIGURE = 'fio_cache_flags direct write'

#: Seven healthy nodes: median 1000, MAD of ln(value / 1000) 0.0305
HEALTHY = [1000, 1030, 970, 1031, 969, 1060, 940]


def samples(value, spread=0.01):
    '''Three samples of median ``value``, ``spread`` apart.'''
    return [value * (1 - spread), value, value * (1 + spread)]


def partition(values, names=None):
    '''{node: samples} of ``values``, nodes mbnode1, mbnode2, ...'''
    names = names or [f'mbnode{index + 1}' for index in range(len(values))]
    return {name: samples(value) for name, value in zip(names, values)}


def states(judgement):
    '''{node: state} of a Judgement.'''
    return {result.node: result.state for result in judgement.results}


def by_node(judgement):
    '''{node: NodeResult} of a Judgement.'''
    return {result.node: result for result in judgement.results}


# -- known answers -----------------------------------------------------------

def test_one_node_at_042_is_the_one_slow_node_in_the_issues_words():
    values = [HEALTHY[0], 420, *HEALTHY[1:]]
    judged = outliers.judge_figure(FIGURE, partition(values), 'higher',
                                   'MiB/s')
    assert [node for node, state in states(judged).items()
            if state != outliers.CLEAN] == ['mbnode2']
    slow = by_node(judged)['mbnode2']
    assert slow.state == outliers.SLOW
    assert slow.describe() == ('mbnode2: fio_cache_flags direct write 0.42 '
                               'of the peers\' median (8 nodes, MAD 0.03)')
    assert slow.peers == 7 and slow.z < -outliers.Z_SLOW
    assert judged.skipped == ''


def test_two_slow_nodes_of_eight_are_both_named():
    values = [420, 500, *HEALTHY[:6]]
    judged = outliers.judge_figure(FIGURE, partition(values), 'higher')
    assert sorted(node for node, state in states(judged).items()
                  if state == outliers.SLOW) == ['mbnode1', 'mbnode2']


def test_all_nodes_slow_alike_make_no_outlier():
    '''The machine's drift falls on every node alike: halved, the same
    partition gives the same states and ratios as at its level.'''
    values = [HEALTHY[0], 420, *HEALTHY[1:]]
    level = outliers.judge_figure(FIGURE, partition(values), 'higher')
    halved = outliers.judge_figure(
        FIGURE, partition([value * 0.5 for value in HEALTHY + [1000]]),
        'higher')
    assert set(states(halved).values()) == {outliers.CLEAN}
    drifted = outliers.judge_figure(
        FIGURE, partition([value * 0.5 for value in values]), 'higher')
    assert states(drifted) == states(level)
    for before, after in zip(level.results, drifted.results):
        assert after.ratio == pytest.approx(before.ratio)


def test_most_nodes_slow_alike_show_the_healthy_ones_as_fast():
    '''The rule names a minority: with 5 of 8 nodes slow alike the median
    is theirs, and the 3 healthy nodes show as fast, never alarmed.'''
    values = [500, 505, 495, 502, 498, 1000, 1010, 990]
    judged = outliers.judge_figure(FIGURE, partition(values), 'higher')
    assert list(states(judged).values()).count(outliers.SLOW) == 0
    assert list(states(judged).values()).count(outliers.FAST) == 3


def test_two_peers_are_too_few_and_say_so():
    judged = outliers.judge_figure(FIGURE, partition([1000, 1010, 420]),
                                   'higher')
    assert set(states(judged).values()) == {outliers.UNJUDGED}
    assert all(result.reason.startswith('2 peers, at least 3 needed')
               for result in judged.results)
    assert judged.skipped.startswith('vetting skipped: 2 peers, at least 3')
    assert by_node(judged)['mbnode3'].describe().startswith(
        'mbnode3: fio_cache_flags direct write unjudged (2 peers')


def test_three_peers_are_enough():
    judged = outliers.judge_figure(FIGURE, partition([1000, 1010, 990,
                                                      420]), 'higher')
    assert states(judged)['mbnode4'] == outliers.SLOW


def test_a_partition_of_one_node_is_skipped_saying_why():
    night = outliers.judge_night({FIGURE: ('higher', partition([1000]))})
    assert night.skipped_figures[FIGURE] == (
        'vetting skipped: 0 peers, at least 3 needed (vetting needs 4 '
        'nodes with the figure, 1 gave it)')
    assert night.nodes['mbnode1'].state == outliers.UNJUDGED
    assert night.skipped_nodes['mbnode1'].startswith(f'{FIGURE}: 0 peers')


def test_a_node_whose_job_failed_is_failed_not_slow_and_no_peer():
    nodes = partition([HEALTHY[0], 420, *HEALTHY[1:]])
    nodes['mbnode4'] = None
    judged = by_node(outliers.judge_figure(FIGURE, nodes, 'higher'))
    assert judged['mbnode4'].state == outliers.FAILED
    assert judged['mbnode4'].describe() == (
        'mbnode4: fio_cache_flags direct write failed (its job did not give '
        'the figure)')
    assert judged['mbnode2'].state == outliers.SLOW
    assert judged['mbnode2'].peers == 6
    assert judged['mbnode2'].describe().endswith('(7 nodes, MAD 0.03)')


def test_an_empty_list_and_an_absent_node_are_failed_too():
    nodes = partition(HEALTHY)
    nodes['mbnode3'] = []
    night = outliers.judge_night({FIGURE: ('higher', nodes)},
                                 partition=[*nodes, 'mbnode9'])
    assert night.named(outliers.FAILED) == ['mbnode3', 'mbnode9']
    assert night.named(outliers.SLOW) == []
    assert night.nodes['mbnode1'].results[0].peers == 5


def test_peers_without_spread_are_held_by_the_floor():
    '''Four identical peers (MAD 0, no sample spread): a 10 % or 20 % dip
    is within the floor's noise, a 30 % one is slow.'''
    for value, state in ((900, outliers.CLEAN), (800, outliers.CLEAN),
                         (700, outliers.SLOW)):
        nodes = {f'mbnode{index}': [1000.0] * 3 for index in range(1, 5)}
        nodes['mbnode5'] = [float(value)] * 3
        result = by_node(outliers.judge_figure(FIGURE, nodes,
                                               'higher'))['mbnode5']
        assert result.mad == 0 and math.isfinite(result.z)
        assert result.state == state, value


@pytest.mark.parametrize('value, state', [(860.0, outliers.CLEAN),
                                          (840.0, outliers.SLOW)])
def test_the_minimum_effect_holds_were_the_floor_lowered(monkeypatch, value,
                                                         state):
    '''With a floor of 1 %, 16 steady peers make 14 % worse far beyond
    the z threshold: the minimum effect (15 %) still keeps it clean.'''
    monkeypatch.setattr(outliers, 'FLOOR', 0.01)
    nodes = {f'mbnode{index}': [1000.0] * 3 for index in range(1, 17)}
    nodes['mbnode17'] = [value] * 3
    result = by_node(outliers.judge_figure(FIGURE, nodes,
                                           'higher'))['mbnode17']
    assert result.z < -outliers.Z_SLOW and result.state == state


def test_a_latency_is_slow_when_higher():
    nodes = partition([10.0, 10.2, 9.8, 10.1, 9.9, 10.0, 25.0, 4.0])
    judged = states(outliers.judge_figure('osu latency', nodes, 'lower',
                                          'us'))
    assert judged['mbnode7'] == outliers.SLOW
    assert judged['mbnode8'] == outliers.FAST
    flipped = states(outliers.judge_figure('osu latency', nodes, 'higher'))
    assert flipped['mbnode7'] == outliers.FAST
    assert flipped['mbnode8'] == outliers.SLOW


def test_a_noisy_node_is_judged_by_its_own_spread():
    '''A node whose own samples disagree by 60 % is not known well enough
    to be called slow at 0.6 of its peers.'''
    nodes = partition(HEALTHY)
    nodes['mbnode8'] = [300.0, 600.0, 1400.0]
    assert by_node(outliers.judge_figure(FIGURE, nodes, 'higher'))[
        'mbnode8'].state == outliers.CLEAN


def test_the_direction_of_a_unit():
    assert outliers.direction_of('MiB/s') == 'higher'
    assert outliers.direction_of('us') == 'lower'
    assert outliers.direction_of('x') is None


# -- garbage -----------------------------------------------------------------

@pytest.mark.parametrize('bad, says', [
    ([float('nan'), 1000.0], 'not finite'),
    ([float('inf')], 'not finite'),
    ([-5.0, 1000.0], 'not positive'),
    ([0, 1000.0], 'not positive'),
    (['fast', 1000.0], 'is not a number'),
    ([None, 1000.0], 'is not a number'),
    ([True, 1000.0], 'is not a number'),
    ('1000', 'are not numbers'),
    (object(), 'are not a list of numbers'),
    ([10 ** 400], 'too large'),
])
def test_garbage_samples_are_unjudged_with_a_reason(bad, says):
    nodes = partition(HEALTHY)
    nodes['mbnode8'] = bad
    judged = by_node(outliers.judge_figure(FIGURE, nodes, 'higher'))
    assert judged['mbnode8'].state == outliers.UNJUDGED
    assert says in judged['mbnode8'].reason
    assert judged['mbnode1'].peers == 6


def test_a_bare_number_is_one_sample():
    nodes = partition(HEALTHY)
    nodes['mbnode8'] = 420.0
    assert by_node(outliers.judge_figure(FIGURE, nodes, 'higher'))[
        'mbnode8'].state == outliers.SLOW


def test_a_node_named_twice_or_badly_is_unjudged_and_no_peer():
    pairs = [*partition(HEALTHY[:5]).items(), ('mbnode1', samples(420)),
             ('bad node; reboot', samples(1000)), (7, samples(1000))]
    judged = by_node(outliers.judge_figure(FIGURE, pairs, 'higher'))
    assert judged['mbnode1'].reason == 'named 2 times'
    assert 'is not a node name' in judged['bad node; reboot'].reason
    assert judged['7'].state == outliers.UNJUDGED
    assert judged['mbnode2'].peers == 3


@pytest.mark.parametrize('nodes, says', [
    ({}, 'no nodes'), (None, 'not a mapping'), ('mbnode1', 'not a mapping'),
    (42, 'not a mapping'), ([('mbnode1',)], 'not every entry'),
    ([([1], [1.0])], 'not a name'),
])
def test_no_partition_is_a_stated_skip(nodes, says):
    judged = outliers.judge_figure(FIGURE, nodes, 'higher')
    assert judged.results == () and says in judged.skipped


def test_an_unknown_direction_judges_no_node():
    judged = outliers.judge_figure(FIGURE, partition(HEALTHY), 'sideways')
    assert set(states(judged).values()) == {outliers.UNJUDGED}
    assert 'neither higher nor lower' in judged.skipped


def test_a_night_of_garbage_is_a_stated_result():
    night = outliers.judge_night({'a': 'higher', 'b': None,
                                  'c': ('higher', None)})
    assert set(night.skipped_figures) == {'a', 'b', 'c'}
    assert night.nodes == {}
    assert outliers.judge_night('not figures').skipped_figures


SAMPLE = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.integers(), st.none(), st.booleans(), st.text(
                       max_size=3))
SAMPLES = st.one_of(st.none(), SAMPLE, st.lists(SAMPLE, max_size=4),
                    st.lists(st.floats(0.1, 1e6), min_size=1, max_size=4))
NODES = st.dictionaries(st.one_of(st.from_regex(r'mbnode[0-9]{1,2}',
                                                fullmatch=True),
                                  st.text(max_size=4)),
                        SAMPLES, max_size=10)


@settings(max_examples=300, deadline=None)
@given(NODES, st.sampled_from(['higher', 'lower', 'up', None]))
def test_any_input_is_a_stated_result(nodes, direction):
    judged = outliers.judge_figure(FIGURE, nodes, direction)
    assert len(judged.results) == len(nodes)
    for result in judged.results:
        assert result.state in outliers.NODE_STATES
        assert result.describe()
        if result.state == outliers.UNJUDGED:
            assert result.reason
        if result.state in (outliers.SLOW, outliers.FAST, outliers.CLEAN):
            assert result.peers >= outliers.MIN_PEERS
            assert math.isfinite(result.z)
    night = outliers.judge_night({FIGURE: (direction, nodes)})
    assert len(night.nodes) == len({str(node) for node in nodes})


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(1.0, 1e5), min_size=4, max_size=12),
       st.floats(0.01, 100.0))
def test_a_drift_on_every_node_changes_no_state(values, drift):
    before = outliers.judge_figure(FIGURE, partition(values), 'higher')
    after = outliers.judge_figure(
        FIGURE, partition([value * drift for value in values]), 'higher')
    for old, new in zip(before.results, after.results):
        assert new.state == old.state or abs(abs(old.z) - outliers.Z_SLOW) \
            < 1e-6 or abs(abs(1 - old.ratio) - outliers.MIN_EFFECT) < 1e-6


# -- a night, and the node's earlier nights -----------------------------------

def test_a_night_names_a_node_slow_in_any_figure_with_its_figures():
    first = partition([HEALTHY[0], 420, *HEALTHY[1:]])
    second = partition(HEALTHY + [1000])
    second['mbnode5'] = None
    night = outliers.judge_night({
        FIGURE: ('higher', first, 'MiB/s'),
        'fio_fallocate default write': ('higher', second, 'MiB/s')})
    assert night.named(outliers.SLOW) == ['mbnode2']
    assert night.nodes['mbnode2'].figures(outliers.SLOW) == [FIGURE]
    assert night.named(outliers.FAILED) == ['mbnode5']
    assert night.nodes['mbnode2'].describe().splitlines()[0] == \
        'mbnode2: slow'
    assert night.skipped_figures == {} and night.skipped_nodes == {}


@pytest.mark.parametrize('history, tonight, said', [
    ([], 'slow', 'slow tonight only'),
    (['clean', 'clean'], 'slow', 'slow tonight only'),
    (['clean', 'slow', 'slow'], 'slow', 'slow for 3 nights'),
    (['slow', 'failed', 'unjudged'], 'slow', 'slow for 2 nights'),
    (['slow', 'fast'], 'slow', 'slow tonight only'),
    (['slow'], 'clean', 'slow before, clean tonight'),
    (['slow', 'failed'], 'fast', 'slow before, fast tonight'),
    (['slow', 'clean'], 'clean', 'clean'),
    ([], 'failed', 'failed'),
    (['slow'], 'unjudged', 'unjudged'),
])
def test_the_nodes_earlier_nights_as_second_witness(history, tonight, said):
    assert outliers.persistence(history, tonight) == said


def test_an_unknown_state_is_refused():
    with pytest.raises(ValueError, match="'broken' is not a node state"):
        outliers.persistence(['broken'], 'slow')


# -- the drain command, printed never run -------------------------------------

def slow_result(figure=FIGURE):
    '''The slow result of mbnode2 at 0.42 in ``figure``.'''
    values = [HEALTHY[0], 420, *HEALTHY[1:]]
    return by_node(outliers.judge_figure(figure, partition(values),
                                         'higher'))['mbnode2']


def test_the_drain_commands():
    reason = outliers.drain_reason([slow_result()])
    assert reason == ('microbench vetting: fio_cache_flags direct write '
                      '0.42 of peers')
    assert outliers.drain_command('mbnode2', reason, 'slurm') == (
        'scontrol update nodename=mbnode2 state=drain reason="microbench '
        'vetting: fio_cache_flags direct write 0.42 of peers"')
    assert outliers.drain_command('mbnode2', reason, 'pbs') == (
        'pbsnodes -o mbnode2 -C "microbench vetting: fio_cache_flags direct '
        'write 0.42 of peers"')
    assert outliers.drain_command('mbnode2', reason, 'lsf').startswith(
        "no drain command is known for the scheduler 'lsf'")
    assert outliers.drain_reason([]) == ''


def test_a_drain_reason_cannot_reach_the_shell():
    figure = 'x"; reboot; echo $(id) `id` \\'
    command = outliers.drain_command(
        'mbnode2', outliers.drain_reason([slow_result(figure)]), 'slurm')
    words = shlex.split(command)
    assert words[:4] == ['scontrol', 'update', 'nodename=mbnode2',
                         'state=drain']
    assert len(words) == 5 and words[4].startswith('reason=')
    assert not set('"$`;\\') & set(words[4])


@pytest.mark.parametrize('node', ['mbnode2; reboot', '$(id)', 'mb node',
                                  'mbnode[1-4]', '-o', '', None, 'a' * 65])
def test_a_bad_node_name_is_refused(node):
    said = outliers.drain_command(node, 'slow', 'slurm')
    assert said.startswith('refused:') and 'scontrol' not in said
    with pytest.raises(ValueError, match='is not a node name'):
        outliers.check_node_name(node)
