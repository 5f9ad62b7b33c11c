# shellcheck shell=bash
# What a command costs its node's CPUs, for fio_completion_polling
# (microbench/tools/fio/polling.py, which copies this file into the stage
# directory).  The rounds job declares its commands with their shell
# variables expanded, so what needs variables of its own is here.
#
#   bash polling.sh cpu OUT VARIANT COMMAND...
#       the variant whose sample this is, /proc/stat's cpu lines before
#       and after COMMAND, each after the clock when it was read (seconds
#       since the epoch), and the clock ticks per second, into OUT; exits
#       with COMMAND's status
#   bash polling.sh threads OUT VARIANT COMMAND...
#       the same, and, every 0.1 s while COMMAND runs, the stat lines of
#       the io_uring submission-queue polling threads (iou-sqp-<pid>) of
#       its processes, each followed by its schedstat (its run time in ns,
#       where the kernel keeps it): the last ones seen go to OUT
# OUT ends with "## end": a file without it was cut (microbench/suite/cpu.py
# reads it).
#   bash polling.sh device DIR
#       the block device under DIR and whether it has poll queues:
#       "<disk> io_poll=<0|1>", or "none (...)"

cpu_lines() {
    printf '## %s %s\n' "$1" "$(date +%s.%N)"
    grep '^cpu' /proc/stat
}

device() {
    local source disk poll
    source=$(findmnt -n -o SOURCE --target "$1" 2>/dev/null | head -n 1)
    source=${source%%\[*}
    case $source in
        /dev/*) ;;
        *) printf 'none (the scratch is on %s, no block device)\n' \
               "${source:-nothing findmnt sees}"
           return 0 ;;
    esac
    disk=$(lsblk -ndo PKNAME "$source" 2>/dev/null)
    disk=${disk:-$(basename "$(readlink -f "$source")")}
    poll=$(cat "/sys/block/$disk/queue/io_poll" 2>/dev/null)
    printf '%s io_poll=%s\n' "$disk" "${poll:-unknown}"
}

# The stat and schedstat lines of every iou-sqp thread of process $1 and
# its children
sample_threads() {
    local child task comm stats
    for child in "$1" $(pgrep -P "$1"); do
        for task in /proc/"$child"/task/*; do
            read -r comm < "$task/comm" 2>/dev/null || continue
            case $comm in
                iou-sqp-*)
                    cat "$task/stat" 2>/dev/null || continue
                    if stats=$(cat "$task/schedstat" 2>/dev/null); then
                        printf 'schedstat %s %s\n' "${task##*/}" "$stats"
                    fi ;;
            esac
        done
    done
}

measure() {
    local threads=$1 out=$2 variant=$3 pid rc seen last=''
    shift 3
    printf '## variant %s\n' "$variant" > "$out"
    cpu_lines before >> "$out"
    "$@" &
    pid=$!
    if [ "$threads" = 1 ]; then
        while kill -0 "$pid" 2>/dev/null; do
            seen=$(sample_threads "$pid")
            if [ -n "$seen" ]; then
                last=$seen
            fi
            sleep 0.1
        done
    fi
    wait "$pid"
    rc=$?
    {
        cpu_lines after
        printf '## clk_tck %s\n' "$(getconf CLK_TCK)"
        if [ "$threads" = 1 ]; then
            printf '## iou-sqp\n'
            if [ -n "$last" ]; then
                printf '%s\n' "$last"
            fi
        fi
        printf '## end\n'
    } >> "$out"
    return $rc
}

case ${1:-} in
    cpu) shift; measure 0 "$@" ;;
    threads) shift; measure 1 "$@" ;;
    device) device "$2" ;;
    *) echo "usage: polling.sh cpu|threads OUT VARIANT COMMAND... | device DIR" >&2
       exit 2 ;;
esac
