#!/usr/bin/env bash
# Usage: installer/test-package.sh [PACKAGE.deb]   (as root; `make test-package` runs it)
# Installs the Debian package on a clean Debian 12 the way a user would, and checks it there:
#   - a minimal Debian 12 root (debootstrap --variant=minbase bookworm, plus man-db to read the
#     manual page), cached in $LIAISON_PACKAGE_ROOT/base (default /tmp/liaison-package/base); each
#     run works in a copy of it, in a chroot;
#   - `apt-get install ./liaison_*.deb` finds every dependency in Debian's archive alone;
#   - every library of the program and of the plugins Qt loads at run time resolves;
#   - `liaison --version` names the package's version;
#   - `liaison serve` (a throwaway data directory, 127.0.0.1:$LIAISON_PACKAGE_PORT) answers
#     GET /api/v1/health over HTTPS, and so does the window with its embedded server (offscreen,
#     and on X under Xvfb where Xvfb is installed);
#   - `man liaison` shows the page, and the files of the menu entry, the icons and the systemd user
#     unit are where the desktop looks for them;
#   - `apt-get remove`, then `purge`, leave no file of the package behind: the tree is compared with
#     the one after installing, and only the user's data directory may remain.
# Prints each check as it goes; the last line says "test-package: N passed, N failed"; exits non-zero
# on any failure.
set -u
shopt -s nullglob

HERE=$(cd "$(dirname "$0")" && pwd)
DEB=${1:-}
if [ -z "$DEB" ]; then
    debs=("$HERE"/../build/package/liaison_*.deb)
    DEB=${debs[-1]:-}
fi
ROOT=${LIAISON_PACKAGE_ROOT:-/tmp/liaison-package}
BASE=$ROOT/base
RUN=$ROOT/run
PORT=${LIAISON_PACKAGE_PORT:-18443}
DATA=/root/liaison-test-data # the user's data directory, inside the chroot

