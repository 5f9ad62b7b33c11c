#!/usr/bin/env bash
# slurm_testbed.sh start|stop|status|env: a Slurm test cluster (two nodes,
# or MICROBENCH_SLURM_NODES of them, up to 16) on
# this machine, for running the suite through a real workload manager
# (systems/slurm_testbed.py; the end-to-end test tests/e2e/test_e2e_slurm.py).
#
# start  first probes everything it needs, the way it will use it (root,
#        the programs, /proc, the controller's TCP port, the cgroup file
#        system slurmd wants, a network namespace usable with ip -n, a bridge
#        and a veth into the namespace, a node's UTS and mount namespaces,
#        munged with a new key).  Where one is missing it prints one line,
#            slurm_testbed: cannot start: WHAT IS MISSING
#        and exits 77 having changed nothing (tests skip on that).  Then it
#        writes a slurm.conf for this machine's cores and memory, starts
#        munged, slurmctld and one slurmd per node as plain processes (no
#        systemd), waits until every node is idle, and prints the line that
#        points Slurm's commands at it:
#            eval "$(ci/slurm_testbed.sh start)"
# stop   stops every process it started (by process id), every process
#        still running in its nodes' namespaces and any of its daemons whose
#        ids are lost; removes its namespaces (mbslurm-*), the /run/netns
#        mount and /etc/netns if start made them, the bridge and the veths,
#        /etc/netns/mbslurm-* and its directory: nothing is left behind.
#        With nothing there it says so, and exits 0
# status says what runs, and sinfo
# env    prints the export line again
# preflight  start's probes alone: exit 0 where the test cluster can start
#        here, else start's one line and exit 77; changes nothing (the
#        tests of the test cluster skip on it, naming the line)
#
# Each node is a network namespace with a UTS namespace of its own: its own
# host name (mbnode1, mbnode2, ...), loopback and an address on a bridge that
# this script creates (10.201.0.0/24; the controller listens on 10.201.0.1).
# Slurm's and the jobs' traffic goes only over that bridge and loopback.  Both
# nodes have the machine's real cores and memory (they share them), and the
# same file systems: the stage directory is shared, like a facility's.
# Needs root, Debian's slurmctld, slurmd, slurm-client and munge, iproute2
# and util-linux (unshare).  MICROBENCH_SLURM_TESTBED moves its directory
# (default /tmp/microbench-slurm).
set -Eeuo pipefail

dir=${MICROBENCH_SLURM_TESTBED:-/tmp/microbench-slurm}
# How many nodes (MICROBENCH_SLURM_NODES, 2 to 16; default 2): mbnode1 ...
node_count=${MICROBENCH_SLURM_NODES:-2}
if ! [[ $node_count =~ ^[0-9]+$ ]] || [ "$node_count" -lt 2 ] || [ "$node_count" -gt 16 ]; then
    echo "slurm_testbed: MICROBENCH_SLURM_NODES=$node_count: a count of nodes from 2 to 16 is needed" >&2
    exit 2
fi
nodes=()
for ((index = 1; index <= node_count; index++)); do
    nodes+=("mbnode$index")
done
bridge=mbslurm0
net=10.201.0
ctl_addr=$net.1
# slurmctld listens on this machine's; each slurmd on its node's namespace
ctl_port=6817
node_port=6818
idle_timeout_s=${MICROBENCH_SLURM_IDLE_TIMEOUT:-60}
# start's exit status when this machine cannot run the test cluster
cannot_start_status=77
# The programs start and stop run (beside coreutils), each with its package
programs=(slurmctld:slurmctld slurmd:slurmd sinfo:slurm-client
          sbatch:slurm-client munged:munge munge:munge unmunge:munge
          ip:iproute2 ss:iproute2 unshare:util-linux nsenter:util-linux
          setsid:util-linux mountpoint:util-linux mount:mount umount:mount
          hostname:hostname ps:procps)

say() { echo "slurm_testbed: $*" >&2; }
die() { say "$*"; exit 1; }

addr_of() { echo "$net.$((10 + ${1#mbnode}))"; }
netns_of() { echo "mbslurm-$1"; }

