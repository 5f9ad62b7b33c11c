'''spack_envs/: the version-locked Spack environments and their locks.

Spack is absent where these run: everything is read from the YAML, JSON and
Python files, except by the tests at the end, which run when a ``spack`` of the
pinned release is on PATH (and skip, with their reason, where it is not), and
by those that compare the project's recipes with a clone of their upstream
source where one is at hand.
'''

import ast
import glob
import hashlib
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
#: Spack's own package defaults under `packages::`: included last by every
#: environment, so that no site or user packages.yaml enters a lock
DEFAULTS = os.path.join(ENVS_DIR, 'common', 'packages-defaults.yaml')
CONCRETIZER = os.path.join(ENVS_DIR, 'common', 'concretizer.yaml')
#: The project's package repository (Spack 1.0, api v2)
REPO_DIR = os.path.join(ENVS_DIR, 'repo', 'spack_repo', 'microbench')
REPO_NAMESPACE = 'microbench'
#: Bare clones of the upstream sources, where the machine has them
MIRROR = '/work/.mirror'
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


def _packages_section(conf):
    '''The ``packages`` of a configuration file, also when written
    ``packages::`` (which YAML reads as the key ``packages:``).'''
    return conf.get('packages') or conf.get('packages:') or {}


def packages(env):
    '''The ``packages`` configuration of an environment as Spack merges it:
    its own section over the included files, an earlier include over a later
    one (each key of a package's entry replaced, not merged).'''
    layers = [manifest(env).get('packages', {})]
    layers += [_packages_section(_yaml(path) or {}) for path in includes(env)]
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
            'needs libfabric of the same version, '
            f'not {env_pins["libfabric"]}')


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

    scheduler = suite.facility_partitions()[env.replace('/', ':')]['scheduler']
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


# -- the project's package repository ----------------------------------------

#: What a package of the repository may do besides subclassing the builtin:
#: these directives, and the few things below
DIRECTIVES = {'version', 'patch', 'depends_on'}
#: Methods allowed, by package: fabtests @1.10.1 is a git checkout of
#: libfabric, built (autoreconf, configure, make) in its fabtests/ folder
SUBDIR_BUILD = {'fabtests': {'configure_directory'}}
#: Class attributes allowed, by package: Spack 1.0.2 fetches a version that
#: names a commit only from the package's `git` attribute
CLASS_ATTRIBUTES = {'fabtests': {'git'}}
#: Module statements allowed after the class, by package: Spack 1.0 has no
#: directive that drops an inherited one, so ior removes the builtin's
#: unconditional +lustre patch (declared again `when="+lustre @:3"`)
AFTER_CLASS = {'ior': ["del Ior.patches[Spec('+lustre')]"]}


def repo_packages():
    return sorted(os.path.basename(os.path.dirname(p)) for p in
                  glob.glob(os.path.join(REPO_DIR, 'packages', '*',
                                         'package.py')))


def class_name(package):
    return ''.join(w.capitalize() for w in re.split(r'[-_]', package))


def _statements(body):
    '''The statements of a class body, through `with when(...):` blocks.'''
    for stmt in body:
        if isinstance(stmt, ast.With):
            (item,) = stmt.items
            call = item.context_expr
            assert isinstance(call, ast.Call) and \
                getattr(call.func, 'id', None) == 'when', ast.unparse(stmt)
            yield from _statements(stmt.body)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            yield stmt.value
        else:
            yield stmt


def _parse(package):
    path = os.path.join(REPO_DIR, 'packages', package, 'package.py')
    with open(path) as fp:
        tree = ast.parse(fp.read())
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert len(classes) == 1, f'{path}: not one class'
    return path, tree, classes[0]


def _directives(package, name):
    path, _, cls = _parse(package)
    return path, [s for s in _statements(cls.body)
                  if isinstance(s, ast.Call) and
                  getattr(s.func, 'id', None) == name]


