#!/usr/bin/env bash
# prometheus_testbed.sh start|stop|status [DIR]: a Prometheus Pushgateway and
# a Prometheus server that scrapes it and evaluates the alerting rules
# ci/prometheus/microbench-rules.yml, optionally an Alertmanager it sends
# the alerts to, on free ports of this machine's loopback, for trying
# microbench export --push end to end (the tests
# tests/e2e/test_e2e_prometheus.py and tests/e2e/test_e2e_alerts.py; by hand, the
# dashboard ci/grafana/).
#
# start  first checks that Debian's prometheus and prometheus-pushgateway
#        (and curl, ss; prometheus-alertmanager when an Alertmanager is
#        asked for) are installed; where one is missing it prints one line,
#            prometheus_testbed: cannot start: WHAT IS MISSING
#        and exits 77 having changed nothing (tests skip on that).  Then it
#        makes a state directory /tmp/microbench-prometheus.XXXXXX (the
#        configs, the TSDB, the logs, the process ids), starts the
#        Pushgateway, the Alertmanager if asked for, and then Prometheus,
#        each on a port the kernel picks (127.0.0.1:0, read back with ss: no
#        race for a "free" port), Prometheus scraping the Pushgateway every
#        second with honor_labels: true (the pushed job, system and
#        partition labels are kept) and evaluating the rules every second,
#        waits until each answers /-/ready, Prometheus sees the Pushgateway
#        up (and the Alertmanager), and prints the lines to eval:
#            eval "$(ci/prometheus_testbed.sh start)"
#        MICROBENCH_PUSHGATEWAY (microbench export --push, ci/nightly.sh),
#        MICROBENCH_PROMETHEUS_URL (its HTTP API), their ports, and
#        MICROBENCH_PROMETHEUS_TESTBED (the state directory).
#        With MICROBENCH_ALERT_WEBHOOK=URL (an http(s) URL: a webhook
#        receiver), it also starts Debian's prometheus-alertmanager with
#        ci/prometheus/alertmanager.yml, its webhook's URL replaced by URL
#        and test timings (notifications a second after the alerts, not
#        the file's realistic 30 s and 5 min), Prometheus sending its
#        alerts there, and prints MICROBENCH_ALERTMANAGER_URL and its port.
# stop   stops the daemons (by the process ids start recorded) and removes
#        the state directory: DIR, else $MICROBENCH_PROMETHEUS_TESTBED.
#        With nothing there it says so, and exits 0
# status says what runs, and where
#
# Nothing runs as a service and nothing outside the state directory is
# written; several test beds may run at once (each its own directory and
# ports).  MICROBENCH_PROMETHEUS_READY_TIMEOUT: seconds to wait (default 30).
set -Eeuo pipefail

prefix=/tmp/microbench-prometheus
ready_timeout_s=${MICROBENCH_PROMETHEUS_READY_TIMEOUT:-30}
# The alerting rules and the Alertmanager configuration that ship
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rules=$here/prometheus/microbench-rules.yml
alertmanager_config=$here/prometheus/alertmanager.yml
# The webhook the Alertmanager notifies; none: no Alertmanager
webhook=${MICROBENCH_ALERT_WEBHOOK:-}
# start's exit status when this machine cannot run the test bed
cannot_start_status=77
# The programs start runs (beside coreutils), each with its Debian package
programs=(prometheus:prometheus prometheus-pushgateway:prometheus-pushgateway
          curl:curl ss:iproute2 setsid:util-linux)
packages="prometheus prometheus-pushgateway curl iproute2"
if [ -n "$webhook" ]; then
    programs+=(prometheus-alertmanager:prometheus-alertmanager)
    packages+=" prometheus-alertmanager"
fi

say() { echo "prometheus_testbed: $*" >&2; }
die() { say "$*"; exit 1; }

cannot_start() {
    local entry
    for entry in "${programs[@]}"; do
        if ! command -v "${entry%%:*}" >/dev/null 2>&1; then
            echo "${entry%%:*} is missing (Debian package ${entry#*:}): apt-get install --no-install-recommends $packages"
            return 0
        fi
    done
}

# Start "$@" in the background as $name, its process id in $dir/$name.pid
spawn() {
    local name=$1
    shift
    setsid "$@" > "$dir/$name.log" 2>&1 < /dev/null &
    echo $! > "$dir/$name.pid"
}

# The TCP port process $1 listens on (on 127.0.0.1), once it does
port_of() {
    local pid=$1 deadline=$((SECONDS + ready_timeout_s)) port
    while :; do
        port=$(ss -Htlnp 2>/dev/null |
            awk -v pid="pid=$pid," 'index($0, pid) { n = split($4, a, ":"); print a[n]; exit }')
        if [ -n "$port" ]; then
            echo "$port"
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            say "process $pid died: $(tail -n 2 "$dir"/*.log | tr '\n' ' ')"
            return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "process $pid listens on no port after $ready_timeout_s s"
            return 1
        fi
        sleep 0.1
    done
}

