'''The page-cache residency witness (microbench.suite.residency): the
node's script (residency.sh) run for real on files in known states, its
output held to itself, the threshold's edges, a node without fincore, and
what a read's figure becomes.'''

import os
import shutil
import subprocess

import pytest

from microbench import paths
from microbench.suite import residency
from microbench.suite.output import OutputError
from microbench.units import MIB

from page_cache import write_direct, write_dropped

needs_fincore = pytest.mark.skipif(shutil.which('fincore') is None,
                                   reason='fincore is missing (util-linux)')


def witness(directory, env=None):
    '''What residency.sh prints on this node over ``directory``.'''
    done = subprocess.run(['bash', paths.RESIDENCY, str(directory)],
                          capture_output=True, text=True, check=True,
                          env=env)
    return done.stdout


def share_of(directory):
    nodes = residency.parse_nodes(witness(directory), 1)
    found = residency.seen(nodes, lambda index: [
        name.rsplit('/', 1)[-1] for name in nodes[index].files])
    ((resident, size),) = found.shares.values()
    return resident / size, found


@needs_fincore
def test_a_file_written_and_kept_is_resident(tmp_path):
    with open(tmp_path / 'kept', 'wb') as fp:
        fp.write(os.urandom(8 * MIB))

    share, found = share_of(tmp_path)
    assert share == 1.0 and found.resident


@needs_fincore
def test_a_file_written_with_o_direct_is_not(tmp_path):
    write_direct(tmp_path / 'direct')
    share, found = share_of(tmp_path)
    assert share == 0.0 and not found.resident


@needs_fincore
def test_a_file_whose_pages_were_dropped_is_not(tmp_path):
    write_dropped(str(tmp_path / 'dropped'))
    share, found = share_of(tmp_path)
    assert share == 0.0 and not found.resident


@needs_fincore
def test_half_a_file_resident_is_half(tmp_path):
    write_dropped(str(tmp_path / 'half'), dropped=4 * MIB)
    share, _ = share_of(tmp_path)
    assert share == pytest.approx(0.5, abs=0.01)


def test_a_node_without_fincore_says_so(tmp_path):
    (tmp_path / 'file').write_bytes(b'x' * 4096)
    bare = tmp_path / 'bin'
    bare.mkdir()
    for program in ('find', 'awk', 'hostname', 'bash'):
        os.symlink(shutil.which(program), bare / program)
    text = witness(tmp_path, env={'PATH': str(bare)})
    assert text.endswith('missing fincore\n')
    nodes = residency.parse_nodes(text, 1)
    assert nodes[0].missing
    assert residency.seen(nodes, lambda index: ['file']) is None


class Check:
    '''What residency.judge reads and writes of a variant check.'''

    def __init__(self, cached=()):
        self.witness, self.note, self.resident_share = '', '', ''
        self.measures = 'storage'
        self.cached = set(cached)

    def demote_seen(self, name, seen, consequence):
        if name in self.cached:
            self.note += f'; {seen}'
        else:
            self.note = f'{seen}: {consequence}'
            self.cached.add(name)


def seen_at(share, size=100 * 4096):
    return residency.Seen({'node1': (round(share * size), size)})


@pytest.mark.parametrize('share, demoted', [
    (0.0, False), (residency.THRESHOLD, False),
    (residency.THRESHOLD + 0.01, True), (1.0, True)])
def test_the_thresholds_edges(share, demoted):
    check = Check()
    residency.judge(check, 'read', seen_at(share))
    assert ('read' in check.cached) is demoted
    assert check.measures == ('page cache' if demoted else 'storage')
    assert check.resident_share == f'read={100 * share:.1f}'
    if demoted:
        assert 'was in the page cache before it' in check.note


def test_an_o_direct_read_is_recorded_not_judged():
    check = Check()
    residency.judge(check, 'read', seen_at(1.0), direct=True)
    assert not check.cached and check.note == ''
    assert 'O_DIRECT' in check.witness and check.resident_share == \
        'read=100.0'


def test_a_cache_figure_by_design_found_not_resident_says_so():
    check = Check()
    residency.judge(check, 'read', [seen_at(0.0), seen_at(0.01)],
                    by_design=True)
    assert check.resident_share == 'read=0.0,1.0'
    assert 'this cache figure read storage' in check.note


def test_one_sample_above_the_threshold_demotes():
    check = Check()
    residency.judge(check, 'read', [seen_at(0.0), seen_at(0.5),
                                    seen_at(0.0)])
    assert 'read' in check.cached
    assert 'the largest of 3 samples' in check.witness


def test_without_fincore_the_figure_keeps_its_judgement():
    check = Check()
    residency.judge(check, 'read', None)
    assert not check.cached and check.resident_share == ''
    assert 'fincore missing' in check.witness


def test_a_shared_file_on_several_kernels_is_not_judged():
    text = ('resident 0 a 409600 100 409600 /s/testfile\n'
            'resident 0 a files 1\n'
            'resident 1 b 0 0 409600 /s/testfile\nresident 1 b files 1\n')
    nodes = residency.parse_nodes(text, 2)
    found = residency.seen(nodes, lambda index: ['testfile'], shared=True,
                           one_kernel=False)
    assert not found.judged
    check = Check()
    residency.judge(check, 'read', found)
    assert not check.cached and 'not judged' in check.witness


@needs_fincore
def test_garbage_is_rejected(tmp_path):
    (tmp_path / 'a').write_bytes(os.urandom(4 * MIB))
    (tmp_path / 'b').write_bytes(os.urandom(4 * MIB))
    text = witness(tmp_path)
    rows = text.splitlines(keepends=True)
    cases = {
        'cut': ''.join(rows[:-1]),
        'a line dropped': ''.join(rows[1:]),
        'untagged': ''.join([rows[0].split(' ', 3)[3], *rows[1:]]),
        'another node': ''.join(rows).replace('resident 0 ', 'resident 1 '),
        'a node under two names': ''.join(
            [rows[0], rows[1].replace(rows[1].split()[2], 'elsewhere'),
             *rows[2:]]),
        'empty': '',
    }
    for what, bad in cases.items():
        with pytest.raises(OutputError):
            residency.parse_nodes(bad, 1)
            pytest.fail(what)


def test_every_node_must_answer():
    text = 'resident 0 a 0 0 4096 /s/f\nresident 0 a files 1\n'
    with pytest.raises(OutputError, match='not from each of the 2 nodes'):
        residency.parse_nodes(text, 2)


def test_a_file_the_read_needs_that_the_node_does_not_list():
    nodes = residency.parse_nodes(
        'resident 0 a 0 0 4096 /s/f\nresident 0 a files 1\n', 1)
    with pytest.raises(OutputError, match='lists no file g'):
        residency.seen(nodes, lambda index: ['g'])
