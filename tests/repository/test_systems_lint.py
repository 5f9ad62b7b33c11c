'''systems/ and reference files agree with each other and with the checks.'''

import re
import socket

import pytest

import project
from microbench.suite import limits, memory, reduction

CHECKS = project.check_classes()
PARTITIONS = project.partitions()
FACILITY = project.facility_partitions()


def test_there_are_example_facility_systems_with_different_launchers():
    systems = {name.split(':')[0] for name in FACILITY}
    launchers = {p['launcher'] for p in FACILITY.values()}
    assert len(systems) >= 2
    assert len(launchers) >= 2


def test_local_is_the_catch_all_default_and_matched_last():
    systems = project.site_configuration()['systems']
    assert systems[-1]['name'] == 'local'
    assert systems[-1]['hostnames'] == ['.*']
    host = socket.gethostname()
    for system in systems[:-1]:
        assert not any(re.match(p, host) for p in system['hostnames']), (
            f'{system["name"]} claims this machine ({host})'
        )


@pytest.mark.parametrize('name', sorted(PARTITIONS))
def test_benchmarks_never_run_side_by_side(name):
    assert PARTITIONS[name].get('max_jobs') == 1


@pytest.mark.parametrize('name', sorted(FACILITY))
def test_facility_partitions_name_scratch_and_ceilings(name):
    extras = FACILITY[name]['extras']
    assert extras['scratch'].startswith('/')
    assert extras['ceilings']['storage_write_mib_s'] > 0


@pytest.mark.parametrize('name', sorted(FACILITY))
def test_network_partitions_declare_their_nic(name):
    extras = FACILITY[name]['extras']
    if 'network' not in FACILITY[name]['features']:
        return

    assert extras['ceilings']['network_bandwidth_mib_s'] > 0
    assert extras['floors']['network_latency_us'] > 0
    assert extras['floors']['network_rtt_us'] > 0


@pytest.mark.parametrize('name', sorted(PARTITIONS))
def test_limits_are_spelled_as_the_checks_read_them(name):
    extras = PARTITIONS[name].get('extras', {})
    for kind in ('ceilings', 'floors'):
        for limit in extras.get(kind, {}):
            assert limits.LIMITS.get(limit, ('',))[0] == kind, (
                f'{name}: {kind}.{limit} is no limit the checks know '
                f'({sorted(limits.LIMITS)})'
            )


@pytest.mark.parametrize('name', sorted(PARTITIONS))
def test_reducing_scratches_are_spelled_as_the_checks_read_them(name):
    '''A partition's ``extras.reduces_data`` names what its scratch reduces
    data by; a misspelt mechanism would silently leave the gap's direction
    unchecked.'''
    reduces = PARTITIONS[name].get('extras', {}).get('reduces_data', [])
    assert isinstance(reduces, list), f'{name}: reduces_data is no list'
    assert set(reduces) <= set(reduction.MECHANISMS), (
        f'{name}: reduces_data {reduces}, the checks know '
        f'{reduction.MECHANISMS}')


@pytest.mark.parametrize('name', sorted(PARTITIONS))
def test_client_caches_are_sizes(name):
    '''A partition's ``extras.client_cache`` is a size the checks read
    (``'32GiB'``, ``'32g'``, bytes): every storage figure there records
    its data over it (microbench/suite/memory.py).'''
    extras = PARTITIONS[name].get('extras', {})
    try:
        memory.client_cache(extras)
    except ValueError as err:
        pytest.fail(f'{name}: {err}')


def test_an_example_partition_declares_a_client_cache():
    assert any(memory.client_cache(part['extras'])
               for part in FACILITY.values())


def test_an_example_partition_declares_a_reducing_scratch():
    assert any(part['extras'].get('reduces_data')
               for part in FACILITY.values())


def test_every_check_uses_external_references():
    for name, cls in CHECKS.items():
        assert project.reference_file(cls), f'{name} has no $ref references'


def _entries():
    '''(check name, class, its references) for every check.'''
    for name, cls in CHECKS.items():
        refs = project.load_references(project.reference_file(cls))
        yield name, cls, refs.get(name, {})


