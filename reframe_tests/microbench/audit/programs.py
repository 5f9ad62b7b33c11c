'''The programs the audit judges: which tool a program's name is, and
what a word names otherwise (a renamed binary, a variable whose name says
the tool).'''

import re

from microbench.audit import getopt, io500run

#: libfabric's own programs, not fabtests' (fi_pingpong, libfabric's
#: util/pingpong.c, a program of its own, is judged on its own)
NOT_FABTESTS = ('fi_info', 'fi_pingpong', 'fi_strerror')

#: What follows ``osu_`` in a word that names no OSU benchmark (OSU's own
#: helpers, osu_util*; a check's names for the suite: osu_benchmarks,
#: osu_binaries, osu_dir)
NOT_OSU = {'util', 'util_mpi', 'util_pgas', 'benchmarks', 'binaries', 'dir',
           'path', 'version', 'home', 'root', 'bin', 'src', 'build', 'tests',
           'test', 'micro_benchmarks', 'run', 'check', 'checks', 'base',
           'options', 'flags', 'args', 'opts', 'module', 'install',
           'prefix', 'download', 'url', 'tarball'}

#: fabtests' driver and the wrapper that runs it with its arguments
#: (:mod:`.runfabtests`)
RUNNERS = ('runfabtests.sh', 'fabtest_wrapper.sh')

#: The programs the audit judges, as its refusal names them
KNOWN = ("fio, ior, mdtest, elbencho, osu_*, libfabric's fi_pingpong, "
         "fabtests' fi_* and runfabtests.sh (not libfabric's fi_info, "
         "fi_strerror)")


def tool_of(program):
    '''The judge of a benchmark program, or None.'''
    if program == 'fio':
        return 'fio'
    if program.lower() in ('ior', 'mdtest', 'elbencho'):
        return program.lower()
    if program.startswith('osu_') and program[4:] not in NOT_OSU:
        return 'osu'
    if program == 'fi_pingpong':
        return 'pingpong'
    if program in (io500run.PROGRAM, io500run.DRIVER):
        return 'io500'
    if program.startswith('fi_') and program not in NOT_FABTESTS:
        return 'fabtests'
    if program in RUNNERS:
        return 'runfabtests'
    name = canonical(program)
    return tool_of(name) if name and name != program else None


#: What a renamed binary adds to its program's name (``ior.exe``,
#: ``osu_bw.x``, ``ior_bin``, ``fio-3.33``; a container image's tag,
#: ``fio:latest``)
_SUFFIX = re.compile(r'(\.x|\.exe|[-_.]bin|[-_.]v?\d+(\.\d+)*|:\w[\w.-]*)$',
                     re.IGNORECASE)
#: The parts of a variable's name that say it is no program (a path may
#: be the program's: ``${IOR_PATH} -a POSIX ...``)
_NOT_PROGRAM = {'dir', 'home', 'root', 'opts', 'args', 'params',
                'flags', 'options', 'prefix', 'base', 'src', 'build',
                'install', 'file', 'files', 'out', 'output', 'log', 'lib',
                'version', 'ver', 'size', 'ini', 'config', 'seed'}
#: The tools a variable's name may name
_NAMED_BY_VARIABLE = ('ior', 'mdtest', 'fio', 'elbencho')


#: A shell script named for the tool it wraps and runs with the tool's
#: options (``run_fio.sh -rw=write ...``, ``ior.sh``, ``fio-run.sh``)
_WRAPPER_SCRIPT = re.compile(r'^(?:(?:run|do|start|launch|exec)[-_])?'
                             r'(fio|ior|mdtest|elbencho)'
                             r'(?:[-_](?:run|test|bench|wrapper))?\.(?:sh|bash)$')
#: A shell function of another file named for the tool it runs with the
#: tool's options (blktests' ``_fio_perf --bs=4k ...``, ``run_fio
#: --rw=...``, ``do_fio_run``)
_WRAPPER_FUNCTION = re.compile(r'^_?(?:(?:run|do|start|launch|exec)_)?'
                               r'(fio|ior|mdtest|elbencho)'
                               r'(?:_(?:run|test|bench|wrapper|perf))?$')


def canonical(program):
    '''The benchmark a program word names otherwise (a renamed binary, a
    wrapper script named for it, a variable whose name says the tool), or
    None.'''
    wrapper = _WRAPPER_SCRIPT.match(program) or \
        _WRAPPER_FUNCTION.match(program)
    if wrapper and wrapper[0] != wrapper[1]:
        return wrapper[1]
    variable = getopt.UNSET.match(program)
    if variable:
        parts = variable[1].lower().split('_')
        if _NOT_PROGRAM & set(parts):
            return None
        return next((part for part in parts
                     if part in _NAMED_BY_VARIABLE), None)
    stripped = _PACKAGED.sub('', _SUFFIX.sub('', program))
    return stripped if stripped != program and stripped else None


#: What a distribution's package puts before a benchmark's name (Fedora's
#: and RHEL's mpitests-openmpi: ``mpitests-osu_bw``, ``mpitests-IMB-MPI1``)
_PACKAGED = re.compile(r'^mpitests-')
