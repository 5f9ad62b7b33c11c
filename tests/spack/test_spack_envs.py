'''spack_envs/: the version-locked Spack environments and their locks.

Spack is absent where these run: everything is read from the YAML and JSON
files.  The project's package repository is tested by test_spack_repo.py,
and what needs a ``spack`` of the pinned release by
test_spack_envs_spack.py.
'''

import os
import re
import shutil
import subprocess

import pytest
import yaml

import project
from spack_manifests import (BENCHMARKS, CHECKOUT, CONCRETIZER, DEFAULTS,
                             ENVS, ENVS_DIR, MPIS, NAMED, PINS, _yaml,
                             exact_version, facility_folders, includes, lock,
                             manifest, packages, pins, spec_name)

# -- the manifests ----------------------------------------------------------

@pytest.mark.parametrize('env', ENVS)
def test_spack_yaml_parses_and_includes_the_common_pins(env):
    spec = manifest(env)
    assert isinstance(spec, dict) and spec.get('specs'), f'{env}: no specs'
    assert PINS in includes(env), f'{env} does not include common/pins.yaml'
    for path in includes(env):
        assert os.path.isfile(path), f'{env} includes missing {path}'
        assert isinstance(_yaml(path), dict), f'{env}: {path} is empty'


@pytest.mark.parametrize('env', ENVS)
def test_every_root_is_pinned_exactly(env):
    env_pins = pins(env)
    for root in manifest(env)['specs']:
        assert isinstance(root, str), f'{env}: root {root!r} is not a spec'
        assert '@' not in root or '@=' in root, (
            f'{env}: root {root!r} names a version range, not a pin')
        assert '@=' in root or spec_name(root) in env_pins, (
            f'{env}: root {root!r} has no exact pin (@=x.y.z)')


def test_common_pins_are_exact_and_cover_every_benchmark_and_an_mpi():
    conf = _yaml(PINS)['packages']
    for name, c in conf.items():
        assert exact_version(c.get('require')), (
            f'common/pins.yaml: {name} is not pinned exactly (@=x.y.z): '
            f'{c.get("require")!r}')

    missing = BENCHMARKS - set(conf)
    assert not missing, f'common/pins.yaml does not pin {sorted(missing)}'
    assert MPIS & set(conf), 'common/pins.yaml pins no MPI'


def test_fabtests_and_libfabric_pins_match_in_every_environment():
    for env in [None, *ENVS]:
        env_pins = pins(env)
        assert env_pins['fabtests'] == env_pins['libfabric'], (
            f'{env or "common/pins.yaml"}: fabtests {env_pins["fabtests"]} '
            'needs libfabric of the same version, '
            f'not {env_pins["libfabric"]}')


def test_every_benchmark_a_check_launches_is_pinned():
    tools = _yaml(os.path.join(ENVS_DIR, 'tools.yaml'))
    common = pins()
    launched = project.launched_executables()
    assert launched, 'no rounds fixture found in reframe_tests/'
    for fixture, programs in launched.items():
        assert programs, f'{fixture} names no benchmark program'
        for program in programs:
            assert program in tools, (
                f'{fixture} launches {program!r}, which spack_envs/tools.yaml '
                f'does not map to a Spack package')

    for executable, package in tools.items():
        assert package in common, (
            f'{executable} comes from {package}, which common/pins.yaml '
            f'does not pin')


@pytest.mark.parametrize('env', ENVS)
def test_every_environment_keeps_its_view(env):
    # ReFrame puts spack_envs/<env>/.spack-env/view/bin on PATH
    assert manifest(env).get('view', True) is True, (
        f'{env}: the default view must stay enabled')


def test_every_facility_partition_has_its_environment_and_no_other():
    facility = facility_folders()
    named = {env for env in ENVS if '/' not in env}
    bound = {env for env in ENVS if '/' in env}
    assert facility - bound == set(), (
        'facility partitions without an environment: '
        f'{sorted(facility - bound)}')
    assert bound - facility == set(), (
        'environments of no partition of systems/: '
        f'{sorted(bound - facility)}')
    assert named == NAMED, f'unexpected environments: {sorted(named - NAMED)}'


#: darshan-runtime's `scheduler` variant (the environment variable Darshan
#: takes the job id from) for the scheduler of a partition in systems/.  The
#: variant's values are NONE, cobalt, pbs, sge and slurm; Torque, like PBS,
#: exports PBS_JOBID.
DARSHAN_SCHEDULER = {'slurm': 'slurm', 'pbs': 'pbs', 'torque': 'pbs'}


def darshan_scheduler(env):
    if env in NAMED:
        return 'NONE'

    partitions = project.facility_partitions()
    scheduler = partitions[env.replace('/', ':')]['scheduler']
    return DARSHAN_SCHEDULER[scheduler]


