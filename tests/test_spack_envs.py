'''spack_envs/: the version-locked Spack environments and their locks.

Spack is absent where these run: everything is read from the YAML and JSON
files, except by the last two tests, which run when a ``spack`` of the pinned
release is on PATH.
'''

import json
import os
import re
import shutil
import signal
import subprocess

import pytest
import yaml

import suite

ENVS_DIR = os.path.join(suite.ROOT, 'spack_envs')
PINS = os.path.join(ENVS_DIR, 'common', 'pins.yaml')
#: Environments bound to no facility partition (one folder deep)
NAMED = {'local', 'paper-2020'}
#: What the common pins must cover: every benchmark of the suite, the
#: libfabric fabtests must match, and an MPI
BENCHMARKS = {'fio', 'ior', 'osu-micro-benchmarks', 'fabtests', 'libfabric',
              'elbencho', 'darshan-runtime', 'darshan-util', 'py-darshan'}
MPIS = {'mpich', 'openmpi'}
#: A concretization that takes longer has hit an impossible spec
CONCRETIZE_TIMEOUT_S = 600


def _yaml(path):
    with open(path) as fp:
        return yaml.safe_load(fp)


def environments():
    '''Every folder of spack_envs/ holding a spack.yaml, by its path relative
    to spack_envs/ ('local', 'slurm_cluster/nvme').'''
    found = []
    for folder, dirs, files in os.walk(ENVS_DIR):
        dirs[:] = [d for d in dirs if d != '.spack-env']  # views, builds
        if 'spack.yaml' in files:
            found.append(os.path.relpath(folder, ENVS_DIR))

    return sorted(found)


ENVS = environments()
CHECKOUT = _yaml(os.path.join(ENVS_DIR, 'checkout-versions.yaml'))


def manifest(env):
    return _yaml(os.path.join(ENVS_DIR, env, 'spack.yaml'))['spack']


def includes(env):
    '''Absolute paths of the files an environment includes, in order.'''
    entries = manifest(env).get('include', [])
    return [os.path.normpath(os.path.join(
                ENVS_DIR, env, e['path'] if isinstance(e, dict) else e))
            for e in entries]


def packages(env):
    '''The ``packages`` configuration of an environment as Spack merges it:
    its own section over the included files, an earlier include over a later
    one (each key of a package's entry replaced, not merged).'''
    layers = [manifest(env).get('packages', {})]
    layers += [(_yaml(path) or {}).get('packages', {}) for path in includes(env)]
    merged = {}
    for layer in reversed(layers):
        for name, conf in layer.items():
            merged.setdefault(name, {}).update(conf or {})

    return merged


def exact_version(requirement):
    '''``'3.33'`` for ``'@=3.33'``; None for anything else.'''
    match = re.fullmatch(r'@=(\S+)', str(requirement).strip())
    return match.group(1) if match else None


def pins(env=None):
    '''{package: exact version} of an environment, or of common/pins.yaml.'''
    conf = packages(env) if env else _yaml(PINS)['packages']
    return {name: exact_version(c['require'])
            for name, c in conf.items()
            if 'require' in c and exact_version(c['require'])}


def spec_name(spec):
    return re.match(r'[A-Za-z0-9_-]+', spec.strip()).group()


def lock(env):
    with open(os.path.join(ENVS_DIR, env, 'spack.lock')) as fp:
        return json.load(fp)


def facility_folders():
    return {name.replace(':', '/') for name in suite.facility_partitions()}


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
            f'needs libfabric of the same version, not {env_pins["libfabric"]}')


def test_every_benchmark_a_check_launches_is_pinned():
    tools = _yaml(os.path.join(ENVS_DIR, 'tools.yaml'))
    common = pins()
    launched = suite.launched_executables()
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
        f'facility partitions without an environment: {sorted(facility - bound)}')
    assert bound - facility == set(), (
        f'environments of no partition of systems/: {sorted(bound - facility)}')
    assert named == NAMED, f'unexpected environments: {sorted(named - NAMED)}'


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
            version = re.match(r'[\w-]+@=?([\w.-]+)', external['spec']).group(1)
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
    return subprocess.run(['git', '-C', suite.ROOT, *args],
                          capture_output=True, text=True)


def _last_change(path):
    '''The commit that last changed ``path``, or None if the working tree
    changes it (uncommitted: newer than any commit).'''
    if _git('status', '--porcelain', '--', path).stdout.strip():
        return None

    return _git('log', '-1', '--format=%H', '--', path).stdout.strip()


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
        assert not stale, (
            f'{env}: {os.path.relpath(path, suite.ROOT)} changed after '
            f'spack.lock: re-concretize it')


# -- with Spack -------------------------------------------------------------

def _spack_version():
    out = subprocess.run(['spack', '--version'], capture_output=True,
                         text=True, timeout=120).stdout
    return out.split()[0] if out.split() else ''


def _require_pinned_spack():
    pinned = CHECKOUT['spack']['version']
    if _spack_version() != pinned:
        pytest.skip(f'spack on PATH is not the pinned {pinned}')


NO_SPACK = pytest.mark.skipif(shutil.which('spack') is None,
                              reason='no spack executable on PATH')


@NO_SPACK
def test_every_pin_is_a_version_its_recipe_declares():
    _require_pinned_spack()
    wanted = {}
    for env in [None, *ENVS]:
        for name, version in pins(env).items():
            wanted.setdefault(name, set()).add(version)

    for name, versions in sorted(wanted.items()):
        # only the versions the recipe declares with a checksum
        out = subprocess.run(['spack', 'versions', '--safe', name],
                             capture_output=True, text=True, timeout=300,
                             env=dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1'))
        declared = set(out.stdout.split())
        assert versions <= declared, (
            f'{name}@={sorted(versions - declared)} is not declared by its '
            f'recipe ({sorted(declared)})')


@NO_SPACK
@pytest.mark.parametrize('env', ENVS)
def test_environment_concretizes_to_its_lock(env, tmp_path):
    _require_pinned_spack()
    copy = tmp_path / 'spack_envs'
    shutil.copytree(ENVS_DIR, copy,
                    ignore=shutil.ignore_patterns('spack.lock', '.spack-env'))
    environ = dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1')
    proc = subprocess.Popen(['spack', '-e', str(copy / env), 'concretize',
                             '--force'], env=environ, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=CONCRETIZE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f'{env}: no solution within {CONCRETIZE_TIMEOUT_S} s')

    assert proc.returncode == 0, output[-3000:]
    with open(copy / env / 'spack.lock') as fp:
        fresh = json.load(fp)

    def roots(data):
        return sorted((r['spec'], data['concrete_specs'][r['hash']]['version'])
                      for r in data['roots'])

    assert roots(fresh) == roots(lock(env))
