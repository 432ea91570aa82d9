#!/usr/bin/env bash
# The checks of the API's OpenAPI document that run under CTest (tests/CMakeLists.txt, label openapi):
#   openapi-check.sh tools TOOLS_DIR          install the pinned npm tools of tests/openapi/package-lock.json
#                                             into TOOLS_DIR with `npm ci`, only when the lock changed
#   openapi-check.sh lint TOOLS_DIR DOCUMENT  Redocly's recommended lint (tests/openapi/redocly.yaml):
#                                             fails on any error or warning, listing them
#   openapi-check.sh client TOOLS_DIR DOCUMENT WORK_DIR
#                                             a typed client from openapi-typescript, and tsc --noEmit over
#                                             tests/openapi/client.ts, which calls the API through it
# DOCUMENT is what GET /api/v1/openapi.json answered (the fixture openapi_document writes it).
# Node and npm come from Debian's packages (scripts/debian-packages.txt); the tools from the npm registry.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=${1:?usage: openapi-check.sh tools|lint|client TOOLS_DIR [DOCUMENT [WORK_DIR]]}
tools=${2:?TOOLS_DIR missing}
mkdir -p "$tools"
tools=$(cd "$tools" && pwd) # the steps below run in other directories
# No telemetry and no update check: the tests reach no host but the npm registry, and that only in `tools`.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1

for tool in node npm; do
    command -v "$tool" >/dev/null || { echo "openapi-check: $tool not found (make deps installs it)" >&2; exit 1; }
done

case $mode in
tools)
    # The stamp holds the checksum of the manifest and lock installed last; npm ci runs again only
    # when they change (or the tools are gone), so a build tree pays for the download once.
    want=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)
    if [ -f "$tools/.stamp" ] && [ "$(cat "$tools/.stamp")" = "$want" ] &&
        [ -x "$tools/node_modules/.bin/redocly" ] && [ -x "$tools/node_modules/.bin/openapi-typescript" ] &&
        [ -x "$tools/node_modules/.bin/tsc" ]; then
        echo "openapi-check: npm tools up to date in $tools"
        exit 0
    fi
    rm -f "$tools/.stamp"
    cp "$here/package.json" "$here/package-lock.json" "$tools/"
    # npm's own download cache in the user's home (scripts/with-keyring.sh gives the tests another
    # HOME): a new build tree, or CI's fresh clone on the same machine, installs from it.
    cache=${LIAISON_USER_HOME:-$HOME}/.npm
    echo "openapi-check: npm ci in $tools (node $(node --version), npm $(npm --version), cache $cache)"
    (cd "$tools" && npm ci --cache "$cache" --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error)
    echo "$want" >"$tools/.stamp"
    ;;
lint)
    document=${3:?DOCUMENT missing}
    # The ruleset, its exemptions and the document side by side: the exemptions name the document
    # by its path from their file.
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    cp "$here/redocly.yaml" "$here/.redocly.lint-ignore.yaml" "$dir/"
    cp "$document" "$dir/openapi.json"
    # Exit status 1 on errors only: the JSON report's totals count the warnings too.
    "$tools/node_modules/.bin/redocly" lint --config "$dir/redocly.yaml" --format=json "$dir/openapi.json" \
        >"$dir/report.json" 2>"$dir/stderr.txt" || true
    report=$dir/report.json
    if ! grep -q '"totals"' "$report"; then
        cat "$dir/stderr.txt" "$report" >&2
        echo "openapi-check: redocly printed no report" >&2
        exit 1
    fi
    node - "$report" <<'JS'
const fs = require('fs');
const text = fs.readFileSync(process.argv[2], 'utf8');
const report = JSON.parse(text.slice(text.indexOf('{')));
for (const p of report.problems) {
  const where = (p.location || []).map((l) => l.pointer).join(', ');
  console.log(`${p.severity} ${p.ruleId}: ${p.message} (${where})`);
}
const t = report.totals;
console.log(`redocly ${report.version} lint, recommended ruleset: ${t.errors} errors, ${t.warnings} warnings, ${t.ignored} ignored`);
process.exit(t.errors + t.warnings === 0 ? 0 : 1);
JS
    ;;
client)
    document=${3:?DOCUMENT missing}
    work=${4:?WORK_DIR missing}
    rm -rf "$work"
    mkdir -p "$work"
    "$tools/node_modules/.bin/openapi-typescript" "$document" --output "$work/liaison-api.d.ts" --silent
    cp "$here/client.ts" "$here/tsconfig.json" "$work/"
    (cd "$work" && "$tools/node_modules/.bin/tsc" --noEmit -p tsconfig.json)
    echo "openapi-check: client.ts compiles against the client generated from $(basename "$document")"
    ;;
*)
    echo "openapi-check: unknown mode $mode" >&2
    exit 2
    ;;
esac
