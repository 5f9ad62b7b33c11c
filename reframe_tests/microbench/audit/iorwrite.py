'''IOR's write phase: which cache its figure measures (S4 for the
client's page cache, S1 for a storage service's), and where one shared
file's data goes on Lustre (S5).

IOR writes through the client's page cache unless it opens its files
O_DIRECT (``--posix.odirect``, IOR 3.2's ``-B``); its write phase times
the close, but no flush unless ``-e`` (fsync) or ``-Y`` (a sync after
every write) is given: without them the figure stops while the data is
still in the page cache, which the catalogue files under S4 (the
client's cache answers an unflushed write; its check, ``ior_page_cache``,
measures the write's gap against ``-e``).  IO500 passes ``-e`` for this
reason.  Through a storage service reached from user space (``-a
RADOS``, ``-a CHFS``, ROMIO's ``pvfs2:``) no client cache holds the
data, but what the write figure measures depends on when the servers
acknowledge a write (S1: which cache a write bandwidth measures); DAOS
(``-a DFS``, ``daos:``), DDN's IME, PMDK's persistent memory and S3's
object stores acknowledge a write once their storage holds it.
'''

from microbench import knobs
from microbench.audit import getopt
from microbench.audit.bounds import excerpt
from microbench.audit.findings import Finding, depends
from microbench.audit.iorargs import (CACHED_APIS, NOT_LUSTRE, USER_SPACE,
                                      apply, as_int, fits, flushed, memory_hog,
                                      nodes, odirect)

#: IOR's APIs that write a file through a POSIX file system
FILE_APIS = ('POSIX', 'MPIIO', 'HDF5', 'NCMPI', 'MMAP', 'AIO')

#: IOR's APIs that write through MPI-IO, which takes ROMIO's hints
MPI_IO_APIS = ('MPIIO', 'HDF5', 'NCMPI')
#: ROMIO's stripe count hint as IOR takes it from the environment
#: (``IOR_HINT__MPI__<hint>``: ``export IOR_HINT__MPI__striping_factor=8``)
_STRIPING_HINT = 'IOR_HINT__MPI__striping_factor'

#: Storage services reached from user space that acknowledge a write
#: once their own storage holds it (IOR's APIs, ROMIO's prefixes)
PERSISTENT = {'DFS', 'DAOS', 'IME', 'PMDK', 'S3', 'S3-4C', 'S3-LIBS3'}


def judge_write(found, given, said, launch, context):
    '''The cache IOR's write phase measures (``said``: its ``-O``
    directives).'''
    phases = {o.name for o in given if o.name in ('-w', '-r', '-W', '-R')}
    if phases and '-w' not in phases:
        return
    if odirect(given, said) or flushed(given, said) or \
            memory_hog(given, said):
        return
    api = getopt.value(given, '-a') or 'POSIX'
    target = getopt.value(given, '-o') or ''
    count, per_node, tasks = nodes(launch, context)
    prefix = USER_SPACE.match(target)
    if api.upper() in CACHED_APIS or getopt.UNSET.match(api):
        if prefix is None:
            _kernel_write(found, launch, given,
                          fits(given, per_node, context), count, tasks)
            return
        service = f'-o {excerpt(target)} (ROMIO\'s {prefix.group(1)} driver)'
        name = prefix.group(1)
    else:
        service, name = f'-a {api}', api
    if name.upper() in PERSISTENT:
        return
    found.findings.append(Finding(
        'S1', f'{service}: a write without -e goes to a storage service '
        f'past the client\'s page cache', found.where, depends(
            f'whether the servers of {name} acknowledge a write before '
            f'their storage holds it (a server that keeps it in memory '
            f'times its memory)')))


def _kernel_write(found, launch, given, certainty, count, tasks):
    fix = ((), knobs.IOR_FSYNC)
    finding = Finding(
        'S4', 'write without -e (nor -Y or O_DIRECT): the write figure '
        'stops before the data leaves the page cache', found.where,
        certainty, launch.text(apply(launch.argv, given, [fix])),
        # --measure: the check's write gap, on one node (audit/measure.py)
        measure={'check': 'ior_page_cache',
                 'gap': 'easy_write_none_over_fsync', 'nodes': count,
                 'tasks': tasks})
    finding.fix = fix
    found.findings.append(finding)


def judge_stripes(found, given, said, launch, env=None):
    '''S5: one shared file on Lustre (said by its path, or by the
    directory the script went to: ``env``'s ``PWD``) without a stripe
    count; on a path that says no file system, it depends on it.'''
    target = getopt.value(given, '-o') or 'testFile'
    here = (env or {}).get('PWD')
    if here and not target.startswith(('/', '$')):
        target = f'{here.rstrip("/")}/{target}'
    api = (getopt.value(given, '-a') or 'POSIX').upper()
    lustre = 'lustre' in target.lower() or '/lus/' in target
    if getopt.last(given, '-F') is not None or (
            api not in FILE_APIS and not api.startswith('$')):
        return
    tasks = launch.tasks or as_int(getopt.value(given, '-N'))
    if not lustre and (NOT_LUSTRE.search(target) or not launch.launcher
                       or (tasks or 2) < 2):
        return      # a shared file of many tasks, on a path that may be
    if getopt.last(given, '--posix.lustre.stripecount') is not None or \
            'lustrestripecount' in said or (
                api in MPI_IO_APIS and _STRIPING_HINT in (env or {})):
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
        launch.text([*launch.argv, '--posix.lustre.stripecount=-1']),
        note='IOR built with Lustre support (HAVE_LUSTRE_USER); or run '
             f'lfs setstripe -c -1 on the directory of {target} first')
    finding.fix = ((), ('--posix.lustre.stripecount=-1',))
    found.findings.append(finding)
