'''The Slurm test cluster's own life cycle (ci/slurm_testbed.sh), with the
real daemons: start then stop leaves nothing behind, on this machine as it
is and on a fresh one (no /run/netns mount, no /etc/netns); a second stop is
harmless; where something start needs is missing (a chroot, where ip -n
cannot work; a read-only /run/netns; munged not installed; no cgroup file
system; the controller's port taken; munged refusing its socket's
directory; not root) start says what, on one line, exits 77 (the tests of
the test cluster skip on it) and leaves nothing behind either.

A machine that cannot host the test cluster at all (``preflight`` says
why: a fresh Debian root whose cgroup v1 hierarchies are not mounted, as
in many containers) skips each test that needs start to work, and each
test of a missing piece whose start stops on the machine's own reason
first, naming that reason.

Runs as root where Debian's slurmctld, slurmd, slurm-client and munge and
iproute2 are installed (.ci/run installs them); elsewhere it is skipped,
saying why.  About 10 s.
'''

import glob
import os
import re
import shutil
import socket
import subprocess

import pytest

import project
from slurm_bed import CANNOT_START, DIR, TESTBED

pytestmark = pytest.mark.slurm

ROOT = project.ROOT
DAEMONS = ('munged', 'slurmctld', 'slurmd', 'slurmstepd')
PROGRAMS = ('slurmctld', 'slurmd', 'sinfo', 'sbatch', 'munged', 'munge',
            'ip', 'ss', 'ps', 'unshare', 'nsenter', 'chroot', 'setpriv')


def _why_not():
    if os.geteuid() != 0:
        return f'needs root (namespaces, a bridge, slurmd), uid {os.geteuid()}'

    missing = [p for p in PROGRAMS if shutil.which(p) is None]
    if missing:
        return (f'{", ".join(missing)} missing: apt-get install slurmctld '
                'slurmd slurm-client munge iproute2')

    return None


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          **kwargs)


def cluster(*args, env=None):
    return run([TESTBED, *args],
               env=None if env is None else {**os.environ, **env})


def in_mount_namespace(script, env=None):
    '''``script`` (sh) in a mount namespace of its own: what it mounts
    there goes away with it.'''
    return run(['unshare', '--mount', '--propagation', 'private',
                'sh', '-euc', script],
               env=None if env is None else {**os.environ, **env})


#: Where other tests mount file systems of their own while these run (the
#: local benchmarks beside them: a ramfs, a btrfs, a tiny file system under
#: their pytest directories): not the test cluster's to answer for
OTHERS = re.compile(r'/tmp/pytest-of-[^/]+/')


def mounts(mountinfo):
    '''The mounts of a /proc/PID/mountinfo text, without their ids (those
    of other tests' directories left out).'''
    found = set()
    for line in mountinfo.splitlines():
        fields = line.split()
        tail = fields[fields.index('-') + 1:]
        if OTHERS.match(fields[4]):
            continue
        found.add((fields[3], fields[4], tail[0], tail[1]))
    return found


def listing(path):
    return sorted(os.listdir(path)) if os.path.isdir(path) else None


def ours(state):
    '''What of a test cluster, or of a probe of one, is in ``state``.'''
    found = {key: state[key] for key in ('namespaces', 'links', 'dirs')
             if state[key]}
    daemons = [line for line in state['daemons'] if DIR in line]
    if daemons:
        found['daemons'] = daemons
    return found


def host_state():
    '''What the test cluster (or a probe of it) could leave behind here.'''
    daemons = [line.strip() for line in
               run(['ps', '-eo', 'pid=,comm=,args=']).stdout.splitlines()
               if line.split()[1] in DAEMONS]
    namespaces = run(['ip', 'netns', 'list']).stdout
    links = run(['ip', '-o', 'link', 'show']).stdout
    with open('/proc/self/mountinfo') as fp:
        mountinfo = fp.read()
    return {
        'daemons': sorted(daemons),
        'namespaces': sorted(line.split()[0]
                             for line in namespaces.splitlines()
                             if line.startswith('mbslurm')),
        'links': sorted(name for name in
                        (line.split(': ')[1].split('@')[0]
                         for line in links.splitlines())
                        if name.startswith(('mbslurm', 'vmbnode'))),
        'dirs': sorted(glob.glob(DIR) + glob.glob(DIR + '.probe.*') +
                       glob.glob('/etc/netns/mbslurm-*')),
        'mounts': mounts(mountinfo),
        'run_netns': listing('/run/netns'),
        'etc_netns': listing('/etc/netns'),
    }


