#!/usr/bin/env bash
# Set the suite up on a fresh Debian/Ubuntu machine:
#  - the benchmarks and tools apt packages (as root, or through password-less
#    sudo; otherwise say what to install: checks of a missing tool are skipped)
#  - .venv with the exactly pinned Python dependencies (requirements.txt,
#    every file checked against its sha256: pip --require-hashes)
set -euo pipefail
cd "$(dirname "$0")/.."

# fio and strace: the storage checks and their witness; util-linux: flock
# (one benchmark at a time), findmnt (scratch records), taskset (binding);
# procps: pgrep (a job stops every process it started); mpich: mpirun for
# OSU; libfabric-bin: fi_info for fabtests; time: GNU time for the client's
# CPU use; shellcheck: the tests check the job scripts; btrfs-progs and
# btrfs-compsize: the data-reduction check's end-to-end test makes a
# compressing btrfs (as root) and its witness reads btrfs' compsize.  OSU
# and fabtests themselves are not packaged: at a facility they come from
# Spack (spack_envs/); here those checks skip.
packages=(fio strace util-linux procps python3-venv mpich libfabric-bin time
          shellcheck btrfs-progs btrfs-compsize)

ci/apt_install.sh "${packages[@]}"

python3 -m venv .venv
# --no-deps: requirements.txt is the whole closure, as uv resolved it with
# pyproject.toml's [tool.uv] overrides and exclusions (apache-otava's
# metadata asks for numpy 2.2.0 and data-source clients the suite does not
# use; pip would fetch them, unhashed, and replace numpy)
.venv/bin/pip install -q --disable-pip-version-check --require-hashes \
    --no-deps -r requirements.txt
.venv/bin/pip install -q --disable-pip-version-check --no-deps -e .
echo "setup: done; ReFrame $(.venv/bin/reframe --version), $(fio --version 2>/dev/null || echo 'fio missing')"
