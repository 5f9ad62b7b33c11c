'''What a record says of the Spack build of a benchmark, from the locks.'''

import json
import os

import pytest

import project
from microbench import spack
from spack_manifests import pins

ENVS = sorted(os.path.relpath(os.path.dirname(p), spack.ENVS_DIR)
              for p in project.spack_locks())




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
            # the version each environment pins (the common pins, or its
            # own: paper-2020's study, local-2023's previous stack, a
            # facility's libfabric)
            assert version == pins(env)[package], (env, rounds, spec)


def test_without_spack_the_record_says_system():
    assert spack.record(None, ['fio']) == ('system', 'system')


def test_a_missing_lock_is_said():
    name, specs = spack.record(os.path.join(spack.ENVS_DIR, 'nowhere'),
                               ['fio'])
    assert name == 'nowhere'
    assert specs.startswith('no usable spack.lock')
