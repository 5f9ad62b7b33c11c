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

from microbench import knobs
from microbench.audit import getopt, iorwrite, options
from microbench.audit.bounds import excerpt
from microbench.audit.context import repeated, repeated_unless
from microbench.audit.findings import (CERTAIN, Finding, Invocation,
                                       depends)
from microbench.audit.fiojob import size_bytes
from microbench.audit.iorargs import (CACHED_APIS, NO_ODIRECT_APIS,
                                      USER_SPACE, apply, as_int, directives,
                                      fits, interposed, memory_hog,
                                      module_notes, modules, nodes, odirect)


def judge_ior(launch, where, context):
    argv = launch.argv
    table = options.getopt_table('ior')
    given, _ = getopt.parse(argv, table, 'IOR', where, groups=True,
                            modules=modules(argv, table))
    found = Invocation('IOR', where)
    found.not_judged.extend(module_notes(given, table))
    said = directives(given)
    for option in given:
        if option.name not in table:
            continue
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
    interposer = interposed(launch, context.env)
    if api.upper() not in CACHED_APIS and not getopt.UNSET.match(api):
        found.not_judged.append(f'-a {api}: not an API of the client\'s '
                                f'page cache (S4 not judged)')
    elif USER_SPACE.match(target):
        found.not_judged.append(f'-o {excerpt(target)}: ROMIO\'s user-space '
                                f'driver, no client page cache (S4 not '
                                f'judged)')
    elif interposer:
        found.not_judged.append(_interposed_note(interposer, 'S4, S5'))
    else:
        _ior_cache(found, given, said, launch, context)
    if not interposer:
        iorwrite.judge_write(found, given, said, launch, context)
        iorwrite.judge_stripes(found, given, said, launch, context.env)
    _iterations(found, context, given, where, launch, argv,
                'IOR reports one figure per phase')
    return [found]


def _interposed_note(interposer, pitfalls):
    library, system = interposer
    return (f'LD_PRELOAD={library}: its calls go to {system} in user '
            f'space, past the kernel\'s page cache ({pitfalls} not judged)')


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


def _ior_cache(found, given, said, launch, context):
    '''S4 of IOR's read phase (``said``: its ``-O`` directives).'''
    phases = {o.name for o in given if o.name in ('-w', '-r', '-W', '-R')}
    writes = '-w' in phases or not phases
    reads = bool({'-r', '-R'} & phases) or not phases
    if odirect(given, said) or memory_hog(given, said):
        return
    count, per_node, tasks = nodes(launch, context)
    transfer = size_bytes(getopt.value(given, '-t') or '256k')
    cached = fits(given, per_node, context)
    reorder = getopt.last(given, '-C', '-Z') is not None or \
        said.get('reordertasks', '0') not in ('0', '') or \
        said.get('reordertasksconstant', '0') not in ('0', '')
    # O_DIRECT defends only where the back end implements it
    aligned = transfer is not None and transfer % 4096 == 0 and (
        getopt.value(given, '-a') or said.get('api') or 'POSIX').upper() \
        not in NO_ODIRECT_APIS
    one_node = count == 1
    defence = ('reorder_fsync' if not one_node else 'odirect' if aligned
               else None)
    fix_words = (knobs.IOR_DEFENCES[defence] if defence else
                 ('-M', knobs.IOR_MEMORY_PER_NODE))
    gap = ('easy_read_none_over_odirect' if one_node else
           'easy_read_none_over_reorder_fsync')
    measure = {'check': 'ior_page_cache', 'gap': gap, 'nodes': count,
               'tasks': tasks}
    if not writes and context.caches_dropped and one_node:
        return      # a read-only run after the script emptied the cache
    if reads and writes and not reorder:
        # --measure reads it: the read after write, measured on one node
        # against O_DIRECT (audit/measure.py)
        _ior_finding(
            found, launch, given, 'read after write without -C (nor -Z, '
            'O_DIRECT or -M): every task reads back what its own node '
            'wrote', cached, ('-C', '-Q', '-Z', '-e') if defence ==
            'reorder_fsync' else (), fix_words,
            {**measure, 'read_after_write': True})
    elif reads and reorder:
        shift_said = getopt.value(given, '-Q') or '1'
        shift = as_int(shift_said) or 1
        repeats = getopt.count(given, '-C')
        twice = (f' (-C given {repeats} times: IOR 4.0.0 and its main '
                 f'branch still shift -Q nodes)' if repeats > 1 else '')
        # -Z alone: the tasks shuffled, a task reads a random task's data
        shuffled = getopt.last(given, '-C') is None
        if shuffled:
            shift = count or 1          # wraps only where it is one node
        if count is None:
            _ior_finding(
                found, launch, given, '-Z: a task reads the data of a task '
                'drawn at random' if shuffled else f'-C -Q {shift_said}'
                f'{twice}: a task reads the data of the node -Q away',
                depends('the number of nodes: on one node, or with -Q a '
                        'multiple of the nodes, every task reads its own '
                        'node\'s data'), None, None,
                # --measure: on this one node, against O_DIRECT
                {**measure, 'gap': 'easy_read_none_over_odirect',
                 'read_after_write': True})
        elif one_node or shift % count == 0:
            where_to = ('every task is on one node' if one_node else
                        f'-Q {shift} on {count} nodes wraps around to the '
                        f'task\'s own node')
            spelled = ('-Z' if shuffled else f'-C -Q {shift}' if
                       getopt.last(given, '-Q') else '-C')
            _ior_finding(
                found, launch, given, f'{spelled}{twice}: {where_to}: the '
                f'read is the page cache\'s',
                CERTAIN, ('-C', '-Q', '-Z') if not one_node else (),
                knobs.IOR_REORDER if not one_node else fix_words,
                # --measure: the read after its own node's write, on one
                # node against O_DIRECT (audit/measure.py)
                {**measure, 'read_after_write': True})
    elif reads and not writes:
        _ior_finding(found, launch, given, 'a read without -C: if these '
                     'tasks wrote the file before (a separate IOR run), '
                     'each reads back its own node\'s data', depends(
                         'which tasks wrote the file, and when'),
                     (), knobs.IOR_REORDER, None)


