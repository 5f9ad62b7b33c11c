'''The stack a night ran, named from its records
(microbench.cause.nightstacks), on a real recorded night
(tests/cause/diagnose_cases.py) and mutations of it:

- the records of a night on a Spack environment name the environment and
  its lock; a night whose records lack the fields, or name two stacks,
  names none, in one line;
- the night-before stack is installed where its environment still holds
  its lock, else where a folder of the stacks directory holds that lock;
  else it is not, in one line saying how stacks are kept;
- a program found outside an environment is installed where it is still
  there and leads to the same build, and not where the other night ran
  another version from the same file (a package upgraded in place);
- what the job records (``found``) becomes the two fields.
'''

import os
import shutil
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from microbench import spack
from microbench.cause import nightstacks
from microbench.verdicts import figures

from diagnose_cases import (digest, fio_of, make_stack, recorded,
                            with_stack)
from witness_tally import PROPERTIES, one_line


def rows_of(report):
    return figures.frame([report])


def named(report):
    return nightstacks.named(rows_of(report),
                             report['session_info']['uuid'])


def test_a_real_night_names_its_spack_environment_and_lock():
    stack = named(recorded())
    assert stack.env == '/opt/spack-stacks/envs/planted-a-7df2ee83a676'
    assert stack.lock == digest('planted-a')
    assert stack.versions == {'fio': 'fio-3.33'}
    assert stack.paths['fio'] == os.path.join(stack.env, '.spack-env',
                                              'view', 'bin', 'fio')
    assert stack.reals['fio'].startswith('/opt/spack-stacks/opt/')
    assert 'lock 7df2ee83a676' in stack.describe()


def test_a_night_without_the_fields_names_no_stack():
    with pytest.raises(nightstacks.StackError) as err:
        named(with_stack(recorded(), '', ''))
    said = str(err.value)
    one_line(said)
    assert 'no tool_path' in said and '--a STACK' in said


def test_a_night_whose_records_name_two_locks_names_none():
    report = recorded()
    case = next(case for case in report['runs'][-1]['testcases']
                if case.get('variant') == 'direct')
    case['spack_lock'] = 'f' * 64
    with pytest.raises(nightstacks.StackError, match='2 locks'):
        named(report)


def test_no_records_of_the_checks_name_no_stack():
    rows = rows_of(recorded())
    with pytest.raises(nightstacks.StackError, match='no records'):
        nightstacks.named(rows[rows['check'] == 'none'], 'x')


def night_on(env, lock):
    return named(with_stack(recorded(), fio_of(env), digest(lock)))


def test_the_environment_that_still_holds_the_lock_is_installed(tmp_path):
    env = make_stack(tmp_path, 'planted-a')
    assert nightstacks.installed(night_on(env, 'planted-a')) == env


def test_a_stack_whose_environment_moved_on_is_found_by_its_lock(tmp_path):
    env = make_stack(tmp_path / 'spack_envs', 'planted-a', name='local')
    before = night_on(env, 'planted-a')
    # the partition's environment now holds the new lock ...
    shutil.copy(make_stack(tmp_path / 'other', 'planted-b') + '/spack.lock',
                os.path.join(env, 'spack.lock'))
    # ... and the stacks directory keeps the old one, by its hash
    kept = make_stack(tmp_path / 'stacks', 'planted-a',
                      name=f'local-{digest("planted-a")[:12]}')
    assert nightstacks.installed(before, stacks=str(tmp_path / 'stacks')) \
        == kept


def test_a_stack_no_longer_installed_is_one_line_saying_how_to_keep_one(
        tmp_path):
    env = make_stack(tmp_path / 'spack_envs', 'planted-a', name='local')
    before = night_on(env, 'planted-a')
    shutil.copy(make_stack(tmp_path / 'other', 'planted-b') + '/spack.lock',
                os.path.join(env, 'spack.lock'))
    with pytest.raises(nightstacks.StackError) as err:
        nightstacks.installed(before, stacks=str(tmp_path / 'empty'))
    said = str(err.value)
    one_line(said)
    assert said.startswith("the night before's stack (lock "
                           f'{digest("planted-a")[:12]}) is no longer '
                           f'installed: ')
    assert f'now holds lock {digest("planted-b")[:12]}' in said
    assert 'stacks are kept by ci/spack_install.sh' in said
    shutil.rmtree(env)
    with pytest.raises(nightstacks.StackError, match=' is gone'):
        nightstacks.installed(before, stacks=str(tmp_path / 'empty'))


def test_an_environment_without_its_view_is_not_installed(tmp_path):
    env = make_stack(tmp_path, 'planted-a')
    before = night_on(env, 'planted-a')
    shutil.rmtree(os.path.join(env, '.spack-env'))
    with pytest.raises(nightstacks.StackError,
                       match='its view lacks the programs'):
        nightstacks.installed(before, stacks=str(tmp_path / 'none'))


def outside(real_program, version):
    '''A night whose fio was found outside any environment.'''
    where = os.path.dirname(real_program)
    report = with_stack(recorded(), f'{real_program}{spack.LEADS}'
                        f'{os.path.realpath(real_program)}', '')
    for case in report['runs'][-1]['testcases']:
        if case.get('tool_version'):
            case['tool_version'] = version
    return named(report), where


def test_a_program_outside_an_environment_is_named_by_its_folder(tmp_path):
    program = tmp_path / 'bin' / 'fio'
    program.parent.mkdir()
    os.symlink(os.path.realpath(sys.executable), program)
    stack, where = outside(str(program), 'fio-3.33')
    assert stack.env == '' and stack.lock == ''
    assert nightstacks.installed(stack) == f'fio={where}'
    # the same file, another version the other night: upgraded in place
    other, _ = outside(str(program), 'fio-3.35')
    with pytest.raises(nightstacks.StackError, match='replaced in place'):
        nightstacks.installed(stack, other)
    # gone, or leading to another build
    os.unlink(program)
    os.symlink('/bin/sh', program)
    with pytest.raises(nightstacks.StackError, match='now leads to'):
        nightstacks.installed(stack)
    os.unlink(program)
    with pytest.raises(nightstacks.StackError,
                       match='is no longer installed'):
        nightstacks.installed(stack)


def test_the_job_records_become_the_two_fields(tmp_path):
    env = make_stack(tmp_path, 'planted-a')
    view = os.path.join(env, '.spack-env', 'view', 'bin', 'fio')
    records = [f'/usr/bin/strace{spack.LEADS}/usr/bin/strace',
               f'{view}{spack.LEADS}/opt/fio-3.33/bin/fio']
    assert spack.found(records, ('fio',)) == (
        f'{view}{spack.LEADS}/opt/fio-3.33/bin/fio', digest('planted-a'))
    # outside an environment: the partition's environment's lock
    assert spack.found([f'/usr/bin/fio{spack.LEADS}/usr/bin/fio'],
                       ('fio',), env) == ('/usr/bin/fio',
                                          digest('planted-a'))
    assert spack.found([], ('fio',)) == ('', '')
    assert spack.found(['/usr/bin/ior -> /usr/bin/ior'], ('fio',)) == \
        ('', '')


@PROPERTIES
@given(st.text(max_size=300), st.text(max_size=80))
def test_any_recorded_tool_path_names_a_stack_or_says_why(text, lock):
    '''Whatever the two fields hold: a stack, or one line.'''
    try:
        stack = named(with_stack(recorded(), text or 'x', lock))
    except nightstacks.StackError as err:
        one_line(str(err))
        return
    assert set(stack.paths) <= set(nightstacks.TOOL_OF.values())
