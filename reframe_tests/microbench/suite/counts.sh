# shellcheck shell=bash
# The scratch disk's own counts around every sample (microbench/suite/
# counted.py), sourced by rounds.sh: what the device did for the bytes the
# benchmark asked for.  A count changes by rule, not by statistics: a
# changed read-ahead, request size or write-back shows on the first night.
#
# find_stat_disk sets stat_disk, the whole disk under the scratch directory
# (empty: no block device, no counts); device_stat prints its
# /sys/block/<disk>/stat (reads, read merges, read sectors, read ticks,
# writes, write merges, write sectors, ...), or "gone" where it cannot be
# read (a device that disappeared).
# shellcheck disable=SC2154  # rounds.sh sets scratch

stat_disk=""

# The whole disk under directory $1 (sysfs's name), or nothing: the node
# script settings.sh, beside this file, sources it too
disk_of() {
    local source disk
    [ -n "$1" ] || return 0
    source=$(findmnt -n -o SOURCE --target "$1" 2>/dev/null | head -n 1)
    case $source in
        /dev/*) ;;
        *) return 0 ;;
    esac
    disk=$(lsblk -no PKNAME "$source" 2>/dev/null | head -n 1)
    printf '%s' "${disk:-$(basename "$(readlink -f "$source")")}"
}

find_stat_disk() {
    local disk
    stat_disk=""
    disk=$(disk_of "${scratch:-}")
    if [ -n "$disk" ] && [ -r "/sys/block/$disk/stat" ]; then
        stat_disk=$disk
    fi
}

device_stat() {
    local text
    if ! text=$(cat "/sys/block/$stat_disk/stat" 2>/dev/null) || [ -z "$text" ]; then
        text=gone
    fi
    printf '%s' "$text" | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'
}
