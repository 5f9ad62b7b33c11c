# shellcheck shell=bash
# What a rounds job tells the person who runs it while it runs (sourced by
# rounds.sh, beside it): the benchmark lock it waits for, whose it is and
# since when; then each witness and each sample as it ends.
#
# The job's standard output is read only once the job has ended, so these go
# to a file of their own in the stage directory, $progress_file, one line per
# event, its fields separated by tabs; the rounds fixture reads the new lines
# on every poll of ReFrame and prints them on the console
# (microbench/suite/progress.py reads this format):
#
#   <end>  lock_wait   <lock file>  <held since|->  <waited s>  <holder>
#   <end>  lock_taken  <lock file>  <waited s>
#   <end>  witness     <variant>  <kind>  <exit status>  <start>
#   <end>  warmup      <variant>  <round>  <rounds>  <exit status>  <start>
#   <end>  sample      <variant>  <round>  <rounds>  <exit status>  <start>
#
# <end> and <start> are seconds since the epoch (date +%s.%N).
#
# The lock is one per user and node (one benchmark at a time, whatever the
# policy): its holder writes one line into it, "<since>\t<pid>\t<host>\t
# <who>", so that a job that has to wait can say whose it is; the line is
# emptied when the holder ends.  A lock taken by hand (flock <file>
# <command>) has no such line: the waiter names the process /proc/locks
# gives, with its command line.
#
# shellcheck disable=SC2154  # the job script and rounds.sh set what this reads

# The defaults of the inputs of rounds.sh that this file reads (rounds.sh
# describes them)
lock_file='' lock_reminder_s=300 progress_file='' run_by=''

# A new progress file: nothing of an earlier job passes for this one's
start_progress() {
    if [ -n "$progress_file" ]; then
        : > "$progress_file"
    fi
}

# One progress line: event $1, then its fields
progress() {
    if [ -z "$progress_file" ]; then
        return 0
    fi
    local IFS=$'\t'
    printf '%s\t%s\n' "$(date +%s.%N)" "$*" >> "$progress_file"
}

# The lock file of this user on this node
lock_path() {
    printf '%s\n' "${lock_file:-/tmp/microbench-$(id -u).lock}"
}

# Text of at most 300 characters on one line, without tabs
one_line() {
    tr '\t\r\n' '   ' | cut -c 1-300
}

# Seconds since the epoch $1 as a date and time ("-": unknown)
when() {
    if [[ $1 =~ ^[0-9]+$ ]]; then
        date -d "@$1" '+%F %T %Z'
    else
        printf 'an unknown time\n'
    fi
}

# The process that took the flock on file $1, as /proc/locks gives it:
# "pid <pid>: <its command line>" (flock <file> <command> by hand), or what
# is known of it
flock_holder() {
    local inode pid
    inode=$(stat -c %i -- "$1" 2>/dev/null)
    # "1: FLOCK  ADVISORY  WRITE <pid> <maj>:<min>:<inode> 0 EOF"; a waiter's
    # line has "->" before FLOCK
    pid=$(awk -v inode="${inode:-none}" '$2 == "FLOCK" {
            n = split($6, id, ":"); if (id[n] == inode) { print $5; exit } }' \
        /proc/locks 2>/dev/null)
    if [ -z "$pid" ]; then
        printf 'a process that wrote no holder line, and that /proc/locks does not name\n'
    elif [ -r "/proc/$pid/cmdline" ]; then
        printf 'pid %s: %s\n' "$pid" \
            "$(tr '\0' ' ' < "/proc/$pid/cmdline" | one_line | sed 's/ *$//')"
    else
        # flock(1) took it for the shell that started it, and ended
        printf 'a process that wrote no holder line (a rounds job of an older suite?): /proc/locks names pid %s, the flock that took it for it, which has ended\n' "$pid"
    fi
}

# Who holds lock file $1: sets holder_since (seconds since the epoch, or -)
# and holder (who, in words)
lock_holder() {
    local line since pid host who
    holder_since=-
    line=$(head -c 2048 -- "$1" 2>/dev/null | head -n 1)
    IFS=$'\t' read -r since pid host who <<< "$line"
    if [[ $since =~ ^[0-9]+$ && $pid =~ ^[0-9]+$ && -n $who ]]; then
        holder_since=$since
        holder="$(printf '%s' "$who" | one_line) (pid $pid on $host)"
        if [ "$host" = "$(hostname)" ] && ! kill -0 "$pid" 2>/dev/null; then
            holder="$holder, which has ended: a line it left; the process that holds the lock now has not written its own"
        fi
        return 0
    fi
    holder=$(flock_holder "$1")
}

# Take the benchmark lock (fd 9, held until the job ends); while another job
# holds it, say whose it is and since when, again every $lock_reminder_s
# seconds; once taken, write this job's holder line into it
take_lock() {
    lock_held=""
    if ! command -v flock >/dev/null; then
        record lock "none: flock is not installed, benchmarks are not kept apart"
        return 0
    fi
    local path start waited rc
    path=$(lock_path)
    if ! exec 9>>"$path"; then
        record lock "none: $path cannot be opened"
        return 0
    fi
    if ! flock -n 9; then
        start=$(date +%s)
        lock_holder "$path"
        record lock_wait "$path: held by $holder since $(when "$holder_since")"
        progress lock_wait "$path" "$holder_since" 0 "$holder"
        while true; do
            flock -w "$lock_reminder_s" 9
            rc=$?
            # 1: the wait timed out; anything else: taken, or flock failed
            if [ $rc -ne 1 ]; then
                break
            fi
            lock_holder "$path"
            progress lock_wait "$path" "$holder_since" \
                "$(( $(date +%s) - start ))" "$holder"
        done
        if [ $rc -ne 0 ]; then
            record lock "none: flock exited with code $rc on $path"
            return 0
        fi
        waited=$(( $(date +%s) - start ))
        record lock_waited "$waited"
        progress lock_taken "$path" "$waited"
    fi
    lock_held=$path
    printf '%s\t%s\t%s\t%s\n' "$(date +%s)" "$$" "$(hostname)" \
        "$(printf '%s%s' "${job_name:-a rounds job}${job_id:+ (job $job_id)}" \
            "${run_by:+ of $run_by}" | one_line)" > "$path"
    record lock "$path"
}

# Empty the holder line of the lock this job holds (the lock itself goes
# with the job)
release_lock() {
    if [ -n "${lock_held:-}" ]; then
        : > "$lock_held"
    fi
}
