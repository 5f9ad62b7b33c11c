'''IOR's residency witness (microbench.tools.ior.residency): the phases of
a witness split, the files each node reads under -C and -Q, and the
agreement with Darshan, disagreement held to a failure.'''

import shutil

import pytest

import fixtures
from microbench.suite import darshan, dxt, residency
from microbench.tools.ior import command
from microbench.tools.ior import residency as ior_residency


def asked(shape='easy', defence='reorder_fsync', nodes=2, per_node=2):
    options = (('-M', '50%') if defence == 'memory'
               else command.DEFENCES[defence])
    return command.build('ior', command.shape_options(shape, '1g', 100),
                         options, 1, nodes, per_node, summary=False).asked


def test_the_witness_splits_ior_at_its_phase_boundary():
    run = command.build('ior', command.shape_options('easy', '1g', 100),
                        command.DEFENCES['reorder_fsync'], 1, 2, 2,
                        summary=False)
    write, read = ior_residency.phases(run.argv)
    status = ('-O', f'stoneWallingStatusFile={command.STATUS_FILE}')
    assert write == ('ior', '-w', '-k', *run.argv[3:], *status)
    assert read == ('ior', '-r', '-k', *run.argv[3:], *status)
    with pytest.raises(ValueError, match='no phase boundary'):
        ior_residency.phases(write)


def test_a_write_not_stonewalled_passes_no_count_to_its_read():
    '''An audit's user form (no -D, no wear-out): IOR refuses a
    stonewall status file without a wear-out (IOR 4.0.0, ior.c:1458:
    "the StoneWallingStatusFile is only sensible for a write test when
    using stoneWallingWearOut").'''
    argv = ('ior', '-w', '-r', '-t', '1m', '-b', '16m', '-F', '-o', 'f')
    write, read = ior_residency.phases(argv)
    assert write == ('ior', '-w', '-k', *argv[3:])
    assert read == ('ior', '-r', '-k', *argv[3:])
    worn_off = (*argv, '-O', 'stoneWallingWearOut=0')
    assert ior_residency.phases(worn_off)[0] == ('ior', '-w', '-k',
                                                 *worn_off[3:])


@pytest.mark.parametrize('nodes, per_node, defence, node0, node1', [
    # -C -Q 1: each node reads the next node's files
    (2, 2, 'reorder_fsync', ['testfile.00000002', 'testfile.00000003'],
     ['testfile.00000000', 'testfile.00000001']),
    # no -C: every rank reads its own file
    (2, 2, 'fsync', ['testfile.00000000', 'testfile.00000001'],
     ['testfile.00000002', 'testfile.00000003']),
])
def test_the_files_a_node_reads(nodes, per_node, defence, node0, node1):
    reads = ior_residency.reads(asked('easy', defence, nodes, per_node))
    assert (reads(0), reads(1)) == (node0, node1)


def test_on_one_node_a_shift_of_one_node_wraps_to_its_own_files():
    reads = ior_residency.reads(asked('easy', 'reorder', 1, 2))
    assert reads(0) == ['testfile.00000000', 'testfile.00000001']


def test_a_shared_file_is_read_by_every_node():
    reads = ior_residency.reads(asked('hard', 'reorder', 3, 2))
    assert reads(0) == reads(2) == ['testfile']


def seen(share):
    return residency.Seen({'n1': (int(share * 1000) * 4096, 1000 * 4096)})


ORIGINS = dict.fromkeys(('same rank', 'same node', 'other node',
                         'unwritten'), 0)


@pytest.mark.parametrize('origin, defence, shared, share', [
    # read back what the node wrote through its page cache: resident
    ('same rank', 'none', None, 1.0),
    ('same node', 'reorder', None, 0.97),
    # another node's data, another kernel: not resident
    ('other node', 'reorder_fsync', None, 0.0),
    # another node of the same kernel: resident
    ('other node', 'reorder_fsync', 'one kernel', 1.0),
    # written with O_DIRECT: nothing to find
    ('same rank', 'odirect', None, 0.0),
    # IOR's memory hog evicted what Darshan expects: allowed
    ('same rank', 'memory', None, 0.0),
])
def test_the_witnesses_agree(origin, defence, shared, share):
    origins = {**ORIGINS, origin: 1 << 30}
    assert ior_residency.agreement(seen(share), origins, asked('easy',
                                   defence), shared) is None


@pytest.mark.parametrize('origin, defence, shared, share', [
    # fincore finds resident what Darshan says another kernel wrote
    ('other node', 'reorder_fsync', None, 1.0),
    # Darshan says the node wrote it buffered; nothing was resident
    ('same rank', 'fsync', None, 0.0),
    # O_DIRECT writes, yet resident
    ('same rank', 'odirect', None, 0.5),
])
def test_a_disagreement_fails(origin, defence, shared, share):
    origins = {**ORIGINS, origin: 1 << 30}
    said = ior_residency.agreement(seen(share), origins, asked('easy',
                                   defence), shared)
    assert said.startswith('the residency witness and Darshan disagree: '
                           f'fincore found {100 * share:.1f} %')


def test_a_witness_not_judged_is_not_held_to_darshan():
    unjudged = residency.Seen({'n1': (4096, 4096)}, judged=False)
    origins = {**ORIGINS, 'other node': 1 << 30}
    assert ior_residency.agreement(unjudged, origins, asked(), None) is None
    assert ior_residency.agreement(None, origins, asked(), None) is None


#: The scratch directory of the real runs on the Slurm test cluster
SLURM_SCRATCH = ('/tmp/slurm_ior/stage/slurm_testbed/shared/builtin/'
                 'ior_page_cache_rounds_53ce8212/scratch/'
                 'ior_page_cache_rounds_1a1db56d.GqBjPU')


def slurm_witness(variant):
    '''The real residency witness of ``variant`` on the test cluster's two
    nodes (2 tasks each), as :func:`.residency.seen` judges it.'''
    shape, defence = variant.split('.')
    found = residency.parse_nodes(
        fixtures.text(f'residency/ior-slurm-2nodes-{variant}.txt'), 2)
    return residency.seen(found, ior_residency.reads(asked(shape, defence)),
                          shared=shape == 'hard', one_kernel=True)


def test_two_nodes_of_one_kernel_hold_what_the_other_wrote(tmp_path):
    found = slurm_witness('easy.reorder_fsync')
    assert set(found.shares) == {'mbnode1', 'mbnode2'}
    assert found.resident and found.largest == 1.0
    # Darshan's real DXT of the same variant: every read got the other
    # node's data, which the nodes' one kernel holds: they agree
    shutil.copy(fixtures.path('residency/ior-slurm-2nodes-easy.'
                              'reorder_fsync.darshan'), tmp_path)
    origins = dxt.read_origins(darshan.read_logs(str(tmp_path)),
                                   SLURM_SCRATCH)
    assert origins['other node'] == sum(origins.values())
    kernel = "the job's 2 nodes share one kernel (one boot id)"
    assert ior_residency.agreement(found, origins, asked(), kernel) is None
    # Told the nodes are two kernels, the two witnesses disagree: fincore
    # holds what Darshan says another kernel wrote
    said = ior_residency.agreement(found, origins, asked(), None)
    assert said.startswith('the residency witness and Darshan disagree')


def test_o_direct_left_nothing_on_either_node():
    found = slurm_witness('easy.odirect')
    assert set(found.shares) == {'mbnode1', 'mbnode2'}
    assert found.largest == 0.0


def test_a_shared_file_of_one_kernel_is_judged():
    found = slurm_witness('hard.none')
    assert found.judged and found.largest == 1.0
