#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [TARGET...]
#
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan) in build-fuzz and runs each
# for FUZZ_SECONDS, then prints per target the runs, the speed, the coverage and PASS/FAIL.
# TARGETs: http httpparser jsonbody multipart segmentrules mime (default: all six, one after the other).
#
#   1. checks clang, the libFuzzer runtime (compiler-rt) and llvm-symbolizer; names the Debian
#      packages to install when one is missing (scripts/debian-packages-fuzz.txt), and installs them
#      with FUZZ_INSTALL=1 (scripts/install-deps.sh: sudo apt-get install -y),
#   2. configures build-fuzz once (clang, -DLIAISON_FUZZ=ON, the whole build compiled with
#      -fsanitize=fuzzer-no-link,address,undefined) and builds only the fuzz targets,
#   3. runs each target on a scratch corpus, build-fuzz/fuzz-corpus/<target>, seeded from
#      tests/fuzz/corpus/<target> (the tree is never written to, except with FUZZ_MERGE=1), with its
#      dictionary tests/fuzz/<target>.dict; crash, leak, timeout and out-of-memory inputs are kept
#      in build-fuzz/crashes/<target>/, the output in build-fuzz/fuzz-logs/<target>.log.
#
# Environment (defaults in brackets):
#   FUZZ_SECONDS [600]        time per target (-max_total_time)
#   FUZZ_MERGE [0]            1: afterwards, merge the inputs that add coverage into tests/fuzz/corpus/<target>
#                             (-merge=1: only inputs with new coverage are copied, named by their SHA-1)
#   FUZZ_INSTALL [0]          1: install the missing Debian packages (the build's and the fuzzer's)
#   FUZZ_BUILD_DIR [build-fuzz]
#   FUZZ_JOBS [nproc]         build jobs
#   FUZZ_NICE [10]            nice level of the build and the fuzzers (the machine is shared)
#   FUZZ_ARGS []              more libFuzzer flags, e.g. FUZZ_ARGS='-jobs=2 -workers=2' or '-only_ascii=1'
#   FUZZ_IGNORE_KNOWN [0]     1: fuzz past the known, not yet fixed findings, to look for others: the
#                             UBSan reports of tests/fuzz/known-findings.supp are suppressed and the
#                             harnesses avoid theirs (LIAISON_FUZZ_IGNORE_KNOWN=1). A PASS then says
#                             nothing about those findings.
# Exit status: 0 when every target ran without a crash or sanitizer report, 1 when one did, 2 on a
# usage, tool or build error.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

ALL_TARGETS=(http httpparser jsonbody multipart segmentrules mime)
SECONDS_PER_TARGET=${FUZZ_SECONDS:-600}
BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
NICE=${FUZZ_NICE:-10}
PACKAGES_FILE=$ROOT/scripts/debian-packages-fuzz.txt

die() {
    echo "fuzz: $*" >&2
    exit 2
}

case "$SECONDS_PER_TARGET" in
'' | *[!0-9]*) die "FUZZ_SECONDS must be a whole number of seconds (got '$SECONDS_PER_TARGET')" ;;
esac

targets=()
for t in "$@"; do
    case " ${ALL_TARGETS[*]} " in
    *" $t "*) targets+=("$t") ;;
    *) die "unknown target '$t' (targets: ${ALL_TARGETS[*]})" ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

# ---- 1. tools ----------------------------------------------------------------------------------
fuzz_packages() {
    sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$PACKAGES_FILE"
}

if [ "${FUZZ_INSTALL:-0}" = 1 ]; then
    scripts/install-deps.sh
    mapfile -t pkgs < <(fuzz_packages)
    scripts/install-deps.sh "${pkgs[@]}"
fi