def _by_partition(cls, entry):
    '''{partition: {variant (a tuple of knob values, () for a gap check):
    {figure: reference}}}'''
    entry = {k: v for k, v in entry.items() if k != '$index'}
    depth = (len(project.knobs(cls))
             if issubclass(cls, project.VariantCheck) else 0)

    def flatten(tree, level):
        if level == depth:
            return {(): tree}

        return {(key, *rest): figs for key, sub in tree.items()
                for rest, figs in flatten(sub, level + 1).items()}

    return {part: flatten(tree, 0) for part, tree in entry.items()}


def test_reference_keys_name_existing_partitions():
    for name, cls, entry in _entries():
        for part in _by_partition(cls, entry):
            assert part in PARTITIONS, (
                f'references of {name} name {part!r}, which is no partition '
                f'of systems/ ({sorted(PARTITIONS)})'
            )
            assert part in project.valid_partitions(cls), (
                f'references of {name} name {part!r}, where it does not run'
            )


def test_network_checks_run_once_per_facility_system():
    for name, cls in CHECKS.items():
        if 'network' not in str(cls.var_space['valid_systems'].default_value):
            continue

        systems = [p.split(':')[0] for p in project.valid_partitions(cls)
                   if p in FACILITY]
        assert sorted(systems) == sorted(set(systems)), name
        assert set(systems) == {p.split(':')[0] for p in FACILITY}, name


def test_every_check_has_references_on_every_facility_partition():
    for name, cls, entry in _entries():
        by_part = _by_partition(cls, entry)
        if issubclass(cls, project.VariantCheck):
            assert entry.get('$index') == ['$partition', *project.knobs(cls)]
            variants = project.variants(cls)
        else:
            variants = {()}

        for part in sorted(set(FACILITY) & project.valid_partitions(cls)):
            assert part in by_part, f'{name} has no references on {part}'
            assert set(by_part[part]) == variants, (
                f'{name} on {part}: references for {set(by_part[part])}, '
                f'variants are {variants}'
            )
            for variant, figs in by_part[part].items():
                assert figs, f'{name} {variant} on {part}: no figure'
                if issubclass(cls, project.GapCheck):
                    assert set(figs) == set(cls.gaps), (
                        f'{name} on {part}: every gap needs a reference'
                    )


def test_reference_figures_exist_and_units_match():
    for name, cls, entry in _entries():
        known = project.figures(cls)
        for part, variants in _by_partition(cls, entry).items():
            for figs in variants.values():
                for fig, (value, lower, upper, unit) in figs.items():
                    where = f'{name} on {part}: {fig}'
                    assert fig in known, f'{where} is not a figure of {name}'
                    assert unit == known[fig], f'{where}: unit {unit}'
                    assert value > 0, where
                    assert lower is None or -1 <= lower <= 0, where
                    assert upper is None or upper >= 0, where


@pytest.mark.parametrize('part', sorted(
    name for name in PARTITIONS if name.split(':')[0] in project.THIS_MACHINE))
def test_this_machine_checks_only_gap_directions(part):
    for name, cls, entry in _entries():
        local = _by_partition(cls, entry).get(part, {})
        if issubclass(cls, project.VariantCheck):
            assert not local, f'{name}: no fixed references on {part}'

        for figs in local.values():
            for fig, ref in figs.items():
                assert ref[:3] in ([1.0, 0, None], [1.0, None, 0]), (
                    f'{name}: {part} {fig} must be a direction (> 1 or < 1)'
                )


def test_the_test_cluster_checks_what_the_local_default_checks():
    '''The same machine: the same directions, except OSU's (over TCP
    between namespaces the hot-buffer effect goes either way).'''
    for name, cls, entry in _entries():
        by_part = _by_partition(cls, entry)
        local = None if name.startswith('osu_') else by_part.get(
            'local:default')
        for part in project.valid_partitions(cls):
            if part.startswith('slurm_testbed:'):
                assert by_part.get(part) == local, f'{name} on {part}'


@pytest.mark.parametrize('name', sorted(
    name for name, part in PARTITIONS.items()
    if part['scheduler'] in ('slurm', 'squeue')))
def test_slurm_cancels_jobs_no_wait_starts(name):
    '''A job whose nodes are all drained, or over the partition's MaxTime,
    fails saying why instead of pending for ever (seen on slurm_testbed).'''
    reasons = PARTITIONS[name]['sched_options']['slurm_job_cancel_reasons']
    assert {'Nodes required for job are DOWN', 'PartitionTimeLimit',
            'ReqNodeNotAvail'} <= set(reasons)
