#!/usr/bin/env bash
# Usage: scripts/soak.sh [--postgres] [MINUTES]   (default 10)
#
# A soak of `liaison serve`: MINUTES of mixed API load (searches, reads, creates, changes, deletes,
# refused writes, webhook fan-out to a loopback receiver, storms of idle TLS connections), with
# requests, answers by status, latency, the server's RSS and open files, the WAL size and the
# webhooks received printed every minute (tests/bench/bench_soak.cpp). Fails (exit 1) on any 5xx or
# transport error, a snapshot left open, or a server that does not stop cleanly. Builds what it
# needs in SOAK_BUILD_DIR (default build).
#
# --postgres: team mode on a throwaway PostgreSQL cluster of its own (scripts/pg-cluster.sh, in
# SOAK_BUILD_DIR/soak-pgcluster, port SOAK_PG_PORT or 55433), a new database each run, and the
# database stopped at half time for SOAK_OUTAGE_SECONDS (default 20) and started again: 503 with
# Retry-After meanwhile is expected; the server must answer 2xx and deliver webhooks again by itself.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
POSTGRES=false
if [ "${1:-}" = --postgres ]; then
    POSTGRES=true
    shift
fi
MINUTES=${1:-10}
BUILD_DIR=${SOAK_BUILD_DIR:-build}
[[ $MINUTES =~ ^[0-9]+$ ]] && [ "$MINUTES" -ge 1 ] || { echo "soak: MINUTES must be a whole number >= 1" >&2; exit 2; }

[ -f "$BUILD_DIR/CMakeCache.txt" ] || make build BUILD_DIR="$BUILD_DIR"
cmake --build "$BUILD_DIR" --target liaison bench_soak -j"$(nproc)"
export LIAISON_BINARY=$PWD/$BUILD_DIR/bin/liaison

if $POSTGRES; then
    cluster=$PWD/$BUILD_DIR/soak-pgcluster
    port=${SOAK_PG_PORT:-55433}
    trap 'scripts/pg-cluster.sh stop "$cluster" >/dev/null 2>&1 || true' EXIT
    url=$(scripts/pg-cluster.sh start "$cluster" "$port" | tail -n 1)
    psql -q "$url" -c 'DROP DATABASE IF EXISTS soak' -c 'CREATE DATABASE soak'
    export SOAK_POSTGRES_URL=${url%/*}/soak
    export SOAK_PG_STOP="'$PWD/scripts/pg-cluster.sh' stop '$cluster'"
    export SOAK_PG_START="'$PWD/scripts/pg-cluster.sh' start '$cluster' $port"
fi
# bounded: the minutes of load plus start, seeding, the outage and a clean stop
timeout --kill-after=30 $((MINUTES * 60 + 400)) "$BUILD_DIR/bin/bench_soak" "$MINUTES"
