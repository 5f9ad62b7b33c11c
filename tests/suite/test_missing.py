'''A check skipped for a missing program says how to give it, in one line
(microbench/suite/missing.py): ``-S <tool>_bindir=DIR``, the tests'
``MICROBENCH_<TOOL>_BINDIR``, the locked Spack environments of
``spack_envs/``.  Every benchmark of every check file; and a real ReFrame
run of the checks of IOR, mdtest, OSU, elbencho and fabtests with their
directories pointing at an empty one (no benchmark runs: each rounds job
ends at once, recording what is missing).
'''

import glob
import os
import re

import pytest

import project
from microbench.suite import missing
from microbench.suite.variant import VariantCheck


def rounds_classes():
    '''{rounds fixture class} of every variant check of the check files.'''
    return {cls.fixture_space['rounds'].cls
            for cls in project.check_classes().values()
            if issubclass(cls, VariantCheck)}


def benchmarks():
    '''[(rounds class name, its bindir variable, a program it launches)].'''
    return sorted({(rounds.__name__, rounds.bindir, program)
                   for rounds in rounds_classes()
                   for program in rounds.launched()})


@pytest.mark.parametrize('rounds, bindir, program', benchmarks())
def test_every_benchmark_skip_says_the_three_ways(rounds, bindir, program):
    assert bindir, f'{rounds} has no directory variable'
    said = missing.hint(program, 'nid0042', bindir)
    assert said.startswith(f'{program} not found on PATH on nid0042: ')
    assert f'-S {bindir}=DIR' in said
    assert f'{missing.TEST_VARIABLES[bindir]}=DIR' in said
    assert 'spack_envs/' in said and 'ci/spack_install.sh' in said
    assert re.search(r'Spack package [\w-]+\)$', said), said
    assert '\n' not in said


def test_a_directory_without_the_program_is_named():
    said = missing.hint('/opt/ior/bin/ior', 'nid1', 'ior_bindir',
                        '/opt/ior/bin')
    assert said.startswith('ior not found in -S ior_bindir=/opt/ior/bin on '
                           'nid1: give the directory that holds it with -S '
                           'ior_bindir=DIR (the project\'s tests: '
                           'MICROBENCH_IOR_BINDIR=DIR), or install it from ')
    assert said.endswith('; Spack package ior)')


@pytest.mark.parametrize('program, source', [
    ('fi_info', 'libfabric-bin'), ('/usr/bin/time', 'apt-get install time'),
    ('lfs', 'the Lustre client')])
def test_a_system_program_says_where_it_comes_from(program, source):
    said = missing.hint(program, 'nid1', 'fabtests_bindir')
    assert said.startswith(f'{program} not found ')
    assert source in said and '\n' not in said


def test_the_variables_are_those_the_rounds_and_the_tests_read():
    '''Each rounds fixture's directory variable has the tests' variable,
    and every ``MICROBENCH_*_BINDIR`` a test reads is one of them.'''
    bindirs = {rounds.bindir for rounds in rounds_classes()}
    assert set(missing.TEST_VARIABLES) == bindirs
    read = set()
    for path in glob.glob(os.path.join(project.ROOT, 'tests', '**', '*.py'),
                          recursive=True):
        with open(path) as fp:
            read |= set(re.findall(r"environ\.get\('(MICROBENCH_\w+_BINDIR)'",
                                   fp.read()))
    assert read and read <= set(missing.TEST_VARIABLES.values())


def test_a_too_old_benchmark_says_where_a_newer_one_is_given():
    said = missing.newer('fio_bindir', 'fio 3.40 or later')
    assert said.startswith('give fio 3.40 or later with -S fio_bindir=DIR '
                           '(the project\'s tests: MICROBENCH_FIO_BINDIR=DIR)'
                           ', or install it from ')
    assert 'spack_envs/' in said


#: The checks whose benchmarks Debian does not package, and their
#: directory variables
NOT_PACKAGED = {'ior_page_cache': 'ior_bindir',
                'mdtest_metadata': 'mdtest_bindir',
                'osu_buffer_reuse': 'osu_bindir',
                'elbencho_storage': 'elbencho_bindir',
                'fabtests_completion': 'fabtests_bindir'}


def test_a_real_run_without_the_benchmarks_says_how_to_give_each(tmp_path):
    empty = tmp_path / 'empty'
    empty.mkdir()
    options = [word for check, bindir in NOT_PACKAGED.items()
               for word in ('-n', f'^{check}', '-S', f'{bindir}={empty}')]
    proc = project.run_checks(tmp_path, '--mode', 'quick', *options)
    assert proc.returncode == 0, proc.stdout[-3000:]
    skips = {}
    for line in proc.stdout.splitlines():
        match = re.search(r'SKIP.* (\w+_rounds) ~.*?\[(.*)\]$', line)
        if match:
            skips[match[1]] = match[2]
    assert set(skips) == {f'{check}_rounds' for check in NOT_PACKAGED}
    for check, bindir in NOT_PACKAGED.items():
        said = skips[f'{check}_rounds']
        assert re.match(rf'\w+ not found in -S {bindir}={empty} on \S+: '
                        rf'give the directory that holds it with -S '
                        rf'{bindir}=DIR \(the project\'s tests: '
                        rf'MICROBENCH_\w+_BINDIR=DIR\), or install it from '
                        rf'the partition\'s locked Spack environment '
                        rf'\(spack_envs/, ci/spack_install.sh '
                        rf'SYSTEM/PARTITION; Spack package [\w-]+\)$',
                        said), said
