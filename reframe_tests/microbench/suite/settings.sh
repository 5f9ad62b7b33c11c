# shellcheck shell=bash
# The machine's settings below the kernel release on one node
# (microbench/settings.py): what moves an I/O or network figure
# without a package, a kernel or a mount changing.  One line:
#
#   <host> <key>=<value>;<key>=<value>;...
#
# For the block device under directory $1 (the job's scratch; empty: none):
# its queue's scheduler, read_ahead_kb, nr_requests, max_sectors_kb,
# wbt_lat_usec and rotational, its model, firmware and driver where sysfs
# shows them; for the node: vm.dirty_*, transparent huge pages, the CPU
# frequency governor and microcode, the kernel command line, every NIC's
# driver, firmware and MTU, the GPU driver, a Lustre client's tunables.
# Volatile values (clock speeds, free memory, counters) are left out.  A
# setting's file that is missing says "missing", one that cannot be read
# "unreadable"; nothing is written to standard error, and the script always
# succeeds (the job records whatever it printed).  MICROBENCH_SYSFS and
# MICROBENCH_PROCFS stand for /sys and /proc (a recorded tree, in tests).
set -u
sys=${MICROBENCH_SYSFS:-/sys}
proc=${MICROBENCH_PROCFS:-/proc}
host=$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)
out=""

# A value as the record can hold it: one line, no ";" (between settings)
# nor "|" (between nodes), never empty
clean() {
    local text
    text=$(printf '%s' "$1" | tr '\n\t;|' '  ,/' | tr -s ' ' | sed 's/^ *//; s/ *$//')
    printf '%s' "${text:-empty}"
}

put() {
    out="$out${out:+;}$1=$(clean "$2")"
}

# Setting $1 from file $2: its contents, the selected word of a list that
# brackets it ("none [mq-deadline] kyber"), or missing / unreadable
put_file() {
    local text
    if [ ! -e "$2" ]; then
        put "$1" missing
    elif ! text=$(tr -d '\000' 2>/dev/null < "$2"); then
        put "$1" unreadable
    else
        case $text in
            *\[*\]*) text=${text#*[}; text=${text%%]*} ;;
        esac
        put "$1" "$text"
    fi
}

# Setting $1 from file $2 only where it exists
put_present() {
    if [ -e "$2" ]; then
        put_file "$1" "$2"
    fi
}

# disk_of: the whole disk under a directory (shared with the job's counts)
# shellcheck disable=SC1091  # linted on its own
. "$(dirname "${BASH_SOURCE[0]}")/counts.sh"

block_settings() {
    local disk base name
    disk=$(disk_of "$1")
    if [ -z "$1" ]; then
        return 0
    fi
    if [ -z "$disk" ] || [ ! -d "$sys/block/$disk" ]; then
        put scratch.device "none: $(findmnt -n -o FSTYPE,SOURCE --target "$1" 2>/dev/null | head -n 1)"
        return 0
    fi
    put scratch.device "$disk"
    base=$sys/block/$disk
    for name in scheduler read_ahead_kb nr_requests max_sectors_kb wbt_lat_usec rotational; do
        put_file "block.$disk.$name" "$base/queue/$name"
    done
    put_present "block.$disk.model" "$base/device/model"
    if [ -e "$base/device/firmware_rev" ]; then
        put_file "block.$disk.firmware" "$base/device/firmware_rev"
    else
        put_present "block.$disk.firmware" "$base/device/rev"
    fi
    if [ -e "$base/device/driver" ]; then
        put "block.$disk.driver" "$(basename "$(readlink -f "$base/device/driver")")"
    fi
}

node_settings() {
    local name governors microcode nic
    for name in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes dirty_expire_centisecs dirty_writeback_centisecs; do
        put_file "vm.$name" "$proc/sys/vm/$name"
    done
    put_file mm.thp.enabled "$sys"/kernel/mm/transparent_hugepage/enabled
    put_file mm.thp.defrag "$sys"/kernel/mm/transparent_hugepage/defrag
    governors=$(cat "$sys"/devices/system/cpu/cpu*/cpufreq/scaling_governor 2>/dev/null | sort -u | paste -sd, -)
    put cpu.governor "${governors:-none: no cpufreq in sysfs}"
    microcode=$(awk -F': *' '/^microcode/ {print $2}' "$proc"/cpuinfo 2>/dev/null | sort -u | paste -sd, -)
    put cpu.microcode "${microcode:-none: $proc/cpuinfo names none}"
    put_file kernel.cmdline "$proc"/cmdline
    for nic in "$sys"/class/net/*; do
        name=${nic##*/}
        # a physical NIC has a device; lo, bridges and tunnels have none
        if [ ! -e "$nic/device" ]; then
            continue
        fi
        if [ -e "$nic/device/driver" ]; then
            put "net.$name.driver" "$(basename "$(readlink -f "$nic/device/driver")")"
        fi
        if command -v ethtool >/dev/null 2>&1; then
            put "net.$name.firmware" "$(ethtool -i "$name" 2>/dev/null | awk -F': ' '/^firmware-version/ {print $2}')"
        fi
        put_file "net.$name.mtu" "$nic/mtu"
    done
    if [ -r "$proc"/driver/nvidia/version ]; then
        put gpu.driver "$(head -n 1 "$proc"/driver/nvidia/version)"
    elif [ -r "$sys"/module/amdgpu/version ]; then
        put gpu.driver "amdgpu $(cat "$sys"/module/amdgpu/version)"
    fi
}

# A Lustre client's tunables, one value list per tunable over its devices
lustre_settings() {
    local line
    if ! command -v lctl >/dev/null 2>&1 || ! findmnt -t lustre >/dev/null 2>&1; then
        return 0
    fi
    while IFS= read -r line; do
        put "lustre.${line%%=*}" "${line#*=}"
    done < <(lctl get_param llite.*.max_read_ahead_mb osc.*.max_rpcs_in_flight osc.*.max_dirty_mb 2>/dev/null |
        awk -F= '{split($1, part, "."); key = part[1] "." part[3];
                  if (index(seen[key], "," $2 ",") == 0) {seen[key] = seen[key] "," $2 ","; vals[key] = vals[key] (vals[key] ? "," : "") $2}}
                 END {for (key in vals) print key "=" vals[key]}' | sort)
}

block_settings "${1:-}"
node_settings
lustre_settings
printf '%s %s\n' "$host" "$out"
