'''Causes planted for real on this machine, for ``bench/diagnose.py``: each
a context manager that makes the change, says what it did, and undoes it
on the way out whatever happens (an exception, SIGTERM, SIGINT, SIGHUP:
the bench turns each into an exit that runs the ``finally`` blocks).

- :class:`Throttle`: a block-device write throttle of the scratch disk for
  the processes of one cgroup (cgroup v2 ``io.max wbps`` where the v2
  hierarchy has the io controller, else cgroup v1
  ``blkio.throttle.write_bps_device``: this VM mounts blkio on v1, so its
  v2 hierarchy has no io controller); the night and the diagnosis run in
  it (:meth:`Throttle.wrap`), nobody else's processes are;
- :class:`Writer`: a competing writer on the same disk, O_DIRECT writes of
  8 MiB from a process of its own, *only while a job of this bench holds
  the suite's benchmark lock* (``/tmp/microbench-<uid>.lock``: the job's
  pid in it, its working directory below the bench's folder), so that
  another user's benchmark never runs beside it;
- :class:`Setting`: a machine setting, a sysfs or procfs file
  (:class:`ReadAhead`: ``read_ahead_kb`` of the scratch disk; every
  process of the machine reads through it: reported, and only a read
  figure sees it).

Every setting changed is written first to ``<dir>/restore.json``, and the
bench restores what it names when it starts (a run killed with SIGKILL
leaves the machine as it found it at the next start).
'''

import contextlib
import json
import mmap
import multiprocessing
import os
import subprocess
import time

#: The benchmark lock of the suite (microbench/suite/progress.sh)
LOCK = f'/tmp/microbench-{os.getuid()}.lock'

#: What the competing writer writes at a time, and its file's size
CHUNK = 8 << 20
WRAP = 1 << 30


def device_of(path):
    '''MAJ:MIN and name of the whole disk under ``path``.'''
    source = subprocess.run(['findmnt', '-no', 'SOURCE', '--target', path],
                            capture_output=True, text=True,
                            check=True).stdout.strip()
    disk = subprocess.run(['lsblk', '-ndo', 'PKNAME', source],
                          capture_output=True, text=True).stdout.strip()
    name = f'/dev/{disk}' if disk else source
    number = subprocess.run(['lsblk', '-ndo', 'MAJ:MIN', name],
                            capture_output=True, text=True,
                            check=True).stdout.strip()
    return number, os.path.basename(name)


def _save(work, key, value):
    path = os.path.join(work, 'restore.json')
    found = {}
    if os.path.exists(path):
        with open(path) as fp:
            found = json.load(fp)
    if value is None:
        found.pop(key, None)
    else:
        found[key] = value
    with open(path + '.tmp', 'w') as fp:
        json.dump(found, fp)
    os.replace(path + '.tmp', path)


def restore_left(work):
    '''Undo what a run killed before its ``finally`` left (restore.json);
    the lines said.'''
    path = os.path.join(work, 'restore.json')
    if not os.path.exists(path):
        return []
    with open(path) as fp:
        found = json.load(fp)
    said = []
    for key in [key for key in found if key == 'read_ahead_kb'
                or key.startswith('setting:')]:
        where, value = found[key]
        with open(where, 'w') as fp:
            fp.write(str(value))
        said.append(f'restored {where} = {value}')
    if 'cgroup' in found:
        _remove_group(found['cgroup'])
        said.append(f'removed the throttle cgroup {found["cgroup"]}')
    if 'writer' in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(found['writer']), 15)
        said.append(f'stopped the competing writer {found["writer"]}')
    os.unlink(path)
    return said


def _remove_group(group):
    '''Move the group's processes out (to the root) and remove it.'''
    if not os.path.isdir(group):
        return
    root = os.path.join(os.path.dirname(group), 'cgroup.procs')
    with open(os.path.join(group, 'cgroup.procs')) as fp:
        left = fp.read().split()
    for pid in left:
        with contextlib.suppress(OSError), open(root, 'w') as fp:
            fp.write(pid)
    os.rmdir(group)