def _kwargs(call):
    return {k.arg: ast.literal_eval(k.value) for k in call.keywords}


def test_repository_is_the_microbench_api_v2_repository():
    conf = _yaml(os.path.join(REPO_DIR, 'repo.yaml'))['repo']
    assert conf['namespace'] == REPO_NAMESPACE
    assert str(conf['api']).startswith('v2.'), conf
    # Spack 1.0's layout: spack_repo/<namespace>/packages/<name>/package.py
    assert os.path.basename(os.path.dirname(REPO_DIR)) == 'spack_repo'
    assert repo_packages() == ['fabtests', 'fio', 'ior']


@pytest.mark.parametrize('env', ENVS)
def test_every_environment_uses_the_repository(env):
    repos = manifest(env).get('repos') or {}
    assert isinstance(repos, dict) and REPO_NAMESPACE in repos, (
        f'{env}: `repos:` has no {REPO_NAMESPACE}')
    path = repos[REPO_NAMESPACE]
    assert not os.path.isabs(path), f'{env}: repos path {path} is absolute'
    assert os.path.realpath(os.path.join(ENVS_DIR, env, path)) == \
        os.path.realpath(REPO_DIR), f'{env}: {path} is not {REPO_DIR}'


@pytest.mark.parametrize('package', repo_packages())
def test_repository_package_only_adds_to_the_builtin(package):
    path, tree, cls = _parse(package)
    name = class_name(package)
    before = tree.body[:tree.body.index(cls)]
    after = tree.body[tree.body.index(cls) + 1:]
    assert [(n.module, [(a.name, a.asname) for a in n.names])
            for n in before] == [
        (f'spack_repo.builtin.packages.{package}.package',
         [(name, f'Builtin{name}')]),
        ('spack.package', [('*', None)])], (
        f'{path}: only the builtin class and spack.package may be imported')
    assert cls.name == name, path
    assert [ast.unparse(b) for b in cls.bases] == [f'Builtin{name}'], path
    assert not cls.keywords and not cls.decorator_list, path
    assert [ast.unparse(n) for n in after] == AFTER_CLASS.get(package, []), (
        f'{path}: only {AFTER_CLASS.get(package, [])} may follow the class')

    for stmt in _statements(cls.body):
        if isinstance(stmt, ast.Call):
            assert getattr(stmt.func, 'id', None) in DIRECTIVES, (
                f'{path}: {ast.unparse(stmt)} is not one of {DIRECTIVES}')
        elif isinstance(stmt, ast.Assign):
            names = [ast.unparse(t) for t in stmt.targets]
            assert len(names) == 1 and \
                names[0] in CLASS_ATTRIBUTES.get(package, set()), (
                    f'{path}: {ast.unparse(stmt)} is not allowed')
            assert isinstance(ast.literal_eval(stmt.value), str), path
        elif isinstance(stmt, ast.FunctionDef):
            assert stmt.name in SUBDIR_BUILD.get(package, set()), (
                f'{path}: method {stmt.name} is not allowed')
            assert [ast.unparse(d) for d in stmt.decorator_list] == \
                ['property'], path
        else:
            raise AssertionError(f'{path}: {ast.unparse(stmt)} is not allowed')


@pytest.mark.parametrize('package', repo_packages())
def test_repository_versions_name_a_checksum_or_a_commit(package):
    path, versions = _directives(package, 'version')
    git = _class_attribute(package, 'git')
    for call in versions:
        kwargs = _kwargs(call)
        assert len(call.args) == 1, f'{path}: {ast.unparse(call)}'
        sha256, commit = kwargs.get('sha256', ''), kwargs.get('commit', '')
        assert re.fullmatch(r'[0-9a-f]{64}', sha256) or (
            re.fullmatch(r'[0-9a-f]{40}', commit) and git), (
            f'{path}: {ast.unparse(call)} names neither a sha256 nor a git '
            f'commit of the package\'s `git` repository')