# $1 on one line, at most 300 characters
oneline() {
    tr '\n' ' ' <<< "$1" | sed 's/[[:space:]]\+/ /g; s/^ //; s/ $//' | cut -c 1-300
}

# --- What start changes on this machine beside its own objects ------------

# As key=value lines: whether /run/netns and /etc/netns exist and /run/netns
# is a mount point (the first ip netns add mounts it on itself)
host_state() {
    local run_existed=no run_mounted=no etc_existed=no
    if [ -d /run/netns ]; then run_existed=yes; fi
    if mountpoint -q /run/netns 2>/dev/null; then run_mounted=yes; fi
    if [ -d /etc/netns ]; then etc_existed=yes; fi
    echo "run_netns_existed=$run_existed"
    echo "run_netns_mounted=$run_mounted"
    echo "etc_netns_existed=$etc_existed"
}

# Undo what ip netns add and start did to /run/netns and /etc/netns, given
# host_state from before: what was there stays, and so does what holds
# anything now (another's namespace, another's file)
restore_host_state() {
    local state=$1 _
    if grep -qx 'run_netns_mounted=no' <<< "$state"; then
        for _ in 1 2 3; do
            if ! mountpoint -q /run/netns 2>/dev/null ||
                [ -n "$(ls -A /run/netns 2>/dev/null)" ] ||
                ! umount -n /run/netns 2>/dev/null; then
                break
            fi
        done
    fi
    if grep -qx 'run_netns_existed=no' <<< "$state" &&
        ! mountpoint -q /run/netns 2>/dev/null; then
        rmdir /run/netns 2>/dev/null || true
    fi
    if grep -qx 'etc_netns_existed=no' <<< "$state"; then
        rmdir /etc/netns 2>/dev/null || true
    fi
}

# --- What a test cluster, or a probe, leaves; one per line -----------------

# Its network namespaces (the nodes', a probe's)
our_netns() {
    ip netns list 2>/dev/null | awk '$1 ~ /^mbslurm-/ { print $1 }' || true
}

# Its network interfaces: the bridge, the nodes' veths, a probe's
our_links() {
    ip -o link show 2>/dev/null |
        awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' |
        grep -E '^(mbslurm|vmbnode[0-9]+$)' || true
}

