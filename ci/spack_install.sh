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
# that `spack --version` prints, the tree of the Spack prefix that Spack
# reports (`spack location --spack-root`, also when `spack` on PATH is a
# wrapper) and the commit of its builtin repository, both git checkouts
# without local changes.  It refuses what it cannot verify, unless
# SPACK_INSTALL_UNVERIFIED=1.  The benchmarks land in the environment's view,
# spack_envs/SYSTEM/PARTITION/.spack-env/view, whose bin/ the partition's
# programming environment puts on PATH.  spack_envs/README.md says how to set the pinned Spack up.
#
# Stacks by lock hash: each lock installed is also kept as a Spack
# environment of its own, named by the lock's sha256, under MICROBENCH_STACKS
# (default $HOME/microbench-stacks): <SYSTEM>-<PARTITION>-<first 12 hex of
# the sha256>, a self-contained copy of the environment (its includes and
# repositories copied beside it: microbench.cause.stacks.snapshot) installed
# from the same lock (the packages are the ones just installed: nothing is
# built again), so that the stack a night ran stays installed after the
# lock moves on (microbench diagnose runs the night before's stack against
# tonight's).  The last MICROBENCH_KEEP_STACKS (default 3: this one and the
# two before it) of the partition are kept, by when each was last installed;
# an older one is removed, but one holding a file KEEP (touch
# $MICROBENCH_STACKS/<name>/KEEP) is never removed.  MICROBENCH_KEEP_STACKS=0
# keeps none.  Removing a stack's folder leaves its packages in Spack's
# install tree until `spack gc`.
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

# Where the check cannot be made (no git, not a checkout, a tarball Spack), the
# install is refused unless SPACK_INSTALL_UNVERIFIED=1 says to go on anyway.
unverified() {
    if [ "${SPACK_INSTALL_UNVERIFIED:-0}" = 1 ]; then
        echo "spack_install: warning: $1 (SPACK_INSTALL_UNVERIFIED=1: going on)" >&2
    else
        echo "spack_install: $1; set SPACK_INSTALL_UNVERIFIED=1 to install anyway" >&2
        exit 1
    fi
}

fail=0
have=$(spack --version | cut -d' ' -f1)
if [ "$have" != "$(pinned spack version)" ]; then
    echo "spack_install: spack $have is not the pinned $(pinned spack version)" >&2
    fail=1
fi

# The prefix of the Spack that runs, as Spack itself reports it: `spack` on
# PATH may be a wrapper script or a symlink anywhere (a module, ~/bin)
root=$(spack location --spack-root) || root=
if [ -z "$root" ] || [ ! -d "$root" ]; then
    unverified "spack location --spack-root names no directory: Spack's tree cannot be verified"
elif ! command -v git >/dev/null; then
    unverified "no git: the tree of $root cannot be verified"
elif ! tree=$(git -C "$root" rev-parse -q --verify 'HEAD^{tree}' 2>/dev/null); then
    unverified "$root is not a git checkout (or git refuses to read it): its tree cannot be verified"
elif [ "$tree" != "$(pinned spack tree)" ]; then
    echo "spack_install: $root is at tree $tree, not v$(pinned spack version)'s $(pinned spack tree)" >&2
    fail=1
elif ! git -C "$root" diff --quiet HEAD --; then
    echo "spack_install: $root has local changes to v$(pinned spack version)'s files" >&2
    fail=1
fi

repo=$(spack location --repo builtin) || repo=
if [ -z "$repo" ] || [ ! -d "$repo" ]; then
    unverified "no builtin repository found: its commit cannot be verified"
elif ! command -v git >/dev/null; then
    unverified "no git: the commit of $repo cannot be verified"
elif ! commit=$(git -C "$repo" rev-parse -q --verify HEAD 2>/dev/null); then
    unverified "$repo is not a git checkout (or git refuses to read it): its commit cannot be verified"
elif [ "$commit" != "$(pinned spack-packages commit)" ]; then
    echo "spack_install: builtin recipes $repo at $commit, not $(pinned spack-packages commit)" >&2
    fail=1
elif ! git -C "$repo" diff --quiet HEAD --; then
    echo "spack_install: builtin recipes $repo have local changes" >&2
    fail=1
fi
[ "$fail" = 0 ] || exit 1

spack -e "$dir" install "$@"
echo "spack_install: $env installed; its benchmarks are in $dir/.spack-env/view/bin"

keep=${MICROBENCH_KEEP_STACKS:-3}
case "$keep" in ''|*[!0-9]*) echo "spack_install: MICROBENCH_KEEP_STACKS=$keep is not a count" >&2; exit 2 ;; esac
[ "$keep" = 0 ] && exit 0
stacks=${MICROBENCH_STACKS:-$HOME/microbench-stacks}
mkdir -p "$stacks"
name=${env//\//-}
stack=$(.venv/bin/python -c 'import sys
from microbench.cause import stacks
print(stacks.snapshot(*sys.argv[1:]))' "$dir" "$stacks" "$name")
spack -e "$stack" install "$@"
touch "$stack/.installed"
echo "spack_install: the stack of this lock is kept in $stack"
# The partition's stacks, the last installed first: keep the first $keep
hex='[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
shopt -s nullglob
for folder in "$stacks/$name"-$hex; do
    [ -f "$folder/spack.lock" ] || continue
    printf '%s\t%s\n' "$(stat -c %Y "$folder/.installed" 2>/dev/null || echo 0)" "$folder"
done | sort -rn | tail -n +"$((keep + 1))" | cut -f2- | while IFS= read -r old; do
    if [ -e "$old/KEEP" ]; then
        echo "spack_install: $old is older than the last $keep stacks, kept (it holds KEEP)"
    else
        rm -rf "$old"
        echo "spack_install: removed $old, older than the last $keep stacks (spack gc frees its packages)"
    fi
done
