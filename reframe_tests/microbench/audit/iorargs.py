'''IOR's and mdtest's words as the rules read them: where the tasks run,
the ``-O`` directives, the APIs and the paths that say where the data
goes, the data a node holds against its memory, and the rewrite.

Shared by the read rules (:mod:`.ior`: S4, M1) and the write rules
(:mod:`.iorwrite`: S1, S5).
'''

import re

from microbench.audit import getopt
from microbench.audit.context import memory_text, size_text
from microbench.audit.findings import CERTAIN, depends
from microbench.audit.fiojob import size_bytes

#: IOR's spellings of O_DIRECT: IOR 4's module option, the directive
#: IOR 4 still maps to it, IOR 3.2's -B
ODIRECT_DIRECTIVES = ('useo_direct', 'posix.odirect')

#: IOR APIs whose I/O goes through the client's page cache
CACHED_APIS = {'POSIX', 'MPIIO', 'HDF5', 'NCMPI', 'MMAP', 'AIO'}

#: ROMIO's prefixes of file systems it reaches from user space, past the
#: kernel's page cache (``pvfs2://mnt/...``, ``daos:``, DDN's ``ime://``)
USER_SPACE = re.compile(r'^(pvfs2|daos|ime|dfs):', re.IGNORECASE)

#: The I/O interception libraries that send a program's POSIX calls to
#: a file system in user space, past the kernel's page cache (DAOS's
#: libioil and libpil4dfs, UnifyFS's, GekkoFS's, Hermes's, CHFS's), as
#: ``LD_PRELOAD`` names them
_INTERPOSED = {'ioil': 'DAOS', 'pil4dfs': 'DAOS', 'unifyfs': 'UnifyFS',
               'gkfs': 'GekkoFS', 'hermes': 'Hermes', 'chfs': 'CHFS'}
_INTERPOSER = re.compile(rf'LD_PRELOAD[= ]\S*?(lib({"|".join(_INTERPOSED)})'
                         rf'\w*)', re.IGNORECASE)


def interposed(launch, env):
    '''(the library, its file system) of an I/O interception library
    ``LD_PRELOAD`` loads into the program (the launcher's ``-x
    LD_PRELOAD=...``, a setting before it, the script's export), or
    None.'''
    text = ' '.join([*launch.prefix, *(f'{key}={value}' for key, value
                                       in launch.env.items()),
                     f'LD_PRELOAD={(env or {}).get("LD_PRELOAD", "")}'])
    match = _INTERPOSER.search(text)
    return None if match is None else (match[1],
                                       _INTERPOSED[match[2].lower()])


#: What a path may say of a file system that is not Lustre, or of a
#: node's own storage (a shared file's stripe is Lustre's question only;
#: ``$DW_JOB_STRIPED``: a DataWarp allocation, striped by DataWarp)
NOT_LUSTRE = re.compile(r'beegfs|gpfs|nfs|vast|weka|quobyte|daos|ceph|pvfs|'
                        r'panfs|/gs/|^/dev/shm|^/tmp|^/var/tmp|^/local|'
                        r'^/mnt/local|^/nvme|^/ssd|^\$\{?DW_JOB_',
                        re.IGNORECASE)


def nodes(launch, context):
    '''(nodes, tasks per node, tasks) of the ranks, each None where not
    known; no launcher is one process on one node.'''
    if launch.flavour == 'local':
        return 1, 1, 1
    per_node = launch.per_node or context.job_per_node
    tasks = launch.tasks or context.job_tasks
    count = launch.nodes
    if count is None and launch.tasks and per_node:
        count = -(-launch.tasks // per_node)   # filled node by node
    count = count or context.job_nodes
    if count is None and tasks and per_node:
        count = -(-tasks // per_node)
    if count is None and tasks == 1:
        count = 1                       # one task is on one node
    if per_node is None and tasks and count:
        per_node = -(-tasks // count)
    if tasks is None and count and per_node:
        tasks = count * per_node
    return count, per_node, tasks


def directives(given):
    '''IOR's ``-O key=value,...`` directives, keys lowercased.'''
    out = {}
    for option in given:
        if option.name == '-O' and option.value:
            for pair in option.value.split(','):
                key, _, value = pair.partition('=')
                out[key.strip().lower()] = value.strip()
    return out


def as_int(text):
    '''``text`` as a count (IOR's sizes and counts), 0 where it is none.'''
    try:
        return int(size_bytes(text, 1000) or 0)
    except (TypeError, ValueError):
        return 0


def apply(argv, given, fixes):
    '''``argv`` with every fix (options dropped, option words added).'''
    drop, add = set(), []
    for fix in fixes:
        if fix:
            drop.update(fix[0])
            add.extend(fix[1])
    return getopt.rewrite(argv, given, drop, add)


#: IOR's back ends that ignore O_DIRECT (IOR 4.0's aiori-MPIIO.c: "O_DIRECT
#: not implemented in MPIIO"; HDF5's, NCMPI's likewise): --posix.odirect
#: is the POSIX back end's option
NO_ODIRECT_APIS = {'MPIIO', 'HDF5', 'NCMPI'}


def odirect(given, said):
    '''Whether IOR opens its files O_DIRECT (``said``: the directives;
    a back end that does not implement it ignores it).'''
    api = (getopt.value(given, '-a') or said.get('api') or 'POSIX').upper()
    return api not in NO_ODIRECT_APIS and (
        getopt.last(given, '--posix.odirect', '-B') is not None
        or any(said.get(k, '0') not in ('0', '') for k in
               ODIRECT_DIRECTIVES))


def flushed(given, said):
    '''Whether IOR's write phase ends with a flush it times (``-e``, or
    ``-Y``: a sync after every write).'''
    return (getopt.last(given, '-e', '-Y') is not None
            or said.get('fsync', '0') not in ('0', ''))


def memory_hog(given, said):
    '''Whether IOR fills a node's memory first (``-M``, memoryPerNode):
    the page cache cannot hold the data.'''
    return getopt.last(given, '-M') is not None or bool(
        said.get('memorypernode'))


def fits(given, per_node, context):
    '''How sure it is that a node's data fits in its page cache:
    certain where the memory is known and larger, else what it
    depends on.'''
    memory = context.memory
    block = size_bytes(getopt.value(given, '-b') or '1m')
    segments = as_int(getopt.value(given, '-s') or '1')
    per_task = (block or 0) * (segments or 1)
    on_node = per_task * (per_node or 1)
    if memory and on_node and on_node < memory:
        return CERTAIN
    return depends(
        f'the data of a node ({size_text(on_node) if on_node else "?"}: '
        f'-b x -s x tasks per node) against the memory of '
        f'{context.memory_of} ({memory_text(memory)})')


def modules(argv, table):
    '''The back end ``-a`` names (``-a CUBEFS``, ``-a=DFS``), lowercased,
    where ``table`` holds none of its own options (``--cubefs.conf``):
    what :func:`.getopt.parse` takes as given.'''
    api = None
    for k, word in enumerate(argv[1:], 1):
        if word in ('-a', '--api') and k + 1 < len(argv):
            api = argv[k + 1]
        elif word.startswith(('-a=', '--api=')):
            api = word.split('=', 1)[1]
    if not api:
        return ()
    prefix = f'--{api.lower()}.'
    if any(name.lower().startswith(prefix) for name in table):
        return ()
    return (api.lower(),)


def module_notes(given, table):
    '''What the audit says of a back end's own options it took as
    given.'''
    return [f'{option.name}: an option of IOR\'s '
            f'{option.name[2:].split(".")[0]} back end, not judged'
            for option in given if option.name not in table]