# Its daemons whose process ids are lost: their command lines name its
# directory (or a probe's, beside it)
strays() {
    ps -eo pid=,args= 2>/dev/null | awk -v dir="$dir" '
        { program = $2; sub(/.*\//, "", program) }
        program ~ /^(munged|slurmctld|slurmd)$/ &&
            (index($0, dir "/") || index($0, dir ".probe.")) { print $1 }
    ' || true
}

leftovers() {
    local path
    for path in "$dir" "$dir".probe.* /etc/netns/mbslurm-*; do
        if [ -e "$path" ]; then echo "$path"; fi
    done
    our_netns | sed 's/^/namespace /'
    our_links | sed 's/^/link /'
    strays | sed 's/^/process /'
}

# --- Preflight: why this machine cannot run the test cluster ---------------
# Each probe does what start will do, the way start does it, on objects of
# its own (namespace mbslurm-probe<pid>, links mbslurmb<pid> and
# mbslurmv<pid>, directory $dir.probe.*); it prints what is missing and
# fails, or is silent.  probe_cleanup removes whatever they made.

probe_ns=mbslurm-probe$$
probe_bridge=mbslurmb$$
probe_veth=mbslurmv$$
probe_dir=
probe_munged=
probe_state=

probe_cleanup() {
    if [ -n "$probe_munged" ]; then
        kill "$probe_munged" 2>/dev/null || true
        wait "$probe_munged" 2>/dev/null || true
    fi
    ip link del "$probe_veth" >/dev/null 2>&1 || true
    ip link del "$probe_bridge" >/dev/null 2>&1 || true
    if [ -e "/run/netns/$probe_ns" ]; then
        ip netns del "$probe_ns" >/dev/null 2>&1 || true
    fi
    rm -rf "/etc/netns/$probe_ns"
    if [ -n "$probe_dir" ]; then rm -rf "$probe_dir"; fi
    if [ -n "$probe_state" ]; then restore_host_state "$probe_state"; fi
}

# "; / is not a mount point (a chroot?)" where it is not: ip -n and unshare
# --propagation make / a slave or private mount, and cannot then
chroot_hint() {
    if ! mountpoint -q / 2>/dev/null; then
        echo "; / is not a mount point (a chroot?)"
    fi
}

probe_root() {
    if [ "$(id -u)" != 0 ]; then
        echo "needs root (namespaces, a bridge, slurmd), running as uid $(id -u)"
        return 1
    fi
}

probe_programs() {
    local entry
    for entry in "${programs[@]}"; do
        if ! command -v "${entry%%:*}" >/dev/null 2>&1; then
            echo "${entry%%:*} is missing (Debian package ${entry#*:}): apt-get install --no-install-recommends slurmctld slurmd slurm-client munge iproute2"
            return 1
        fi
    done
}

probe_proc() {
    if [ ! -r /proc/self/mountinfo ]; then
        echo "/proc is not mounted (ip netns, nsenter and slurmd read it)"
        return 1
    fi
}

# slurmctld's port on this machine (each slurmd has its node's own)
probe_ports() {
    local busy
    busy=$(ss -Htlnp "sport = :$ctl_port" 2>/dev/null || true)
    if [ -n "$busy" ]; then
        echo "TCP port $ctl_port (slurmctld's) is in use: $(oneline "$busy")"
        return 1
    fi
}

# slurmd loads its cgroup plugin whatever ProctrackType and TaskPlugin say
# (here proctrack/linuxproc and task/affinity, which use no controller), as
# cgroup/v1 or cgroup/v2 chosen the way this does, and stops without one
probe_cgroups() {
    local why="slurmd (Slurm's cgroup plugin, loaded even with proctrack/linuxproc and task/affinity) needs cgroup v2 on /sys/fs/cgroup, or v1 with the name=systemd hierarchy on /sys/fs/cgroup/systemd"
    local root systemd
    root=$(stat -f -c %T /sys/fs/cgroup/ 2>/dev/null || true)
    case $root in
        cgroup2fs) ;;
        tmpfs)
            systemd=$(stat -f -c %T /sys/fs/cgroup/systemd/ 2>/dev/null || true)
            case $systemd in
                cgroupfs) return 0 ;;
                cgroup2fs) ;;
                '') echo "no cgroup file system: /sys/fs/cgroup/systemd is missing; $why"
                    return 1 ;;
                *) echo "no cgroup file system: /sys/fs/cgroup/systemd is $systemd; $why"
                   return 1 ;;
            esac ;;
        '') echo "no cgroup file system: /sys/fs/cgroup is missing; $why"
            return 1 ;;
        *) echo "no cgroup file system: /sys/fs/cgroup is $root; $why"
           return 1 ;;
    esac
    # cgroup/v2 stops where v1 hierarchies are mounted beside v2
    if grep -qv '^0::' /proc/self/cgroup; then
        echo "cgroup v1 and v2 are mounted together (hybrid); slurmd's cgroup/v2 plugin refuses that (\"Hybrid mode is not supported\")"
        return 1
    fi
}

probe_netns() {
    local out
    probe_state=$(host_state)
    if ! out=$(ip netns add "$probe_ns" 2>&1); then
        echo "cannot create a network namespace (ip netns add: $(oneline "$out"))$(chroot_hint)"
        return 1
    fi
    if ! out=$(ip -n "$probe_ns" link set lo up 2>&1) ||
        ! out=$(ip -n "$probe_ns" addr 2>&1); then
        echo "network namespaces are not usable with ip -n here (ip -n NS link set lo up: $(oneline "$out"))$(chroot_hint)"
        return 1
    fi
}

probe_links() {
    local out used
    used=$(ip -o -4 addr show to "$net.0/24" 2>/dev/null |
        awk -v bridge="$bridge" '$2 != bridge { print $2, $4 }' || true)
    if [ -n "$used" ]; then
        echo "the test cluster's network $net.0/24 is in use here: $(oneline "$used")"
        return 1
    fi
    if ! out=$(ip link add "$probe_bridge" type bridge 2>&1); then
        echo "cannot create a bridge (ip link add type bridge: $(oneline "$out"))"
        return 1
    fi
    if ! out=$(ip link add "$probe_veth" type veth peer name eth0 \
            netns "$probe_ns" 2>&1); then
        echo "cannot create a veth pair into a network namespace (ip link add type veth: $(oneline "$out"))"
        return 1
    fi
    if ! out=$({ ip link set "$probe_veth" master "$probe_bridge" up &&
                 ip -n "$probe_ns" addr add "$net.250/24" dev eth0 &&
                 ip -n "$probe_ns" link set eth0 up; } 2>&1); then
        echo "cannot put a veth on the bridge and address its peer in a network namespace ($(oneline "$out"))"
        return 1
    fi
}

