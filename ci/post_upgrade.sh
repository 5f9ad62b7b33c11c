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
# These sessions are not nights (ci/nightly.sh tags those kind=nightly):
# compare --last leaves them out of every history, and counts them in one
# line when they come after the last night.
#
# From figure to package (docs/operators/diagnose.md): with
# MICROBENCH_PRE_TAG=<the other side's tag>, after the runs of this side
#   1. the pre/post comparison: microbench compare '?tag=="PRE"'
#      '?tag=="TAG"' --json (reports/compare-PRE-TAG-<stamp>.json, .txt);
#      what changed in a partition between the sides is one event;
#   2. the cause of every event by experiment: microbench diagnose
#      --events all (the pre side's stack against the post side's,
#      interleaved; the pre side's stack must still be installed:
#      ci/spack_install.sh keeps the last stacks by lock hash), with
#      MICROBENCH_DIAGNOSE_OPTIONS (e.g. "--mode quick"); the comparison
#      again, each event with its cause;
#   3. where software is the cause and both stacks are Spack environments:
#      microbench bisect <pre>/spack.lock <post>/spack.lock --checks
#      <the event's> --moved <the diagnosis's A/B>, the package that did
#      it (where this microbench has no bisect, the command is printed).
#
# Exit: 4 when a session is not stored (each named again at the end), else
# the status of the last run that failed, else 0 (the chain's verdicts do
# not change it: they are in its files).
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

pre=${MICROBENCH_PRE_TAG:-}
if [ -n "$pre" ] && [ "$stored" -gt 0 ]; then
    verdicts=$reports/compare-$pre-$tag-$stamp.json
    .venv/bin/microbench --db "$db" compare "?tag==\"$pre\"" "?tag==\"$tag\"" \
        --json "$verdicts" | tee "${verdicts%.json}.txt"
    if [ "${PIPESTATUS[0]}" -le 1 ] && [ -s "$verdicts" ]; then
        # shellcheck disable=SC2086  # the options are words
        .venv/bin/microbench --db "$db" diagnose --events all \
            --verdicts "$verdicts" ${MICROBENCH_DIAGNOSE_OPTIONS:-} \
            | tee "${verdicts%.json}-diagnose.txt"
        .venv/bin/microbench --db "$db" compare "?tag==\"$pre\"" \
            "?tag==\"$tag\"" --json "$verdicts" > "${verdicts%.json}.txt"
        # Software the cause: the lock diff of the two stacks, bisected
        .venv/bin/python - "$verdicts" "$(dirname "$db")/diagnoses" <<'PY' |
import sys
from microbench.cause import diagnosis_json
from microbench.verdicts import compare_json
events = [e['fingerprint'] for e in compare_json.read(sys.argv[1]).events]
found, _ = diagnosis_json.in_directory(sys.argv[2], events)
for fingerprint, diagnosis in sorted(found.items()):
    if diagnosis.cause == 'software (by experiment)':
        envs = [diagnosis.stacks[side]['env'] or '-' for side in 'AB']
        print(fingerprint, *envs, f'{diagnosis.system}:{diagnosis.partition}',
              diagnosis.ab['path'], *diagnosis.checks)
PY
        while read -r event env_a env_b where moved checks; do
            if [ "$env_a" = - ] || [ "$env_b" = - ]; then
                echo "post_upgrade: event $event: software (by experiment), but a" \
                    "stack is no Spack environment: no lock diff to bisect"
                continue
            fi
            # the diagnosis's A/B is the bisection's full one (--moved)
            bisect=(.venv/bin/microbench --db "$(dirname "$db")/ab.db" bisect
                "$env_a/spack.lock" "$env_b/spack.lock" --system "$where"
                --moved "$moved" --checks)
            read -ra names <<< "$checks"
            if .venv/bin/microbench bisect --help >/dev/null 2>&1; then
                # shellcheck disable=SC2086  # the options are words
                "${bisect[@]}" "${names[@]}" ${MICROBENCH_DIAGNOSE_OPTIONS:-} \
                    | tee "${verdicts%.json}-bisect-$event.txt"
            else
                echo "post_upgrade: event $event: software (by experiment); the" \
                    "package: ${bisect[*]} ${names[*]} (not in this microbench yet)"
            fi
        done
    else
        echo "post_upgrade: no comparison of $pre and $tag (see above):" \
            "nothing to diagnose" >&2
    fi
fi
if [ "${#unstored[@]}" -ne 0 ]; then
    for line in "${unstored[@]}"; do
        echo "post_upgrade: FAILED (exit 4): $line" >&2
    done
    exit 4
fi
exit "$failed"
