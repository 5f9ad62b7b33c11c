#!/usr/bin/env bash
# Install the benchmarks of one facility partition from its locked Spack
# environment, then run the suite there (what a facility runs after an
# upgrade, or once before ci/nightly.sh):
#
#   ci/spack_install.sh SYSTEM/PARTITION [spack install options]
#   ci/spack_install.sh slurm_cluster/nvme && ci/nightly.sh slurm_cluster:nvme
#
# Installs spack_envs/SYSTEM/PARTITION/spack.lock as it is (no
# re-concretization) into the Spack on PATH, after checking that this Spack is
# the one that made the lock (spack_envs/checkout-versions.yaml): the release
# that `spack --version` prints, and, where Spack and its builtin repository
# are git checkouts, their tree (Spack) and commit (spack-packages).  The
# benchmarks land in the environment's view, spack_envs/SYSTEM/PARTITION/
# .spack-env/view, whose bin/ the partition's programming environment puts on
# PATH.  spack_envs/README.md says how to set the pinned Spack up.
set -euo pipefail
cd "$(dirname "$0")/.."
env=${1:?usage: ci/spack_install.sh SYSTEM/PARTITION [spack install options]}
shift
dir=spack_envs/$env
[ -f "$dir/spack.lock" ] || { echo "spack_install: no $dir/spack.lock" >&2; exit 2; }
command -v spack >/dev/null || { echo "spack_install: no spack on PATH" >&2; exit 2; }

# One value of checkout-versions.yaml: pinned SECTION KEY
pinned() {
    sed -n "/^$1:/,/^[^ #]/s/^  $2: *\([^ #]*\).*/\1/p" spack_envs/checkout-versions.yaml
}

fail=0
have=$(spack --version | cut -d' ' -f1)
if [ "$have" != "$(pinned spack version)" ]; then
    echo "spack_install: spack $have is not the pinned $(pinned spack version)" >&2
    fail=1
fi

root=$(dirname "$(dirname "$(command -v spack)")")
if tree=$(git -C "$root" rev-parse -q --verify 'HEAD^{tree}' 2>/dev/null) \
        && [ "$tree" != "$(pinned spack tree)" ]; then
    echo "spack_install: $root is at tree $tree, not v$(pinned spack version)'s $(pinned spack tree)" >&2
    fail=1
fi

repo=$(spack location --repo builtin)
if commit=$(git -C "$repo" rev-parse -q --verify HEAD 2>/dev/null) \
        && [ "$commit" != "$(pinned spack-packages commit)" ]; then
    echo "spack_install: builtin recipes $repo at $commit, not $(pinned spack-packages commit)" >&2
    fail=1
fi
[ "$fail" = 0 ] || exit 1

spack -e "$dir" install "$@"
echo "spack_install: $env installed; its benchmarks are in $dir/.spack-env/view/bin"