def _ior_finding(found, launch, given, evidence, certainty, drop, add,
                 measure):
    fix = (tuple(drop or ()), tuple(add)) if add else None
    realistic = (launch.text(apply(launch.argv, given, [fix]))
                 if fix else None)
    finding = Finding('S4', evidence, found.where, certainty, realistic,
                      measure=measure)
    finding.fix = fix
    found.findings.append(finding)
    return finding


def judge_mdtest(launch, where, context):
    argv = launch.argv
    table = options.getopt_table('mdtest')
    given, _ = getopt.parse(argv, table, 'mdtest', where, groups=True,
                            modules=modules(argv, table))
    found = Invocation('mdtest', where)
    found.not_judged.extend(module_notes(given, table))
    phases = {o.name for o in given if o.name in ('-C', '-T', '-E', '-r')}
    stats = '-T' in phases or not phases
    reads = '-E' in phases or not phases
    count, per_node, tasks = nodes(launch, context)
    stride_option = getopt.last(given, '-N')
    stride = as_int(stride_option.value) if stride_option else 0
    fix = (('-N',), knobs.MDTEST_STRIDES['node'])
    api = getopt.value(given, '-a') or 'POSIX'
    interposer = interposed(launch, context.env)
    if interposer:
        found.not_judged.append(_interposed_note(interposer, 'S4'))
        stats = reads = False
    elif api.upper() not in CACHED_APIS and not getopt.UNSET.match(api):
        # an object store or a user-space client: no kernel cache answers
        found.not_judged.append(f'-a {api}: not an API of the client\'s '
                                f'metadata cache (S4 not judged)')
        stats = reads = False
    measure = {'check': 'mdtest_metadata', 'gap': 'easy_stat_none_over_node',
               'nodes': count, 'tasks': tasks}
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
        note = ('-N 1 needs tasks on two nodes or more' if count == 1
                else None)
        _md_finding(found, launch, given, evidence, certainty, fix, note,
                    measure)
    elif stats or reads:
        shift = f'-N {stride} (mdtest: {stride} x the tasks of a node)'
        if count is None:
            _md_finding(found, launch, given, f'{shift}: a task stats the '
                        f'files of the node {stride} away',
                        depends('the number of nodes: with -N a multiple '
                                'of them a task stats its own node\'s '
                                'files'), None, None, measure)
        elif count == 1 or (stats and stride % count == 0):
            _md_finding(found, launch, given, f'{shift} on {count} '
                        f'node{"s" if count > 1 else ""}: the stat goes '
                        f'back to the task\'s own node', CERTAIN,
                        fix if count > 1 else None,
                        'tasks on two nodes or more' if count == 1
                        else None, measure)
        elif reads and (2 * stride) % count == 0:
            _md_finding(found, launch, given, f'{shift} on {count} nodes: '
                        f'mdtest reads at twice the stride, back on the '
                        f'task\'s own node', CERTAIN, None,
                        f'a stride whose double is not a multiple of '
                        f'{count} nodes (three nodes or more with -N 1)',
                        measure)
    _md_data(found, given, phases)
    _iterations(found, context, given, where, launch, argv,
                'mdtest reports one rate per phase')
    return [found]


def _md_data(found, given, phases):
    '''S6, said and not judged: the bytes mdtest writes into each file
    (``-w``) are one byte repeated up to IOR 3.2 (``memset(write_buffer,
    0x23, ...)``), the bytes 1 to 255 repeated in 3.3, the same in every
    file; from 4.0 a counter per rank (``--dataPacketType``, timestamp by
    default).  The corpora's labellers did not count it (6 false alarms
    and no hit on the held-out halves as a finding that depends on the
    release): a note, not a finding.'''
    written = as_int(getopt.value(given, '-w')) or 0
    packet = (getopt.value(given, '--dataPacketType') or 't')[:1].lower()
    if written <= 0 or (phases and '-C' not in phases) or packet in 'ir':
        return
    found.not_judged.append(
        f'S6: -w {written}: mdtest up to IOR 3.3 writes the same bytes into '
        f'every file (one byte repeated up to 3.2, 1 to 255 in 3.3), IOR '
        f'4.0 a counter per rank: a compressing or deduplicating store '
        f'keeps the older ones reduced (--dataPacketType=incompressible, '
        f'4.0 or later, writes data it cannot reduce)')


def _md_finding(found, launch, given, evidence, certainty, fix, note,
                measure):
    realistic = launch.text(apply(launch.argv, given, [fix])) \
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
    said = repeated(context, found, as_int(reps.value) if reps else 1,
                    f'-i {reps.value}' if reps else None)
    if said:
        found.findings.append(Finding(
            'M1', f'{said[0]}: {figure}', where, said[1],
            launch.text([*argv, '-i', '3'])))
    if found.findings:
        fixes = [f.fix for f in found.findings if f.pitfall != 'M1']
        if said:
            fixes.append((('-i',), ('-i', '3')))
        found.realistic = launch.text(apply(argv, given, fixes))
