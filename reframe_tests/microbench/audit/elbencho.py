'''elbencho: the catalogue's rules (S1, S2, S4, S6, M1) and the realistic
rewrite (:mod:`microbench.knobs`: ``--direct``, no ``--preallocfile``),
against the options of elbencho v3.1-9's ``source/ProgArgs.cpp``.'''

import re

from microbench import knobs
from microbench.audit import getopt, options
from microbench.audit.bounds import excerpt, integer
from microbench.audit.context import memory_text, repeated, size_text
from microbench.audit.findings import (CERTAIN, Finding, Invocation,
                                       Unreadable, depends)
from microbench.audit.fiojob import size_bytes


#: elbencho's phases (a run without one measures nothing)
PHASES = {'-w', '--write', '-r', '--read', '-d', '--mkdirs', '-D', '--deldirs',
          '-F', '--delfiles', '--stat', '--sync', '--dropcache'}


def _value(given, *names):
    option = getopt.last(given, *names)
    return option.value if option is not None else None


def _rotated(given, where):
    '''What ``--rotatehosts N`` makes of the read after the write: None
    where it rotates nothing (no --hosts, N 0); False where each host
    reads another's data; else the certainty that it reads its own
    (N a multiple of the hosts: certain; their count not said:
    depends).'''
    rotate = _number(given, where, 0, '--rotatehosts')
    hosts = getopt.value(given, '--hosts')
    if not rotate or not hosts:
        return None
    if getopt.UNSET.match(hosts) or '<' in hosts or '$' in hosts:
        return depends(f'the number of hosts {hosts} names: with '
                       f'--rotatehosts {rotate} a multiple of them, every '
                       f'host reads its own data')
    count = len([h for h in re.split(r'[,\s]+', hosts) if h])
    return CERTAIN if rotate % count == 0 else False


def _number(given, where, default, *names):
    '''The integer value of the last of ``names``, ``default`` where not
    given or left to the script (``$(nproc)``, ``$THREADS``).

    :raises Unreadable: where it is not an integer (elbencho stops: "the
        argument for option is invalid").
    '''
    option = getopt.last(given, *names)
    if option is None or getopt.UNSET.match(option.value or ''):
        return default          # not given, or left to the script's run
    number = integer(option.value)
    if number is None:
        raise Unreadable(f'{where}: elbencho option {option.name} takes a '
                         f'number, not {excerpt(option.value)} (elbencho '
                         f'would stop)')
    return number


def judge_elbencho(launch, where, context):
    argv = launch.argv
    given, paths = getopt.parse(argv, options.getopt_table('elbencho'),
                                'elbencho', where, positional=True)
    found = Invocation('elbencho', where)
    if getopt.last(given, '--service') is not None:
        found.not_judged.append('--service: a service waits for a client; '
                                'the client\'s command is judged')
        return [found]
    phases = [o for o in given if o.name in PHASES]
    if not phases:
        found.not_judged.append('no benchmark phase (-w, -r, -d, -F, -D, '
                                '--stat, ...): nothing is measured')
        return [found]
    writes = getopt.last(given, '-w', '--write') is not None
    reads = getopt.last(given, '-r', '--read') is not None
    direct = getopt.last(given, '--direct') is not None
    size = size_bytes(_value(given, '-s', '--size'))
    threads = _number(given, where, 1, '-t', '--threads')
    dirs = _number(given, where, 0, '-n', '--dirs')
    files = _number(given, where, 0, '-N', '--files')
    count = threads * dirs * files if dirs and files else max(len(paths), 1)
    total = size * count if size else None
    memory = context.memory
    fits = (CERTAIN if total and memory and total < memory else depends(
        f'the data ({size_text(total) if total else "?"}) against the '
        f'memory of {context.memory_of} ({memory_text(memory)})'))
    io_fix = ((), knobs.ELBENCHO_IO['direct'])
    empty = size == 0 and getopt.last(given, '-s', '--size') is not None
    if writes and not direct and not empty:     # --size 0: no data written
        _finding(found, launch, given, 'S1', '-w without --direct: every '
                 'write lands in the page cache', fits, io_fix,
                 {'check': 'elbencho_storage',
                  'gap': 'write_buffered_over_direct'})
    rotated = _rotated(given, where)
    if reads and writes and not direct and rotated is not False and \
            getopt.last(given, '--dropcache') is None:
        _finding(found, launch, given, 'S4', '-r after -w in one run without '
                 '--direct or --dropcache: the read comes back from the '
                 'page cache' + ('' if rotated is None else ' (--rotatehosts '
                                 'moves it to the host its count away)'),
                 fits if rotated is None else rotated, io_fix,
                 {'check': 'elbencho_storage',
                  'gap': 'read_buffered_over_direct'})
    if writes and getopt.last(given, '--preallocfile') is not None:
        _finding(found, launch, given, 'S2', '--preallocfile: '
                 'posix_fallocate() reserves the file before the writes',
                 CERTAIN, (('--preallocfile',),
                           knobs.ELBENCHO_ALLOCATION['grow']),
                 {'check': 'elbencho_storage',
                  'gap': 'write_prealloc_over_grow'})
    variance = _number(given, where, None, '--blockvarpct')
    if writes and variance is not None and variance < 100:
        _finding(found, launch, given, 'S6', f'--blockvarpct {variance}: '
                 f'{100 - variance} % of every block repeats',
                 depends('the storage compressing or deduplicating'),
                 (('--blockvarpct',), knobs.ELBENCHO_BLOCK_VARIANCE['random']),
                 None)
    reps = _number(given, where, None, '-i', '--iterations')
    said = repeated(context, found, reps if reps is not None else 1,
                    f'--iterations {reps}' if reps is not None else None)
    if said:
        found.findings.append(Finding(
            'M1', f'{said[0]}: elbencho reports one figure per phase',
            where, said[1], launch.text([*argv, '--iterations', '3'])))
    if found.findings:
        fixes = [f.fix for f in found.findings]
        drop = {n for fix in fixes if fix for n in fix[0]}
        add = [w for fix in fixes if fix for w in fix[1]]
        if said:
            add += ['--iterations', '3']
        found.realistic = launch.text(getopt.rewrite(argv, given, drop,
                                                     add))
    return [found]


def _finding(found, launch, given, pitfall, evidence, certainty, fix,
             measure):
    realistic = launch.text(getopt.rewrite(launch.argv, given, *fix))
    finding = Finding(pitfall, evidence, found.where, certainty, realistic,
                      measure=measure)
    finding.fix = fix
    found.findings.append(finding)