def _class_attribute(package, name):
    _, _, cls = _parse(package)
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and \
                [ast.unparse(t) for t in stmt.targets] == [name]:
            return ast.literal_eval(stmt.value)
    return None


@pytest.mark.parametrize('package', repo_packages())
def test_repository_patches_exist_or_name_a_checksum(package):
    path, patches = _directives(package, 'patch')
    for call in patches:
        source = ast.literal_eval(call.args[0])
        assert _kwargs(call).get('when'), f'{path}: unconditional patch'
        if '://' in source:
            assert re.fullmatch(r'[0-9a-f]{64}',
                                _kwargs(call).get('sha256', '')), (
                f'{path}: {source} has no sha256')
        else:
            assert os.path.isfile(os.path.join(os.path.dirname(path),
                                               source)), (
                f'{path}: patch file {source} is missing')


FIO_RAW_PATCH = os.path.join(REPO_DIR, 'packages', 'fio',
                             'fio-remove-raw-device-support.patch')
FIO_RAW_COMMIT = '382975557e632efb506836bc1709789e615c9094'


def _mirror(name):
    path = os.path.join(MIRROR, name, 'repo')
    if not os.path.isdir(path) or shutil.which('git') is None:
        pytest.skip(f'no clone of {name.replace("+", "/")} at {path}')
    return path


def _version(package, version):
    _, versions = _directives(package, 'version')
    for call in versions:
        if ast.literal_eval(call.args[0]) == version:
            return _kwargs(call)
    raise AssertionError(f'{package}: no version {version}')


def test_fio_patch_is_upstreams_commit():
    with open(FIO_RAW_PATCH, 'rb') as fp:
        carried = fp.read()
    assert carried.startswith(f'From {FIO_RAW_COMMIT} '.encode()), (
        'the fio patch does not name upstream commit 382975557e')
    repo = _mirror('axboe+fio')
    upstream = subprocess.run(
        ['git', '-C', repo, 'format-patch', '-1', '--full-index', '--stdout',
         FIO_RAW_COMMIT], capture_output=True, check=True).stdout
    assert carried == upstream, (
        f'{FIO_RAW_PATCH} is not `git format-patch -1 --full-index --stdout '
        f'{FIO_RAW_COMMIT}` of github.com/axboe/fio')


def _archive_sha256(repo, prefix, ref):
    '''sha256 of GitHub's archive of ``ref``, made again from a clone.'''
    tar = subprocess.run(['git', '-C', repo, 'archive', '--format=tar',
                          f'--prefix={prefix}/', ref],
                         capture_output=True, check=True).stdout
    gz = subprocess.run(['gzip', '-cn'], input=tar, capture_output=True,
                        check=True).stdout
    return hashlib.sha256(gz).hexdigest()


def test_fio_3_20_checksum_is_githubs_archive_of_its_tag():
    repo = _mirror('axboe+fio')
    # The same method gives the builtin recipe's checksum of fio 3.19
    assert _archive_sha256(repo, 'fio-fio-3.19', 'fio-3.19') == \
        '809963b1d023dbc9ac7065557af8129aee17b6895e0e8c5ca671b0b14285f404'
    assert _archive_sha256(repo, 'fio-fio-3.20', 'fio-3.20') == \
        _version('fio', '3.20')['sha256']


def test_fabtests_1_10_1_is_libfabrics_tag():
    repo = _mirror('ofiwg+libfabric')
    kwargs = _version('fabtests', '1.10.1')
    assert _class_attribute('fabtests', 'git') == \
        'https://github.com/ofiwg/libfabric.git'
    commit = subprocess.run(['git', '-C', repo, 'rev-parse',
                             f'{kwargs["tag"]}^{{commit}}'],
                            capture_output=True, text=True, check=True)
    assert commit.stdout.strip() == kwargs['commit']
    tree = subprocess.run(['git', '-C', repo, 'ls-tree', kwargs['commit'],
                           'fabtests/configure.ac'],
                          capture_output=True, text=True, check=True)
    assert tree.stdout.strip(), 'no fabtests/configure.ac at that commit'


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


