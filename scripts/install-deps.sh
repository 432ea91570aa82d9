#!/usr/bin/env bash
# Usage: scripts/install-deps.sh [PACKAGE...]
# Installs the Debian packages that are missing: by default those listed in
# scripts/debian-packages.txt, or the PACKAGEs given. Idempotent: when nothing is
# missing it only checks (with dpkg-query) and prints one line. apt-get update runs
# at most once, and only when something must be installed. Uses sudo when not root.
# LIAISON_SKIP_DEPS=1 skips everything (a machine whose dependencies you manage yourself).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list=$here/debian-packages.txt

if [ "${LIAISON_SKIP_DEPS:-0}" = 1 ]; then
    echo "deps: skipped (LIAISON_SKIP_DEPS=1)"
    exit 0
fi

if [ $# -gt 0 ]; then
    wanted=("$@")
else
    mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$list")
fi
[ ${#wanted[@]} -gt 0 ] || { echo "deps: no packages listed in $list" >&2; exit 1; }

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
    echo "deps: this is not a Debian system (no dpkg-query/apt-get): install the equivalents of" >&2
    echo "      $list yourself, then run with LIAISON_SKIP_DEPS=1" >&2
    exit 1
fi

# Prints the wanted packages that are not fully installed, one a line. A name that an installed
# package provides counts as present (a nodejs built elsewhere that bundles npm and conflicts with
# Debian's npm package).
missing_packages() {
    local installed provided=
    installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${wanted[@]}" 2>/dev/null \
        | awk '$2 == "installed" { print $1 }' || true)
    local p
    for p in "${wanted[@]}"; do
        grep -qxF -- "$p" <<<"$installed" && continue
        if [ -z "$provided" ]; then
            provided=$(dpkg-query -W -f='${db:Status-Status} ${Provides}\n' 2>/dev/null \
                | awk '$1 == "installed" { $1 = ""; print }' | tr ',' '\n' \
                | sed -e 's/(.*)//' -e 's/[[:space:]]//g' -e '/^$/d' | sort -u || true)
            provided=${provided:-none}
        fi
        grep -qxF -- "$p" <<<"$provided" || echo "$p"
    done
}

mapfile -t missing < <(missing_packages)
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all ${#wanted[@]} Debian packages present"
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: not root and no sudo: as root, run: apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi

echo "deps: installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
apt_opts=(-o DPkg::Lock::Timeout=300)
"${sudo[@]}" apt-get "${apt_opts[@]}" update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get "${apt_opts[@]}" install -y -q --no-install-recommends "${missing[@]}"

mapfile -t still < <(missing_packages)
if [ ${#still[@]} -ne 0 ]; then
    echo "deps: still missing after apt-get install: ${still[*]}" >&2
    exit 1
fi
echo "deps: all ${#wanted[@]} Debian packages present"
