'''IOR and mdtest: the catalogue's rules on a command line, and the
realistic rewrite (:mod:`microbench.knobs`: IO500's ``-C -Q 1 -e``,
``--posix.odirect`` on one node, mdtest's ``-N 1``).

IOR's read after ``-C`` goes ``-Q`` nodes away (IOR 4 multiplies ``-Q`` by
the tasks of node 0 where tasks are placed by node), so it reads another
node's data only if ``-Q`` is not a multiple of the nodes.  A repeated
``-C`` shifts no further: IOR 4.0.0 and its main branch read only ``-Q``
(commit 4a34dfc multiplied it by the count of ``-C``; 5fcf0ba reverted
that).  mdtest's ``-N`` is multiplied by the tasks per node too; its read
phase goes twice the stride.
'''

import re

from microbench import knobs
from microbench.audit import getopt, options
from microbench.audit.bounds import excerpt
from microbench.audit.context import (memory_text, repeated,
                                      repeated_unless, size_text)
from microbench.audit.findings import (CERTAIN, Finding, Invocation,
                                       depends)
from microbench.audit.fiojob import size_bytes

#: IOR's spellings of O_DIRECT: IOR 4's module option, the directive
#: IOR 4 still maps to it, IOR 3.2's -B
ODIRECT_DIRECTIVES = ('useo_direct', 'posix.odirect')

#: IOR APIs whose I/O goes through the client's page cache
CACHED_APIS = {'POSIX', 'MPIIO', 'HDF5', 'NCMPI', 'MMAP', 'AIO'}