@pytest.fixture
def idle_machine():
    '''This machine's state, with no test cluster running nor left.'''
    why = _why_not()
    if why:
        pytest.skip(why)

    if cluster('status').returncode == 0:
        pytest.skip('a test cluster is already running here: '
                    'ci/slurm_testbed.sh stop')

    before = host_state()
    if ours(before):
        pytest.skip(f'an earlier test cluster left {ours(before)}: '
                    'ci/slurm_testbed.sh stop')

    yield before
    # Whatever a failed test left
    if ours(host_state()):
        cluster('stop')


@pytest.fixture(scope='module')
def cannot_host():
    '''Why this machine cannot host the test cluster (preflight's one
    line), or None.'''
    if _why_not():
        return None
    proc = cluster('preflight')
    if proc.returncode == CANNOT_START:
        return proc.stderr.strip()
    assert proc.returncode == 0, proc.stderr
    return None


def needs_a_host(why):
    if why:
        pytest.skip(f'this machine cannot host the test cluster: {why}')


def assert_left_nothing(before):
    after = host_state()
    assert ours(after) == {}
    assert after['mounts'] == before['mounts']
    assert after['run_netns'] == before['run_netns']
    assert after['etc_netns'] == before['etc_netns']


def assert_cannot_start(proc, *words):
    '''start refused, with one line naming what is missing.'''
    assert proc.returncode == CANNOT_START, proc.stderr
    assert proc.stdout == ''
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith('slurm_testbed: cannot start: ')
    for word in words:
        assert word in lines[0]


def test_preflight_says_the_same_as_start(idle_machine, cannot_host):
    '''preflight and start probe alike: where one cannot start, the other
    says the same line; where it can, preflight changes nothing.'''
    proc = cluster('preflight')
    if cannot_host:
        start = cluster('start')
        assert_cannot_start(start)
        assert start.stderr.strip() == cannot_host
    else:
        assert proc.returncode == 0, proc.stderr
        assert 'can start here' in proc.stderr
    assert_left_nothing(idle_machine)


def test_start_then_stop_leaves_nothing(idle_machine, cannot_host):
    needs_a_host(cannot_host)
    start = cluster('start')
    assert start.returncode == 0, start.stderr
    assert f'export SLURM_CONF={DIR}/slurm.conf' in start.stdout
    up = host_state()
    assert up['namespaces'] == ['mbslurm-mbnode1', 'mbslurm-mbnode2']
    assert up['links'] == ['mbslurm0', 'vmbnode1', 'vmbnode2']
    spawned = {}
    for path in glob.glob(f'{DIR}/run/*.spawned'):
        with open(path) as fp:
            spawned[os.path.basename(path)] = int(fp.read())
    assert set(spawned) == {'munged.spawned', 'slurmctld.spawned',
                            'slurmd-mbnode1.spawned',
                            'slurmd-mbnode2.spawned'}
    assert len(up['daemons']) > len(idle_machine['daemons'])

    stop = cluster('stop')
    assert stop.returncode == 0, stop.stderr
    assert 'stopped; nothing left' in stop.stderr
    for pid in spawned.values():
        assert not os.path.exists(f'/proc/{pid}')
    assert host_state()['daemons'] == idle_machine['daemons']
    assert_left_nothing(idle_machine)

    again = cluster('stop')
    assert again.returncode == 0, again.stderr
    assert 'nothing to stop' in again.stderr
    assert_left_nothing(idle_machine)


def test_stop_without_a_start_is_harmless(idle_machine):
    stop = cluster('stop')
    assert stop.returncode == 0, stop.stderr
    assert 'nothing to stop' in stop.stderr
    assert_left_nothing(idle_machine)


