'''Bundles of facility runs: the Spack environment a record names is in
the bundle, a record's spec must be in its lock, and with the pinned Spack
the bundled environment concretizes again to its lock's hashes.'''

import json
import os
import shutil

import pytest

import project
from microbench.bundles import bundle, check, replay

ENV = 'slurm_cluster/lustre'


def real_report(env, spec):
    '''A real session's report (tests/data/results), as if its figures were
    measured with ``spec`` of Spack environment ``env``.'''
    with open(os.path.join(project.ROOT, 'tests', 'data', 'results',
                           'fio-quick-1.json')) as fp:
        report = json.load(fp)
    cases = [c for c in report['runs'][-1]['testcases'] if c['perfvalues']]
    for case in cases:
        case.update(spack_env=env, spack_spec=spec)
    return report, cases


def test_a_facility_bundle_holds_its_environment():
    env = ENV
    files = bundle.spack_files(env)
    assert {f'spack_envs/{env}/spack.yaml', f'spack_envs/{env}/spack.lock',
            'spack_envs/checkout-versions.yaml',
            'spack_envs/slurm_cluster/system.yaml',
            'spack_envs/common/pins.yaml',
            'spack_envs/repo/spack_repo/microbench/repo.yaml',
            'spack_envs/repo/spack_repo/microbench/packages/ior/package.py',
            } <= set(files)
    lock = json.loads(files[f'spack_envs/{env}/spack.lock'])
    fio = next(s for s in lock['concrete_specs'].values()
               if s['name'] == 'fio')

    report, cases = real_report(
        env, f'fio@{fio["version"]}/{fio["hash"][:7]}')
    cases[0]['spack_spec'] = 'fio@3.33/zzzzzzz'
    data = {k: v.encode() for k, v in files.items()}
    data['session/report.json'] = json.dumps(report).encode()
    problems = check.check_figures(data)
    assert f"{cases[0]['display_name']}: fio@3.33/zzzzzzz is not in " \
           f"spack_envs/{env}/spack.lock" in problems
    assert not any('spack_spec' in p or (cases[1]['display_name'] + ': fio@')
                   in p for p in problems)


def pinned():
    '''Why the pinned Spack cannot run here, or None.'''
    if not shutil.which('spack'):
        return 'spack is not on PATH'
    with open(os.path.join(project.ROOT, 'spack_envs',
                           'checkout-versions.yaml')) as fp:
        files = {'spack_envs/checkout-versions.yaml': fp.read().encode()}
    return check.pinned_spack(files)


@pytest.mark.skipif(bool(pinned()), reason=f'{pinned()}')
def test_check_bundle_concretizes_the_environment_again():
    files = {k: v.encode() for k, v in bundle.spack_files('local').items()}
    assert check.reconcretize(files, ['local']) == []

    # A lock one of whose nodes is not what its spack.yaml makes
    lock = json.loads(files['spack_envs/local/spack.lock'])
    first = next(iter(lock['concrete_specs']))
    lock['concrete_specs']['x' * len(first)] = lock['concrete_specs'].pop(
        first)
    files['spack_envs/local/spack.lock'] = json.dumps(lock).encode()
    assert check.reconcretize(files, ['local']) == [
        "spack_envs/local: concretized again, 1 hashes differ from the "
        "lock's (1 of the lock are gone)"]


@pytest.mark.parametrize('recorded,replayed', [
    (['-r', '--session-extras', 'kind=nightly,tag=a'],
     ['-r', '--session-extras', 'tag=a,kind=replay']),
    (['-r', '--session-extras=kind=nightly'],
     ['-r', '--session-extras=kind=replay']),
    (['-r'], ['-r', '--session-extras', 'kind=replay']),
])
def test_a_replay_is_never_a_night(recorded, replayed):
    assert replay.retagged(recorded) == replayed
