#!/usr/bin/env bash
# Usage: scripts/soak.sh [MINUTES]   (default 10)
#
# A soak of `liaison serve`: MINUTES of mixed API load (searches, reads, creates, changes, deletes,
# refused writes, webhook fan-out to a loopback receiver, storms of idle TLS connections), with
# requests, answers by status, latency, the server's RSS and open files, the WAL size and the
# webhooks received printed every minute (tests/bench/bench_soak.cpp). Fails (exit 1) on any 5xx or
# transport error, a snapshot left open, or a server that does not stop cleanly. Builds what it
# needs in SOAK_BUILD_DIR (default build).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
MINUTES=${1:-10}
BUILD_DIR=${SOAK_BUILD_DIR:-build}
[[ $MINUTES =~ ^[0-9]+$ ]] && [ "$MINUTES" -ge 1 ] || { echo "soak: MINUTES must be a whole number >= 1" >&2; exit 2; }

[ -f "$BUILD_DIR/CMakeCache.txt" ] || make build BUILD_DIR="$BUILD_DIR"
cmake --build "$BUILD_DIR" --target liaison bench_soak -j"$(nproc)"
export LIAISON_BINARY=$PWD/$BUILD_DIR/bin/liaison
# bounded: the minutes of load plus start, seeding and a clean stop
exec timeout --kill-after=30 $((MINUTES * 60 + 300)) "$BUILD_DIR/bin/bench_soak" "$MINUTES"