def test_on_a_fresh_machine_stop_undoes_the_netns_mount(idle_machine,
                                                         tmp_path,
                                                         cannot_host):
    '''Where /run/netns is no mount point and /etc/netns does not exist
    (a fresh machine: here a mount namespace, /etc an overlay), start's
    ip netns add mounts the one and start makes the other; stop removes
    both.'''
    needs_a_host(cannot_host)
    upper, work = tmp_path / 'upper', tmp_path / 'work'
    upper.mkdir()
    work.mkdir()
    proc = in_mount_namespace(f'''
        if mountpoint -q /run/netns; then umount -l /run/netns; fi
        mount -t overlay overlay \
            -o lowerdir=/etc,upperdir={upper},workdir={work} /etc
        rm -rf /etc/netns
        cat /proc/self/mountinfo > {tmp_path}/mounts.before
        set +e
        {TESTBED} start > {tmp_path}/start.out 2>&1
        echo $? > {tmp_path}/start.rc
        cat {DIR}/host-state > {tmp_path}/host-state
        mountpoint -q /run/netns && echo mounted > {tmp_path}/up.netns
        ls /etc/netns > {tmp_path}/up.etc-netns
        {TESTBED} stop > {tmp_path}/stop.out 2>&1
        echo $? > {tmp_path}/stop.rc
        {TESTBED} stop > {tmp_path}/stop2.out 2>&1
        echo $? > {tmp_path}/stop2.rc
        cat /proc/self/mountinfo > {tmp_path}/mounts.after
        test -d /etc/netns && echo exists > {tmp_path}/after.etc-netns
        true
    ''')
    if proc.returncode != 0:
        pytest.skip(f'cannot make a fresh machine here: {proc.stderr}')

    def read(name):
        path = tmp_path / name
        return path.read_text() if path.exists() else ''

    assert read('start.rc') == '0\n', read('start.out')
    assert 'run_netns_mounted=no' in read('host-state')
    assert 'etc_netns_existed=no' in read('host-state')
    assert read('up.netns') == 'mounted\n'
    assert read('up.etc-netns').split() == ['mbslurm-mbnode1',
                                            'mbslurm-mbnode2']
    assert read('stop.rc') == '0\n', read('stop.out')
    assert 'stopped; nothing left' in read('stop.out')
    assert read('stop2.rc') == '0\n', read('stop2.out')
    assert 'nothing to stop' in read('stop2.out')
    assert mounts(read('mounts.after')) == mounts(read('mounts.before'))
    assert read('after.etc-netns') == ''
    assert host_state()['daemons'] == idle_machine['daemons']
    assert_left_nothing(idle_machine)


def make_chroot(root):
    '''A chroot as CI containers make them: this machine's /usr, /etc
    (read-only), /proc, /sys, /dev and this repository bound into a plain
    directory, which is not a mount point; its own /run and /tmp.  The
    sh lines that mount them (in a mount namespace of their own).'''
    lines = [f'cd {root}']
    for name in ('run', 'tmp', 'proc', 'sys', 'dev', 'usr', 'etc',
                 ROOT.lstrip('/')):
        (root / name).mkdir(parents=True)
    (root / 'tmp').chmod(0o1777)
    for name in ('bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'):
        if os.path.islink(f'/{name}'):
            os.symlink(os.readlink(f'/{name}'), root / name)
        elif os.path.isdir(f'/{name}'):
            (root / name).mkdir()
            lines.append(f'mount --rbind /{name} {name}')
    lines += ['mount --rbind /usr usr',
              'mount --bind /etc etc', 'mount -o remount,bind,ro etc',
              'mount --rbind /proc proc', 'mount --rbind /sys sys',
              'mount --rbind /dev dev',
              f'mount --bind {ROOT} {ROOT.lstrip("/")}']
    return '\n'.join(lines)


