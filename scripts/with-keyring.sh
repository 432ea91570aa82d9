#!/usr/bin/env bash
# Usage: scripts/with-keyring.sh CMD [ARG...]
# Runs CMD inside a throwaway D-Bus session bus with an unlocked gnome-keyring secret service
# (what QtKeychain's libsecret backend talks to), in a temporary HOME and XDG_RUNTIME_DIR, so
# tests never touch the user's own keyring, and a temporary TMPDIR (in memory where it can be,
# see below). Exits with CMD's exit code. Sets
# QT_QPA_PLATFORM=offscreen unless it is already set. Everything temporary is removed on exit.
# (Tests of the keychain *file fallback* unset DBUS_SESSION_BUS_ADDRESS themselves.)
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 CMD [ARG...]" >&2
    exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
    command -v "$tool" >/dev/null || { echo "with-keyring: $tool not found (run: make deps)" >&2; exit 1; }
done

export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}

# The run's files (every test's databases and data directories, TMPDIR) go to memory when
# /dev/shm is a writable tmpfs with 2 GiB free: on a virtual machine's disk each fsync of a test
# database costs milliseconds and the suites make tens of thousands of them (docs/performance.md,
# "CI"). LIAISON_TEST_TMPDIR=DIR puts them in DIR instead, e.g. to test on a real disk.
base=${LIAISON_TEST_TMPDIR:-}
if [ -z "$base" ]; then
    base=${TMPDIR:-/tmp}
    if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ] &&
        [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -ge 2097152 ]; then
        base=/dev/shm
    fi
fi
tmp=$(mktemp -d "$base/liaison-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/home" "$tmp/run" "$tmp/tmp"
export TMPDIR=$tmp/tmp
# The real HOME, for what should outlive the run: npm's download cache (tests/openapi/openapi-check.sh).
export LIAISON_USER_HOME=${LIAISON_USER_HOME:-$HOME}
export HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/run
export XDG_DATA_HOME=$HOME/.local/share XDG_CONFIG_HOME=$HOME/.config XDG_CACHE_HOME=$HOME/.cache
# A desktop's own keyring variables would point at the user's real daemon.
unset GNOME_KEYRING_CONTROL GNOME_KEYRING_PID SSH_AUTH_SOCK

# Inside the new session: start the secret service with a fresh "login" keyring, unlocked with a
# throwaway password, then exec CMD. The daemon leaves when the session bus goes away.
rc=0
dbus-run-session -- bash -c '
    if ! printf %s liaison-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; then
        echo "with-keyring: gnome-keyring-daemon did not start; keychain tests will fail" >&2
    fi
    exec "$@"
' with-keyring "$@" || rc=$?
exit "$rc"