@pytest.mark.parametrize('env', ENVS)
def test_darshan_runtime_names_the_scheduler_of_its_partition(env):
    wanted = darshan_scheduler(env)
    roots = [r for r in manifest(env)['specs']
             if spec_name(r) == 'darshan-runtime']
    assert len(roots) == 1, f'{env}: no single darshan-runtime root'
    found = re.search(r'\bscheduler=(\w+)', roots[0])
    assert (found.group(1) if found else 'NONE') == wanted, (
        f'{env}: darshan-runtime must be built scheduler={wanted}: '
        f'{roots[0]!r}')
    for node in lock(env)['concrete_specs'].values():
        if node['name'] == 'darshan-runtime':
            assert node['parameters']['scheduler'] == wanted, (
                f'{env}: darshan-runtime in spack.lock has scheduler='
                f'{node["parameters"]["scheduler"]}, not {wanted}')


@pytest.mark.parametrize('env', ENVS)
def test_configuration_outside_spack_envs_cannot_enter_the_lock(env):
    # Spack's defaults under `packages::`, and the concretizer settings under
    # `concretizer::`: nothing of the site, system or user scopes reaches the
    # solve.  The defaults are the last include (the lowest of the
    # environment's scopes), so every other file overrides them.
    assert includes(env)[-1] == DEFAULTS, (
        f'{env}: common/packages-defaults.yaml must be its last include')
    assert CONCRETIZER in includes(env), f'{env}: no common/concretizer.yaml'
    assert set(_yaml(DEFAULTS)) == {'packages:'}, (
        'common/packages-defaults.yaml must set `packages::` only')
    assert set(_yaml(CONCRETIZER)) == {'concretizer:'}, (
        'common/concretizer.yaml must set `concretizer::` only')
    for path in [os.path.join(ENVS_DIR, env, 'spack.yaml'), *includes(env)]:
        conf = _yaml(path) or {}
        conf = conf.get('spack', conf)
        assert 'concretizer' not in conf, (
            f'{path}: `concretizer:` belongs in common/concretizer.yaml')


def test_packages_defaults_are_those_of_the_pinned_spack():
    spack_defaults = '/opt/spack/etc/spack/defaults/base/packages.yaml'
    if not os.path.isfile(spack_defaults):
        pytest.skip('no Spack at /opt/spack to compare the defaults with')
    assert _yaml(DEFAULTS)['packages:'] == _yaml(spack_defaults)['packages'], (
        "common/packages-defaults.yaml is not Spack's "
        'etc/spack/defaults/base/packages.yaml')


# -- the locks --------------------------------------------------------------

@pytest.mark.parametrize('env', ENVS)
def test_lock_has_the_roots_of_its_manifest(env):
    data = lock(env)
    roots = [r['spec'] for r in data['roots']]
    specs = manifest(env)['specs']
    assert sorted(roots) == sorted(specs), (
        f'{env}: spack.lock roots {sorted(roots)} are not the specs of its '
        f'spack.yaml {sorted(specs)}: re-concretize it')
    for r in data['roots']:
        assert r['hash'] in data['concrete_specs'], f'{env}: {r} not in lock'


@pytest.mark.parametrize('env', ENVS)
def test_lock_versions_are_the_pins(env):
    data, env_pins = lock(env), pins(env)
    nodes = data['concrete_specs'].values()
    for r in data['roots']:
        node = data['concrete_specs'][r['hash']]
        in_spec = re.search(r'@=([\w.-]+)', r['spec'])
        wanted = in_spec.group(1) if in_spec else env_pins.get(node['name'])
        assert node['version'] == wanted, (
            f'{env}: root {node["name"]} is {node["version"]} in spack.lock, '
            f'pinned {wanted}: the lock is stale, re-concretize it')

    for node in nodes:
        if node['name'] in env_pins:
            assert node['version'] == env_pins[node['name']], (
                f'{env}: {node["name"]} is {node["version"]} in spack.lock, '
                f'pinned {env_pins[node["name"]]}: the lock is stale')


@pytest.mark.parametrize('env', ENVS)
def test_lock_externals_are_those_of_the_manifest(env):
    data = lock(env)
    for name, conf in packages(env).items():
        for external in conf.get('externals', []):
            version = re.match(r'[\w-]+@=?([\w.-]+)',
                               external['spec']).group(1)
            for node in data['concrete_specs'].values():
                if node['name'] != name:
                    continue

                where = f'{env}: {name} in spack.lock'
                assert 'external' in node, f'{where} is not external'
                assert node['external']['path'] == external['prefix'], (
                    f'{where} is at {node["external"]["path"]}, the '
                    f'external at {external["prefix"]}: the lock is stale')
                assert node['version'] == version, (
                    f'{where} is {node["version"]}, the external {version}')


