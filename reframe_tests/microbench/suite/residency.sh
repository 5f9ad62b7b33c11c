# shellcheck shell=bash
# The page-cache residency witness on one node (microbench/suite/residency.py):
# the resident bytes, pages and size of every file below directory $1, by
# util-linux fincore, then how many files it listed; every line tagged with
# the rank of this process (the node's index in the launcher's order) and
# the host name.  Without fincore: one line saying so, and success.
set -o pipefail
tag="resident ${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-0}}}} $(hostname)"
if ! command -v fincore >/dev/null 2>&1; then
    echo "$tag missing fincore"
    exit 0
fi
find "$1" -type f -exec fincore --bytes --noheadings --raw \
        --output RES,PAGES,SIZE,FILE {} + |
    awk -v tag="$tag" '{print tag, $0} END {print tag, "files", NR}'