# A node as start makes one: in the namespace with nsenter, a UTS and a
# mount namespace of its own, its /etc/hosts from /etc/netns, its host name
probe_node() {
    local out
    if ! out=$({ mkdir -p "/etc/netns/$probe_ns" &&
                 echo "127.0.0.1 localhost" > "/etc/netns/$probe_ns/hosts"
               } 2>&1); then
        echo "cannot write a node's /etc/hosts in /etc/netns ($(oneline "$out"))"
        return 1
    fi
    if ! out=$(nsenter --net="/run/netns/$probe_ns" \
            unshare --uts --mount --propagation private sh -c \
            "mount --bind /etc/netns/$probe_ns/hosts /etc/hosts && hostname mbprobe && [ \"\$(hostname)\" = mbprobe ]" \
            2>&1 < /dev/null); then
        echo "cannot make a node (nsenter --net, unshare --uts --mount --propagation private, mount --bind /etc/hosts, hostname: $(oneline "$out"))$(chroot_hint)"
        return 1
    fi
}

# munged with a key of its own, its socket in a directory beside $dir (as
# start lays them out), answering munge | unmunge
probe_munge() {
    local out sock _
    if ! out=$(mktemp -d "$dir.probe.XXXXXX" 2>&1); then
        echo "cannot make a directory beside $dir ($(oneline "$out"))"
        return 1
    fi
    probe_dir=$out
    mkdir "$probe_dir"/{munge,key,run,log}
    chmod 0755 "$probe_dir" "$probe_dir/munge"
    chmod 0700 "$probe_dir/key"
    if ! out=$(dd if=/dev/urandom of="$probe_dir/key/munge.key" bs=1024 \
            count=1 status=none 2>&1); then
        echo "cannot make a munge key ($(oneline "$out"))"
        return 1
    fi
    chmod 0400 "$probe_dir/key/munge.key"
    sock=$probe_dir/munge/munge.socket
    munged --foreground --socket="$sock" \
        --key-file="$probe_dir/key/munge.key" \
        --pid-file="$probe_dir/run/munged.pid" \
        --log-file="$probe_dir/log/munged.log" \
        --seed-file="$probe_dir/key/seed" \
        > "$probe_dir/log/munged.out" 2>&1 < /dev/null &
    probe_munged=$!
    for _ in $(seq 50); do
        if munge -n --socket="$sock" 2>/dev/null |
            unmunge --socket="$sock" >/dev/null 2>&1; then
            return 0
        fi
        if ! kill -0 "$probe_munged" 2>/dev/null; then
            # its error line (an Info line may be printed after it)
            local said
            said=$(grep -i 'error' "$probe_dir/log/munged.out" | tail -n 1)
            echo "munged does not start: $(oneline "${said:-$(tail -n 1 "$probe_dir/log/munged.out")}")"
            return 1
        fi
        sleep 0.1
    done
    echo "munged does not answer (munge -n | unmunge) within 5 s: $(oneline "$(tail -n 1 "$probe_dir/log/munged.out")")"
    return 1
}

# What is missing, on one line; nothing when the test cluster can start.
# Run it in a subshell, $(cannot_start): its EXIT trap cleans up
cannot_start() {
    trap probe_cleanup EXIT
    trap 'exit 1' INT TERM HUP
    probe_root && probe_programs && probe_proc && probe_ports &&
        probe_cgroups && probe_netns && probe_links && probe_node &&
        probe_munge
    return 0
}

