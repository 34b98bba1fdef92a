#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Sources/MischiefFuzz) with AddressSanitizer and runs each for a bounded time.
#
# Usage: Scripts/fuzz.sh [HARNESS…]        every harness when none is named
#   FUZZ_SECONDS=60   time per harness (CI uses the default; run longer by hand: FUZZ_SECONDS=3600)
#   FUZZ_SCRATCH=.build-fuzz   the scratch path
# Crashes are written to .fuzz/artifacts/HARNESS/; each becomes a regression test in the suite that owns the code.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${FUZZ_SECONDS:-60}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
export MISCHIEF_FUZZ=1
# The Swift runtime's backtracer reads memory ASan has poisoned and hides a trap's message behind a bogus ASan report.
export SWIFT_BACKTRACE=enable=no

echo "fuzz: building mischief-fuzz (--sanitize=fuzzer --sanitize=address) in $SCRATCH"
# swiftc keeps only its last -sanitize= option, and SwiftPM passes one per sanitizer: without the combined flag at the
# end, Swift code gets AddressSanitizer but no coverage counters, and libFuzzer mutates blind.
build_log=$(mktemp)
if ! swift build --scratch-path "$SCRATCH" --product mischief-fuzz --sanitize=fuzzer --sanitize=address \
    -Xswiftc -sanitize=fuzzer,address >"$build_log" 2>&1; then
    echo "fuzz: the build failed:" >&2
    grep -E -A3 "error:" "$build_log" >&2 || tail -40 "$build_log" >&2
    exit 1
fi
tail -1 "$build_log"
rm -f "$build_log"
BIN="$SCRATCH/debug/mischief-fuzz"

if [[ $# -gt 0 ]]; then
    names=("$@")
else
    # Every harness but "smoke", which only checks the driver itself.
    mapfile -t names < <("$BIN" 2>&1 | sed -n 's/^  \([a-z0-9-]*\)  .*/\1/p' | grep -vx smoke)
fi

status=0
for name in "${names[@]}"; do
    corpus=".fuzz/corpus/$name"
    artifacts=".fuzz/artifacts/$name/"
    mkdir -p "$corpus" "$artifacts"
    seeds="Tests/FuzzSeeds/$name"
    dirs=("$corpus")
    [[ -d "$seeds" ]] && dirs+=("$seeds")
    echo "fuzz: $name for ${SECONDS_EACH}s"
    log=$(mktemp)
    if ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$BIN" "$name" -max_total_time="$SECONDS_EACH" \
        -artifact_prefix="$artifacts" -print_final_stats=1 "${dirs[@]}" >"$log" 2>&1; then
        echo "fuzz: $name: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') executions, no crash"
    else
        status=1
        echo "fuzz: $name FAILED" >&2
        tail -60 "$log" >&2
    fi
    rm -f "$log"
done
exit $status
