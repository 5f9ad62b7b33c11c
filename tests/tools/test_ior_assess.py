'''The scaling sweep assessed (microbench/tools/ior/assess.py): a peak as a
share of the storage under it, a saturation point against the drives the
partition declares (n x t = k x d).'''

from types import SimpleNamespace

import pytest

import project
from microbench.tools.ior import assess


def partition(name):
    '''The partition ``name`` of systems/, as the checks see it.'''
    system, part = name.split(':')
    for entry in project.site_configuration()['systems']:
        if entry['name'] == system:
            found, = (p for p in entry['partitions'] if p['name'] == part)
            return SimpleNamespace(extras=found.get('extras', {}),
                                   fullname=name)
    raise KeyError(name)


def test_a_declared_aggregate_is_the_peaks_limit():
    gpfs = partition('pbs_cluster:gpfs')
    name, value = assess.peak_limit(gpfs, 'write', 16)
    assert name == 'storage_aggregate_write_mib_s (declared)'
    assert value == gpfs.extras['storage_target']['aggregate_write_mib_s']


def test_else_the_one_node_limit_times_the_nodes():
    nvme = partition('slurm_cluster:nvme')
    name, value = assess.peak_limit(nvme, 'read', 4)
    assert name == ('storage_read_mib_s (declared, one node) x 4 nodes')
    assert value == 4 * nvme.extras['ceilings']['storage_read_mib_s']


def test_the_drives_say_where_saturation_should_be():
    gpfs = partition('pbs_cluster:gpfs')
    low, high, said = assess.expected_tasks(gpfs)
    assert (low, high) == (46 * 4, 46 * 8)
    assert said == ('n x t = k x d: 46 ssd drives x 4-8 per drive = '
                    '184..368 tasks')
    assert 'within the expected span' in assess.saturation_note(
        'write', 256, (low, high, said), 512)
    early = assess.saturation_note('write', 32, (low, high, said), 512)
    assert '5.75x fewer tasks than the least expected' in early
    assert 'still growing' in assess.saturation_note(
        'write', 64, (low, high, said), 64)
    assert '1.39x more tasks' in assess.saturation_note(
        'read', 512, (low, high, said), 512)


def test_no_drives_no_expectation():
    assert assess.expected_tasks(partition('local:default')) is None


def test_an_unknown_drive_type_is_an_error():
    odd = SimpleNamespace(extras={'storage_target': {
        'drives': {'count': 4, 'type': 'tape'}}}, fullname='x:y')
    with pytest.raises(ValueError, match="drive type 'tape'"):
        assess.expected_tasks(odd)
