#!/usr/bin/env bash
# apt_install.sh PACKAGE...: install Debian/Ubuntu packages as root or through
# password-less sudo; otherwise say what to install (the checks of a missing
# tool are skipped, saying so).  Another apt or dpkg holding the lock (a fresh
# cloud VM's unattended upgrades at boot) is waited for, at most
# MICROBENCH_APT_LOCK_TIMEOUT seconds (default 600).
set -euo pipefail

timeout=${MICROBENCH_APT_LOCK_TIMEOUT:-600}
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "setup: cannot install system packages here (not root, no sudo); install: $*" >&2
    exit 0
fi

if ! command -v apt-get >/dev/null; then
    echo "setup: no apt-get here; install: $*" >&2
    exit 0
fi

apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$timeout")
if [ -n "$sudo" ]; then
    apt=("$sudo" "${apt[@]}")
fi
# DPkg::Lock::Timeout covers dpkg's lock, not the lists lock of an update:
# wait for that one here
waited=0
until out=$("${apt[@]}" update -qq 2>&1); do
    if ! grep -q 'Could not get lock' <<< "$out" || [ "$waited" -ge "$timeout" ]; then
        printf '%s\n' "$out" >&2
        echo "setup: apt-get update failed" >&2
        exit 1
    fi
    echo "setup: another apt holds its lock; waited $waited of $timeout s" >&2
    sleep 5
    waited=$((waited + 5))
done
"${apt[@]}" install -y -qq "$@"
