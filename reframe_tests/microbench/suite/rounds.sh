# shellcheck shell=bash
# The job of a rounds fixture (microbench/suite/rounds.py): every variant of a
# pitfall measured round-robin on the same nodes, sample 1 of every variant,
# then sample 2, and so on.  The job script sets the variables below,
# sources this file, calls rounds_begin, declares the commands of every
# variant (they may use $scratch, $server_node, $server_addr, $hosts), and
# calls rounds_run.  What the job did goes to its standard output as record
# lines, "microbench: <key>: <value>" (microbench/suite/records.py reads them).
# progress.sh, beside this file, takes the lock and tells the console what
# the job waits for and each sample as it ends.
#
# The inputs, one per entry below (microbench/suite/skeleton.py declares
# the same, and writes every job script's lines; a test holds the two
# together).  A job script sets only those its tool uses: the others keep
# the defaults this file sets.
#
# Set before rounds_begin (scalars are literal, evaluated when used):
#   scratch_root      where the job's private scratch directory goes
#                     (empty: the benchmark writes no files)
#   tool              the benchmark's name, in failure records
#   version_command   prints the tool's version (empty: none)
#   job_name          prefix of that directory
#   nodes_command     prints the job's nodes, one per line (empty: this node
#                     only, and a server is reached over loopback)
#   address_suffix    appended to the server node's name to reach it
#   job_nodes_command prints every node of the job, for the records (empty:
#                     the nodes above)
#   samples           rounds
#   warmup_rounds     rounds of every variant run before the counted ones,
#                     round-robin like them; what they write is removed
#                     unread (default 0)
#   stdout_file       where a sample's standard output goes (empty: the job's)
#   witness_tool      a program every witness needs (empty: none)
#   service           started on every node ($node) before the rounds, in the
#                     background (empty: none)
#   service_stop      stops every service (at exit)
#   service_port      the port of the service
#   server_start_s    seconds a server gets to come up (default 0)
#   client_timeout_s  seconds a client gets (it runs under timeout itself;
#                     default 0: no limit)
#   darshan_flavour   the Darshan runtime the witnesses need, mpi or nompi
#                     (empty: no Darshan witness)
#   darshan_candidates  libdarshan.so files or prefixes to try, in order,
#                     before the one darshan-config on PATH names
#   lock_file         the benchmark lock (empty: /tmp/microbench-<uid>.lock)
#   lock_reminder_s   seconds between the lines of a job waiting for the
#                     lock (default 300)
#   progress_file     where the job says what it waits for and each sample
#                     as it ends (progress.sh; empty: nowhere)
#   run_by            who runs the job (the ReFrame process and its command
#                     line), in the lock's holder line
#   tools             array: programs that must be on the node (else the
#                     job records "missing" and ends: the checks skip)
#   variants          array: the variants of every round, in order
#   outputs           array: files a sample writes in the stage directory;
#                     each is kept as <stem>-<variant>-<sample><suffix>
#   sides             array: the sides of an A/B experiment, A B (empty:
#                     none; microbench/sides.py, microbench/suite/stacked.py):
#                     the variants are then named <variant>@<side>, each
#                     side's rounds alternate A B B A A B B A ..., samples
#                     rounds of each; what a side's witnesses and samples
#                     write goes to the side's directory below the stage
#                     directory (<side>/), where its commands run
#
# Declared between rounds_begin and rounds_run, by variant (associative
# arrays, values expanded when declared; default: empty):
#   commands          the command of one sample (the client's, with a server)
#   servers           a server started before the client (fabtests)
#   prepares          a command run before every sample (lustre layouts)
#   residencies       a command run before every sample, after its
#                     preparation: what of the files the sample will read
#                     the page cache holds (microbench/suite/residency.py);
#                     its standard output is kept as residency-<variant>-
#                     <sample>.txt
#   witnesses         a command run once on a short sample of its own, before
#                     the rounds; its standard output is kept in
#                     witness-<variant>.txt, its standard error in
#                     witness-stderr-<variant>.txt
#   darshans          a command run once under the Darshan runtime
#                     ($darshan_lib), on a short sample of its own, before
#                     the rounds; standard output and error kept as for a
#                     witness, darshan-<variant>.txt and
#                     darshan-stderr-<variant>.txt
#   probes            a command that must succeed, or the variant is
#                     recorded as unsupported
#   probe_reasons     what the unsupported variant's record says
#   facts             by name: commands whose output is recorded under
#                     that name before the rounds
#   preflight         array: commands that must succeed before any sample,
#                     or the job fails
#   preflight_reasons array, same order: what the failure says
#   versions          by side: prints the version of the side's tool (an
#                     A/B; version_command is then empty), recorded as
#                     "version: @<side>: <version>"
#
# shellcheck disable=SC2154  # the job script sets what this file reads

