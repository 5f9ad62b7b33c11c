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
#   reports/       the JSON report of every run and the night's comparison
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

.venv/bin/reframe -c reframe_tests --system "$system" -r \
    --report-file "$results/reports/run-$stamp.json" "$@"
status=$?

# Did the machine get faster or slower?  The last day against the week
# before it, median of every figure per check, partition and environment.
.venv/bin/reframe --performance-compare='now-1d:now/now-8d:now-1d/median:/' \
    | tee "$results/reports/compare-$stamp.txt"

exit $status
