#!/usr/bin/env bash
# Usage: scripts/bench-instructions.sh [REQUESTS]   (default 1000; build/bin must hold liaison, bench_seed)
#
# Instructions per GET /api/v1/contacts/:id (or, with BENCH_REQUEST=create, per POST
# /api/v1/contacts of a new contact), counted by valgrind's callgrind: wall-clock figures
# drift by ±10% between runs on the development machines, instruction counts do not, so this is
# how a change to the request path is measured A/B. It
#   1. seeds BENCH_CONTACTS (100000) contacts into a throwaway data dir and creates an API key,
#   2. runs `liaison serve` (one server thread, rate limit off) under callgrind twice: once
#      answering one request, once answering REQUESTS requests on one keep-alive connection (curl),
#   3. prints (total of the second run - total of the first) / (REQUESTS - 1).
# Installs valgrind and curl with apt when missing. Every step is bounded in time; every process
# it started is stopped on exit.
#   BENCH_BUILD_DIR [build]   where bin/liaison and bin/bench_seed are
#   BENCH_CONTACTS [100000]   contacts seeded
#   BENCH_REQUEST [get]       get: a seeded contact by id; create: a new contact (a write)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
REQUESTS=${1:-1000}
CONTACTS=${BENCH_CONTACTS:-100000}
BUILD_DIR=${BENCH_BUILD_DIR:-build}
REQUEST=${BENCH_REQUEST:-get}
[ "$REQUEST" = get ] || [ "$REQUEST" = create ] || { echo "bench-instructions: BENCH_REQUEST is get or create" >&2; exit 2; }
BIN=$ROOT/$BUILD_DIR/bin
[[ $BUILD_DIR == /* ]] && BIN=$BUILD_DIR/bin
[[ $REQUESTS =~ ^[0-9]+$ ]] && [ "$REQUESTS" -ge 2 ] || { echo "bench-instructions: REQUESTS must be >= 2" >&2; exit 2; }

say() { echo "bench-instructions: $*" >&2; }
die() { say "$*"; exit 1; }

scripts/install-deps.sh valgrind curl openssl >&2
[ -x "$BIN/liaison" ] || die "$BIN/liaison not found (run: make build)"
[ -x "$BIN/bench_seed" ] || die "$BIN/bench_seed not found (run: make bench, which builds it)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/liaison-instructions.XXXXXX")
SERVER=''
cleanup() {
    if [ -n "$SERVER" ]; then kill -TERM "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    [ "${BENCH_KEEP:-0}" = 1 ] && say "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$WORK/data" && chmod 700 "$WORK/data"
say "seeding $CONTACTS contacts"
timeout 600 env -u DBUS_SESSION_BUS_ADDRESS "$BIN/bench_seed" --data-dir "$WORK/data" --contacts "$CONTACTS" \
    >"$WORK/seed.log" 2>&1 || { tail -n 20 "$WORK/seed.log" >&2; die "bench_seed failed"; }
KEY=$(timeout 120 env -u DBUS_SESSION_BUS_ADDRESS "$BIN/liaison" apikey create --data-dir "$WORK/data" \
    --name instructions --scope '*' 2>"$WORK/apikey.log" | tail -n 1)
[ -n "$KEY" ] || { cat "$WORK/apikey.log" >&2; die "no API key"; }
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$WORK/key.pem" -out "$WORK/cert.pem" >/dev/null 2>&1 || die "openssl could not make a certificate"

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT=''
for _ in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    port_in_use "$p" || { PORT=$p; break; }
done
[ -n "$PORT" ] || die "no free loopback port"

# instructions N: total instructions of a server run that answers N requests on one connection.
instructions() {
    local n=$1 out=$WORK/callgrind.$1 i
    if [ "$REQUEST" = create ]; then
        # One block of curl options per request (next): a new contact each, its e-mail numbered.
        for i in $(seq 1 "$n"); do
            [ "$i" -eq 1 ] || echo next
            printf 'url = "https://127.0.0.1:%s/api/v1/contacts"\nheader = "Authorization: Bearer %s"\n' "$PORT" "$KEY"
            printf 'header = "Content-Type: application/json"\noutput = "/dev/null"\ninsecure\nsilent\nshow-error\nfail\n'
            printf 'data = "{\\"firstName\\": \\"Ayşe\\", \\"email\\": \\"ayse.%s.%s@ornek.com.tr\\"}"\n' "$n" "$i"
        done >"$WORK/urls.$n"
    else
        sed -e '/^$/d' -e "s|^|url = \"https://127.0.0.1:$PORT/api/v1/contacts/|" -e 's|$|"|' \
            "$WORK/data/bench-ids.txt" | head -n "$n" >"$WORK/urls.$n"
        [ "$(wc -l <"$WORK/urls.$n")" -eq "$n" ] || die "fewer than $n seeded ids"
    fi
    # started directly (not through a function) so that $! is the server itself (env and valgrind exec)
    env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY valgrind --tool=callgrind --callgrind-out-file="$out" "$BIN/liaison" serve --data-dir "$WORK/data" \
        --listen "127.0.0.1:$PORT" --set server/threads=1 --set server/rateLimitPerMinute=0 \
        --set server/tlsCert="$WORK/cert.pem" --set server/tlsKey="$WORK/key.pem" >"$WORK/serve.$n.log" 2>&1 &
    SERVER=$!
    for i in $(seq 1 240); do
        curl -sk --max-time 5 -o /dev/null "https://127.0.0.1:$PORT/api/v1/openapi.json" && break
        kill -0 "$SERVER" 2>/dev/null || { tail -n 20 "$WORK/serve.$n.log" >&2; die "liaison serve exited"; }
        sleep 0.5
        [ "$i" -lt 240 ] || die "liaison serve under valgrind did not answer within 120 s"
    done
    if [ "$REQUEST" = create ]; then
        timeout 600 curl -K "$WORK/urls.$n" >/dev/null || die "curl failed for $n requests"
    else
        timeout 600 curl -sk -H "Authorization: Bearer $KEY" -K "$WORK/urls.$n" >/dev/null \
            || die "curl failed for $n requests"
    fi
    kill -TERM "$SERVER"
    timeout 120 tail --pid="$SERVER" -f /dev/null || die "liaison serve did not stop"
    wait "$SERVER" 2>/dev/null || true
    SERVER=''
    awk '/^summary:/ { print $2; exit }' "$out"
}

say "callgrind: one request"
one=$(instructions 1)
say "callgrind: $REQUESTS requests"
many=$(instructions "$REQUESTS")
[ -n "$one" ] && [ -n "$many" ] || die "no callgrind summary"
awk -v a="$one" -v b="$many" -v n="$REQUESTS" \
    -v what="$([ "$REQUEST" = create ] && echo 'POST /api/v1/contacts' || echo 'GET /api/v1/contacts/:id')" \
    'BEGIN { printf "instructions per %s: %.0f (%d requests on one keep-alive connection, one server thread)\n", what, (b - a) / (n - 1), n }'
