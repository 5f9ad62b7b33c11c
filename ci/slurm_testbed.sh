#!/usr/bin/env bash
# slurm_testbed.sh start|stop|status|env: a two-node Slurm test cluster on
# this machine, for running the suite through a real workload manager
# (systems/slurm_testbed.py; the end-to-end test tests/test_e2e_slurm.py).
#
# start  writes a slurm.conf for this machine's cores and memory, starts
#        munged, slurmctld and one slurmd per node as plain processes (no
#        systemd), waits until every node is idle, and prints the line that
#        points Slurm's commands at it:
#            eval "$(ci/slurm_testbed.sh start)"
# stop   stops every process it started (by process id) and every process
#        still running on its nodes, removes its namespaces, bridge and
#        directory: nothing is left behind
# status says what runs, and sinfo
# env    prints the export line again
#
# Each node is a network namespace with a UTS namespace of its own: its own
# host name (mbnode1, mbnode2), loopback and an address on a bridge that
# this script creates (10.201.0.0/24; the controller listens on 10.201.0.1).
# Slurm's and the jobs' traffic goes only over that bridge and loopback.  Both
# nodes have the machine's real cores and memory (they share them), and the
# same file systems: the stage directory is shared, like a facility's.
# Needs root, Debian's slurmctld, slurmd, slurm-client and munge, iproute2
# and util-linux (unshare).  MICROBENCH_SLURM_TESTBED moves its directory
# (default /tmp/microbench-slurm).
set -Eeuo pipefail

dir=${MICROBENCH_SLURM_TESTBED:-/tmp/microbench-slurm}
nodes=(mbnode1 mbnode2)
bridge=mbslurm0
net=10.201.0
ctl_addr=$net.1
idle_timeout_s=${MICROBENCH_SLURM_IDLE_TIMEOUT:-60}

say() { echo "slurm_testbed: $*" >&2; }
die() { say "$*"; exit 1; }

addr_of() { echo "$net.$((10 + ${1#mbnode}))"; }
netns_of() { echo "mbslurm-$1"; }

# Why this machine cannot run the test cluster; nothing when it can
cannot_start() {
    if [ "$(id -u)" != 0 ]; then
        echo "needs root (namespaces, a bridge, slurmd), running as uid $(id -u)"
        return
    fi
    local program
    for program in slurmctld slurmd sinfo sbatch munged ip unshare nsenter; do
        if ! command -v "$program" >/dev/null 2>&1; then
            echo "$program is missing: apt-get install slurmctld slurmd slurm-client munge iproute2 util-linux"
            return
        fi
    done
    if ! ip netns add mbslurm-probe 2>/dev/null; then
        echo "cannot create a network namespace here (ip netns add failed)"
        return
    fi
    ip netns del mbslurm-probe
    if ! unshare --uts true 2>/dev/null; then
        echo "cannot create a UTS namespace here (unshare --uts failed)"
    fi
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
    local why
    why=$(cannot_start)
    if [ -n "$why" ]; then
        die "cannot start: $why"
    fi
    if [ -e "$dir/slurm.conf" ]; then
        die "already set up in $dir (ci/slurm_testbed.sh status; stop first)"
    fi
    if ip link show "$bridge" >/dev/null 2>&1 || [ -d "$dir" ]; then
        say "removing what an earlier test cluster left"
        stop_all
    fi
    mkdir -p "$dir"/{munge,key,state,run,log} "$dir/spool/"{mbnode1,mbnode2}
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

# Stop every process we started and every process left in the nodes'
# namespaces; remove the namespaces, the bridge and the directory
stop_all() {
    local pidfile pid ns node
    for node in "${nodes[@]}"; do
        ns=$(netns_of "$node")
        if ip netns list 2>/dev/null | grep -qw "$ns"; then
            for pid in $(ip netns pids "$ns" 2>/dev/null); do
                kill "$pid" 2>/dev/null || true
            done
        fi
    done
    for pidfile in "$dir"/run/*.spawned; do
        [ -e "$pidfile" ] || continue
        kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    # Give them 10 s, then SIGKILL what is left
    for _ in $(seq 10); do
        if ! alive >/dev/null; then
            break
        fi
        sleep 1
    done
    for pid in $(alive); do
        kill -KILL "$pid" 2>/dev/null || true
    done
    for node in "${nodes[@]}"; do
        ns=$(netns_of "$node")
        ip netns del "$ns" 2>/dev/null || true
        rm -rf "/etc/netns/$ns"
    done
    ip link del "$bridge" 2>/dev/null || true
    rm -rf "$dir"
}

# Process ids still alive: ours and any in the nodes' namespaces
alive() {
    local pidfile pid ns node found=1
    for pidfile in "$dir"/run/*.spawned; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        if kill -0 "$pid" 2>/dev/null; then
            echo "$pid"
            found=0
        fi
    done
    for node in "${nodes[@]}"; do
        ns=$(netns_of "$node")
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            echo "$pid"
            found=0
        done
    done
    return $found
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
        if [ ! -d "$dir" ] && ! ip link show "$bridge" >/dev/null 2>&1; then
            say "nothing to stop"
        else
            stop_all
            say "stopped; nothing left"
        fi
        ;;
    status) status ;;
    env)
        [ -e "$dir/slurm.conf" ] || die "not running (no $dir/slurm.conf)"
        echo "export SLURM_CONF=$dir/slurm.conf"
        ;;
    *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
