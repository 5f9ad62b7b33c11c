'''fabtests' own driver, ``runfabtests.sh`` (libfabric's
``fabtests/scripts/runfabtests.sh`` @ 012906a8), and the wrapper that
passes its arguments to it (libfabric's ``contrib/cray/bin/
fabtest_wrapper.sh``: ``runfabtests.sh "$@" 'verbs;ofi_rxm' SERVER
CLIENT``, the job's first and last nodes).

``runfabtests.sh [-t SETS] [-C CLIENT_ARGS] [-L SERVER_ARGS] ...
[provider] [host] [client]`` runs sets of fabtests between a server and a
client: ``quick`` (its default) is the unit, functional and short sets,
``all`` the unit, functional, standard and complex ones.  The short set
(``fi_msg_pingpong -I 5``, ``fi_rdm_tagged_bw -I 5``, ...) and the
standard one (the same programs, their default iterations) are fabtests'
benchmarks, each run with fabtests' default completion method, busy
polling, unless the client's and the server's extra arguments (``-C``,
``-L``) choose a waiting one (``-c fd``, ``sread``, ``yield``).
'''

from microbench.audit import getopt, network
from microbench.audit.findings import CERTAIN, Finding, Invocation

#: runfabtests.sh's getopts string (its leading ``:`` dropped)
OPTSTRING = 'vt:p:g:e:f:c:s:u:T:C:L:NRSkE:'

#: Its test sets, as ``-t`` names them
SETS = {'quick': ('unit', 'functional', 'short'),
        'all': ('unit', 'functional', 'standard', 'complex')}

#: The sets that run fabtests' benchmarks, and what they run
TIMED = {'short': 'fi_msg_pingpong -I 5, fi_rdm_tagged_bw -I 5, ...',
         'standard': 'fi_msg_pingpong, fi_rdm_tagged_bw, ...'}


def _sets(given):
    '''The test sets ``-t`` names (runfabtests.sh's default: quick).'''
    named = getopt.value(given, '-t') or 'quick'
    out = []
    for part in named.split(','):
        out.extend(SETS.get(part.strip(), (part.strip(),)))
    return out


def _waits(given):
    '''The waiting completion method the extra arguments of both sides
    choose (``-C``, ``-L``: ``-c fd``), or None.'''
    chosen = []
    for option in ('-C', '-L'):
        said = (getopt.value(given, option) or '').split()
        method = said[said.index('-c') + 1].lower() if '-c' in said[:-1] \
            else 'spin'
        chosen.append(next((name for name in network.WAITING
                            if method.startswith(name)), None))
    return chosen[0] if chosen[0] and chosen[0] == chosen[1] else None


def judge_runner(launch, where, context):
    '''The fabtests a runfabtests.sh line runs: N2 where its benchmark
    sets poll, N3 where the launcher pins it, M1 where the input is a
    whole run.'''
    program = launch.program
    given, _ = getopt.parse(launch.argv, network.optstring_table(
        OPTSTRING, {}), program, where, positional=True)
    found = Invocation('fabtests', where)
    timed = [name for name in _sets(given) if name in TIMED]
    if not timed:
        found.not_judged.append(
            f'-t {getopt.value(given, "-t")}: none of its sets is one of '
            f'fabtests\' benchmarks (short, standard): N2, N3 not judged')
        return [found]
    if _waits(given) is None:
        runs = '; '.join(f'{name}: {TIMED[name]}' for name in timed)
        found.findings.append(Finding(
            'N2', f'{program}: its benchmark sets ({runs}) run with '
            f'fabtests\' default completion method (no -c fd in -C and '
            f'-L): they spin on the completion queue, a core at 100 %',
            where, CERTAIN, note=('-C \'-c fd\' -L \'-c fd\': the client '
                                  'and the server wait on a file '
                                  'descriptor (microbench\'s '
                                  'fabtests_completion)')))
    network.binding(found, launch, given, program)
    network.samples(found, context, where, program, f'{program} runs each '
                    f'test of its sets once, one figure each')
    return [found]