@pytest.mark.parametrize('env', ENVS)
def test_lock_target_is_explicit(env):
    target = packages(env).get('all', {}).get('target')
    assert target and len(target) == 1, (
        f'{env}: no explicit target (packages: all: target: [one])')
    for node in lock(env)['concrete_specs'].values():
        got = node['arch']['target']
        got = got['name'] if isinstance(got, dict) else got
        assert got == target[0], (
            f'{env}: {node["name"]} targets {got}, not {target[0]}')


@pytest.mark.parametrize('env', ENVS)
def test_lock_was_made_by_the_pinned_spack(env):
    made_by, pinned = lock(env)['spack'], CHECKOUT['spack']
    assert (made_by['version'], made_by.get('commit')) == (
        str(pinned['version']), str(pinned['commit'])), (
        f'{env}: spack.lock was made by Spack {made_by}, not the pinned '
        f'{pinned["version"]} ({pinned["commit"]}) of checkout-versions.yaml')


def _git(*args):
    return subprocess.run(['git', '-C', project.ROOT, *args],
                          capture_output=True, text=True)


def _last_change(path):
    '''The commit that last changed ``path``, or None if the working tree
    changes it (uncommitted: newer than any commit).'''
    if _git('status', '--porcelain', '--', path).stdout.strip():
        return None

    return _git('log', '-1', '--format=%H', '--', path).stdout.strip()


def _settings(path, commit=None):
    '''The YAML of ``path`` as Spack reads it (comments aside): in the
    working tree, or at ``commit`` (None where it did not exist).'''
    if commit is None:
        with open(path) as fp:
            return yaml.safe_load(fp)

    shown = _git('show', f'{commit}:{os.path.relpath(path, project.ROOT)}')
    return yaml.safe_load(shown.stdout) if shown.returncode == 0 else None


@pytest.mark.parametrize('env', ENVS)
def test_lock_is_newer_than_its_manifest_and_includes(env):
    if shutil.which('git') is None or _git('rev-parse').returncode != 0:
        pytest.skip('no git history here')
    if _git('rev-parse', '--is-shallow-repository').stdout.strip() == 'true':
        pytest.skip('shallow clone: the history of the files is cut')

    lock_change = _last_change(os.path.join(ENVS_DIR, env, 'spack.lock'))
    if lock_change is None:
        return  # the lock is being remade

    assert lock_change, f'{env}: spack.lock is not committed'
    for path in [os.path.join(ENVS_DIR, env, 'spack.yaml'), *includes(env)]:
        change = _last_change(path)
        stale = change is None or _git('merge-base', '--is-ancestor',
                                       change, lock_change).returncode != 0
        # what Spack reads of it is the same as when the lock was made
        # (a comment changed)
        stale = stale and _settings(path) != _settings(path, lock_change)
        assert not stale, (
            f'{env}: {os.path.relpath(path, project.ROOT)} changed after '
            f'spack.lock: re-concretize it')



# -- GPU partitions -----------------------------------------------------------

def _cuda_arch(spec):
    found = re.search(r'\bcuda_arch=(\w+)', spec)
    return found.group(1) if found else None


@pytest.mark.parametrize('env', sorted(facility_folders()))
def test_ior_is_built_with_cuda_exactly_on_gpu_partitions(env):
    '''IOR's GPU buffers (ior_gpu_buffer) need ior+cuda, built for the
    partition's GPUs against its CUDA external; elsewhere ior is built
    without CUDA.'''
    gpu = 'gpu' in project.facility_partitions()[env.replace('/', ':')][
        'features']
    (root,) = [r for r in manifest(env)['specs'] if spec_name(r) == 'ior']
    assert ('+cuda' in root) == gpu, f'{env}: {root!r}'
    (node,) = [n for n in lock(env)['concrete_specs'].values()
               if n['name'] == 'ior']
    if not gpu:
        assert not node['parameters'].get('cuda'), f'{env}: {node}'
        return

    arch = _cuda_arch(root)
    assert arch, f'{env}: {root!r} names no cuda_arch'
    params = node['parameters']
    assert params['cuda'] is True and params['cuda_arch'] == [arch], (
        f'{env}: ior in spack.lock is cuda={params.get("cuda")} '
        f'cuda_arch={params.get("cuda_arch")}: re-concretize it')
    assert node['namespace'] == 'microbench', (
        f'{env}: ior +cuda is the project repository\'s recipe')
    cuda = [lock(env)['concrete_specs'][d['hash']]
            for d in node['dependencies'] if d['name'] == 'cuda']
    assert len(cuda) == 1 and 'external' in cuda[0], (
        f'{env}: ior must link the CUDA toolkit of the nodes (an external)')