# Wait until $1 answers (curl -f); $2 says what it is
wait_for() {
    local url=$1 what=$2 deadline=$((SECONDS + ready_timeout_s))
    until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "$what does not answer $url within $ready_timeout_s s"
            return 1
        fi
        sleep 0.2
    done
}

# Wait until Prometheus has scraped the Pushgateway: up{job="pushgateway"}
# is 1
wait_scraped() {
    local deadline=$((SECONDS + ready_timeout_s)) out
    while :; do
        out=$(curl -fsS --max-time 2 "$prom_url/api/v1/query" \
            --data-urlencode 'query=up{job="pushgateway"}' 2>/dev/null || true)
        if grep -q '"value":\[[0-9.]*,"1"\]' <<< "$out"; then
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "Prometheus has not scraped the Pushgateway within $ready_timeout_s s: ${out:-no answer}"
            return 1
        fi
        sleep 0.2
    done
}

# Wait until Prometheus knows the Alertmanager (it sends the alerts there)
wait_alertmanager_known() {
    local deadline=$((SECONDS + ready_timeout_s)) out
    while :; do
        out=$(curl -fsS --max-time 2 "$prom_url/api/v1/alertmanagers" \
            2>/dev/null || true)
        if grep -qF "\"url\":\"$am_url/" <<< "$out"; then
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "Prometheus does not know the Alertmanager within $ready_timeout_s s: ${out:-no answer}"
            return 1
        fi
        sleep 0.2
    done
}

write_config() {
    # the rules as they were at start
    cp "$rules" "$dir/microbench-rules.yml"
    cat > "$dir/prometheus.yml" <<EOF
# Written by ci/prometheus_testbed.sh start
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - microbench-rules.yml
scrape_configs:
  - job_name: pushgateway
    # the pushed job, system and partition labels, not the scrape's
    honor_labels: true
    scrape_interval: 1s
    static_configs:
      - targets: ['127.0.0.1:$gw_port']
EOF
    if [ -n "$webhook" ]; then
        cat >> "$dir/prometheus.yml" <<EOF
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['127.0.0.1:$am_port']
EOF
    fi
}

# ci/prometheus/alertmanager.yml with the webhook's URL (quoted for YAML)
# and test timings: a group notified a second after its first alert
# arrives, and a second after it changes (the shipped file keeps realistic
# ones: 30 s, 5 min)
write_alertmanager_config() {
    local quoted="'${webhook//\'/\'\'}'"
    # the URL through the environment: awk takes it as it is
    QUOTED=$quoted awk '
        /^ *- url: / { sub(/- url: .*/, ""); print $0 "- url: " ENVIRON["QUOTED"]; next }
        /^ *group_wait:/ { sub(/group_wait:.*/, ""); print $0 "group_wait: 1s"; next }
        /^ *group_interval:/ { sub(/group_interval:.*/, ""); print $0 "group_interval: 1s"; next }
        { print }' "$alertmanager_config" > "$dir/alertmanager.yml"
    if ! grep -qxF -- "      - url: $quoted" "$dir/alertmanager.yml" ||
        [ "$(grep -cE '^ *group_(wait|interval): 1s$' "$dir/alertmanager.yml")" != 2 ]; then
        say "cannot set the webhook and the timings in a copy of $alertmanager_config"
        return 1
    fi
}