write_conf() {
    # This machine's sockets, cores, threads and memory, as slurmd sees them
    local hardware
    hardware=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
    cat > "$dir/slurm.conf" <<EOF
# Written by ci/slurm_testbed.sh start: a test cluster of two nodes, both
# this machine (network and UTS namespaces of their own)
ClusterName=microbench-testbed
SlurmctldHost=$(hostname -s)($ctl_addr)
SlurmctldPort=$ctl_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups here: processes are tracked by parent, bound by sched_setaffinity
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# srun starts Debian's MPICH (simple PMI-1 wire protocol, which the pmi2
# plugin serves); without it every rank would be an MPI job of its own
MpiDefault=pmi2
ReturnToService=2
# Time limits in whole minutes, enforced at once; SIGTERM, then SIGKILL
# KillWait seconds later: a job's trap has that long to clean up
OverTimeLimit=0
KillWait=10
InactiveLimit=0
# A finished job stays in squeue this long, with its final state
MinJobAge=600
# No accounting database (ReFrame's squeue backend); a text record of every
# job's end instead
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
NodeName=DEFAULT $hardware State=UNKNOWN
EOF
    local node
    for node in "${nodes[@]}"; do
        echo "NodeName=$node NodeAddr=$(addr_of "$node") NodeHostname=$node" >> "$dir/slurm.conf"
    done
    cat >> "$dir/slurm.conf" <<EOF
PartitionName=compute Nodes=$(IFS=,; echo "${nodes[*]}") Default=YES MaxTime=UNLIMITED State=UP
EOF
}

start_network() {
    ip link add "$bridge" type bridge
    ip addr add "$ctl_addr/24" dev "$bridge"
    ip link set "$bridge" up
    local node ns
    for node in "${nodes[@]}"; do
        ns=$(netns_of "$node")
        ip netns add "$ns"
        ip link add "v$node" type veth peer name eth0 netns "$ns"
        ip link set "v$node" master "$bridge" up
        ip -n "$ns" addr add "$(addr_of "$node")/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
        # Shown as /etc/hosts inside the node (a bind mount in its own mount
        # namespace): node names resolve there, the machine's file is untouched
        mkdir -p "/etc/netns/$ns"
        {
            echo "127.0.0.1 localhost"
            echo "$ctl_addr $(hostname -s)"
            local other
            for other in "${nodes[@]}"; do
                echo "$(addr_of "$other") $other"
            done
        } > "/etc/netns/$ns/hosts"
    done
}

# Start "$@" in the background, its process id in $dir/run/$name.pid
spawn() {
    local name=$1
    shift
    setsid "$@" > "$dir/log/$name.out" 2>&1 < /dev/null &
    echo $! > "$dir/run/$name.spawned"
}

wait_idle() {
    local deadline=$((SECONDS + idle_timeout_s)) states
    while :; do
        states=$(timeout 5 sinfo -h -N -o '%N %T' 2>/dev/null || true)
        if [ "$(grep -c ' idle$' <<< "$states")" = "${#nodes[@]}" ]; then
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "nodes not idle after $idle_timeout_s s: ${states:-sinfo answered nothing}"
            return 1
        fi
        sleep 1
    done
}