def _nodes(launch, context):
    '''(nodes, tasks per node, tasks) of the ranks, each None where not
    known; no launcher is one process on one node.'''
    if launch.flavour == 'local':
        return 1, 1, 1
    per_node = launch.per_node or context.job_per_node
    tasks = launch.tasks or context.job_tasks
    nodes = launch.nodes
    if nodes is None and launch.tasks and per_node:
        nodes = -(-launch.tasks // per_node)   # filled node by node
    nodes = nodes or context.job_nodes
    if nodes is None and tasks and per_node:
        nodes = -(-tasks // per_node)
    if nodes is None and tasks == 1:
        nodes = 1                       # one task is on one node
    if per_node is None and tasks and nodes:
        per_node = -(-tasks // nodes)
    if tasks is None and nodes and per_node:
        tasks = nodes * per_node
    return nodes, per_node, tasks


def _directives(given):
    out = {}
    for option in given:
        if option.name == '-O' and option.value:
            for pair in option.value.split(','):
                key, _, value = pair.partition('=')
                out[key.strip().lower()] = value.strip()
    return out


def _text(launch, argv):
    return launch.text(argv)


def judge_ior(launch, where, context):
    argv = launch.argv
    table = options.getopt_table('ior')
    given, _ = getopt.parse(argv, table, 'IOR', where, groups=True)
    found = Invocation('IOR', where)
    directives = _directives(given)
    for option in given:
        releases = table[option.name][1]
        if '4.0.0' not in releases:
            found.not_judged.append(
                f'{option.name}: an option of IOR {", ".join(releases)} '
                f'only (IOR 4.0.0 rejects it)')
    script = getopt.last(given, '-f')
    if script:
        _ior_script(found, launch, given, script.value, context)
        return [found]
    api = (getopt.value(given, '-a') or 'POSIX')
    target = getopt.value(given, '-o') or ''
    if api.upper() not in CACHED_APIS and not getopt.UNSET.match(api):
        found.not_judged.append(f'-a {api}: not an API of the client\'s '
                                f'page cache (S4 not judged)')
    elif USER_SPACE.match(target):
        found.not_judged.append(f'-o {excerpt(target)}: ROMIO\'s user-space '
                                f'driver, no client page cache (S4 not '
                                f'judged)')
    else:
        _ior_cache(found, given, directives, launch, context)
    _ior_stripes(found, given, directives, launch)
    _iterations(found, context, given, where, launch, argv,
                'IOR reports one figure per phase')
    return [found]


def _ior_script(found, launch, given, script, context):
    '''IOR ``-f FILE``: its tests, their phases, defences (``-e``,
    ``-C``, O_DIRECT) and repetitions are in the script file, which is
    not read: S4 and M1 depend on it (IOR's defaults have neither defence
    nor repetition).'''
    named = excerpt(script)
    found.not_judged.append(f'-f: an IOR script file, {named}, not here: '
                            f'its tests are not read')
    _ior_finding(found, launch, given, f'-f {named}: the phases and their '
                 f'defences (-e, -C, O_DIRECT) are in the IOR script file; '
                 f'IOR\'s defaults have none', depends(
                     f'what {named} sets'), (), (), None)
    runs = repeated_unless(context, found, 'IOR reports one figure per '
                           'phase', named)
    if runs is not None:
        found.findings.append(runs)


def _int(text):
    try:
        return int(size_bytes(text, 1000) or 0)
    except (TypeError, ValueError):
        return 0


def _apply(argv, given, fixes):
    '''``argv`` with every fix (options dropped, option words added).'''
    drop, add = set(), []
    for fix in fixes:
        if fix:
            drop.update(fix[0])
            add.extend(fix[1])
    return getopt.rewrite(argv, given, drop, add)


def _ior_cache(found, given, directives, launch, context):
    phases = {o.name for o in given if o.name in ('-w', '-r', '-W', '-R')}
    writes = '-w' in phases or not phases
    reads = bool({'-r', '-R'} & phases) or not phases
    odirect = (getopt.last(given, '--posix.odirect', '-B') is not None
               or any(directives.get(k, '0') not in ('0', '') for k in
                      ODIRECT_DIRECTIVES))
    if odirect:
        return
    nodes, per_node, tasks = _nodes(launch, context)
    memory = context.memory
    transfer = size_bytes(getopt.value(given, '-t')
                          or '256k')
    block = size_bytes(getopt.value(given, '-b')
                       or '1m')
    segments = _int(getopt.value(given, '-s') or '1')
    per_task = (block or 0) * (segments or 1)
    on_node = per_task * (per_node or 1)
    fits = (CERTAIN if memory and on_node and on_node < memory else depends(
        f'the data of a node ({size_text(on_node) if on_node else "?"}: '
        f'-b x -s x tasks per node) against the memory of '
        f'{context.memory_of} ({memory_text(memory)})'))
    hog = getopt.last(given, '-M')
    if hog is not None or directives.get('memorypernode'):
        return
    fsync = getopt.last(given, '-e', '-Y') is not None or \
        directives.get('fsync', '0') not in ('0', '')
    reorder = getopt.last(given, '-C', '-Z') is not None or \
        directives.get('reordertasks', '0') not in ('0', '') or \
        directives.get('reordertasksconstant', '0') not in ('0', '')
    aligned = transfer is not None and transfer % 4096 == 0
    one_node = nodes == 1
    defence = ('reorder_fsync' if not one_node else 'odirect' if aligned
               else None)
    fix_words = (knobs.IOR_DEFENCES[defence] if defence else
                 ('-M', knobs.IOR_MEMORY_PER_NODE))
    gap = ('easy_read_none_over_odirect' if one_node else
           'easy_read_none_over_reorder_fsync')
    measure = {'check': 'ior_page_cache', 'gap': gap, 'nodes': nodes,
               'tasks': tasks}
    if not writes and context.caches_dropped and one_node:
        return      # a read-only run after the script emptied the cache
    if reads and writes and not reorder:
        # --measure reads it: the read after write, measured on one node
        # against O_DIRECT (audit/measure.py)
        finding = _ior_finding(
            found, launch, given, 'read after write without -C (nor -Z, '
            'O_DIRECT or -M): every task reads back what its own node '
            'wrote', fits, ('-C', '-Q', '-Z', '-e') if defence ==
            'reorder_fsync' else (), fix_words,
            {**measure, 'read_after_write': True})
    elif reads and reorder:
        shift_said = getopt.value(given, '-Q') or '1'
        shift = _int(shift_said) or 1
        repeats = getopt.count(given, '-C')
        twice = (f' (-C given {repeats} times: IOR 4.0.0 and its main '
                 f'branch still shift -Q nodes)' if repeats > 1 else '')
        # -Z alone: the tasks shuffled, a task reads a random task's data
        shuffled = getopt.last(given, '-C') is None
        if shuffled:
            shift = nodes or 1          # wraps only where it is one node
        if nodes is None:
            finding = _ior_finding(
                found, launch, given, '-Z: a task reads the data of a task '
                'drawn at random' if shuffled else f'-C -Q {shift_said}'
                f'{twice}: a task reads the data of the node -Q away',
                depends('the number of nodes: on one node, or with -Q a '
                        'multiple of the nodes, every task reads its own '
                        'node\'s data'), None, None,
                # --measure: on this one node, against O_DIRECT
                {**measure, 'gap': 'easy_read_none_over_odirect',
                 'read_after_write': True})
        elif one_node or shift % nodes == 0:
            where_to = ('every task is on one node' if one_node else
                        f'-Q {shift} on {nodes} nodes wraps around to the '
                        f'task\'s own node')
            said = ('-Z' if shuffled else f'-C -Q {shift}' if
                    getopt.last(given, '-Q') else '-C')
            finding = _ior_finding(
                found, launch, given, f'{said}{twice}: {where_to}: the '
                f'read is the page cache\'s',
                CERTAIN, ('-C', '-Q', '-Z') if not one_node else (),
                knobs.IOR_REORDER if not one_node else fix_words, measure)
        else:
            finding = None
        if finding is not None and not reads:
            found.findings.remove(finding)
    elif reads and not writes:
        _ior_finding(found, launch, given, 'a read without -C: if these '
                     'tasks wrote the file before (a separate IOR run), '
                     'each reads back its own node\'s data', depends(
                         'which tasks wrote the file, and when'),
                     (), knobs.IOR_REORDER, None)
    if writes and not fsync:
        _ior_finding(found, launch, given, 'write without -e (nor -Y or '
                     'O_DIRECT): the write figure stops before the data '
                     'leaves the page cache', fits, (), knobs.IOR_FSYNC,
                     {'check': 'ior_page_cache',
                      'gap': 'easy_write_none_over_fsync', 'nodes': nodes,
                      'tasks': tasks})


def _ior_finding(found, launch, given, evidence, certainty, drop, add,
                 measure):
    fix = (tuple(drop or ()), tuple(add)) if add else None
    realistic = (_text(launch, _apply(launch.argv, given, [fix]))
                 if fix else None)
    finding = Finding('S4', evidence, found.where, certainty, realistic,
                      measure=measure)
    finding.fix = fix
    found.findings.append(finding)
    return finding


#: ROMIO's prefixes of file systems it reaches from user space, past the
#: kernel's page cache (``pvfs2://mnt/...``, ``daos:``, DDN's ``ime://``)
USER_SPACE = re.compile(r'^(pvfs2|daos|ime|dfs):', re.IGNORECASE)
#: What a path may say of a file system that is not Lustre, or of a
#: node's own storage (a shared file's stripe is Lustre's question only)
NOT_LUSTRE = re.compile(r'beegfs|gpfs|nfs|vast|weka|quobyte|daos|ceph|pvfs|'
                        r'panfs|/gs/|^/dev/shm|^/tmp|^/var/tmp|^/local|'
                        r'^/mnt/local|^/nvme|^/ssd', re.IGNORECASE)
#: IOR's APIs that write a file through a POSIX file system
_FILE_APIS = ('POSIX', 'MPIIO', 'HDF5', 'NCMPI', 'MMAP', 'AIO')


def _ior_stripes(found, given, directives, launch):
    '''S5: one shared file on Lustre (said by its path) without a stripe
    count; on a path that says no file system, it depends on it.'''
    target = getopt.value(given, '-o') or 'testFile'
    api = (getopt.value(given, '-a') or 'POSIX').upper()
    lustre = 'lustre' in target.lower() or '/lus/' in target
    if getopt.last(given, '-F') is not None or (
            api not in _FILE_APIS and not api.startswith('$')):
        return
    tasks = launch.tasks or _int(getopt.value(given, '-N'))
    if not lustre and (NOT_LUSTRE.search(target) or not launch.launcher
                       or (tasks or 2) < 2):
        return      # a shared file of many tasks, on a path that may be
    if getopt.last(given, '--posix.lustre.stripecount') is not None or \
            'lustrestripecount' in directives:
        return
    if lustre:
        evidence = (f'one shared file (no -F) on {target}, a Lustre path, '
                    f'without a stripe count')
        condition = ('the directory\'s default layout (lfs getstripe -d): '
                     'Lustre\'s default is one stripe')
    else:
        evidence = (f'one shared file (no -F) through {api} on {target}, '
                    f'its file system not said, without a stripe count')
        condition = ('the file system being Lustre at its default layout '
                     '(one stripe: every task on one OST)')
    finding = Finding(
        'S5', evidence, found.where, depends(condition),
        _text(launch, [*launch.argv, '--posix.lustre.stripecount=-1']),
        note='IOR built with Lustre support (HAVE_LUSTRE_USER); or run '
             f'lfs setstripe -c -1 on the directory of {target} first')
    finding.fix = ((), ('--posix.lustre.stripecount=-1',))
    found.findings.append(finding)


def judge_mdtest(launch, where, context):
    argv = launch.argv
    table = options.getopt_table('mdtest')
    given, _ = getopt.parse(argv, table, 'mdtest', where, groups=True)
    found = Invocation('mdtest', where)
    phases = {o.name for o in given if o.name in ('-C', '-T', '-E', '-r')}
    stats = '-T' in phases or not phases
    reads = '-E' in phases or not phases
    nodes, per_node, tasks = _nodes(launch, context)
    stride_option = getopt.last(given, '-N')
    stride = _int(stride_option.value) if stride_option else 0
    fix = (('-N',), knobs.MDTEST_STRIDES['node'])
    api = getopt.value(given, '-a') or 'POSIX'
    if api.upper() not in CACHED_APIS and not getopt.UNSET.match(api):
        # an object store or a user-space client: no kernel cache answers
        found.not_judged.append(f'-a {api}: not an API of the client\'s '
                                f'metadata cache (S4 not judged)')
        stats = reads = False
    measure = {'check': 'mdtest_metadata', 'gap': 'easy_stat_none_over_node',
               'nodes': nodes, 'tasks': tasks}
    if stride_option and getopt.UNSET.match(stride_option.value or ''):
        found.not_judged.append(f'S4: -N {stride_option.value}: the stride '
                                f'is what it holds, which the input does '
                                f'not say')
        stats = reads = False
    if (stats or reads) and not stride:
        evidence = ('stat and read of the files a task just created, no '
                    '-N: the client\'s metadata cache answers')
        unset = [w for w in launch.argv[1:] if getopt.UNSET.match(w)]
        certainty = depends(f'what {", ".join(unset[:3])} hold (they may '
                            f'give -N)') if unset else CERTAIN
        note = ('-N 1 needs tasks on two nodes or more' if nodes == 1
                else None)
        _md_finding(found, launch, given, evidence, certainty, fix, note,
                    measure)
    elif stats or reads:
        shift = f'-N {stride} (mdtest: {stride} x the tasks of a node)'
        if nodes is None:
            _md_finding(found, launch, given, f'{shift}: a task stats the '
                        f'files of the node {stride} away',
                        depends('the number of nodes: with -N a multiple '
                                'of them a task stats its own node\'s '
                                'files'), None, None, measure)
        elif nodes == 1 or (stats and stride % nodes == 0):
            _md_finding(found, launch, given, f'{shift} on {nodes} '
                        f'node{"s" if nodes > 1 else ""}: the stat goes '
                        f'back to the task\'s own node', CERTAIN,
                        fix if nodes > 1 else None,
                        'tasks on two nodes or more' if nodes == 1
                        else None, measure)
        elif reads and (2 * stride) % nodes == 0:
            _md_finding(found, launch, given, f'{shift} on {nodes} nodes: '
                        f'mdtest reads at twice the stride, back on the '
                        f'task\'s own node', CERTAIN, None,
                        f'a stride whose double is not a multiple of '
                        f'{nodes} nodes (three nodes or more with -N 1)',
                        measure)
    _iterations(found, context, given, where, launch, argv,
                'mdtest reports one rate per phase')
    return [found]


def _md_finding(found, launch, given, evidence, certainty, fix, note,
                measure):
    realistic = _text(launch, _apply(launch.argv, given, [fix])) \
        if fix else None
    finding = Finding('S4', evidence, found.where, certainty, realistic,
                      note=(f'needs {note}' if note else None),
                      measure=measure)
    finding.fix = fix
    found.findings.append(finding)


def _iterations(found, context, given, where, launch, argv, figure):
    '''M1 of IOR and mdtest, whose ``-i`` repeats the run inside one
    process (``figure``: what it reports of them), then the realistic form:
    the input with every finding's fix.'''
    reps = getopt.last(given, '-i')
    said = repeated(context, found, _int(reps.value) if reps else 1,
                    f'-i {reps.value}' if reps else None)
    if said:
        found.findings.append(Finding(
            'M1', f'{said[0]}: {figure}', where, said[1],
            _text(launch, [*argv, '-i', '3'])))
    if found.findings:
        fixes = [f.fix for f in found.findings if f.pitfall != 'M1']
        if said:
            fixes.append((('-i',), ('-i', '3')))
        found.realistic = _text(launch, _apply(argv, given, fixes))
