#!/usr/bin/env bash
# Usage: scripts/bench.sh            (or: make bench, which builds first)
#
# Benchmarks Liaison's HTTPS API against nginx serving a static body of the same size, over
# keep-alive HTTPS on 127.0.0.1 with the same wrk settings, and prints a summary:
#   1. seeds BENCH_CONTACTS contacts into a throwaway data dir (build/bin/bench_seed),
#   2. creates an API key, starts `liaison serve` on a free loopback port (rate limit off),
#   3. nginx (own temp config) serves one contact's JSON body, fetched from Liaison, as a static file,
#   4. BENCH_ROUNDS rounds, each one wrk run of GET /api/v1/contacts/:id (cycling through the seeded
#      ids) against Liaison and then the same run against nginx: the two of a round are measured
#      minutes apart at most, so that the machine's drift (±10% between runs here) falls on both;
#      the figures reported are the medians over the rounds, and the ratio the median of the
#      rounds' ratios,
#   5. wrk: GET /api/v1/contacts?search=TERM cycling through the seed's search terms,
#   6. reads the server's RSS,
#   7. with BENCH_SEARCH_CONTACTS=N, a second data dir with N contacts for the search run alone,
#   8. team mode: the same contacts copied (liaison db migrate-to) into a throwaway PostgreSQL cluster
#      (scripts/pg-cluster.sh), and the GET by id and search runs again against `liaison serve` on it.
# Everything runs on 127.0.0.1, every step is bounded in time, and every process the script
# started is stopped on exit.
#
# Environment (defaults in brackets):
#   BENCH_CONTACTS [100000]        contacts for the id, search and RSS figures
#   BENCH_DURATION [10s]           each wrk measurement (a plain number means seconds)
#   BENCH_WARMUP [2s]              a wrk warm-up before each measurement (0 to skip)
#   BENCH_ROUNDS [3]               rounds of the Liaison/nginx pair (odd, so the median is a run)
#   BENCH_SEARCH_CONTACTS []       e.g. 1000000: also measure search on that many contacts
#   BENCH_POSTGRES [1]             0: skip the PostgreSQL runs
#   BENCH_THREADS [2] BENCH_CONNECTIONS [32]   wrk -t / -c
#   BENCH_BUILD_DIR [build]        where bin/liaison and bin/bench_seed are
#   BENCH_ONLY []                  "nginx": only the nginx baseline (no Liaison binaries needed)
#   BENCH_KEEP [0]                 1: keep the temp dir (logs, data) and print its path
#   BENCH_STRICT [0]               1: exit 1 when a target of issue 2 is missed
# Exit status: 0 when every run completed with only 2xx answers, 1 otherwise.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