start() {
    if [ -e "$dir/slurm.conf" ]; then
        if [ -n "$(alive)" ]; then
            die "already set up in $dir (ci/slurm_testbed.sh status; stop first)"
        fi
        # A cluster whose daemons are all gone (the machine restarted, or
        # they were killed) is what an earlier one left: removed below
        say "a test cluster is set up in $dir but none of its daemons runs"
    fi
    local why
    why=$(cannot_start)
    if [ -n "$why" ]; then
        say "cannot start: $why"
        exit "$cannot_start_status"
    fi
    if [ -n "$(leftovers)" ]; then
        say "removing what an earlier test cluster left"
        stop_all
    fi
    # What stop puts back as it was
    local state
    state=$(host_state)
    mkdir -p "$dir"/{munge,key,state,run,log}
    local spool_node
    for spool_node in "${nodes[@]}"; do
        mkdir -p "$dir/spool/$spool_node"
    done
    echo "$state" > "$dir/host-state"
    # munged wants its socket's directory open to all, its key's closed
    chmod 0755 "$dir" "$dir/munge" "$dir/spool"/*
    chmod 0700 "$dir/key"
    dd if=/dev/urandom of="$dir/key/munge.key" bs=1024 count=1 status=none
    chmod 0400 "$dir/key/munge.key"
    write_conf
    export SLURM_CONF=$dir/slurm.conf
    # Whatever fails from here on is undone
    trap 'say "start failed; the daemons said:"; tail -n 5 "$dir"/log/* >&2; stop_all' ERR
    start_network
    spawn munged munged --foreground --socket="$dir/munge/munge.socket" \
        --key-file="$dir/key/munge.key" --pid-file="$dir/run/munged.pid" \
        --log-file="$dir/log/munged.log" --seed-file="$dir/key/seed"
    spawn slurmctld slurmctld -D -i -f "$SLURM_CONF"
    local node ns
    for node in "${nodes[@]}"; do
        # nsenter, not ip netns exec: that one mounts a sysfs of its own,
        # without the cgroup file systems slurmd insists on
        ns=$(netns_of "$node")
        spawn "slurmd-$node" nsenter --net="/run/netns/$ns" \
            unshare --uts --mount --propagation private sh -c \
            "mount --bind /etc/netns/$ns/hosts /etc/hosts && hostname $node && exec slurmd -D -N $node -f $SLURM_CONF"
    done
    wait_idle || false
    trap - ERR
    say "up: ${nodes[*]} idle ($(slurmd -V)); $dir"
    echo "export SLURM_CONF=$SLURM_CONF"
}

# Process ids still alive: ours, any in the nodes' namespaces, our strays
alive() {
    local pidfile pid ns
    for pidfile in "$dir"/run/*.spawned; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        if kill -0 "$pid" 2>/dev/null; then
            echo "$pid"
        fi
    done
    for ns in $(our_netns); do
        ip netns pids "$ns" 2>/dev/null || true
    done
    strays
}

# Stop every process we started and every process left in the nodes'
# namespaces; remove the namespaces, the links, the nodes' /etc/netns, the
# /run/netns mount and /etc/netns where start made them, the directory
stop_all() {
    local pid ns link _
    for pid in $(alive); do
        kill "$pid" 2>/dev/null || true
    done
    # Give them 10 s, then SIGKILL what is left
    for _ in $(seq 10); do
        if [ -z "$(alive)" ]; then
            break
        fi
        sleep 1
    done
    for pid in $(alive); do
        kill -KILL "$pid" 2>/dev/null || true
    done
    for _ in $(seq 20); do
        if [ -z "$(alive)" ]; then
            break
        fi
        sleep 0.1
    done
    for ns in $(our_netns); do
        ip netns del "$ns" 2>/dev/null || true
    done
    for link in $(our_links); do
        ip link del "$link" 2>/dev/null || true
    done
    rm -rf /etc/netns/mbslurm-*
    if [ -e "$dir/host-state" ]; then
        restore_host_state "$(cat "$dir/host-state")"
    fi
    rm -rf "$dir" "$dir".probe.*
}

status() {
    if [ ! -e "$dir/slurm.conf" ]; then
        say "not running (no $dir/slurm.conf)"
        return 3
    fi
    local pidfile name
    for pidfile in "$dir"/run/*.spawned; do
        name=$(basename "$pidfile" .spawned)
        if kill -0 "$(cat "$pidfile")" 2>/dev/null; then
            echo "$name: running, pid $(cat "$pidfile")"
        else
            echo "$name: not running (log: $dir/log/$name.out)"
        fi
    done
    SLURM_CONF=$dir/slurm.conf sinfo -N -l
}

case ${1:-} in
    start) start ;;
    stop)
        if [ -z "$(leftovers)" ]; then
            say "nothing to stop"
            exit 0
        fi
        stop_all
        left=$(leftovers)
        if [ -n "$left" ]; then
            die "stopped, but left: $(oneline "$left")"
        fi
        say "stopped; nothing left"
        ;;
    status) status ;;
    preflight)
        why=$(cannot_start)
        if [ -n "$why" ]; then
            say "cannot start: $why"
            exit "$cannot_start_status"
        fi
        say "can start here"
        ;;
    env)
        [ -e "$dir/slurm.conf" ] || die "not running (no $dir/slurm.conf)"
        echo "export SLURM_CONF=$dir/slurm.conf"
        ;;
    *) echo "usage: $0 start|stop|status|env|preflight" >&2; exit 2 ;;
esac
