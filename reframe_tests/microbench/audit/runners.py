'''Programs the input does not define that run a benchmark they are
given (:func:`.words.launch`): a shell script (``./run_guest.sh fio
--rw=write ...``), a shell function of another file (``justcmd
runfabtests.sh -vvv ...``), or one given a command string (``tp $host
"runfabtests.sh -v ..."``: a function that runs it on a host); never a
program that prints, looks up or installs its arguments (``echo``,
``which``, ``spack install``).'''

import re

from microbench.audit import shellwords
from microbench.audit.launchers import LAUNCHERS


def runs_arguments(name, rest, known):
    '''How many words of its own (its options) a script or a wrapper the
    input does not define takes before the command line it is given to
    run (``./run_guest.sh fio --rw=write ...``, a shell function of
    another file: ``justcmd runfabtests.sh -vvv ...``, ``time_json -o
    FILE mpirun -np 4 ior ...``), or None: that command a benchmark the
    audit knows with an option after it (``./build.sh ior`` builds one),
    or a launcher; a program that prints or looks up its arguments
    (``echo``, ``which``) runs none.'''
    if not _runner(name, known):
        return None
    for at, word in enumerate(rest[:_OPTIONS_BEFORE]):
        program = _name(word)
        if at + 1 < len(rest) and (program in LAUNCHERS or known(
                program) and rest[at + 1].startswith('-')):
            return at if at == 0 or rest[0].startswith('-') else None
    return None


#: The words of its own options a wrapper may take before the command
_OPTIONS_BEFORE = 6


def runs_string(name, rest, known):
    '''(the words before it, its words) of a command string that a
    wrapper the input does not define is given to run (``tp $host
    "runfabtests.sh -v ..."``: a function of another file running it on
    a host), or None: its first word a benchmark, an option after it.'''
    if not _runner(name, known):
        return None
    for before, word in enumerate(rest[:3]):
        if not re.search(r'\s', word.strip()):
            continue
        try:
            inner = shellwords.split(word)
        except ValueError:
            return None
        if len(inner) > 1 and known(_name(inner[0])) and \
                inner[1].startswith('-'):
            return before, inner
        return None
    return None


def _runner(name, known):
    '''Whether a program may run what it is given: named as a script or a
    command is, not a benchmark, not one that prints or installs.'''
    return known is not None and RUNNER.fullmatch(name) is not None and \
        name not in NOT_RUNNERS and not known(name)


def _name(word):
    '''The program a word names, without its directory (as
    :func:`.words.program_name`, which imports this module).'''
    return word.rsplit('/', 1)[-1]


#: A runner's name: a shell script's, or a command's or a shell
#: function's (no extension: ``run.py`` is another language's program)
RUNNER = re.compile(r'[\w+-]+|[\w.+-]+\.(?:sh|bash)')


#: Programs given a benchmark's name that print, look up, install or
#: build it, never run it
NOT_RUNNERS = {'echo', 'printf', 'print', 'cat', 'man', 'which', 'type',
               'whereis', 'grep', 'egrep', 'fgrep', 'sed', 'awk', 'info',
               'help', 'log', 'logger', 'test', 'alias', 'declare',
               'local', 'readonly', 'set', 'unset', 'module', 'ml',
               'spack', 'apt', 'apt-get', 'yum', 'dnf', 'zypper', 'brew',
               'pip', 'pip3', 'conda', 'git', 'make', 'cmake', 'install',
               'kill', 'pkill', 'killall', 'pgrep', 'pidof', 'wget',
               'curl'}