def _spack(*args, env=None, timeout=300):
    return subprocess.run(['spack', *args], capture_output=True, text=True,
                          timeout=timeout,
                          env=env or dict(os.environ,
                                          SPACK_DISABLE_LOCAL_CONFIG='1'))


@NO_SPACK
@pytest.mark.parametrize('env', ENVS)
def test_every_pin_is_a_version_its_recipe_declares(env):
    # Inside the environment, so that the versions of the project's
    # repository (fio 3.20, fabtests 1.10.1) count; `--safe`: only the
    # versions a recipe declares with a checksum (or a git commit)
    _require_pinned_spack()
    for name, version in sorted(pins(env).items()):
        out = _spack('-e', os.path.join(ENVS_DIR, env), 'versions', '--safe',
                     name)
        declared = set(out.stdout.split())
        assert out.returncode == 0, out.stderr[-2000:]
        assert version in declared, (
            f'{env}: {name}@={version} is not declared by its recipe '
            f'({sorted(declared)})')


def _concretize(env_dir, environ):
    '''Concretize a copy of an environment; its fresh lock.'''
    proc = subprocess.Popen(['spack', '-e', str(env_dir), 'concretize',
                             '--force'], env=environ, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=CONCRETIZE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f'{env_dir}: no solution within {CONCRETIZE_TIMEOUT_S} s')

    assert proc.returncode == 0, output[-3000:]
    with open(os.path.join(env_dir, 'spack.lock')) as fp:
        return json.load(fp)


def _copy_envs(tmp_path):
    copy = tmp_path / 'spack_envs'
    shutil.copytree(ENVS_DIR, copy,
                    ignore=shutil.ignore_patterns('spack.lock', '.spack-env'))
    return copy


def _require_compilers(env):
    '''Spack 1.0 drops an external compiler that does not run where it
    concretizes: skip where the environment's compilers are absent.'''
    for external in packages(env).get('gcc', {}).get('externals', []):
        for path in external.get('extra_attributes', {}).get(
                'compilers', {}).values():
            if not os.access(path, os.X_OK):
                pytest.skip(f'{env}: no compiler {path} here (see '
                            f'spack_envs/README.md, "Reproducing a lock")')


@NO_SPACK
@pytest.mark.parametrize('env', ENVS)
def test_environment_concretizes_to_its_lock(env, tmp_path):
    _require_pinned_spack()
    _require_compilers(env)
    copy = _copy_envs(tmp_path)
    environ = dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1')
    fresh = _concretize(copy / env, environ)

    def roots(data):
        return sorted((r['spec'], data['concrete_specs'][r['hash']]['version'])
                      for r in data['roots'])

    assert roots(fresh) == roots(lock(env))


