'''What a record says of the Spack build of a benchmark, from the locks.'''

import json
import os

import pytest
import yaml

import project
from microbench import spack

ENVS = sorted(os.path.relpath(os.path.dirname(p), spack.ENVS_DIR)
              for p in project.spack_locks())


def pins():
    with open(os.path.join(spack.ENVS_DIR, 'common', 'pins.yaml')) as fp:
        return {name: pin['require'].lstrip('@=')
                for name, pin in yaml.safe_load(fp)['packages'].items()}


@pytest.mark.parametrize('env', ENVS)
def test_every_launched_program_is_named_with_its_lock_hash(env):
    env_dir = os.path.join(spack.ENVS_DIR, env)
    with open(os.path.join(env_dir, 'spack.lock')) as fp:
        lock = json.load(fp)

    hashes = {spec['name']: spec['hash']
              for spec in lock['concrete_specs'].values()}
    for rounds, programs in project.launched_executables().items():
        name, specs = spack.record(env_dir, programs)
        assert name == env
        for spec in specs.split():
            package, rest = spec.split('@')
            version, short = rest.split('/')
            assert hashes[package].startswith(short), (env, rounds, spec)
            if env != 'paper-2020':
                assert version == pins()[package], (env, rounds, spec)


def test_without_spack_the_record_says_system():
    assert spack.record(None, ['fio']) == ('system', 'system')


def test_a_missing_lock_is_said():
    name, specs = spack.record(os.path.join(spack.ENVS_DIR, 'nowhere'),
                               ['fio'])
    assert name == 'nowhere'
    assert specs.startswith('no usable spack.lock')
