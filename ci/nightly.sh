#!/usr/bin/env bash
# Run the suite on one system and keep what it measured, for cron:
#
#   30 2 * * *  /path/to/suite/ci/nightly.sh slurm_cluster >> $HOME/microbench-nightly.log 2>&1
#
# usage: ci/nightly.sh SYSTEM[:PARTITION] [more reframe options]
#
# MICROBENCH_SPACK_INSTALL=1 first installs the benchmarks of every partition
# of SYSTEM from its locked Spack environment (ci/spack_install.sh: the pinned
# Spack must be on PATH); an installed environment is left as it is.
#
# MICROBENCH_RESULTS (default $HOME/microbench-results) keeps, across nights:
#   perflogs/      one '|'-separated file per check and partition (pandas)
#   results.db     ReFrame's results storage (--performance-compare)
#   reports/       the JSON report of every run (a confirmation rerun's:
#                  confirm-*.json), the night's comparison
#                  (compare-*.txt, compare-*.json) and its HTML report with
#                  plots (report-*/report.html; latest -> the last one),
#                  the weather of the night (weather-*/; latest-weather ->
#                  the last one), and the run's bundle
#                  (run-<stamp>-<system>.tar.gz, checked by microbench
#                  check-bundle; latest-bundle.tar.gz -> it)
#
# The night's figures, verdicts and change points go to Prometheus
# (microbench export): pushed to the Pushgateway at MICROBENCH_PUSHGATEWAY
# (a URL), and written into node_exporter's textfile directory
# MICROBENCH_TEXTFILE_DIR, where set; else one line says neither is.
# A weather report or an export that fails is said on stderr (the
# export's error names the URL) and changes neither the night nor its exit.
#
# A regression found tonight is confirmed before the night fails: the
# affected checks run again (microbench confirm; MICROBENCH_CONFIRM=0 turns
# it off), and a drop the rerun does not see is a lone night (exit 0).
#
# A confirmed regression whose event's records show a software change is
# then classed by experiment (microbench diagnose --events new-software):
# the event's checks on the night-before stack and on tonight's,
# interleaved in one job, where the night-before stack is still installed
# (ci/spack_install.sh keeps the last MICROBENCH_KEEP_STACKS=3 stacks, one
# Spack environment per lock hash under MICROBENCH_STACKS; else one line
# says it is gone).  The diagnoses go to $MICROBENCH_RESULTS/diagnoses/ (the
# A/B's sessions to ab.db there, never the nights' history), and the night
# is judged again so that its verdicts, report, weather and export say
# each event's cause by experiment.  MICROBENCH_DIAGNOSE=0 turns it off;
# MICROBENCH_DIAGNOSE_OPTIONS are diagnose's own (e.g. "--mode quick").
#
# Exit: 4 when the night's session is not in results.db (ReFrame could not
# store it, or died before writing its run report: named on the last line),
# else ReFrame's own status when not 0, else 1 on a regression found
# tonight (and confirmed), else 3 when the bundle is missing or broken,
# else 0.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
system=${1:?usage: ci/nightly.sh SYSTEM[:PARTITION] [reframe options]}
shift

