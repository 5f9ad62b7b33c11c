#!/bin/sh
# One node's part of a run of the link search (microbench/nodes/linkrun.py),
# one task per node under srun: for each link "<client>:<server>:<port>"
# given, an fi_pingpong server on <port> where this node is <server>, a
# client to <server> where it is <client> (started again while the server
# is not listening yet: exit 111, connection refused); every ping-pong of
# the run at once.  When all have ended, each one's output, between
# "link <client> <server> <port> <side> exit <status>" and "end".
# Its scratch directory is removed on the way out.
# Usage: linkrun.sh PROVIDER SIZE ITERATIONS TIMEOUT_S LINK...
set -u
provider=$1 size=$2 iterations=$3 limit=$4
shift 4
me=${SLURMD_NODENAME:-$(hostname)}
out=$(mktemp -d "${TMPDIR:-/tmp}/microbench-links.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
pingpong() {
    timeout "$limit" fi_pingpong -p "$provider" -e msg -S "$size" \
        -I "$iterations" "$@"
}
for link in "$@"; do
    client=${link%%:*} rest=${link#*:}
    server=${rest%%:*} port=${rest#*:}
    if [ "$server" = "$me" ]; then
        (pingpong -B "$port" > "$out/$port.server" 2>&1
         echo $? > "$out/$port.server.exit") &
    fi
done
for link in "$@"; do
    client=${link%%:*} rest=${link#*:}
    server=${rest%%:*} port=${rest#*:}
    if [ "$client" = "$me" ]; then
        (tries=0
         while :; do
             pingpong -P "$port" "$server" > "$out/$port.client" 2>&1
             status=$?
             tries=$((tries + 1))
             if [ "$status" != 111 ] || [ "$tries" -ge 50 ]; then
                 break
             fi
             sleep 0.2
         done
         echo "$status" > "$out/$port.client.exit") &
    fi
done
wait
for link in "$@"; do
    client=${link%%:*} rest=${link#*:}
    server=${rest%%:*} port=${rest#*:}
    for side in client server; do
        if [ -f "$out/$port.$side.exit" ]; then
            echo "link $client $server $port $side exit $(cat "$out/$port.$side.exit")"
            cat "$out/$port.$side"
            echo "end"
        fi
    done
done