missing_tools() {
    local problems=()
    if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
        problems+=("clang/clang++ not found")
    else
        local resource arch
        resource=$(clang++ -print-resource-dir 2>/dev/null || true)
        arch=$(uname -m)
        for lib in fuzzer asan ubsan_standalone; do
            [ -f "$resource/lib/linux/libclang_rt.$lib-$arch.a" ] ||
                problems+=("the libFuzzer/sanitizer runtime $resource/lib/linux/libclang_rt.$lib-$arch.a is missing")
        done
    fi
    command -v llvm-symbolizer >/dev/null || problems+=("llvm-symbolizer not found (stack traces without names)")
    [ ${#problems[@]} -eq 0 ] || printf '%s\n' "${problems[@]}"
}

mapfile -t problems < <(missing_tools)
if [ ${#problems[@]} -gt 0 ]; then
    printf 'fuzz: %s\n' "${problems[@]}" >&2
    echo "fuzz: install the Debian packages of $PACKAGES_FILE:" >&2
    echo "      sudo apt-get install $(fuzz_packages | paste -sd ' ')" >&2
    echo "      (or run with FUZZ_INSTALL=1)" >&2
    exit 2
fi

# ---- 2. build ----------------------------------------------------------------------------------
# Debug keeps Q_ASSERT and the project's own checks; -O1 keeps the fuzzers fast enough. UBSan stays
# recoverable at compile time and is made fatal at run time (halt_on_error), so that
# tests/fuzz/known-findings.supp can switch off a known report (FUZZ_IGNORE_KNOWN=1).
SAN_FLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined"
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] || ! grep -q '^LIAISON_FUZZ:BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; then
    echo "fuzz: configuring $BUILD_DIR (clang, ASan + UBSan + libFuzzer)"
    nice -n "$NICE" cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DLIAISON_FUZZ=ON \
        -DCMAKE_C_FLAGS="$SAN_FLAGS" -DCMAKE_CXX_FLAGS="$SAN_FLAGS" >"$BUILD_DIR.configure.log" 2>&1 || {
        tail -30 "$BUILD_DIR.configure.log" >&2
        die "cmake configure failed (log: $BUILD_DIR.configure.log)"
    }
    rm -f "$BUILD_DIR.configure.log"
fi
build_targets=()
for t in "${targets[@]}"; do
    build_targets+=("fuzz_$t")
done
echo "fuzz: building ${build_targets[*]} in $BUILD_DIR (-j$JOBS, nice $NICE)"
nice -n "$NICE" cmake --build "$BUILD_DIR" -j"$JOBS" --target "${build_targets[@]}" || die "build failed"

# ---- 3. run ------------------------------------------------------------------------------------
max_len() {
    case "$1" in
    http) echo 16384 ;; # room for the 4 KiB header limit and the 16 KiB body limit of the harness
    *) echo 8192 ;;
    esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
UBSAN_OPTIONS_BASE="print_stacktrace=1:halt_on_error=1"
if [ "${FUZZ_IGNORE_KNOWN:-0}" = 1 ]; then
    UBSAN_OPTIONS_BASE="$UBSAN_OPTIONS_BASE:suppressions=$ROOT/tests/fuzz/known-findings.supp"
    export LIAISON_FUZZ_IGNORE_KNOWN=1 # the harnesses' own checks of known findings
    echo "fuzz: FUZZ_IGNORE_KNOWN=1: the known findings of tests/fuzz/known-findings.supp are not reported"
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-$UBSAN_OPTIONS_BASE}

mkdir -p "$BUILD_DIR/fuzz-logs"
stamp=$BUILD_DIR/fuzz-logs/.started
touch "$stamp"
summary=()
failed=0
# shellcheck disable=SC2206 # FUZZ_ARGS is a list of flags
extra_args=(${FUZZ_ARGS:-})

for t in "${targets[@]}"; do
    bin=$BUILD_DIR/bin/fuzz_$t
    seeds=$ROOT/tests/fuzz/corpus/$t
    work=$BUILD_DIR/fuzz-corpus/$t
    crashes=$BUILD_DIR/crashes/$t
    log=$BUILD_DIR/fuzz-logs/$t.log
    mkdir -p "$work" "$crashes"
    cp -n "$seeds"/* "$work"/ 2>/dev/null || true
    args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")"
        -print_final_stats=1 -artifact_prefix="$crashes/")
    [ -f "tests/fuzz/$t.dict" ] && args+=(-dict="$ROOT/tests/fuzz/$t.dict")
    echo "fuzz: $t for ${SECONDS_PER_TARGET}s ($(find "$work" -type f | wc -l) inputs in $work; log $log)"
    rc=0
    # The fuzzer's own time limit ends it; timeout is the backstop should it hang outside an input.
    timeout -k 30 $((SECONDS_PER_TARGET + 300)) nice -n "$NICE" "$bin" "${args[@]}" "${extra_args[@]+"${extra_args[@]}"}" \
        "$work" >"$log" 2>&1 || rc=$?

    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corp=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    if [ -z "$runs" ]; then
        runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    fi
    new_artifacts=$(find "$crashes" -type f -newer "$stamp" | wc -l)
    if [ "$rc" -eq 0 ] && [ "$new_artifacts" -eq 0 ] && ! grep -qE '^==[0-9]+==ERROR|runtime error:|^SUMMARY: ' "$log"; then
        verdict=PASS
    else
        verdict=FAIL
        failed=1
        echo "fuzz: $t FAILED (exit $rc); the report:" >&2
        grep -m1 -A25 -E '^==[0-9]+==ERROR|runtime error:|fuzz check failed|qFatal|deadly signal' "$log" >&2 || tail -25 "$log" >&2
        find "$crashes" -type f -newer "$stamp" -printf 'fuzz:   kept %p\n' >&2
    fi
    summary+=("$(printf '%-13s %-5s %12s runs %8s exec/s  cov %6s  ft %7s  corpus %6s' \
        "$t" "$verdict" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}")")

    if [ "${FUZZ_MERGE:-0}" = 1 ] && [ "$verdict" = PASS ]; then
        before=$(find "$seeds" -type f | wc -l)
        nice -n "$NICE" "$bin" -merge=1 -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
            "$seeds" "$work" >"$BUILD_DIR/fuzz-logs/$t.merge.log" 2>&1 || die "merge of $t failed (log: $BUILD_DIR/fuzz-logs/$t.merge.log)"
        echo "fuzz: merged $(($(find "$seeds" -type f | wc -l) - before)) new input(s) into $seeds"
    fi
done

echo
echo "fuzz: ${SECONDS_PER_TARGET}s per target, $BUILD_DIR"
printf '  %s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
    echo "fuzz: FAIL: reproduce with $BUILD_DIR/bin/fuzz_<target> <file from $BUILD_DIR/crashes/<target>/>"
    exit 1
fi
echo "fuzz: PASS"