class Throttle:
    '''Writes of one cgroup's processes to the scratch disk at most ``bps``
    bytes/s.'''

    def __init__(self, work, scratch, bps):
        self.work, self.bps = work, int(bps)
        self.device, _ = device_of(scratch)
        v2 = '/sys/fs/cgroup/cgroup.controllers'
        if os.path.exists(v2) and 'io' in open(v2).read().split():
            self.group = '/sys/fs/cgroup/microbench-diagnose-bench'
            self.file, self.text = 'io.max', f'{self.device} wbps={self.bps}'
        else:
            self.group = '/sys/fs/cgroup/blkio/microbench-diagnose-bench'
            self.file = 'blkio.throttle.write_bps_device'
            self.text = f'{self.device} {self.bps}'
        self.said = f'{self.file} {self.text} ({self.bps / 2**20:.1f} MiB/s)'

    def __enter__(self):
        _save(self.work, 'cgroup', self.group)
        os.makedirs(self.group, exist_ok=True)
        with open(os.path.join(self.group, self.file), 'w') as fp:
            fp.write(self.text)
        with open(os.path.join(self.group, self.file)) as fp:
            now = fp.read()
        if str(self.bps) not in now:
            raise RuntimeError(f'{self.group}/{self.file} says {now!r} '
                               f'after writing {self.text!r}')
        return self

    def wrap(self, cmd):
        '''``cmd`` run in the throttled cgroup (its children too).'''
        procs = os.path.join(self.group, 'cgroup.procs')
        return ['sh', '-c', f'echo $$ > {procs} && exec "$@"', 'sh', *cmd]

    def written(self):
        '''Bytes the group's processes wrote to the device (v1's
        throttle counters; v2's io.stat), the proof it ran in it.'''
        name = ('blkio.throttle.io_service_bytes' if 'blkio' in self.group
                else 'io.stat')
        with open(os.path.join(self.group, name)) as fp:
            text = fp.read()
        total = 0
        for line in text.splitlines():
            words = line.split()
            if words and words[0] == self.device:
                if 'blkio' in self.group and len(words) == 3 and \
                        words[1] == 'Write':
                    total += int(words[2])
                for word in words[1:]:
                    if word.startswith('wbytes='):
                        total += int(word.split('=')[1])
        return total

    def __exit__(self, *exc):
        _remove_group(self.group)
        _save(self.work, 'cgroup', None)
        return False


def _write_while_ours(work, target, counter):
    '''The competing writer's loop: O_DIRECT writes of :data:`CHUNK` to
    ``target`` while a job of this bench holds the benchmark lock.'''
    # an anonymous mapping is page-aligned, as O_DIRECT needs
    block = mmap.mmap(-1, CHUNK)
    block.write(os.urandom(CHUNK))
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o600)
    offset = 0
    while True:
        if _ours(work):
            os.pwrite(fd, block, offset)
            offset = (offset + CHUNK) % WRAP
            with counter.get_lock():
                counter.value += CHUNK
        else:
            time.sleep(0.2)


def _ours(work):
    '''Whether the benchmark lock is held by a job running below
    ``work``.'''
    try:
        with open(LOCK) as fp:
            pid = fp.read().split('\t')[1]
        return os.path.realpath(f'/proc/{int(pid)}/cwd').startswith(work)
    except (OSError, IndexError, ValueError):
        return False


class Writer:
    '''``count`` competing writers on the scratch disk, each writing only
    while a job of this bench holds the benchmark lock.'''

    def __init__(self, work, scratch, count):
        self.work, self.count = work, count
        self.where = os.path.join(scratch, 'competing-writer')
        self.procs = []
        self.counter = multiprocessing.Value('q', 0)
        self.said = (f'{count} competing O_DIRECT writer(s) of '
                     f'{CHUNK >> 20} MiB writes in {self.where}')

    def __enter__(self):
        os.makedirs(self.where, exist_ok=True)
        for index in range(self.count):
            proc = multiprocessing.Process(
                target=_write_while_ours, daemon=True,
                args=(self.work, os.path.join(self.where, f'w{index}'),
                      self.counter))
            proc.start()
            self.procs.append(proc)
            _save(self.work, 'writer', proc.pid)
        return self

    def written(self):
        return self.counter.value

    def __exit__(self, *exc):
        for proc in self.procs:
            proc.terminate()
            proc.join(10)
        _save(self.work, 'writer', None)
        for name in os.listdir(self.where):
            os.unlink(os.path.join(self.where, name))
        return False


class Setting:
    '''A machine setting (a sysfs or procfs file) set to ``value``: every
    process of the machine sees it (reported).  ``key`` names it in
    restore.json.'''

    def __init__(self, work, path, value, key=None):
        self.work, self.path, self.value = work, path, str(value)
        self.key = key or f'setting:{path}'
        self.said = f'{self.path} = {self.value}'

    def _read(self):
        with open(self.path) as fp:
            text = fp.read().strip()
        # a list that brackets the selected word (a queue's scheduler)
        return text.split('[', 1)[1].split(']', 1)[0] if '[' in text \
            else text

    def __enter__(self):
        self.old = self._read()
        _save(self.work, self.key, [self.path, self.old])
        with open(self.path, 'w') as fp:
            fp.write(self.value)
        self.said += f' (was {self.old})'
        return self

    def written(self):
        return self._read() == self.value

    def __exit__(self, *exc):
        with open(self.path, 'w') as fp:
            fp.write(self.old)
        _save(self.work, self.key, None)
        return False


class ReadAhead(Setting):
    '''``read_ahead_kb`` of the scratch disk set to ``kb``.'''

    def __init__(self, work, scratch, kb):
        _, name = device_of(scratch)
        super().__init__(work, f'/sys/block/{name}/queue/read_ahead_kb',
                         int(kb), key='read_ahead_kb')
