'''What ran, and where: the suite's commit, the machine, the system's
packages and the Python closure.

Every perflog record carries :func:`suite_commit`; a run's bundle
(:mod:`microbench.bundles.bundle`) keeps :func:`machine` and
:func:`apt_versions` of the machine that made it, and ``microbench
replay`` compares them with the machine it runs on.  Every fact is read from a
standard tool (``uname``, ``lscpu``, ``findmnt``, ``lsblk``, ``dpkg-query``,
``fi_info``, MPI's own version command); a tool that is missing or fails leaves
``unknown: <why>``, never an exception.
'''

import importlib.metadata
import json
import os
import platform
import re
import shutil
import subprocess

from microbench import paths

ROOT = paths.ROOT

#: The Debian packages of the suite's tools and of the libraries a figure
#: depends on (ci/setup.sh installs the tools)
APT_PACKAGES = ['fio', 'strace', 'util-linux', 'procps', 'time', 'mpich',
                'libmpich12', 'openmpi-bin', 'libopenmpi3', 'libfabric1',
                'libfabric-bin', 'libaio1', 'linux-libc-dev']


def run(*command, cwd=None, timeout=60):
    '''The stripped standard output of ``command``, or ``unknown: <why>``.'''
    if not shutil.which(command[0]):
        return f'unknown: {command[0]} is not installed'

    try:
        proc = subprocess.run(command, capture_output=True, cwd=cwd,
                              timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f'unknown: {" ".join(command)}: {err}'

    out = proc.stdout.decode('utf-8', 'replace').strip()
    if proc.returncode != 0:
        err = proc.stderr.decode('utf-8', 'replace').strip()
        return (f'unknown: {" ".join(command)} exited with '
                f'{proc.returncode}: {(err or out)[:200]}')

    return out


def suite_commit(root=ROOT):
    '''``<commit>`` of the suite's checkout, ``<commit>-dirty`` if a
    tracked file differs from it, ``unknown: <why>`` outside a checkout.'''
    head = run('git', 'rev-parse', 'HEAD', cwd=root)
    if head.startswith('unknown'):
        return head

    status = run('git', 'status', '--porcelain', '--untracked-files=no',
                 cwd=root)
    if status.startswith('unknown'):
        return f'{head}-dirty ({status})'

    return f'{head}-dirty' if status else head


def _existing(path):
    '''``path``, or its nearest existing ancestor (a scratch directory is
    removed after every run; its file system stays).'''
    path = os.path.abspath(path)
    while not os.path.exists(path):
        path = os.path.dirname(path)

    return path


def file_system(path):
    '''Type, mount options, source device and the device's model (where
    ``lsblk`` tells) of the file system holding ``path``.'''
    where = _existing(path)
    out = run('findmnt', '--json', '--target', where, '-o',
              'TARGET,SOURCE,FSTYPE,OPTIONS')
    try:
        mount = json.loads(out)['filesystems'][0]
    except (ValueError, KeyError, IndexError):
        return {'path': path, 'error': out}

    model = 'unknown: not a block device'
    if mount.get('source', '').startswith('/dev/'):
        disk = run('lsblk', '-no', 'PKNAME', mount['source']).split('\n')[0]
        device = f'/dev/{disk}' if disk and not disk.startswith(
            'unknown') else mount['source']
        model = run('lsblk', '-dno', 'MODEL,VENDOR,ROTA,TRAN', device)
        model = ' '.join(model.split()) or 'unknown: lsblk gives no model'

    return {'path': path, 'mount_point': mount.get('target'),
            'source': mount.get('source'), 'fstype': mount.get('fstype'),
            'options': mount.get('options'), 'device_model': model}


def _lscpu():
    out = run('lscpu', '--json')
    try:
        return {f['field'].rstrip(':'): f['data']
                for f in json.loads(out)['lscpu']}
    except (ValueError, KeyError, TypeError):
        return {}


def numa():
    '''{node: its CPUs}, from sysfs.'''
    base = '/sys/devices/system/node'
    nodes = {}
    for name in sorted(os.listdir(base) if os.path.isdir(base) else []):
        if re.fullmatch(r'node\d+', name):
            with open(os.path.join(base, name, 'cpulist')) as fp:
                nodes[name] = fp.read().strip()

    return nodes


def _memory():
    try:
        with open('/proc/meminfo') as fp:
            for line in fp:
                if line.startswith('MemTotal:'):
                    return f'{int(line.split()[1]) // 1024} MiB'
    except (OSError, ValueError, IndexError):
        pass

    return 'unknown: no MemTotal in /proc/meminfo'


def mpi_version():
    '''The first line of the MPI's own version report.'''
    for command in (['mpichversion'], ['ompi_info', '--version'],
                    ['mpirun', '--version']):
        if shutil.which(command[0]):
            return run(*command).split('\n')[0]

    return 'unknown: no mpichversion, ompi_info or mpirun'


def machine(scratch=()):
    '''The facts of this machine a figure depends on; ``scratch``: the
    scratch directories whose file systems matter.'''
    cpu = _lscpu()
    providers = run('fi_info', '-l')
    return {
        'hostname': platform.node(),
        'kernel': platform.release(),
        'uname': ' '.join(platform.uname()),
        'cpu_model': cpu.get('Model name', 'unknown: lscpu'),
        'cpus': os.cpu_count(),
        'sockets': cpu.get('Socket(s)'),
        'threads_per_core': cpu.get('Thread(s) per core'),
        'memory': _memory(),
        'numa': numa(),
        'scratch': [file_system(p) for p in sorted(set(scratch))],
        'mpi': ' '.join(mpi_version().split()),
        'libfabric': run('fi_info', '--version').replace('\n', ' '),
        'fi_providers': (sorted({line[:-1] for line in providers.split('\n')
                                 if line.endswith(':') and line[:1] > ' '})
                         if not providers.startswith('unknown')
                         else providers),
    }


def apt_versions(packages=APT_PACKAGES):
    '''{package: version} of the installed ones of ``packages`` (Debian and
    Ubuntu); {} elsewhere.'''
    if not shutil.which('dpkg-query'):
        return {}

    proc = subprocess.run(['dpkg-query', '-W', '-f',
                           '${Package}\t${Version}\t${db:Status-Abbrev}\n',
                           *packages], capture_output=True)
    out = {}
    for line in proc.stdout.decode('utf-8', 'replace').splitlines():
        name, version, status = (line.split('\t') + ['', ''])[:3]
        if status.startswith('ii'):
            out[name] = version

    return out


def python_closure():
    '''``name==version`` of every distribution of the running Python.'''
    found = {(d.metadata['Name'] or '?', d.version)
             for d in importlib.metadata.distributions()}
    return sorted(f'{n}=={v}' for n, v in found)
