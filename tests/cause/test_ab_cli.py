'''``microbench ab`` refuses what it cannot run before anything runs: one
line naming what is wrong, exit 2, nothing stored (no results storage, no
folder of runs): a check that is not one (did you mean), a gap, a sweep,
a stack that is not installed, two identical stacks, a variable the runner
sets, the nightly storage, a check whose tool a stack lacks (the suite
says so in a dry run).'''

import os

import pytest

import project
from microbench import cli


def door(tmp_path, capsys, *argv):
    code = cli.main(['ab', *argv, '--db', str(tmp_path / 'ab.db')])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def fio():
    if not project.installed('fio'):
        pytest.skip('fio is not installed (apt-get install fio)')
    return os.path.dirname(project.installed('fio'))


@pytest.mark.parametrize('argv, said', [
    (['fio_falocate', '--aa'], "no check 'fio_falocate' in "),
    (['fio_falocate', '--aa'], 'did you mean fio_fallocate'),
    (['fio_fallocate_gap', '--aa'], 'fio_fallocate_gap is a gap of '
                                    'fio_fallocate: name fio_fallocate'),
    (['ior_scaling', '--aa'], 'ior_scaling (ior_scaling.py) reads no rounds '
                              'fixture of variants'),
    (['fio_fallocate', '--b', '/nonexistent/stack'],
     '--b /nonexistent/stack: no such folder'),
    (['fio_fallocate', '--b', '/proc/self'],
     '--b /proc/self: not an installed stack'),
    (['fio_fallocate', '--b', 'fio=/proc'], '--b fio=/proc: no fio in /proc'),
    (['fio_fallocate', '--b', 'gcc=/usr/bin'], "'gcc' is not a tool"),
    (['fio_fallocate'], '--b STACK is needed (or --aa'),
    (['fio_fallocate', '--aa', '--b', '/usr'], '--aa runs the stack of --a '
                                               'on both sides: give no --b'),
    (['fio_fallocate', '--aa', '-S', 'samples=5'],
     '-S samples=5: the runner sets samples itself'),
    (['fio_fallocate', '--aa', '-S', 'fio_fallocate_rounds.stacks=x'],
     'the runner sets stacks itself'),
    (['fio_fallocate', '--aa', '--mode', 'quick', '--cap', '2'],
     'is not within 3 <= first look <= cap'),
    (['fio_fallocate', '--aa', '--first', '0'], 'at least one pair'),
    (['fio_fallocate', '--aa', '--watch', 'fio_fallocate:direct'],
     "--watch 'fio_fallocate:direct': not CHECK:VARIANT:FIGURE"),
])
def test_bad_input_is_one_line_and_nothing_is_stored(tmp_path, capsys, fio,
                                                     argv, said):
    code, _, err = door(tmp_path, capsys, *argv[:1], '--a', fio, *argv[1:])
    assert code == 2
    assert err.count('\n') == 1 and err.startswith('microbench ab: error: ')
    assert said in err, err
    assert os.listdir(tmp_path) == []


def test_two_identical_stacks_say_so(tmp_path, capsys, fio):
    '''The same programs, however they are named: a folder of programs
    and the prefix above it.'''
    code, _, err = door(tmp_path, capsys, 'fio_fallocate', '--a', fio,
                        '--b', os.path.dirname(fio))
    assert code == 2 and err.count('\n') == 1
    assert 'are the same stack' in err and 'asked with --aa' in err
    assert os.listdir(tmp_path) == []


def test_the_nightly_storage_is_refused(tmp_path, capsys, fio, monkeypatch):
    nightly = tmp_path / 'results.db'
    monkeypatch.setenv('RFM_SQLITE_DB_FILE', str(nightly))
    code = cli.main(['ab', 'fio_fallocate', '--a', fio, '--aa', '--db',
                     str(nightly)])
    _, err = capsys.readouterr()
    assert code == 2 and 'the nightly results storage' in err
    assert not nightly.exists()


def test_a_check_whose_tool_a_stack_lacks_is_refused_by_the_suite(
        tmp_path, capsys, fio):
    '''mdtest_metadata needs mdtest; the stack is apt's fio alone: the dry
    run of the first batch fails its rounds job, saying which stack.'''
    code, out, err = door(tmp_path, capsys, 'mdtest_metadata', '--a', fio,
                          '--aa')
    assert code == 2 and err.count('\n') == 1, err
    assert ('stacks error: mdtest_metadata_rounds: stack A '
            f'({fio}) has no mdtest; it gives fio' in err), err
    assert os.listdir(tmp_path) == []
