#!/bin/sh
# A throwaway PostgreSQL cluster for the tests: its own data directory, listening on loopback only,
# started and stopped by the test run (CTest's "postgres" fixture calls this; so can a person).
#
#   scripts/pg-cluster.sh start DIR [PORT]   initdb (first time) and start; prints the database URL
#   scripts/pg-cluster.sh stop DIR           stop it (fast shutdown); the files stay
#   scripts/pg-cluster.sh url DIR            the URL of a cluster started for DIR
#
# The cluster trusts loopback connections (tests only: nothing but this machine can reach it), has
# fsync off (a crash of a test cluster loses nothing anyone needs), and one database, "liaison", owned
# by the role "liaison". Run as root, the server runs as the "postgres" user of Debian's package
# (PostgreSQL refuses to run as root), with its files in /tmp (DIR may be where that user cannot go,
# such as under /root); DIR/cluster names where they are.
set -eu

command=${1:-}
dir=${2:-}
port=${3:-55432}
[ -n "$command" ] && [ -n "$dir" ] || {
    echo "usage: $0 start|stop|url DIR [PORT]" >&2
    exit 2
}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bindir/initdb" ] || {
    echo "$0: PostgreSQL server programs not found (install the Debian package postgresql)" >&2
    exit 1
}

root=false
[ "$(id -u)" = 0 ] && root=true
as_owner() {
    if $root; then
        (cd / && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if $root; then
    home="/tmp/liaison-pg-$(printf '%s' "$dir" | md5sum | cut -c1-12)"
else
    home="$dir"
fi
data="$home/data"

case "$command" in
start)
    mkdir -p "$home"
    if $root; then chown postgres "$home"; fi
    echo "$home" >"$dir/cluster"
    if [ ! -f "$data/PG_VERSION" ]; then
        as_owner "$bindir/initdb" -D "$data" -U liaison --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
            >"$dir/initdb.log" 2>&1 || {
            cat "$dir/initdb.log" >&2
            exit 1
        }
    fi
    if ! as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        as_owner "$bindir/pg_ctl" -D "$data" -l "$home/server.log" -w -t 60 \
            -o "-h 127.0.0.1 -p $port -k $home -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
                -c max_connections=200" start >/dev/null || {
            cat "$home/server.log" >&2
            exit 1
        }
    fi
    echo "$port" >"$dir/port"
    if ! as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U liaison -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'liaison'" | grep -q 1; then
        as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U liaison liaison
    fi
    echo "postgresql://liaison@127.0.0.1:$port/liaison"
    ;;
stop)
    if [ -f "$data/PG_VERSION" ]; then
        as_owner "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
url)
    echo "postgresql://liaison@127.0.0.1:$(cat "$dir/port")/liaison"
    ;;
*)
    echo "usage: $0 start|stop|url DIR [PORT]" >&2
    exit 2
    ;;
esac