#: What `spack external find cmake perl gmake openssl curl python git tar
#: autoconf automake libtool m4 pkgconf gawk diffutils findutils xz bzip2
#: ncurses sqlite openssh bison flex` writes on Debian 12, plus a buildable
#: compiler and another MPICH: a site or a user that found them must not
#: change a lock
FOREIGN_PACKAGES = {'packages': {
    **{name: {'externals': [{'spec': spec, 'prefix': '/usr'}]}
       for name, spec in {
           'findutils': 'findutils@4.9.0', 'openssl': 'openssl@3.0.19',
           'openssh': 'openssh@9.2p1', 'gmake': 'gmake@4.3',
           'libtool': 'libtool@2.4.7',
           'perl': 'perl@5.36.0~cpanm+opcode+open+shared+threads',
           'sqlite': 'sqlite@3.40.1+fts~functions+rtree', 'm4': 'm4@1.4.19',
           'pkgconf': 'pkgconf@1.8.1',
           'curl': 'curl@7.88.1+gssapi+ldap+nghttp2', 'bzip2': 'bzip2@1.0.8',
           'ncurses': 'ncurses@6.4.20221231+symlinks+termlib abi=6',
           'tar': 'tar@1.34',
           'python': 'python@3.11.2+bz2+crypt+ctypes+dbm+lzma+pyexpat'
                     '~pythoncmd+readline+sqlite3+ssl~tkinter+uuid+zlib',
           'git': 'git@2.39.5~tcltk', 'cmake': 'cmake@3.25.1',
           'diffutils': 'diffutils@3.8', 'autoconf': 'autoconf@2.71',
           'automake': 'automake@1.16.5', 'xz': 'xz@5.4.1',
           'mpich': 'mpich@4.1.1+hydra device=ch4 netmod=ofi',
       }.items()},
    'gcc': {'externals': [{
        'spec': "gcc@12.2.0 languages:='c,c++,fortran'", 'prefix': '/usr',
        'extra_attributes': {'compilers': {
            'c': '/usr/bin/gcc', 'cxx': '/usr/bin/g++',
            'fortran': '/usr/bin/gfortran'}}}]},
}}
#: The environment concretized with foreign externals around: the one that
#: builds the most from source (python, cmake, perl, openssl, ...)
FOREIGN_ENVS = ['paper-2020']


@NO_SPACK
@pytest.mark.parametrize('env', FOREIGN_ENVS)
def test_foreign_externals_change_no_hash_of_the_lock(env, tmp_path):
    _require_pinned_spack()
    _require_compilers(env)
    root = _spack('location', '--spack-root').stdout.strip()
    site = os.path.join(root, 'etc', 'spack', 'packages.yaml')
    if not os.path.isdir(os.path.dirname(site)):
        pytest.skip(f'no site scope at {os.path.dirname(site)}')
    if not os.access(os.path.dirname(site), os.W_OK):
        pytest.skip(f'the site scope {os.path.dirname(site)} is not writable')
    user = tmp_path / 'user'
    user.mkdir()
    with open(user / 'packages.yaml', 'w') as fp:
        yaml.safe_dump(FOREIGN_PACKAGES, fp)
    copy = _copy_envs(tmp_path)
    committed = lock(env)

    saved = None
    if os.path.exists(site):
        with open(site) as fp:
            saved = fp.read()
    try:
        with open(site, 'w') as fp:
            yaml.safe_dump(FOREIGN_PACKAGES, fp)
        runs = {
            # SPACK_DISABLE_LOCAL_CONFIG drops the user (and system) scope,
            # not the site scope
            'site scope': dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1'),
            'site and user scopes': {
                **{k: v for k, v in os.environ.items()
                   if k != 'SPACK_DISABLE_LOCAL_CONFIG'},
                'SPACK_USER_CONFIG_PATH': str(user)},
        }
        for where, environ in runs.items():
            # The foreign externals are there: outside the environment,
            # Spack sees them
            seen = _spack('config', 'get', 'packages', env=environ).stdout
            assert 'cmake@3.25.1' in seen, f'{where}: {seen[-1000:]}'
            fresh = _concretize(copy / env, environ)
            assert sorted(fresh['roots'], key=lambda r: r['spec']) == sorted(
                committed['roots'], key=lambda r: r['spec']), where
            added = (set(fresh['concrete_specs'])
                     - set(committed['concrete_specs']))
            assert not added, (
                f'{env}, foreign externals in the {where}: nodes not in the '
                f'lock: ' + ', '.join(sorted(
                    f'{fresh["concrete_specs"][h]["name"]}/{h[:7]}'
                    for h in added)))
            assert set(fresh['concrete_specs']) == set(
                committed['concrete_specs']), f'{where}: nodes missing'
    finally:
        if saved is None:
            if os.path.exists(site):
                os.remove(site)
        else:
            with open(site, 'w') as fp:
                fp.write(saved)