CONTACTS=${BENCH_CONTACTS:-100000}
DURATION=${BENCH_DURATION:-10s}
WARMUP=${BENCH_WARMUP:-2s}
ROUNDS=${BENCH_ROUNDS:-3}
SEARCH_CONTACTS=${BENCH_SEARCH_CONTACTS:-}
THREADS=${BENCH_THREADS:-2}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
BUILD_DIR=${BENCH_BUILD_DIR:-build}
ONLY=${BENCH_ONLY:-}
POSTGRES=${BENCH_POSTGRES:-1}
BIN=$ROOT/$BUILD_DIR/bin
[[ $BUILD_DIR == /* ]] && BIN=$BUILD_DIR/bin

seconds() { local v=$1; v=${v%s}; [[ $v =~ ^[0-9]+$ ]] || { echo "bench: not a duration: $1" >&2; exit 2; }; echo "$v"; }
DURATION_S=$(seconds "$DURATION")
[[ $ROUNDS =~ ^[1-9][0-9]?$ ]] || { echo "bench: BENCH_ROUNDS must be 1 to 99: $ROUNDS" >&2; exit 2; }
WARMUP_S=$(seconds "$WARMUP")

say() { echo "bench: $*" >&2; }
die() { say "$*"; exit 1; }

# --- tools ------------------------------------------------------------------------------------
scripts/install-deps.sh nginx-light wrk openssl curl >&2
for tool in wrk nginx openssl curl; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || die "$tool not found"
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ "$ONLY" != nginx ]; then
    [ -x "$BIN/liaison" ] || die "$BIN/liaison not found (run: make build)"
    [ -x "$BIN/bench_seed" ] || die "$BIN/bench_seed not found (run: make bench, which builds it)"
fi

# --- clean-up of everything started here ------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/liaison-bench.XXXXXX")
PIDS=()
children_of() { cat "/proc/$1/task/$1/children" 2>/dev/null || true; }
stop_pid() {  # TERM, up to 10 s, then KILL it and the children it had (nginx workers)
    local pid=$1 kids
    kill -0 "$pid" 2>/dev/null || return 0
    kids=$(children_of "$pid")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    # shellcheck disable=SC2086 # $kids is a list of pids
    kill -KILL "$pid" $kids 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    if [ -d "$WORK/pg" ]; then "$ROOT/scripts/pg-cluster.sh" stop "$WORK/pg" >/dev/null 2>&1 || true; fi
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# nginx runs its workers as "nobody" when started as root: they need to traverse to www/.
chmod 711 "$WORK"
mkdir -p "$WORK/www" "$WORK/nginx" && chmod 755 "$WORK/www"

# --- helpers ----------------------------------------------------------------------------------
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {  # a port nothing listens on, in 20000-59999, not in $*
    local p
    for _ in $(seq 1 200); do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        [[ " $* " == *" $p "* ]] && continue
        port_in_use "$p" || { echo "$p"; return 0; }
    done
    die "no free loopback port found"
}

# run_bounded SECONDS CMD...: CMD under `timeout`, in the background and waited for, so that a
# signal reaches the trap at once (bash defers traps while a foreground command runs).
run_bounded() {
    local limit=$1 pid rc=0 p keep=()
    shift
    timeout "$limit" "$@" &
    pid=$!
    PIDS+=("$pid")
    wait "$pid" || rc=$?
    for p in "${PIDS[@]}"; do [ "$p" = "$pid" ] || keep+=("$p"); done
    PIDS=("${keep[@]}")
    return "$rc"
}

# wait_https URL PID NAME [CURL ARGS...]: waits until URL answers at all (the process dies or 60 s
# pass: fail), then fails unless the answer was 2xx.
wait_https() {
    local url=$1 pid=$2 name=$3 code=''
    shift 3
    for _ in $(seq 1 300); do
        code=$(curl -sk --max-time 2 -o /dev/null -w '%{http_code}' "$@" "$url" 2>/dev/null || true)
        [[ $code =~ ^[1-5][0-9][0-9]$ ]] && break
        kill -0 "$pid" 2>/dev/null || { say "$name exited while starting"; return 1; }
        sleep 0.2
    done
    [[ $code == 2* ]] && return 0
    say "$name: GET $url answered ${code:-nothing within 60 s}, not 2xx"
    return 1
}

cat >"$WORK/paths.lua" <<'LUA'
-- wrk script: cycles through the request paths in a file (one a line), sending the same
-- Authorization header to every server; prints one parsable result line at the end.
local reqs, n, offset = {}, 0, 0
local counter = 0

function setup(thread)
    thread:set("thread_index", counter)
    counter = counter + 1
end

function init(args)
    local paths_file, auth = args[1], args[2]
    wrk.headers["Authorization"] = "Bearer " .. auth
    wrk.headers["Accept"] = "application/json"
    -- whole requests are formatted once here, so that wrk spends no time per request on them
    for line in io.lines(paths_file) do
        if #line > 0 then n = n + 1; reqs[n] = wrk.format("GET", line) end
    end
    assert(n > 0, "no paths in " .. paths_file)
    -- threads start at different places so they do not ask for the same rows in lockstep
    offset = math.floor((thread_index or 0) * n / 7) % n
end

function request()
    offset = offset % n + 1
    return reqs[offset]
end

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d status_errors=%d socket_errors=%d\n",
        summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
        latency.max, e.status, e.connect + e.read + e.write + e.timeout))
end
LUA

# run_wrk NAME URL PATHSFILE KEY: warm-up, then the measurement; sets R_RPS R_P50 R_P99 R_ERR.
ERRORS=0
run_wrk() {
    local name=$1 url=$2 paths=$3 key=$4 log=$WORK/wrk-$1.log line
    if [ "$WARMUP_S" -gt 0 ]; then
        run_bounded $((WARMUP_S + 30)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP_S}s" \
            -s "$WORK/paths.lua" "$url" -- "$paths" "$key" >"$log.warmup" 2>&1 \
            || { cat "$log.warmup" >&2; die "wrk warm-up for $name failed"; }
    fi
    say "wrk $name: ${DURATION_S}s, -t$THREADS -c$CONNECTIONS, $url"
    run_bounded $((DURATION_S + 60)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION_S}s" --latency \
        -s "$WORK/paths.lua" "$url" -- "$paths" "$key" >"$log" 2>&1 \
        || { cat "$log" >&2; die "wrk for $name failed"; }
    line=$(grep '^RESULT ' "$log" | tail -n 1) || { cat "$log" >&2; die "no result from wrk for $name"; }
    local kv requests=0 duration_us=0 p50=0 p99=0 status_errors=0 socket_errors=0
    for kv in ${line#RESULT }; do
        case $kv in
            requests=*) requests=${kv#*=} ;;
            duration_us=*) duration_us=${kv#*=} ;;
            p50_us=*) p50=${kv#*=} ;;
            p99_us=*) p99=${kv#*=} ;;
            status_errors=*) status_errors=${kv#*=} ;;
            socket_errors=*) socket_errors=${kv#*=} ;;
        esac
    done
    R_RPS=$(awk -v r="$requests" -v d="$duration_us" 'BEGIN { printf "%.0f", (d > 0 ? r / (d / 1e6) : 0) }')
    R_P50=$(awk -v v="$p50" 'BEGIN { printf "%.2f", v / 1000 }')
    R_P99=$(awk -v v="$p99" 'BEGIN { printf "%.2f", v / 1000 }')
    R_ERR=$((status_errors + socket_errors))
    if [ "$R_ERR" -gt 0 ]; then
        say "$name: $status_errors non-2xx answers, $socket_errors socket errors (see $log): figures are not valid"
        ERRORS=$((ERRORS + 1))
    fi
    if [ "$requests" -eq 0 ]; then
        say "$name: no request completed"
        ERRORS=$((ERRORS + 1))
    fi
}

# --- Liaison ----------------------------------------------------------------------------------
TLS_CERT=$WORK/cert.pem
TLS_KEY=$WORK/key.pem
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$TLS_KEY" -out "$TLS_CERT" >/dev/null 2>&1 \
    || die "openssl could not make a certificate"

# The Liaison processes run without a D-Bus session so that their secrets go to the data dir's
# file fallback and never into the user's own keyring.
liaison() { timeout 120 env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY "$BIN/liaison" "$@"; }

# seed DIR N: seeds N contacts; sets SEED_IDS SEED_TERMS SEED_SECONDS.
seed() {
    local dir=$1 n=$2 t0 last
    mkdir -p "$dir" && chmod 700 "$dir"
    say "seeding $n contacts into $dir"
    t0=$(date +%s.%N)
    run_bounded 3600 env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY \
        "$BIN/bench_seed" --data-dir "$dir" --contacts "$n" >"$dir.seed.log" 2>&1 \
        || { tail -n 20 "$dir.seed.log" >&2; die "bench_seed failed"; }
    SEED_SECONDS=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    last=$(tail -n 1 "$dir.seed.log")
    [[ $last =~ ^ids=([^[:space:]]+)[[:space:]]+terms=([^[:space:]]+)$ ]] \
        || die "bench_seed's last line is not 'ids=PATH terms=PATH': $last"
    SEED_IDS=${BASH_REMATCH[1]} SEED_TERMS=${BASH_REMATCH[2]}
    [ -s "$SEED_IDS" ] || die "no ids in $SEED_IDS"
    [ -s "$SEED_TERMS" ] || die "no search terms in $SEED_TERMS"
}

# start_liaison DIR PORT [--set ...]: creates an API key (KEEP_KEY=1: keeps API_KEY) and starts the
# server; sets LIAISON_PID API_KEY.
start_liaison() {
    local dir=$1 port=$2
    shift 2
    if [ "${KEEP_KEY:-0}" != 1 ]; then
        API_KEY=$(liaison apikey create --data-dir "$dir" --name bench --scope '*' 2>"$dir.apikey.log" | tail -n 1) \
            || { cat "$dir.apikey.log" >&2; die "liaison apikey create failed"; }
    fi
    [ -n "$API_KEY" ] || die "liaison apikey create printed no key"
    # started directly (not through the function) so that $! is the server's own pid
    env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY \
        "$BIN/liaison" serve --data-dir "$dir" --listen "127.0.0.1:$port" \
        --set server/rateLimitPerMinute=0 \
        --set server/tlsCert="$TLS_CERT" --set server/tlsKey="$TLS_KEY" "$@" \
        >"$dir.serve.log" 2>&1 &
    LIAISON_PID=$!
    PIDS+=("$LIAISON_PID")
    wait_https "https://127.0.0.1:$port/api/v1/contacts?limit=1" "$LIAISON_PID" "liaison serve" \
        -H "Authorization: Bearer $API_KEY" \
        || { tail -n 20 "$dir.serve.log" >&2; die "liaison serve is not ready (its log above)"; }
}

rss_mb() { awk -v k="$2" '$1 == k":" { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"; }

url_encode_lines() {  # stdin: one term a line; stdout: /api/v1/contacts?search=<encoded>
    sed 's/\r$//' | LC_ALL=C awk 'BEGIN { for (i = 0; i < 256; i++) ord[sprintf("%c", i)] = i }
        NF { s = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
                 s = s (c ~ /[A-Za-z0-9._~-]/ ? c : sprintf("%%%02X", ord[c])) }
             print "/api/v1/contacts?search=" s }'
}

ID_RPS='' ID_P50='' ID_P99='' SEARCH_RPS='' SEARCH_P50='' SEARCH_P99='' RSS='' HWM=''
SEED_SECONDS='' SMALL_SEED_SECONDS=''
BIG_RPS='' BIG_P50='' BIG_P99='' BIG_RSS='' BIG_SEED_SECONDS=''
PORT=$(free_port)
NGINX_PORT=$(free_port "$PORT")

if [ "$ONLY" != nginx ]; then
    seed "$WORK/data" "$CONTACTS"
    SMALL_SEED_SECONDS=$SEED_SECONDS
    sed -e 's/\r$//' -e '/^$/d' -e 's|^|/api/v1/contacts/|' "$SEED_IDS" >"$WORK/id-paths.txt"
    url_encode_lines <"$SEED_TERMS" >"$WORK/search-paths.txt"
    start_liaison "$WORK/data" "$PORT"
    say "liaison serve (pid $LIAISON_PID) on https://127.0.0.1:$PORT, RSS after start $(rss_mb "$LIAISON_PID" VmRSS) MB"
    # The static body for nginx: one contact exactly as Liaison answers it.
    curl -sfk --max-time 10 -H "Authorization: Bearer $API_KEY" \
        -o "$WORK/www/contact.json" "https://127.0.0.1:$PORT$(head -n 1 "$WORK/id-paths.txt")" \
        || die "could not fetch one contact from liaison"
    API_KEY_FOR_NGINX=$API_KEY
else
    # Baseline only: a made-up contact body of a typical size and made-up ids.
    printf '{"success":true,"data":{"id":"contact_01JBENCH0000000000000000","name":"Ayşe Yılmaz","email":"ayse.yilmaz@example.com","phone":"+905321234567","company":"Example Ltd","tags":["lead","istanbul"],"source":"web","leadScore":42,"notes":[],"conversations":[],"deals":[],"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}}' \
        >"$WORK/www/contact.json"
    seq 1 1000 | sed 's|^|/api/v1/contacts/contact_|' >"$WORK/id-paths.txt"
    API_KEY_FOR_NGINX=not-a-key
fi
chmod 644 "$WORK/www/contact.json"
BODY_BYTES=$(wc -c <"$WORK/www/contact.json")

# --- nginx baseline ---------------------------------------------------------------------------
cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes auto;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 100000;
    keepalive_timeout 60s;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$NGINX_PORT ssl;
        ssl_certificate $TLS_CERT;
        ssl_certificate_key $TLS_KEY;
        root $WORK/www;
        location / {
            default_type application/json;
            try_files /contact.json =404;
        }
    }
}
EOF
"$NGINX" -e "$WORK/nginx/error.log" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx/stdout.log" 2>&1 &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
wait_https "https://127.0.0.1:$NGINX_PORT/api/v1/contacts/x" "$NGINX_PID" nginx \
    || { cat "$WORK/nginx/error.log" "$WORK/nginx/stdout.log" >&2 2>/dev/null; die "nginx did not start"; }

# median: the middle of the numbers given (the lower middle for an even count)
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ID_RPS_ALL=() ID_P50_ALL=() ID_P99_ALL=() NGINX_RPS_ALL=() NGINX_P50_ALL=() NGINX_P99_ALL=() RATIOS=() ROUND_LINES=()
for round in $(seq 1 "$ROUNDS"); do
    line="| $round |"
    if [ "$ONLY" != nginx ]; then
        run_wrk "liaison-id-$round" "https://127.0.0.1:$PORT" "$WORK/id-paths.txt" "$API_KEY"
        ID_RPS_ALL+=("$R_RPS") ID_P50_ALL+=("$R_P50") ID_P99_ALL+=("$R_P99")
        line+=" $R_RPS |"
    fi
    run_wrk "nginx-id-$round" "https://127.0.0.1:$NGINX_PORT" "$WORK/id-paths.txt" "$API_KEY_FOR_NGINX"
    NGINX_RPS_ALL+=("$R_RPS") NGINX_P50_ALL+=("$R_P50") NGINX_P99_ALL+=("$R_P99")
    line+=" $R_RPS |"
    if [ "$ONLY" != nginx ]; then
        RATIOS+=("$(awk -v a="${ID_RPS_ALL[-1]}" -v b="$R_RPS" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
        line+=" ${RATIOS[-1]} |"
    fi
    ROUND_LINES+=("$line")
done
stop_pid "$NGINX_PID"
NGINX_RPS=$(median "${NGINX_RPS_ALL[@]}") NGINX_P50=$(median "${NGINX_P50_ALL[@]}") NGINX_P99=$(median "${NGINX_P99_ALL[@]}")

if [ "$ONLY" != nginx ]; then
    ID_RPS=$(median "${ID_RPS_ALL[@]}") ID_P50=$(median "${ID_P50_ALL[@]}") ID_P99=$(median "${ID_P99_ALL[@]}")
    run_wrk liaison-search "https://127.0.0.1:$PORT" "$WORK/search-paths.txt" "$API_KEY"
    SEARCH_RPS=$R_RPS SEARCH_P50=$R_P50 SEARCH_P99=$R_P99
    RSS=$(rss_mb "$LIAISON_PID" VmRSS)
    HWM=$(rss_mb "$LIAISON_PID" VmHWM)
    stop_pid "$LIAISON_PID"
fi

# --- team mode: the same contacts on PostgreSQL ----------------------------------------------------
PG_ID_RPS='' PG_ID_P50='' PG_ID_P99='' PG_SEARCH_RPS='' PG_SEARCH_P50='' PG_SEARCH_P99='' PG_COPY_SECONDS=''
if [ "$POSTGRES" = 1 ] && [ "$ONLY" != nginx ]; then
    PG_PORT=$(free_port "$PORT" "$NGINX_PORT")
    PG_URL=$(run_bounded 120 "$ROOT/scripts/pg-cluster.sh" start "$WORK/pg" "$PG_PORT" 2>"$WORK/pg.log" | tail -n 1) \
        || { cat "$WORK/pg.log" >&2; die "the PostgreSQL cluster did not start"; }
    say "copying the contacts into $PG_URL"
    t0=$(date +%s.%N)
    run_bounded 3600 env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY \
        "$BIN/liaison" db migrate-to "$PG_URL" --data-dir "$WORK/data" >"$WORK/migrate.log" 2>&1 \
        || { tail -n 20 "$WORK/migrate.log" >&2; die "liaison db migrate-to failed"; }
    PG_COPY_SECONDS=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    mkdir -p "$WORK/data-pg" && chmod 700 "$WORK/data-pg"
    PG_SERVE_PORT=$(free_port "$PORT" "$NGINX_PORT" "$PG_PORT")
    # the API key was copied with the rest
    KEEP_KEY=1 start_liaison "$WORK/data-pg" "$PG_SERVE_PORT" --set "database/url=$PG_URL"
    run_wrk liaison-pg-id "https://127.0.0.1:$PG_SERVE_PORT" "$WORK/id-paths.txt" "$API_KEY"
    PG_ID_RPS=$R_RPS PG_ID_P50=$R_P50 PG_ID_P99=$R_P99
    run_wrk liaison-pg-search "https://127.0.0.1:$PG_SERVE_PORT" "$WORK/search-paths.txt" "$API_KEY"
    PG_SEARCH_RPS=$R_RPS PG_SEARCH_P50=$R_P50 PG_SEARCH_P99=$R_P99
    stop_pid "$LIAISON_PID"
fi

# --- optional: search on a large data set -----------------------------------------------------
if [ -n "$SEARCH_CONTACTS" ] && [ "$ONLY" != nginx ]; then
    seed "$WORK/data-big" "$SEARCH_CONTACTS"
    BIG_SEED_SECONDS=$SEED_SECONDS
    url_encode_lines <"$SEED_TERMS" >"$WORK/search-big-paths.txt"
    BIG_PORT=$(free_port "$PORT" "$NGINX_PORT")
    start_liaison "$WORK/data-big" "$BIG_PORT"
    run_wrk liaison-search-big "https://127.0.0.1:$BIG_PORT" "$WORK/search-big-paths.txt" "$API_KEY"
    BIG_RPS=$R_RPS BIG_P50=$R_P50 BIG_P99=$R_P99
    BIG_RSS=$(rss_mb "$LIAISON_PID" VmRSS)
    stop_pid "$LIAISON_PID"
fi

# --- summary ----------------------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
# shellcheck disable=SC1091
os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")
misses=0
verdict() {  # verdict AWK-CONDITION VALUE: prints met/MISSED and counts misses
    if awk -v v="$2" "BEGIN { exit !($1) }"; then VERDICT=met; else VERDICT=MISSED; misses=$((misses + 1)); fi
}

echo
echo "Liaison benchmark: wrk -t$THREADS -c$CONNECTIONS -d${DURATION_S}s, keep-alive HTTPS on 127.0.0.1, body $BODY_BYTES bytes"
echo "GET by id: $ROUNDS rounds of Liaison then nginx; medians over the rounds"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $mem, ${os:-unknown OS}, $(uname -r)"
if [ -n "$SMALL_SEED_SECONDS" ]; then echo "seeded $CONTACTS contacts in $SMALL_SEED_SECONDS s"; fi
echo
echo "| request | server | contacts | req/s | p50 ms | p99 ms |"
echo "|---|---|---:|---:|---:|---:|"
if [ "$ONLY" != nginx ]; then
    echo "| GET /api/v1/contacts/:id | liaison | $CONTACTS | $ID_RPS | $ID_P50 | $ID_P99 |"
fi
echo "| GET (static body, same size) | nginx | - | $NGINX_RPS | $NGINX_P50 | $NGINX_P99 |"
if [ "$ONLY" != nginx ]; then
    echo "| GET /api/v1/contacts?search= | liaison | $CONTACTS | $SEARCH_RPS | $SEARCH_P50 | $SEARCH_P99 |"
    if [ -n "$BIG_RPS" ]; then
        echo "| GET /api/v1/contacts?search= | liaison | $SEARCH_CONTACTS | $BIG_RPS | $BIG_P50 | $BIG_P99 |"
    fi
    if [ -n "$PG_ID_RPS" ]; then
        echo "| GET /api/v1/contacts/:id | liaison on PostgreSQL | $CONTACTS | $PG_ID_RPS | $PG_ID_P50 | $PG_ID_P99 |"
        echo "| GET /api/v1/contacts?search= | liaison on PostgreSQL | $CONTACTS | $PG_SEARCH_RPS | $PG_SEARCH_P50 | $PG_SEARCH_P99 |"
    fi
    echo
    echo "| round | liaison req/s | nginx req/s | ratio |"
    echo "|---:|---:|---:|---:|"
    printf '%s\n' "${ROUND_LINES[@]}"
    echo
    ratio=$(median "${RATIOS[@]}")
    verdict 'v >= 0.5' "$ratio"
    echo "ratio liaison/nginx, GET by id: $ratio, median of the rounds' ratios ${RATIOS[*]} (target >= 0.50: $VERDICT)"
    verdict 'v ~ /^[0-9.]+$/ && v + 0 < 100' "$RSS"
    echo "liaison serve RSS after the runs, $CONTACTS contacts: $RSS MB, peak $HWM MB (target < 100 MB: $VERDICT)"
    if [ -n "$PG_COPY_SECONDS" ]; then
        echo "PostgreSQL: $CONTACTS contacts copied by db migrate-to in $PG_COPY_SECONDS s (a local cluster, fsync off)"
    fi
    if [ -n "$BIG_RPS" ]; then
        verdict 'v < 20' "$BIG_P99"
        echo "search p99 with $SEARCH_CONTACTS contacts: $BIG_P99 ms, seeded in $BIG_SEED_SECONDS s, RSS $BIG_RSS MB (target < 20 ms: $VERDICT)"
    else
        echo "search p99 with 1,000,000 contacts: not measured (run: BENCH_SEARCH_CONTACTS=1000000 make bench)"
    fi
fi
if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "logs and data: $WORK"; fi

if [ "$ERRORS" -gt 0 ]; then say "$ERRORS run(s) had errors: the figures above are not valid"; exit 1; fi
if [ "${BENCH_STRICT:-0}" = 1 ] && [ "$misses" -gt 0 ]; then exit 1; fi
exit 0
