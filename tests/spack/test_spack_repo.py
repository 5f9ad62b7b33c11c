'''spack_envs/repo/: the project's package repository, read with ``ast``
(Spack is absent where these run), and its recipes compared with a clone of
their upstream sources where one is at hand.
'''

import ast
import glob
import hashlib
import os
import re
import subprocess

import pytest

import upstream
from spack_manifests import (ENVS, ENVS_DIR, REPO_DIR,
                             REPO_NAMESPACE, _yaml, manifest)

# -- the project's package repository ----------------------------------------

#: What a package of the repository may do besides subclassing the builtin:
#: these directives, and the few things below
DIRECTIVES = {'version', 'patch', 'depends_on', 'conflicts'}
#: Methods allowed, by package, with their decorators: fabtests @1.10.1 and
#: 2.x are libfabric's tree (a git checkout, GitHub's archive), built
#: (fabtests' autogen.sh, configure, make) in its fabtests/ folder; ior
#: +cuda adds IOR 4.0.0's CUDA and GPUDirect configure options to the
#: builtin's, and only there (a multimethod: every other ior runs the
#: builtin's configure_args); PyDarshan 3.5.0 is the darshan-util/pydarshan
#: folder of Darshan's tree
METHODS = {'fabtests': {'configure_directory': ['property'],
                        'autoreconf': ["when('@1.10.1,2:')"]},
           'ior': {'configure_args': ["when('+cuda')"]},
           'py_darshan': {'build_directory': ['property']}}