if [ "${MICROBENCH_SPACK_INSTALL:-0}" = 1 ]; then
    # spack_envs/<system>/<partition> of the system (or of the partition)
    shopt -s nullglob
    for env in spack_envs/"${system%%:*}"/*/spack.lock; do
        env=${env#spack_envs/}
        env=${env%/spack.lock}
        case "$system" in *:*) [ "$env" = "${system/://}" ] || continue ;; esac
        ci/spack_install.sh "$env" || exit $?
    done
fi

results=${MICROBENCH_RESULTS:-$HOME/microbench-results}
stamp=$(date +%Y%m%dT%H%M%S)
mkdir -p "$results/reports"
export RFM_CONFIG_FILES=$PWD/systems/config.py
export RFM_PERFLOG_DIR=$results/perflogs
export RFM_SQLITE_DB_FILE=$results/results.db

# Tonight's session is tagged a night (kind=nightly): compare --last judges
# the nights only, and a trial run in the same results storage (ReFrame
# run by hand, a post-upgrade side, a replay) stays apart.  The
# confirmation rerun is tagged confirms=<tonight> by microbench confirm.
nightly_tag=kind=nightly
run_report=$results/reports/run-$stamp.json
# The session UUID of the run report $1
session_of() {
    .venv/bin/python -c 'import json, sys
print(json.load(open(sys.argv[1]))["session_info"]["uuid"])' "$1"
}
.venv/bin/reframe -c reframe_tests --system "$system" -r \
    --session-extras "$nightly_tag" --report-file "$run_report" "$@"
status=$?

# Is tonight's session in the results storage?  Several partitions' nights
# may store at once (ReFrame serializes them under its file lock), but when
# a store fails (lock timeout, full disk, read-only directory) ReFrame only
# prints a warning and exits 0.  A night not stored fails (exit 4) and skips
# what would judge, report or bundle the previous night as tonight's; its
# run report and perflogs are kept.
if unstored=$(.venv/bin/microbench stored "$run_report" 2>&1); then
    stored=0
    echo "$unstored"
else
    stored=$?
    echo "$unstored" >&2
fi

# Did the machine get faster or slower?  The last night against each
# figure's history of nights (microbench compare --last: Otava's change
# points and a test of the last nights, one false-alarm budget for the
# whole night; the sessions tagged kind=nightly, ad-hoc ones apart), then
# the report with its plots, then how many samples a night each figure
# needs (microbench advise).  A regression found tonight fails the night;
# one found on an earlier night is listed as degraded.
verdict=2
if [ "$stored" -eq 0 ]; then
    .venv/bin/microbench compare --last \
        --json "$results/reports/compare-$stamp.json" \
        | tee "$results/reports/compare-$stamp.txt"
    verdict=${PIPESTATUS[0]}
    # A new regression: before anyone is paged, rerun only the affected
    # checks with the samples the advisor gives them (at most 10), as a
    # second session of the night (confirms=<tonight>), and judge the
    # night again: "regression (confirmed)" exits 1, "not confirmed (lone
    # night)" 0.  MICROBENCH_CONFIRM=0 turns it off.
    if [ "$verdict" -eq 1 ] && [ "${MICROBENCH_CONFIRM:-1}" != 0 ] &&
        [ -s "$results/reports/compare-$stamp.json" ]; then
        .venv/bin/microbench confirm \
            --verdicts "$results/reports/compare-$stamp.json" \
            --report-file "$results/reports/confirm-$stamp.json" -- \
            .venv/bin/reframe -c reframe_tests --system "$system" -r "$@" \
            | tee -a "$results/reports/compare-$stamp.txt"
        verdict=${PIPESTATUS[0]}
    fi
    if [ "$verdict" -eq 1 ] && [ "${MICROBENCH_DIAGNOSE:-1}" != 0 ] &&
        [ -s "$results/reports/compare-$stamp.json" ]; then
        # shellcheck disable=SC2086  # the options are words
        .venv/bin/microbench diagnose --events new-software \
            --verdicts "$results/reports/compare-$stamp.json" \
            ${MICROBENCH_DIAGNOSE_OPTIONS:-} \
            2>&1 | tee "$results/reports/diagnose-$stamp.txt"
        # The night again, with its events' causes by experiment (the
        # verdicts are those above: compare --last judges the same nights;
        # 0 or 1 is a judgement, 2 leaves the files as they were)
        .venv/bin/microbench compare --last \
            --json "$results/reports/compare-$stamp.json" \
            > "$results/reports/compare-$stamp.txt.new"
        if [ $? -le 1 ]; then
            mv "$results/reports/compare-$stamp.txt.new" \
                "$results/reports/compare-$stamp.txt"
        else
            rm -f "$results/reports/compare-$stamp.txt.new"
            echo "nightly: compare --last after the diagnoses failed (see" \
                "above): the verdicts stay without them" >&2
        fi
    fi
    verdicts=()
    if [ -s "$results/reports/compare-$stamp.json" ]; then
        verdicts=(--verdicts "$results/reports/compare-$stamp.json")
    fi
    .venv/bin/microbench report -o "$results/reports/report-$stamp" \
        "${verdicts[@]}"
    ln -sfn "report-$stamp" "$results/reports/latest"
    if .venv/bin/microbench weather -o "$results/reports/weather-$stamp" \
            "${verdicts[@]}"; then
        ln -sfn "weather-$stamp" "$results/reports/latest-weather"
    else
        echo "nightly: microbench weather failed (see above): no weather" \
            "report tonight; the night goes on" >&2
    fi

    # Tonight's figures, verdicts and change points for Prometheus
    exports=()
    if [ -n "${MICROBENCH_PUSHGATEWAY:-}" ]; then
        exports+=(--push "$MICROBENCH_PUSHGATEWAY")
    fi
    if [ -n "${MICROBENCH_TEXTFILE_DIR:-}" ]; then
        exports+=(--textfile "$MICROBENCH_TEXTFILE_DIR")
    fi
    if [ "${#exports[@]}" -eq 0 ]; then
        echo "nightly: no export to Prometheus: neither" \
            "MICROBENCH_PUSHGATEWAY nor MICROBENCH_TEXTFILE_DIR is set"
    elif ! tonight=$(session_of "$run_report") ||
        ! .venv/bin/microbench export "$tonight" "${verdicts[@]}" \
            "${exports[@]}"; then
        echo "nightly: export to Prometheus failed (see above;" \
            "Pushgateway: ${MICROBENCH_PUSHGATEWAY:-none}, textfile" \
            "directory: ${MICROBENCH_TEXTFILE_DIR:-none}); the night" \
            "goes on" >&2
    fi
else
    echo "nightly: tonight's session is not stored: no comparison, no" \
        "report, no bundle (they would show the last night stored)" >&2
fi
.venv/bin/microbench advise > "$results/reports/advise-$stamp.txt" \
    || echo "nightly: microbench advise failed (see above)" >&2

# The night's bundle, next to its report: what it measured, what ran (the
# suite's commit, the Spack environments or the system's packages, the
# Python closure), the machine and the command line (microbench replay).
# Checked here without concretizing again (check-bundle does, by hand).
bundled=0
archive=$results/reports/run-$stamp-${system//:/-}.tar.gz
if [ "$stored" -ne 0 ]; then
    bundled=1
elif session=$(session_of "$run_report"); then
    .venv/bin/microbench bundle "$session" -o "$archive" \
        && .venv/bin/microbench check-bundle --no-spack "$archive" \
        && ln -sfn "$(basename "$archive")" "$results/reports/latest-bundle.tar.gz"
    bundled=$?
else
    echo "nightly: no session in $run_report: no bundle" >&2
    bundled=1
fi

# A night whose figures are not stored first (4): nothing of it can be
# judged or bundled (its run report is kept); said again last, for the
# log's tail
if [ "$stored" -ne 0 ]; then
    echo "nightly: FAILED (exit 4): $unstored" >&2
    exit 4
fi
# Then the run's own failures; then a regression (1); a comparison that
# could not be made (2, e.g. the first night) does not fail the night; then
# a missing or broken bundle (3)
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
[ "$verdict" -eq 1 ] && exit 1
# A night without its bundle cannot be shown or repeated
[ "$bundled" -ne 0 ] && exit 3
exit 0