def test_in_a_chroot_start_says_ip_n_cannot_work(idle_machine, tmp_path,
                                                 cannot_host):
    '''In a chroot / is not a mount point: ip -n (and unshare
    --propagation) cannot make it a slave mount.'''
    root = tmp_path / 'root'
    proc = in_mount_namespace(make_chroot(root) + f'''
        ls -A run tmp > {tmp_path}/before
        set +e
        chroot . {TESTBED} start
        echo $? > {tmp_path}/rc
        ls -A run tmp > {tmp_path}/after
        exit 0
    ''')
    assert (tmp_path / 'rc').exists(), proc.stderr
    proc.returncode = int((tmp_path / 'rc').read_text())
    if cannot_host and proc.stderr.strip() == cannot_host:
        assert_left_nothing(idle_machine)
        pytest.skip(f'start stops first on this machine\'s own reason: '
                    f'{cannot_host}')
    assert_cannot_start(proc, 'ip -n', 'mount --make-rslave /',
                        '/ is not a mount point')
    assert (tmp_path / 'after').read_text() == \
        (tmp_path / 'before').read_text()
    assert_left_nothing(idle_machine)


def without(program, farm):
    '''A PATH of every program here but ``program``.'''
    farm.mkdir()
    for bindir in ('/usr/local/sbin', '/usr/local/bin', '/usr/sbin',
                   '/usr/bin', '/sbin', '/bin'):
        for name in (os.listdir(bindir) if os.path.isdir(bindir) else ()):
            if name != program and not os.path.lexists(farm / name):
                os.symlink(os.path.join(bindir, name), farm / name)
    return str(farm)


@pytest.fixture
def port_taken():
    '''slurmctld's port, listened on by another.'''
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(('127.0.0.1', 6817))
        except OSError as err:
            pytest.skip(f'cannot listen on port 6817: {err}')
        sock.listen()
        yield


@pytest.mark.parametrize('broken', [
    'read_only_run_netns', 'munged_missing', 'no_cgroups', 'port_taken',
    'munged_refuses', 'not_root',
])
def test_start_skips_naming_what_is_missing(broken, idle_machine, tmp_path,
                                            request, cannot_host):
    if broken == 'read_only_run_netns':
        # a machine that never made a network namespace has no
        # /run/netns: make one in a tmpfs of this namespace, not on disk
        proc = in_mount_namespace(
            'if [ ! -d /run/netns ]; then\n'
            '    mount -t tmpfs tmpfs /run && mkdir /run/netns\n'
            'fi\n'
            'mount -t tmpfs -o ro tmpfs /run/netns\n'
            f'exec {TESTBED} start')
        words = ['ip netns add', 'Read-only file system']
    elif broken == 'munged_missing':
        proc = cluster('start', env={
            'PATH': without('munged', tmp_path / 'bin')})
        words = ['munged is missing', 'munge']
    elif broken == 'no_cgroups':
        proc = in_mount_namespace(
            'mount -t tmpfs tmpfs /sys/fs/cgroup\n'
            f'exec {TESTBED} start')
        words = ['no cgroup file system', '/sys/fs/cgroup/systemd']
    elif broken == 'port_taken':
        request.getfixturevalue('port_taken')
        proc = cluster('start')
        words = ['TCP port 6817', 'in use']
    elif broken == 'munged_refuses':
        # munged wants every directory above its socket open to all
        closed = tmp_path / 'closed'
        closed.mkdir(mode=0o700)
        proc = cluster('start', env={
            'MICROBENCH_SLURM_TESTBED': str(closed / 'testbed')})
        words = ['munged does not start', str(closed)]
        assert listing(closed) == []
    else:
        proc = run(['setpriv', '--reuid=65534', '--regid=65534',
                    '--clear-groups', TESTBED, 'start'])
        words = ['needs root']
    assert_cannot_start(proc, *words[:0])
    if cannot_host and proc.stderr.strip() == cannot_host and \
            broken != 'no_cgroups':
        # start stops at what this machine lacks before the piece this
        # test took away
        assert_left_nothing(idle_machine)
        pytest.skip(f'start stops first on this machine\'s own reason: '
                    f'{cannot_host}')
    assert_cannot_start(proc, *words)
    assert_left_nothing(idle_machine)
