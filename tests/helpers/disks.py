'''The block device under a directory, as sysfs names it, and a write
throttle of it for a cgroup's processes.'''

import contextlib
import os
import shutil
import subprocess
import tempfile

import pytest


def disk_of(where):
    '''The whole disk under ``where`` as sysfs names it, or None (not on
    a block device: tmpfs, overlay, NFS).'''
    source = subprocess.run(['findmnt', '-no', 'SOURCE', '--target', where],
                            capture_output=True, text=True).stdout.strip()
    if not source.startswith('/dev/'):
        return None
    disk = subprocess.run(['lsblk', '-no', 'PKNAME', source],
                          capture_output=True, text=True).stdout.split()
    name = disk[0] if disk else os.path.basename(os.path.realpath(source))
    return name if os.path.isdir(f'/sys/block/{name}') else None


def device_number(where):
    '''MAJ:MIN of the whole disk under ``where`` (what a block-device
    throttle names).'''
    def run(*args):
        return subprocess.run(args, capture_output=True, text=True,
                              timeout=60).stdout.strip()
    source = run('findmnt', '-no', 'SOURCE', '--target', where)
    disk = run('lsblk', '-ndo', 'PKNAME', source)
    return run('lsblk', '-ndo', 'MAJ:MIN', f'/dev/{disk}' if disk
               else source)


@contextlib.contextmanager
def write_throttle(name, device, bps):
    '''A cgroup ``name`` whose writes to ``device`` (MAJ:MIN) go at most
    ``bps`` bytes/s: cgroup v2 ``io.max wbps`` where the v2 hierarchy has
    the io controller, else cgroup v1 ``blkio.throttle.write_bps_device``;
    yields its ``cgroup.procs`` (write a process id there to throttle it
    and its children to come).  On the way out its processes go back to
    the root and it is removed.  Skips, saying why, without root or a
    throttle.'''
    if os.geteuid() != 0:
        pytest.skip('a block-device throttle needs root')
    v2 = '/sys/fs/cgroup/cgroup.controllers'
    if os.path.exists(v2) and 'io' in open(v2).read().split():
        group = f'/sys/fs/cgroup/{name}'
        control, text = 'io.max', f'{device} wbps={bps}'
    elif os.path.isdir('/sys/fs/cgroup/blkio'):
        group = f'/sys/fs/cgroup/blkio/{name}'
        control, text = 'blkio.throttle.write_bps_device', f'{device} {bps}'
    else:
        pytest.skip("no block-device throttle here: neither cgroup v2's io "
                    "controller nor cgroup v1's blkio")
    os.makedirs(group, exist_ok=True)
    try:
        with open(os.path.join(group, control), 'w') as fp:
            fp.write(text)
        yield os.path.join(group, 'cgroup.procs')
    finally:
        root = os.path.join(os.path.dirname(group), 'cgroup.procs')
        with open(os.path.join(group, 'cgroup.procs')) as fp:
            for pid in fp.read().split():
                with contextlib.suppress(OSError), open(root, 'w') as out:
                    out.write(pid)
        os.rmdir(group)


@contextlib.contextmanager
def throttled_scratch(where):
    '''The scratch of a test cluster whose node a test throttles: an
    ext4 of its own at ``where`` (:func:`file_system_of_its_own`, mounted
    before the cluster starts: each node's mount namespace is a copy of
    this one); yields its MAJ:MIN, what :func:`write_throttle` names.
    Skips, saying why, without root.'''
    if os.geteuid() != 0:
        pytest.skip('the test cluster and a block-device throttle need '
                    'root')
    with file_system_of_its_own(where, size=SCRATCH_SIZE,
                                backing_dir=memory_dir()):
        yield device_number(where)


#: What the scratch of a throttled test cluster takes at most in memory
#: (its sparse backing file: fio_cache_flags's 16 files of 256 MiB at most)
SCRATCH_SIZE = 6 << 30


def memory_dir():
    '''Where a throttled scratch's backing file goes: /dev/shm, a tmpfs,
    where it has room (twice :data:`SCRATCH_SIZE` free), else /var/tmp.
    In memory, the loop device's writes never wait on the machine's disk:
    on its disk, beside a disk and CPU load (as a clean-clone CI's other
    tests give), the unthrottled nodes' direct writes swung 55 times
    between two samples (9 and 505 MiB/s), and the rule rightly could not
    tell the throttled node from them (a clean-clone CI failed so).'''
    try:
        free = os.statvfs('/dev/shm')
    except OSError:
        return '/var/tmp'
    room = free.f_bavail * free.f_frsize
    return '/dev/shm' if room >= 2 * SCRATCH_SIZE else '/var/tmp'


@contextlib.contextmanager
def file_system_of_its_own(where, size='8G', backing_dir='/var/tmp'):
    '''An ext4 file system mounted at ``where`` (made if missing) on a
    loop device of its own, its ``size`` file sparse in ``backing_dir`` and its
    freed blocks given back (``discard``): a throttle of that device slows
    the writes there and nowhere else, and no other test's ``sync -f`` of
    its own scratch waits on them.  Unmounted, detached and removed on
    the way out.  Skips, saying why, without root, losetup or mkfs.ext4,
    or where no loop device can be attached (a container without them).'''
    if os.geteuid() != 0:
        pytest.skip('a loop device needs root')
    for program in ('losetup', 'mkfs.ext4'):
        if shutil.which(program) is None:
            pytest.skip(f'{program} is not installed (apt-get install '
                        'util-linux e2fsprogs)')
    os.makedirs(where, exist_ok=True)
    backing = tempfile.NamedTemporaryFile(prefix='microbench-loop.',
                                          dir=backing_dir, delete=False)
    backing.close()
    device = None
    try:
        subprocess.run(['truncate', '-s', str(size), backing.name], check=True)
        attach = subprocess.run(['losetup', '-f', '--show', backing.name],
                                capture_output=True, text=True, timeout=60)
        if attach.returncode != 0:
            pytest.skip(f'no loop device here: losetup said '
                        f'{attach.stderr.strip()}')
        device = attach.stdout.strip()
        for cmd in (['mkfs.ext4', '-q', '-F', device],
                    ['mount', '-o', 'discard', device, where]):
            made = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=300)
            assert made.returncode == 0, f'{cmd}: {made.stderr}'
        yield device
    finally:
        if device:
            if subprocess.run(['umount', where], capture_output=True,
                              timeout=300).returncode != 0:
                subprocess.run(['umount', '-l', where], capture_output=True,
                               timeout=300)
            subprocess.run(['losetup', '-d', device], capture_output=True,
                           timeout=60)
        os.unlink(backing.name)
