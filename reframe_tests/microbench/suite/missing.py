'''What a check skipped for a missing program says: how to give it, in one
line.

A rounds job records the first program of its ``tools_needed`` it does not
find (``microbench: missing: <program>``) and its checks skip
(:meth:`~microbench.suite.rounds.Rounds.collect_records`); a probe finds a
benchmark too old for a variant (fio's ``dontcache``, OSU's buffers).
Either way the person reading the skip needs the three ways to give the
suite that program, which :func:`hint` and :func:`newer` say from one place:

- ``-S <tool>_bindir=DIR``: the directory of a build of the benchmark (each
  tool's rounds declare the variable: ``Rounds.bindir``);
- ``MICROBENCH_<TOOL>_BINDIR=DIR``: the same, for the project's own tests
  (:data:`TEST_VARIABLES`, which a test holds against what the tests read);
- the partition's locked Spack environment in ``spack_envs/``, installed by
  ``ci/spack_install.sh SYSTEM/PARTITION`` (its Spack package:
  ``spack_envs/tools.yaml``, :func:`microbench.spack.packages`).

Programs that are not benchmarks (libfabric's ``fi_info``, GNU ``time``,
Lustre's ``lfs``) come from the system: :data:`SYSTEM` says from where.
'''

import os

from microbench import spack

#: A rounds fixture's directory variable -> the environment variable of
#: the project's tests that gives it (mdtest comes with IOR)
TEST_VARIABLES = {
    'fio_bindir': 'MICROBENCH_FIO_BINDIR',
    'ior_bindir': 'MICROBENCH_IOR_BINDIR',
    'mdtest_bindir': 'MICROBENCH_IOR_BINDIR',
    'osu_bindir': 'MICROBENCH_OSU_BINDIR',
    'fabtests_bindir': 'MICROBENCH_FABTESTS_BINDIR',
    'elbencho_bindir': 'MICROBENCH_ELBENCHO_BINDIR',
}

#: Programs a check needs that are not benchmarks: where they come from
SYSTEM = {
    'fi_info': ("libfabric's utilities (Debian: apt-get install "
                "libfabric-bin; Spack: libfabric, with fabtests in "
                "spack_envs/)"),
    'time': 'GNU time (Debian: apt-get install time)',
    'lfs': ("the Lustre client (the striping checks measure only where "
            "the scratch is Lustre)"),
}

#: Where the locked Spack environments are, and what installs one
SPACK = ('the partition\'s locked Spack environment (spack_envs/, '
         'ci/spack_install.sh SYSTEM/PARTITION')


def _package(program):
    '''The Spack package of a benchmark ``program``, or None.'''
    try:
        return spack.packages([program])[0]
    except (OSError, KeyError, IndexError, TypeError, ValueError):
        return None


def ways(bindir):
    '''How to give the suite a benchmark whose directory variable is
    ``bindir`` (``fio_bindir``): ``-S``, the tests' variable, Spack.'''
    test_variable = TEST_VARIABLES.get(bindir)
    tests = (f" (the project's tests: {test_variable}=DIR)"
             if test_variable else '')
    return f'-S {bindir}=DIR{tests}'


def hint(program, node, bindir=None, bindir_value=''):
    '''The one-line skip of a check whose rounds job did not find
    ``program`` on ``node``: what is missing, and how to give it.

    ``bindir`` is the name of the rounds fixture's directory variable
    (``ior_bindir``; None: the tool has none) and ``bindir_value`` its
    value (empty: the programs are looked up on PATH).
    '''
    name = os.path.basename(program)
    if bindir and bindir_value and os.path.dirname(program):
        found = f'{name} not found in -S {bindir}={bindir_value} on {node}'
    elif os.path.dirname(program):
        found = f'{program} not found on {node}'
    else:
        found = f'{program} not found on PATH on {node}'
    if name in SYSTEM:
        return f'{found}: it comes with {SYSTEM[name]}'
    package = _package(name)
    spack_words = (f'{SPACK}; Spack package {package})' if package
                   else f'{SPACK})')
    if bindir:
        return (f'{found}: give the directory that holds it with '
                f'{ways(bindir)}, or install it from {spack_words}')
    return f'{found}: put it on PATH, or install it from {spack_words}'


def newer(bindir, what):
    '''The end of a skip for a benchmark too old for a variant: where a
    newer one (``what``: ``fio 3.40 or later``) is given.'''
    return (f'give {what} with {ways(bindir)}, or install it from '
            f'{SPACK})')