passed=0
failed=0
ok() { echo "  ok   $*"; passed=$((passed + 1)); }
bad() { echo "  FAIL $*"; failed=$((failed + 1)); }
check() { # check DESCRIPTION COMMAND...: passes when COMMAND succeeds
    local what=$1
    shift
    if "$@"; then ok "$what"; else bad "$what"; fi
}
finish() {
    # The run's copy of the root (about 1 GB) goes when every check passed; after a failure it stays
    # for a look. Never while anything is mounted below it.
    if [ "$failed" = 0 ] && [ -d "$RUN" ]; then
        cleanup
        mounted=()
        grep -q " $RUN/" /proc/mounts || rm -rf "$RUN"
    elif [ -d "$RUN" ]; then
        echo "test-package: the root of this run stays in $RUN (logs in $ROOT)"
    fi
    echo "test-package: $passed passed, $failed failed"
    [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
    exit $?
}
die() {
    bad "$*"
    finish
}

[ "$(id -u)" = 0 ] || die "test-package needs root (debootstrap, chroot, mount)"
[ -n "$DEB" ] && [ -f "$DEB" ] || die "no package given and none in build/package (make package builds it)"
DEB=$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")
version=$(dpkg-deb -f "$DEB" Version)
echo "test-package: $(basename "$DEB") (version $version) on a clean Debian 12 in $RUN"

# ----- the clean root -----
mkdir -p "$ROOT"
if [ ! -x "$BASE/usr/bin/man" ]; then
    echo "test-package: making the base root with debootstrap (once; cached in $BASE)"
    mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
    rm -rf "$BASE"
    debootstrap --variant=minbase --include=man-db bookworm "$BASE" ${mirror:-http://deb.debian.org/debian} \
        >"$ROOT/debootstrap.log" 2>&1 || die "debootstrap failed (see $ROOT/debootstrap.log)"
    # The archive as a Debian 12 machine sees it: the release, its updates and security updates.
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        rm -f "$BASE/etc/apt/sources.list"
        cp /etc/apt/sources.list.d/debian.sources "$BASE/etc/apt/sources.list.d/debian.sources"
    fi
fi

mounted=()
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    local m
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null; done
}
trap cleanup EXIT
# A copy of the base for this run. The previous run's copy goes first, but never while anything is
# still mounted below it (rm -rf would reach into the host's /dev or /proc).
if grep -q " $RUN/" /proc/mounts; then
    die "something is still mounted below $RUN (umount it first)"
fi
rm -rf "$RUN" && cp -a "$BASE" "$RUN" || die "cannot copy the base root"
cp /etc/resolv.conf "$RUN/etc/resolv.conf"
for d in proc dev dev/pts sys; do
    mount --bind "/$d" "$RUN/$d" && mounted=("$RUN/$d" "${mounted[@]}")
done
cp "$DEB" "$RUN/root/" || die "cannot copy the package into the root"
debname=$(basename "$DEB")

in_root() {
    chroot "$RUN" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "cd /root && $1"
}
# The same, replacing this shell: run in the background, its PID ($!) is the program's own.
in_root_exec() {
    exec chroot "$RUN" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "cd /root && exec $1"
}
# The files of the tree that a package or the program could leave, one per line (directories end in
# /); what the system changes by itself (apt's and dpkg's logs and lists, caches) is left out.
tree_list() {
    in_root "find / -xdev \\( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \
        -o -path /var/cache -o -path /var/log -o -path /var/lib/apt -o -path /var/lib/dpkg \
        -o -path /root/$debname \\) -prune -o \\( -type d -printf '%p/\\n' -o -printf '%p\\n' \\)" | sort
}
LOG=$ROOT/apt.log

# ----- install -----
echo "test-package: apt-get update && apt-get install ./$debname"
if in_root "apt-get update -q && apt-get install -y -q ./$debname" >"$LOG" 2>&1; then
    ok "apt-get install ./$debname: every dependency came from Debian's archive"
else
    tail -n 20 "$LOG"
    die "apt-get install ./$debname failed (see $LOG)"
fi
check "dpkg reports the package installed" in_root "dpkg-query -W -f='\${Status}' liaison | grep -qx 'install ok installed'"
echo "  Depends: $(dpkg-deb -f "$DEB" Depends)"
in_root "dpkg -L liaison" | sort >"$ROOT/package-files.txt"
# the package's own files (not directories; /usr and the like are shared)
in_root "dpkg -L liaison | while read -r f; do [ -d \"\$f\" ] || echo \"\$f\"; done" | sort >"$ROOT/package-plain-files.txt"
echo "  the package holds $(wc -l <"$ROOT/package-plain-files.txt") files"
tree_list >"$ROOT/tree-installed.txt"

# ----- the program and what Qt loads at run time -----
plugins=/usr/lib/x86_64-linux-gnu/qt6/plugins
for f in /usr/bin/liaison $plugins/platforms/libqxcb.so $plugins/platforms/libqoffscreen.so \
    $plugins/sqldrivers/libqsqlite.so $plugins/sqldrivers/libqsqlpsql.so $plugins/imageformats/libqsvg.so \
    $plugins/imageformats/libqjpeg.so $plugins/iconengines/libqsvgicon.so /usr/lib/x86_64-linux-gnu/libsecret-1.so.0; do
    if ! in_root "test -e $f"; then
        bad "$f is missing"
    elif in_root "ldd $f" | grep -q "not found"; then
        bad "$f: a library is not found: $(in_root "ldd $f" | grep "not found" | tr -s ' \t' ' ' | tr '\n' ';')"
    else
        ok "$f is there and every library it needs resolves"
    fi
done

out=$(in_root "liaison --version" 2>&1)
check "liaison --version prints 'liaison $version' (it printed '$out')" test "$out" = "liaison $version"

for f in /usr/share/applications/liaison.desktop /usr/share/icons/hicolor/scalable/apps/liaison.svg \
    /usr/share/icons/hicolor/48x48/apps/liaison.png /usr/share/icons/hicolor/256x256/apps/liaison.png \
    /usr/lib/systemd/user/liaison.service /usr/share/man/man1/liaison.1.gz /usr/share/doc/liaison/copyright; do
    check "$f is installed" grep -qx "$f" "$ROOT/package-files.txt"
done
check "the systemd user unit runs 'liaison serve'" grep -q '^ExecStart=/usr/bin/liaison serve$' "$RUN/usr/lib/systemd/user/liaison.service"

man_out=$(in_root "MANPAGER=cat MANWIDTH=100 man liaison" 2>&1)
check "man liaison shows the page (NAME, the serve command and --listen)" \
    bash -c 'grep -q "customer relationship manager" <<<"$1" && grep -q "liaison serve" <<<"$1" && grep -q -- "--listen" <<<"$1"' _ "$man_out"
help_out=$(in_root "liaison serve --help" 2>&1)
listen_line=$(grep -- "--listen" <<<"$help_out" | sed 's/^ *--listen HOST:PORT *//')
check "the page says of --listen what liaison serve --help says ('$listen_line')" \
    bash -c 'tr -s " \n" "  " <<<"$1" | grep -qF -- "$2"' _ "$man_out" "$listen_line"

# Waits for GET /api/v1/health to answer 200 from the server with PID $1 (at most $2 seconds).
health() {
    local pid=$1 limit=$2 body
    for _ in $(seq 1 "$limit"); do
        body=$(curl -sk --max-time 2 "https://127.0.0.1:$PORT/api/v1/health" 2>/dev/null) &&
            grep -q '"status" *: *"ok"' <<<"$body" && { echo "$body"; return 0; }
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 1
    done
    return 1
}
# Ends the server with SIGTERM as systemd would; it must exit 0 within 30 s.
stop_server() {
    local pid=$1 what=$2 rc
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null
        bad "$what did not stop within 30 s of SIGTERM"
    else
        wait "$pid"
        rc=$?
        check "$what stopped on SIGTERM with exit code 0 (it gave $rc)" test "$rc" = 0
    fi
    server_pid=
}
if curl -sk --max-time 2 -o /dev/null "https://127.0.0.1:$PORT/" 2>/dev/null; then
    bad "something already answers on 127.0.0.1:$PORT (set LIAISON_PACKAGE_PORT)"
else
    in_root_exec "liaison serve --data-dir $DATA --listen 127.0.0.1:$PORT" >"$ROOT/serve.log" 2>&1 &
    server_pid=$!
    if body=$(health "$server_pid" 60); then
        ok "liaison serve answers HTTPS: GET https://127.0.0.1:$PORT/api/v1/health gave $body"
    else
        tail -n 10 "$ROOT/serve.log"
        bad "liaison serve did not answer GET /api/v1/health within 60 s (see $ROOT/serve.log)"
    fi
    stop_server "$server_pid" "liaison serve"

    # The window (offscreen platform plugin, widgets, fonts, SVG icons) with its embedded server.
    in_root_exec "env QT_QPA_PLATFORM=offscreen liaison --data-dir $DATA --set server/listen=127.0.0.1:$PORT" \
        >"$ROOT/window.log" 2>&1 &
    server_pid=$!
    if body=$(health "$server_pid" 60); then
        ok "the window (QT_QPA_PLATFORM=offscreen) starts and its embedded server answers: $body"
    else
        tail -n 10 "$ROOT/window.log"
        bad "the window's embedded server did not answer within 60 s (see $ROOT/window.log)"
    fi
    stop_server "$server_pid" "the window"

    # The window on X (the xcb platform plugin and its X libraries, as on a desktop): a virtual X
    # server on the host, its socket shared with the chroot; a screenshot of it in $ROOT/window-xcb.png.
    if command -v Xvfb >/dev/null; then
        mkdir -p "$RUN/tmp/.X11-unix"
        Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$ROOT/xvfb.display" 2>"$ROOT/xvfb.log" &
        xvfb_pid=$!
        for _ in $(seq 1 50); do [ -s "$ROOT/xvfb.display" ] && break; sleep 0.2; done
        display=:$(head -n 1 "$ROOT/xvfb.display")
        if [ "$display" != ":" ] && mount --bind /tmp/.X11-unix "$RUN/tmp/.X11-unix"; then
            mounted=("$RUN/tmp/.X11-unix" "${mounted[@]}")
            in_root_exec "env QT_QPA_PLATFORM=xcb DISPLAY=$display liaison --data-dir $DATA --set server/listen=127.0.0.1:$PORT" \
                >"$ROOT/window-xcb.log" 2>&1 &
            server_pid=$!
            if body=$(health "$server_pid" 60); then
                ok "the window on X (QT_QPA_PLATFORM=xcb, Xvfb $display) starts and its embedded server answers: $body"
                sleep 3 # let it draw
                command -v import >/dev/null && import -display "$display" -window root "$ROOT/window-xcb.png" 2>/dev/null
            else
                tail -n 10 "$ROOT/window-xcb.log"
                bad "the window on X did not answer within 60 s (see $ROOT/window-xcb.log)"
            fi
            stop_server "$server_pid" "the window on X"
            umount "$RUN/tmp/.X11-unix" && mounted=("${mounted[@]:1}")
        else
            bad "no virtual X server for the window on X (see $ROOT/xvfb.log)"
        fi
        kill "$xvfb_pid" 2>/dev/null
        wait "$xvfb_pid" 2>/dev/null
    else
        echo "  (Xvfb is not installed: the window on X is not tried)"
    fi
fi
check "the user's data directory holds the database" in_root "test -s $DATA/liaison.db"

# ----- remove, then install again and purge -----
# The package has no configuration files, so after `remove` dpkg forgets it and there is nothing
# left to purge: purge is tried on a second installation.
USER_FILES="^$DATA|^/root/\\.cache/" # what the user's runs made: kept, as the user's
# Compares the tree now (after $1: remove or purge) with the one after installing, but for the
# user's files.
tree_after() {
    local what=$1 now=$ROOT/tree-$1.txt gone new kept
    tree_list >"$now"
    gone=$(comm -23 "$ROOT/tree-installed.txt" "$now" | sed 's|/$||' | grep -vxF -f "$ROOT/package-files.txt")
    new=$(comm -13 "$ROOT/tree-installed.txt" "$now" | grep -Ev "$USER_FILES")
    kept=$(comm -12 "$ROOT/tree-installed.txt" "$now" | sed 's|/$||' | grep -xF -f "$ROOT/package-plain-files.txt")
    check "$what took away only the package's own files${gone:+ (and: ${gone:0:300})}" test -z "$gone"
    check "after $what no file of the package is left${kept:+ (left: $kept)}" test -z "$kept"
    check "after $what nothing new is on the system but the user's data${new:+ (new: ${new:0:300})}" test -z "$new"
    dirs_left=$(grep '/liaison$' "$ROOT/package-files.txt" | while read -r d; do [ -e "$RUN$d" ] && echo "$d"; done)
    check "after $what the package's own directories are gone${dirs_left:+ (left: $dirs_left)}" test -z "$dirs_left"
    check "after $what the user's data is kept ($DATA/liaison.db)" test -s "$RUN$DATA/liaison.db"
}
if in_root "apt-get remove -y -q liaison" >>"$LOG" 2>&1; then ok "apt-get remove liaison"; else bad "apt-get remove liaison (see $LOG)"; fi
tree_after remove
if in_root "apt-get install -y -q ./$debname" >>"$LOG" 2>&1; then
    ok "apt-get install ./$debname again"
else
    bad "apt-get install ./$debname again (see $LOG)"
fi
if in_root "apt-get purge -y -q liaison" >>"$LOG" 2>&1; then ok "apt-get purge liaison"; else bad "apt-get purge liaison (see $LOG)"; fi
check "after purge dpkg knows nothing of the package" bash -c "! chroot '$RUN' dpkg-query -W liaison >/dev/null 2>&1"
tree_after purge
finish
