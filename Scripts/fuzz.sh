#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Sources/MischiefFuzz) with AddressSanitizer and runs each for a bounded time.
#
# Usage: Scripts/fuzz.sh [HARNESS…]        every harness when none is named
#   FUZZ_SECONDS=60   time per harness (CI uses the default; run longer by hand: FUZZ_SECONDS=3600)
#   FUZZ_SCRATCH=.build-fuzz   the scratch path
#   FUZZ_JOBS=N       harnesses run at once (the machine's cores by default; each fuzzer is one thread)
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

# Harnesses run $FUZZ_JOBS at a time (the machine's cores by default): each fuzzer is one thread.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
run_one() {
    local name=$1 corpus=".fuzz/corpus/$1" artifacts=".fuzz/artifacts/$1/" seeds="Tests/FuzzSeeds/$1"
    mkdir -p "$corpus" "$artifacts"
    local dirs=("$corpus")
    [[ -d "$seeds" ]] && dirs+=("$seeds")
    if ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$BIN" "$name" -max_total_time="$SECONDS_EACH" \
        -artifact_prefix="$artifacts" -print_final_stats=1 "${dirs[@]}" >"$logs/$name.log" 2>&1; then
        echo "fuzz: $name: $(grep -E '^stat::number_of_executed_units' "$logs/$name.log" | awk '{print $2}')" \
            "executions, no crash" >"$logs/$name.result"
    else
        echo "FAILED" >"$logs/$name.result"
    fi
}

echo "fuzz: ${#names[@]} harnesses for ${SECONDS_EACH}s each, $jobs at a time"
running=0
for name in "${names[@]}"; do
    run_one "$name" &
    running=$((running + 1))
    if [[ $running -ge $jobs ]]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

status=0
for name in "${names[@]}"; do
    if [[ "$(cat "$logs/$name.result" 2>/dev/null)" == fuzz:* ]]; then
        cat "$logs/$name.result"
    else
        status=1
        echo "fuzz: $name FAILED" >&2
        tail -60 "$logs/$name.log" >&2
    fi
done
exit $status