#: Build-system mixins allowed besides the builtin class, by package: ior's
#: CUDA variants (cuda, cuda_arch) and their dependencies come from Spack's
#: CudaPackage
MIXINS = {'ior': [('spack_repo.builtin.build_systems.cuda', 'CudaPackage')]}
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
    assert repo_packages() == ['darshan_runtime', 'darshan_util',
                               'elbencho', 'fabtests', 'fio', 'ior',
                               'libfabric', 'py_darshan']


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
    mixins = MIXINS.get(package, [])
    assert [(n.module, [(a.name, a.asname) for a in n.names])
            for n in before] == [
        *((module, [(mixin, None)]) for module, mixin in mixins),
        (f'spack_repo.builtin.packages.{package}.package',
         [(name, f'Builtin{name}')]),
        ('spack.package', [('*', None)])], (
        f'{path}: only the builtin class, {mixins} and spack.package may be '
        f'imported')
    assert cls.name == name, path
    assert [ast.unparse(b) for b in cls.bases] == [
        f'Builtin{name}', *(mixin for _, mixin in mixins)], path
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
            allowed = METHODS.get(package, {})
            assert stmt.name in allowed, (
                f'{path}: method {stmt.name} is not allowed')
            assert [ast.unparse(d) for d in stmt.decorator_list] == \
                allowed[stmt.name], path
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
    repo = upstream.clone('axboe+fio')
    theirs = subprocess.run(
        ['git', '-C', repo, 'format-patch', '-1', '--full-index', '--stdout',
         FIO_RAW_COMMIT], capture_output=True, check=True).stdout
    assert carried == theirs, (
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
    repo = upstream.clone('axboe+fio')
    # The same method gives the builtin recipe's checksum of fio 3.19
    assert _archive_sha256(repo, 'fio-fio-3.19', 'fio-3.19') == \
        '809963b1d023dbc9ac7065557af8129aee17b6895e0e8c5ca671b0b14285f404'
    assert _archive_sha256(repo, 'fio-fio-3.20', 'fio-3.20') == \
        _version('fio', '3.20')['sha256']


def test_fio_3_40_checksum_is_githubs_archive_of_its_tag():
    '''fio 3.40 (RWF_DONTCACHE as uncached=1): no builtin recipe declares
    it; its checksum is made as the builtin ones of 3.33 and 3.37 are.'''
    repo = upstream.clone('axboe+fio')
    assert _archive_sha256(repo, 'fio-fio-3.33', 'fio-3.33') == \
        'f48b2547313ffd1799c58c6a170175176131bbd42bc847b5650784eaf6d914b3'
    assert _archive_sha256(repo, 'fio-fio-3.37', 'fio-3.37') == \
        'b59099d42d5c62a8171974e54466a688c8da6720bf74a7f16bf24fb0e51ff92d'
    assert _archive_sha256(repo, 'fio-fio-3.40', 'fio-3.40') == \
        _version('fio', '3.40')['sha256']


def test_fabtests_1_10_1_is_libfabrics_tag():
    repo = upstream.clone('ofiwg+libfabric')
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



def _strings(node):
    '''The literal text of every string of ``node`` (f-strings' literal
    parts included).'''
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


IOR_CUDA_OPTIONS = ('--with-cuda=', '--with-gpuDirect=yes', '--with-nvcc=')


def test_ior_cuda_is_configured_as_ior_4_0_0s_configure_ac_spells_it():
    path, _, cls = _parse('ior')
    (method,) = [s for s in cls.body if isinstance(s, ast.FunctionDef)]
    assert method.name == 'configure_args', path
    assert set(IOR_CUDA_OPTIONS) <= set(_strings(method)), (
        f'{path}: +cuda does not pass {IOR_CUDA_OPTIONS}')
    repo = upstream.clone('hpc+ior')
    configure = subprocess.run(
        ['git', '--git-dir', repo, 'show', '4.0.0:configure.ac'],
        capture_output=True, text=True, check=True).stdout
    # --with-cuda=<prefix>: its include and lib64 directories, where the
    # CUDA toolkit also keeps cufile.h and libcufile
    assert 'AC_ARG_WITH([cuda],' in configure
    assert 'CPPFLAGS="$CPPFLAGS -I$with_cuda/include"' in configure
    # utilities-gpu.cu (device memory) and -lcufile only for `yes`
    assert 'AC_ARG_WITH([gpuDirect],' in configure
    assert ('AM_CONDITIONAL([HAVE_GPU_DIRECT], [test x$with_gpuDirect = '
            'xyes])') in configure
    assert 'AC_ARG_WITH(nvcc,' in configure
    makefile = subprocess.run(
        ['git', '--git-dir', repo, 'show', '4.0.0:src/Makefile.am'],
        capture_output=True, text=True, check=True).stdout
    assert '$(NVCC) $(CFLAGS) -c -o $@ $<' in makefile


# -- the versions of issue 43's upgrade: GitHub's archives of their tags ------

#: (package, version, clone, archive prefix, tag, the URL GitHub serves it
#: at): every version the project's repository adds from an archive of a
#: tag (fio 3.20 and 3.40 are tested above)
ARCHIVES = [
    ('fio', '3.42', 'axboe+fio', 'fio-fio-3.42', 'fio-3.42', None),
    ('libfabric', '2.6.0', 'ofiwg+libfabric', 'libfabric-2.6.0', 'v2.6.0',
     'https://github.com/ofiwg/libfabric/archive/v2.6.0.tar.gz'),
    ('libfabric', '2.5.1', 'ofiwg+libfabric', 'libfabric-2.5.1', 'v2.5.1',
     'https://github.com/ofiwg/libfabric/archive/v2.5.1.tar.gz'),
    ('fabtests', '2.6.0', 'ofiwg+libfabric', 'libfabric-2.6.0', 'v2.6.0',
     'https://github.com/ofiwg/libfabric/archive/v2.6.0.tar.gz'),
    ('fabtests', '2.5.1', 'ofiwg+libfabric', 'libfabric-2.5.1', 'v2.5.1',
     'https://github.com/ofiwg/libfabric/archive/v2.5.1.tar.gz'),
    ('darshan_util', '3.5.0', 'darshan-hpc+darshan', 'darshan-3.5.0',
     '3.5.0',
     'https://github.com/darshan-hpc/darshan/archive/refs/tags/3.5.0.tar.gz'),
    ('darshan_runtime', '3.5.0', 'darshan-hpc+darshan', 'darshan-3.5.0',
     '3.5.0',
     'https://github.com/darshan-hpc/darshan/archive/refs/tags/3.5.0.tar.gz'),
    ('py_darshan', '3.5.0', 'darshan-hpc+darshan', 'darshan-3.5.0', '3.5.0',
     'https://github.com/darshan-hpc/darshan/archive/refs/tags/3.5.0.tar.gz'),
    ('elbencho', '3.1-9', 'breuner+elbencho', 'elbencho-3.1-9', 'v3.1-9',
     None),
]


@pytest.mark.parametrize('package, version, name, prefix, tag, url',
                         ARCHIVES, ids=[f'{a[0]}@{a[1]}' for a in ARCHIVES])
def test_checksum_is_githubs_archive_of_its_tag(package, version, name,
                                                prefix, tag, url):
    kwargs = _version(package, version)
    # without a url of its own, the version takes the builtin's pattern
    # (github.com/axboe/fio/archive/fio-<v>.tar.gz,
    # github.com/breuner/elbencho/archive/refs/tags/v<v>.tar.gz)
    assert kwargs.get('url') == url
    repo = upstream.clone(name)
    assert _archive_sha256(repo, prefix, tag) == kwargs['sha256']


def test_the_archive_method_gives_the_builtin_elbencho_checksum():
    '''elbencho's builtin recipe takes GitHub's archives of its tags: the
    same command gives its sha256 of 3.0-3 exactly.'''
    repo = upstream.clone('breuner+elbencho')
    assert _archive_sha256(repo, 'elbencho-3.0-3', 'v3.0-3') == \
        '5769abcdaebefe2984ac3053fb6e91a54e1863d5ea8f72daea830e10b27c0eaf'


def test_pydarshan_3_5_0_is_the_version_of_its_tree():
    text = upstream.show('darshan-hpc+darshan', '3.5.0',
                         'darshan-util/pydarshan/darshan/__init__.py')
    assert "__version__ = '3.5.0'" in text
    assert "__darshanutil_version__ = '3.5.0'" in text


# -- the test repository (tests/data/spack_repo): never in production ---------
