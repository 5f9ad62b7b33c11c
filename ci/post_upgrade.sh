#!/usr/bin/env bash
# The sessions of one side of an upgrade: N runs of the suite tagged TAG,
# each checked to be in the results storage (docs/operators/nightly.md,
# "After an upgrade"):
#
#   ci/post_upgrade.sh pre-upgrade 5 --system slurm_cluster
#   # ... upgrade the system ...
#   ci/post_upgrade.sh post-upgrade 5 --system slurm_cluster
#   microbench compare '?tag=="pre-upgrade"' '?tag=="post-upgrade"'
#
# usage: ci/post_upgrade.sh TAG [N] [reframe options]    (N: 5)
#
# Each run is `reframe -c reframe_tests -r --session-extras tag=TAG` with
# the options given, ReFrame's configuration RFM_CONFIG_FILES (default:
# systems/config.py), the results storage RFM_SQLITE_DB_FILE (default:
# perflogs/results.db, systems/config.py's).  Each run's report is kept in
# MICROBENCH_REPORTS (default: reports/ beside the storage) as
# TAG-<stamp>-<i>.json, and `microbench stored` checks that its session is
# in the storage: ReFrame exits 0 when it could not store it (lock timeout,
# full disk, read-only directory).  A session not stored is named on
# stderr and the next runs still run (each stored one counts).
#
# Exit: 4 when a session is not stored (each named again at the end), else
# the status of the last run that failed, else 0.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
tag=${1:?usage: ci/post_upgrade.sh TAG [N] [reframe options]}
shift
count=5
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
    count=$1
    shift
fi

export RFM_CONFIG_FILES=${RFM_CONFIG_FILES:-$PWD/systems/config.py}
# ReFrame and microbench stored: one storage, whatever the configuration
export RFM_SQLITE_DB_FILE=${RFM_SQLITE_DB_FILE:-$PWD/perflogs/results.db}
db=$RFM_SQLITE_DB_FILE
reports=${MICROBENCH_REPORTS:-$(dirname "$db")/reports}
mkdir -p "$reports" || exit 1
stamp=$(date +%Y%m%dT%H%M%S)

failed=0
unstored=()
for ((i = 1; i <= count; i++)); do
    report=$reports/$tag-$stamp-$i.json
    .venv/bin/reframe -c reframe_tests -r --session-extras "tag=$tag" \
        "$@" --report-file "$report"
    status=$?
    [ "$status" -ne 0 ] && failed=$status
    if ! line=$(.venv/bin/microbench --db "$db" stored "$report" 2>&1); then
        echo "$line" >&2
        unstored+=("$line")
    else
        echo "$line"
    fi
done

stored=$((count - ${#unstored[@]}))
echo "post_upgrade: $stored of $count sessions tagged $tag stored in $db"
if [ "${#unstored[@]}" -ne 0 ]; then
    for line in "${unstored[@]}"; do
        echo "post_upgrade: FAILED (exit 4): $line" >&2
    done
    exit 4
fi
exit "$failed"