# The defaults of the inputs a job script may leave out
scratch_root='' version_command='' nodes_command='' address_suffix=''
job_nodes_command='' stdout_file='' witness_tool='' service=''
service_stop='' service_port='' server_start_s=0 client_timeout_s=0
warmup_rounds=0 darshan_flavour='' darshan_candidates='' outputs=() sides=()
declare -A servers=() prepares=() residencies=() witnesses=() darshans=() probes=() \
    probe_reasons=() facts=() versions=()
preflight=() preflight_reasons=()

# The variant a job's variant name $1 stands for: in an A/B, the name
# without its side (direct@A: direct)
plain() {
    if [ ${#sides[@]} -gt 0 ]; then
        printf '%s' "${1%@*}"
    else
        printf '%s' "$1"
    fi
}

# Where what variant name $1 writes goes: in an A/B its side's directory,
# else the stage directory
side_dir() {
    if [ ${#sides[@]} -gt 0 ]; then
        printf '%s/%s' "$stage_dir" "${1##*@}"
    else
        printf '%s' "$stage_dir"
    fi
}

# An A/B's directory of each side, with a copy of the stage directory's
# scripts: a command may name one relatively (./polling.sh)
make_sides() {
    local side script
    for side in "${sides[@]}"; do
        mkdir -p "$stage_dir/$side"
        for script in "$stage_dir"/*.sh; do
            if [ -f "$script" ]; then
                cp -p -- "$script" "$stage_dir/$side/"
            fi
        done
    done
}

record() {
    printf 'microbench: %s: %s\n' "$1" "$2"
}

# The lock and the progress lines, and the defaults of their inputs
# shellcheck disable=SC1091  # linted on its own
. "$(dirname "${BASH_SOURCE[0]}")/progress.sh"
# The scratch disk's counts around every sample
# shellcheck disable=SC1091  # linted on its own
. "$(dirname "${BASH_SOURCE[0]}")/counts.sh"

# Run command line $1 in the background and wait for it: a signal to the
# job then reaches its trap at once, not when the command ends
run() {
    eval "$1" &
    wait $!
}

# Stop process $1 and every process below it
kill_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do
        kill_tree "$child"
    done
    kill "$1" 2>/dev/null
}

# Pass or fail: stop the services and whatever still runs, remove the scratch
cleanup() {
    if [ -n "$service_stop" ] && [ -n "$hosts" ]; then
        eval "$service_stop" >/dev/null 2>&1
    fi
    local pid
    for pid in $(jobs -p); do
        kill_tree "$pid"
    done
    wait
    if [ -n "$scratch" ]; then
        rm -rf -- "$scratch"
    fi
    release_lock
}

# The file system type of directory $1
fstype_of() {
    local found
    found=$(findmnt -n -o FSTYPE --target "$1" 2>/dev/null)
    if [ -z "$found" ]; then
        found=$(stat -f -c %T "$1" 2>/dev/null)
        found=${found:+$found (statfs)}
    fi
    printf '%s\n' "${found:-unknown: neither findmnt nor stat -f could tell}"
}

# The mount options of the file system of directory $1: findmnt's; where no
# mount is visible (a chroot) the flags statfs gives; else why not
mount_options_of() {
    local found
    found=$(findmnt -n -o OPTIONS --target "$1" 2>/dev/null)
    if [ -z "$found" ] && command -v python3 >/dev/null 2>&1; then
        found=$(python3 - "$1" <<'EOF' 2>/dev/null
import os, sys
flags = os.statvfs(sys.argv[1]).f_flag
names = ['ro' if flags & os.ST_RDONLY else 'rw']
names += [name for name in ('nosuid', 'nodev', 'noexec', 'synchronous',
                            'mandlock', 'noatime', 'nodiratime', 'relatime')
          if flags & getattr(os, 'ST_' + name.upper(), 0)]
print(','.join(names) + ' (statfs flags: no mount entry is visible here)')
EOF
)
    fi
    printf '%s\n' "${found:-unknown: no mount of $1 is visible here (findmnt found none: a chroot?) and python3 is missing}"
}

# The Darshan runtime the witnesses preload, darshan_lib: the first candidate
# of the wanted flavour (linked to MPI, or not), then darshan-config's;
# darshan_why says why there is none
find_darshan() {
    darshan_lib=""
    darshan_why=""
    if [ -z "$darshan_flavour" ]; then
        return 0
    fi
    local found=() candidate lib flavour
    for candidate in $darshan_candidates; do
        if [ -d "$candidate" ]; then
            candidate=$candidate/lib/libdarshan.so
        fi
        found+=("$candidate")
    done
    if command -v darshan-config >/dev/null 2>&1; then
        for candidate in $(darshan-config --dyn-ld-flags 2>/dev/null); do
            case $candidate in
                -L*) found+=("${candidate#-L}/libdarshan.so") ;;
            esac
        done
    fi
    for lib in "${found[@]}"; do
        if [ ! -r "$lib" ]; then
            continue
        fi
        flavour=nompi
        if ldd "$lib" 2>/dev/null | grep -q 'libmpi'; then
            flavour=mpi
        fi
        if [ "$flavour" = "$darshan_flavour" ]; then
            darshan_lib=$lib
            record darshan_runtime "$lib"
            return 0
        fi
    done
    darshan_why="no Darshan runtime ($darshan_flavour) among: ${found[*]:-none named, and no darshan-config on PATH}"
    record darshan_runtime "none: $darshan_why"
}

make_scratch() {
    if ! mkdir -p "$scratch_root"; then
        record failed "mkdir -p $scratch_root failed"
        exit 1
    fi
    if ! scratch=$(mktemp -d "$scratch_root/$job_name.XXXXXX"); then
        record failed "mktemp -d in $scratch_root failed"
        exit 1
    fi
    record scratch "$scratch"
    record scratch_fstype "$(fstype_of "$scratch")"
    record scratch_mount_options "$(mount_options_of "$scratch")"
}

find_nodes() {
    if [ -n "$nodes_command" ]; then
        mapfile -t nodes < <(eval "$nodes_command")
        server_addr=${nodes[0]}$address_suffix
    else
        nodes=("$(hostname)")
        server_addr=127.0.0.1
    fi
    server_node=${nodes[0]}
    client_node=${nodes[1]:-${nodes[0]}}
    # The job's CPUs here, and two of them for processes bound by hand
    job_cpus=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
    local cpus
    read -r -a cpus <<< "$(echo "$job_cpus" | awk -F, '{for (i = 1; i <= NF; i++) {n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) printf "%d ", c}}')"
    # shellcheck disable=SC2034  # the commands use them (taskset -c)
    server_core=${cpus[0]}
    # shellcheck disable=SC2034
    client_core=${cpus[1]:-${cpus[0]}}
    hosts=""
    if [ -n "$service" ]; then
        local node
        for node in "${nodes[@]}"; do
            hosts="$hosts${hosts:+,}$node:$service_port"
        done
    fi
}

# Lock, trap, records of the node and tool, the scratch directory, the nodes
rounds_begin() {
    # The stage directory: an A/B's samples run in a side's directory below
    # it, and the progress lines go to it from wherever the job is
    stage_dir=$PWD
    case $progress_file in
        ''|/*) ;;
        *) progress_file=$stage_dir/$progress_file ;;
    esac
    start_progress
    record node "$(hostname)"
    # A program missing skips the checks at once: no wait for the lock
    local program where
    for program in "${tools[@]}"; do
        if ! command -v "$program" >/dev/null 2>&1; then
            record missing "$program"
            exit 0
        fi
    done
    # Where each program was found and where its links lead: the software
    # stack that ran (the tool_path and spack_lock fields)
    for program in "${tools[@]}"; do
        where=$(command -v "$program")
        record found "$where -> $(readlink -f "$where" 2>/dev/null || printf '%s' "$where")"
    done
    # The workload manager's job id (none on the local scheduler)
    job_id=${SLURM_JOB_ID:-${PBS_JOBID:-${COBALT_JOBID:-${FLUX_JOB_ID:-}}}}
    # One benchmark at a time on this node, whatever the policy
    take_lock
    record start "$(date +%s.%N)"
    scratch=""
    hosts=""
    trap cleanup EXIT
    trap 'exit 143' TERM
    trap 'exit 130' INT
    # Whatever the job's environment preloads runs in every sample
    record preload "${LD_PRELOAD:-none}"
    if [ -n "$version_command" ]; then
        record version "$(eval "$version_command" 2>&1 | tr -s '\n\t' '  ')"
    fi
    if [ -n "$scratch_root" ]; then
        make_scratch
    fi
    find_stat_disk
    find_nodes
    # The job's id and every node of the job
    if [ -n "$job_id" ]; then
        record job_id "$job_id"
    fi
    record kernel "$(uname -r)"
    local all=""
    if [ -n "$job_nodes_command" ]; then
        all=$(eval "$job_nodes_command" 2>/dev/null | sort -u | paste -sd ' ')
    fi
    record nodes "${all:-${nodes[*]}}"
    find_darshan
}

empty_scratch() {
    if [ -n "$scratch" ]; then
        find "$scratch" -mindepth 1 -delete
        sync -f "$scratch" 2>/dev/null || sync
    fi
}

# Bytes of the files a sample left in the scratch directory
scratch_bytes() {
    if [ -n "$scratch" ]; then
        find "$scratch" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.0f", s}'
    else
        printf 0
    fi
}

preflight_checks() {
    local i
    for i in "${!preflight[@]}"; do
        if ! eval "${preflight[$i]}" >/dev/null 2>&1; then
            record failed "${preflight_reasons[$i]}: ${preflight[$i]}"
            exit 1
        fi
    done
}

start_services() {
    if [ -z "$service" ]; then
        return 0
    fi
    local node
    for node in "${nodes[@]}"; do
        eval "$service" > "service-$node.log" 2>&1 &
    done
    record services "$hosts"
}

probe_variant() {
    local variant=$1
    if [ -n "${probes[$variant]:-}" ] && ! eval "${probes[$variant]}" >/dev/null 2>&1; then
        record unsupported "$variant: ${probe_reasons[$variant]}"
        unsupported="$unsupported$variant "
    fi
}

# The witness of $1 on a short sample of its own; a failed witness fails the
# variant (its claim cannot be seen)
run_witness() {
    local variant=$1
    if [ -z "${witnesses[$variant]:-}" ] || skipped "$variant"; then
        return 0
    fi
    if [ -n "$witness_tool" ] && ! command -v "$witness_tool" >/dev/null 2>&1; then
        record witness_missing "$variant: $witness_tool"
        return 0
    fi
    witness_sample "$variant" witness "the witness" "${witnesses[$variant]}"
}

# Record variant $1 as failed: $2 says why, $3 is the command that failed
fail_variant() {
    record failed "$1: $2: $3"
    failed="$failed$1 "
}

# Witness command $4 of variant $1, recorded under $2, its output kept in
# $2-<variant>.txt and $2-stderr-<variant>.txt (in an A/B, in its side's
# directory, where it runs); if it fails, $3 failed, and so does the
# variant (its claim cannot be seen)
witness_sample() {
    local variant=$1 kind=$2 command=$4 rc started name
    name=$(plain "$variant")
    record "$kind" "$variant: $command"
    started=$(date +%s.%N)
    cd "$(side_dir "$variant")" || exit 1
    run "$command" > "$kind-$name.txt" 2> "$kind-stderr-$name.txt"
    rc=$?
    cd "$stage_dir" || exit 1
    progress witness "$variant" "$kind" "$rc" "$started"
    if [ $rc -ne 0 ]; then
        fail_variant "$variant" "$3 exited with code $rc" "$command"
    fi
    empty_scratch
}

# The Darshan witness of $1 on a short sample of its own, its logs in
# darshan-<variant>/; without a runtime it is recorded as not run
run_darshan() {
    local variant=$1
    if [ -z "${darshans[$variant]:-}" ] || skipped "$variant"; then
        return 0
    fi
    if [ -z "$darshan_lib" ]; then
        record darshan_missing "$variant: $darshan_why"
        return 0
    fi
    local logs
    logs=$(side_dir "$variant")/darshan-$(plain "$variant")
    rm -rf -- "$logs"
    mkdir -p "$logs"
    witness_sample "$variant" darshan "the Darshan witness" \
        "${darshans[$variant]}"
}

# Whether variant $1 failed or is unsupported
skipped() {
    case "$failed$unsupported" in
        *" $1 "*) return 0 ;;
    esac
    return 1
}

# One sample of variant $1: server $2 in the background, then client $3;
# every wait bounded; a failure is recorded, saying which side and why
server_client() {
    local variant=$1 server_command=$2 client_command=$3 server rc src i
    eval "$server_command" > server.out 2>&1 &
    server=$!
    sleep "$server_start_s"
    if ! kill -0 $server 2>/dev/null; then
        wait $server
        rc=$?
        fail_variant "$variant" "the server exited with code $rc before the client started" "$server_command"
        return $(( rc ? rc : 1 ))
    fi
    run "$client_command" > client.out 2>&1
    rc=$?
    # The server ends with its client: 10 s, then it is stopped, with
    # whatever the evaluated command started (a server left listening
    # would hold its port against every later sample)
    for i in $(seq 10); do
        kill -0 $server 2>/dev/null || break
        sleep 1
    done
    kill_tree $server
    wait $server
    src=$?
    if [ $rc -eq 124 ]; then
        fail_variant "$variant" "the client timed out after $client_timeout_s s" "$client_command"
    elif [ $rc -ne 0 ]; then
        fail_variant "$variant" "$tool exited with code $rc" "$client_command"
    elif [ $src -ne 0 ]; then
        fail_variant "$variant" "the server exited with code $src" "$server_command"
        rc=$src
    fi
    return $rc
}

# One sample of variant $1; a failure is recorded, naming the command
run_sample() {
    local variant=$1 command rc
    if [ -n "${prepares[$variant]:-}" ]; then
        command=${prepares[$variant]}
        run "$command"
        rc=$?
        if [ $rc -ne 0 ]; then
            fail_variant "$variant" "$tool exited with code $rc" "$command"
            return $rc
        fi
    fi
    if [ -n "${residencies[$variant]:-}" ]; then
        command=${residencies[$variant]}
        run "$command" > residency.txt
        rc=$?
        if [ $rc -ne 0 ]; then
            fail_variant "$variant" "the residency witness exited with code $rc" "$command"
            return $rc
        fi
    fi
    if [ -n "${servers[$variant]:-}" ]; then
        server_client "$variant" "${servers[$variant]}" "${commands[$variant]}"
        return
    fi
    command=${commands[$variant]}
    counts_before=""
    if [ -n "$stat_disk" ]; then
        counts_before=$(device_stat)
    fi
    if [ -n "$stdout_file" ]; then
        run "$command" > "$stdout_file"
    else
        run "$command"
    fi
    rc=$?
    if [ -n "$stat_disk" ]; then
        # what the sample left in the page cache reaches the disk too
        sync -f "$scratch" 2>/dev/null
        counts_after=$(device_stat)
    fi
    if [ $rc -ne 0 ]; then
        fail_variant "$variant" "$tool exited with code $rc" "$command"
    fi
    return $rc
}

# Move the files sample $2 of variant $1 wrote to names of their own
keep_outputs() {
    local name
    for name in "${outputs[@]}" residency.txt stderr.txt; do
        if [ -e "$name" ]; then
            mv -f -- "$name" "${name%.*}-$1-$2.${name##*.}"
        fi
    done
}

# A file of an earlier sample or run must never pass for this one
clear_outputs() {
    local name
    for name in "${outputs[@]}" residency.txt stderr.txt; do
        rm -f -- "$name"
    done
}

# Round $2 of every variant that has not failed: a counted one ($1 is
# sample), or a warm-up round ($1 is warmup: its files are kept as
# <stem>-<variant>-warmup<round><suffix>, which no reader takes for a
# sample); a failure fails the variant either way.  In an A/B, round $2 of
# side $4: its variants, in its side's directory
one_round() {
    local kind=$1 round=$2 rounds=$3 side=${4:-} variant rc started
    for variant in "${variants[@]}"; do
        if skipped "$variant"; then
            continue
        fi
        if [ -n "$side" ] && [ "${variant##*@}" != "$side" ]; then
            continue
        fi
        cd "$(side_dir "$variant")" || exit 1
        clear_outputs
        counts_before=""
        started=$(date +%s.%N)
        run_sample "$variant" 2> stderr.txt
        rc=$?
        if [ "$kind" = warmup ]; then
            keep_outputs "$(plain "$variant")" "warmup$round"
            progress warmup "$variant" "$round" "$rounds" "$rc" "$started"
            if [ $rc -eq 0 ]; then
                record warmup "$variant: $round"
            fi
        else
            keep_outputs "$(plain "$variant")" "$round"
            progress sample "$variant" "$round" "$rounds" "$rc" "$started"
            if [ $rc -eq 0 ]; then
                record sample "$variant: $round scratch_bytes=$(scratch_bytes)"
                if [ -n "$counts_before" ]; then
                    record counts "$variant: $round $stat_disk $counts_before / $counts_after"
                fi
            fi
        fi
        empty_scratch
        cd "$stage_dir" || exit 1
    done
}

# $2 rounds of each side of an A/B, $1 (sample or warmup): A B B A A B B A
# ..., each side's rounds numbered 1 to $2 (microbench/sides.py, order)
side_rounds() {
    local kind=$1 per_side=$2 round side
    local -A ran=()
    for round in $(seq 1 $(( 2 * per_side ))); do
        case $(( (round - 1) % 4 )) in
            0|3) side=${sides[0]} ;;
            *) side=${sides[1]} ;;
        esac
        ran[$side]=$(( ${ran[$side]:-0} + 1 ))
        one_round "$kind" "${ran[$side]}" "$per_side" "$side"
    done
}

rounds_run() {
    local variant sample name
    failed=" "
    unsupported=" "
    preflight_checks
    record job_cpus "$job_cpus"
    if [ ${#sides[@]} -gt 0 ]; then
        make_sides
        for name in "${sides[@]}"; do
            if [ -n "${versions[$name]:-}" ]; then
                record version "@$name: $(eval "${versions[$name]}" 2>&1 | tr -s '\n\t' '  ')"
            fi
        done
    fi
    for name in "${!facts[@]}"; do
        record "$name" "$(eval "${facts[$name]}" 2>&1)"
    done
    start_services
    for variant in "${variants[@]}"; do
        probe_variant "$variant"
    done
    for variant in "${variants[@]}"; do
        run_witness "$variant"
        run_darshan "$variant"
    done
    for variant in "${variants[@]}"; do
        record command "$variant: ${commands[$variant]}"
        if [ -n "${servers[$variant]:-}" ]; then
            record server_command "$variant: ${servers[$variant]}"
        fi
    done
    if [ ${#servers[@]} -gt 0 ]; then
        record placement "server $server_node, client $client_node, address $server_addr"
    fi
    if [ ${#sides[@]} -gt 0 ]; then
        side_rounds warmup "$warmup_rounds"
        side_rounds sample "$samples"
    else
        for sample in $(seq 1 "$warmup_rounds"); do
            one_round warmup "$sample" "$warmup_rounds"
        done
        for sample in $(seq 1 "$samples"); do
            one_round sample "$sample" "$samples"
        done
    fi
    record end "$(date +%s.%N)"
}
