'''spack_envs/ as the tests read it: its environments, their manifests
(``spack.yaml`` and what they include), their locks and the pins.  Shared by
tests/spack/test_spack_envs.py (manifests and locks), test_spack_repo.py (the
project's package repository) and test_spack_envs_spack.py (with Spack).
'''

import json
import os
import re

import yaml

import project

ENVS_DIR = os.path.join(project.ROOT, 'spack_envs')
PINS = os.path.join(ENVS_DIR, 'common', 'pins.yaml')
#: Spack's own package defaults under `packages::`: included last by every
#: environment, so that no site or user packages.yaml enters a lock
DEFAULTS = os.path.join(ENVS_DIR, 'common', 'packages-defaults.yaml')
CONCRETIZER = os.path.join(ENVS_DIR, 'common', 'concretizer.yaml')
#: The project's package repository (Spack 1.0, api v2)
REPO_DIR = os.path.join(ENVS_DIR, 'repo', 'spack_repo', 'microbench')
REPO_NAMESPACE = 'microbench'
#: Environments bound to no facility partition (one folder deep); local-2023
#: is local's previous stack (issue 43)
NAMED = {'local', 'local-2023', 'paper-2020'}
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
    return {name.replace(':', '/') for name in project.facility_partitions()}