# What start does when a step fails (once: not in a $(...) of it)
start_failed() {
    if [ "$BASHPID" != "$$" ]; then
        return
    fi
    say "start failed; the daemons said:"
    tail -n 5 "$dir"/*.log >&2 || true
    stop_all
}

start() {
    local why
    why=$(cannot_start)
    if [ -n "$why" ]; then
        say "cannot start: $why"
        exit "$cannot_start_status"
    fi
    if [ -n "$webhook" ] && ! [[ $webhook =~ ^https?://[^[:space:]]+$ ]]; then
        die "MICROBENCH_ALERT_WEBHOOK is not an http(s) URL: $webhook"
    fi
    local file
    for file in "$rules" ${webhook:+"$alertmanager_config"}; do
        [ -r "$file" ] || die "cannot start: $file is missing"
    done
    dir=$(mktemp -d "$prefix.XXXXXX")
    trap start_failed ERR
    # in memory only: Debian's Pushgateway persists its metrics to
    # /var/lib/prometheus/pushgateway.data by default, and would start with
    # the last test bed's pushes
    spawn pushgateway prometheus-pushgateway \
        --web.listen-address=127.0.0.1:0 --persistence.file=
    gw_port=$(port_of "$(cat "$dir/pushgateway.pid")")
    gw_url=http://127.0.0.1:$gw_port
    wait_for "$gw_url/-/ready" "the Pushgateway"
    if [ -n "$webhook" ]; then
        write_alertmanager_config
        # no cluster: its gossip would listen on 0.0.0.0:9094, one per
        # machine
        spawn alertmanager prometheus-alertmanager \
            --config.file="$dir/alertmanager.yml" \
            --storage.path="$dir/alertmanager" \
            --web.listen-address=127.0.0.1:0 \
            --cluster.listen-address=
        am_port=$(port_of "$(cat "$dir/alertmanager.pid")")
        am_url=http://127.0.0.1:$am_port
        wait_for "$am_url/-/ready" "the Alertmanager"
    fi
    write_config
    spawn prometheus prometheus --config.file="$dir/prometheus.yml" \
        --storage.tsdb.path="$dir/data" \
        --web.listen-address=127.0.0.1:0
    prom_port=$(port_of "$(cat "$dir/prometheus.pid")")
    prom_url=http://127.0.0.1:$prom_port
    wait_for "$prom_url/-/ready" "Prometheus"
    wait_scraped
    if [ -n "$webhook" ]; then
        wait_alertmanager_known
    fi
    trap - ERR
    cat > "$dir/env" <<EOF
export MICROBENCH_PROMETHEUS_TESTBED=$dir
export MICROBENCH_PUSHGATEWAY=$gw_url
export MICROBENCH_PUSHGATEWAY_PORT=$gw_port
export MICROBENCH_PROMETHEUS_URL=$prom_url
export MICROBENCH_PROMETHEUS_PORT=$prom_port
EOF
    if [ -n "$webhook" ]; then
        cat >> "$dir/env" <<EOF
export MICROBENCH_ALERTMANAGER_URL=$am_url
export MICROBENCH_ALERTMANAGER_PORT=$am_port
EOF
        say "up: Pushgateway $gw_url, Prometheus $prom_url (scraping it and evaluating the rules every 1 s), Alertmanager $am_url (notifying $webhook); $dir"
    else
        say "up: Pushgateway $gw_url, Prometheus $prom_url (scraping it and evaluating the rules every 1 s); $dir"
    fi
    cat "$dir/env"
}

# The recorded process ids still alive
alive() {
    local pidfile pid
    for pidfile in "$dir"/*.pid; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        if kill -0 "$pid" 2>/dev/null; then
            echo "$pid"
        fi
    done
}

# Stop what start started (SIGTERM, SIGKILL after 10 s), remove $dir
stop_all() {
    local pid _
    for pid in $(alive); do
        kill "$pid" 2>/dev/null || true
    done
    for _ in $(seq 100); do
        [ -z "$(alive)" ] && break
        sleep 0.1
    done
    for pid in $(alive); do
        kill -KILL "$pid" 2>/dev/null || true
    done
    for _ in $(seq 20); do
        [ -z "$(alive)" ] && break
        sleep 0.1
    done
    rm -rf "$dir"
}

# The state directory of stop and status: $1, else the variable; only one
# start made
chosen() {
    dir=${1:-${MICROBENCH_PROMETHEUS_TESTBED:-}}
    if [ -z "$dir" ]; then
        echo "usage: $0 $command DIR (or MICROBENCH_PROMETHEUS_TESTBED=DIR)" >&2
        exit 2
    fi
    case $dir in
        "$prefix".*) ;;
        *) die "$dir is not a test bed's directory ($prefix.*)" ;;
    esac
}

command=${1:-}
case $command in
    start) start ;;
    stop)
        chosen "${2:-}"
        if [ ! -e "$dir" ]; then
            say "nothing to stop ($dir is not there)"
            exit 0
        fi
        stop_all
        if [ -e "$dir" ] || [ -n "$(alive)" ]; then
            die "stopped, but left: $dir $(alive | tr '\n' ' ')"
        fi
        say "stopped; nothing left"
        ;;
    status)
        chosen "${2:-}"
        if [ ! -e "$dir/env" ]; then
            say "not running (no $dir/env)"
            exit 3
        fi
        for name in pushgateway alertmanager prometheus; do
            [ -e "$dir/$name.pid" ] || continue
            if kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then
                echo "$name: running, pid $(cat "$dir/$name.pid")"
            else
                echo "$name: not running (log: $dir/$name.log)"
            fi
        done
        cat "$dir/env"
        ;;
    *) echo "usage: $0 start|stop|status [DIR]" >&2; exit 2 ;;
esac
