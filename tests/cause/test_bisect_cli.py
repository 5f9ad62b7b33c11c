'''``microbench bisect`` refuses what it cannot run before anything runs:
one line naming what is wrong, exit 2, nothing stored (no results storage,
no folder of runs, no step): a file that is not a Spack lock (text, another
JSON, a real lock cut or corrupted), two identical locks, a stack that is
not installed, an unknown check, a ``--moved`` that is not the A/B of these
locks, a bad option.'''

import json
import os
import shutil

import pytest

from microbench import cli
from microbench.cause import ab_json

from ab_cases import real_document

DATA = os.path.join(os.path.dirname(__file__), '..', 'data', 'spack')
LOCK_A = os.path.join(DATA, 'planted-a', 'spack.lock')
LOCK_B = os.path.join(DATA, 'planted-b', 'spack.lock')

#: Where the planted stacks are installed here (spack_envs/README.md,
#: "Built for real here: issue 43's stacks")
INSTALLED = '/opt/spack-stacks/envs'


def door(tmp_path, capsys, *argv, stacks=None):
    store = tmp_path / 'store'
    store.mkdir(exist_ok=True)
    code = cli.main(['bisect', *argv, '--db', str(store / 'ab.db'),
                     '--stacks-dir', str(stacks or tmp_path / 'none')])
    out, err = capsys.readouterr()
    assert os.listdir(store) == [], 'something was stored'
    return code, out, err


def refused(code, err, said):
    assert code == 2
    assert err.count('\n') == 1, err
    assert err.startswith('microbench bisect: error: '), err
    assert said in err, err


def _written(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _lock_text():
    with open(LOCK_A, 'rb') as fp:
        return fp.read()


@pytest.mark.parametrize('name, data, said', [
    ('README.md', b'# not a lock\n', 'LOCK_A {}: not JSON'),
    ('ab.json', json.dumps({'format': 'microbench ab'}).encode(),
     'LOCK_A {}: not a Spack lock (no _meta object)'),
    ('cut.lock', _lock_text()[:5000], 'LOCK_A {}: not JSON'),
    ('other.lock', _lock_text().replace(b'"spack-lockfile"',
                                        b'"spack-yaml"'),
     "not a Spack lock (_meta.file-type is 'spack-yaml'"),
    ('v5.lock', _lock_text().replace(b'"lockfile-version":6',
                                     b'"lockfile-version":5'),
     'lockfile-version 5 is not one this reader knows'),
    ('binary.lock', b'\xff\xfe\x00', 'LOCK_A {}: not UTF-8'),
])
def test_a_file_that_is_not_a_spack_lock_is_one_line(tmp_path, capsys, name,
                                                     data, said):
    path = _written(tmp_path, name, data)
    code, _, err = door(tmp_path, capsys, path, LOCK_B, '--checks',
                        'fio_data_reduction')
    refused(code, err, said.format(path))


def test_a_lock_that_cannot_be_read_is_one_line(tmp_path, capsys):
    code, _, err = door(tmp_path, capsys, LOCK_A, str(tmp_path / 'gone'),
                        '--checks', 'fio_data_reduction')
    refused(code, err, f'LOCK_B {tmp_path / "gone"}: cannot be read')


def test_two_identical_locks_are_one_line(tmp_path, capsys):
    copy = tmp_path / 'copy.lock'
    shutil.copy(LOCK_A, copy)
    for other in (LOCK_A, str(copy)):
        code, _, err = door(tmp_path, capsys, LOCK_A, other, '--checks',
                            'fio_data_reduction')
        refused(code, err, 'the same lock as')


def test_a_lock_of_the_same_stack_in_another_order_is_one_line(
        tmp_path, capsys):
    with open(LOCK_A) as fp:
        tree = json.load(fp)
    tree['concrete_specs'] = dict(reversed(list(
        tree['concrete_specs'].items())))
    other = _written(tmp_path, 'reordered.lock', json.dumps(tree).encode())
    code, _, err = door(tmp_path, capsys, LOCK_A, other, '--checks',
                        'fio_data_reduction')
    refused(code, err, 'the same stack as')


def test_a_stack_that_is_not_installed_is_one_line(tmp_path, capsys):
    code, _, err = door(tmp_path, capsys, LOCK_A, LOCK_B, '--checks',
                        'fio_data_reduction')
    refused(code, err, f'LOCK_A {LOCK_A}: its stack is not installed')


@pytest.mark.parametrize('check, said', [
    ('fio_data_reductio', "no check 'fio_data_reductio' in "),
    ('fio_data_reduction_gap', 'fio_data_reduction_gap is a gap of '
                               'fio_data_reduction'),
    ('ior_scaling', 'ior_scaling (ior_scaling.py) reads no rounds fixture'),
])
def test_an_unknown_check_is_one_line(tmp_path, capsys, check, said):
    code, _, err = door(tmp_path, capsys, LOCK_A, LOCK_B, '--checks', check)
    refused(code, err, said)


def test_bad_options_are_one_line(tmp_path, capsys):
    code, _, err = door(tmp_path, capsys, LOCK_A, LOCK_B, '--checks',
                        'fio_data_reduction', '--max-steps', '0')
    refused(code, err, '--max-steps 0: at least one')
    code, _, err = door(tmp_path, capsys, LOCK_A, LOCK_B, '--checks',
                        'fio_data_reduction', '--json',
                        str(tmp_path / 'no' / 'such' / 'b.json'))
    refused(code, err, '--json')


@pytest.fixture
def planted():
    '''The stacks directory holding the installed planted stacks.'''
    for name in ('planted-a-7df2ee83a676', 'planted-b-50639145b437'):
        if not os.path.isdir(os.path.join(INSTALLED, name, '.spack-env',
                                          'view', 'bin')):
            pytest.skip(f'{name} is not installed here ({INSTALLED})')
    return INSTALLED


def test_a_moved_ab_of_other_stacks_is_one_line(tmp_path, capsys, planted):
    doc, _ = real_document()
    path = tmp_path / 'other-ab.json'
    ab_json.write(str(path), doc)
    code, _, err = door(tmp_path, capsys, LOCK_A, LOCK_B, '--checks',
                        'fio_cache_flags', '--moved', str(path),
                        stacks=planted)
    refused(code, err, f'--moved {path}: its stack A ran lock')
    assert 'not the A/B of these locks' in err


def test_a_moved_file_that_is_no_ab_is_one_line(tmp_path, capsys, planted):
    path = _written(tmp_path, 'ab.json', b'{"format": "microbench ab", '
                                         b'"version": 7}')
    code, _, err = door(tmp_path, capsys, LOCK_A, LOCK_B, '--checks',
                        'fio_cache_flags', '--moved', path, stacks=planted)
    refused(code, err, f'{path}: the JSON of microbench ab version 7')
