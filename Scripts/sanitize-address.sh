#!/usr/bin/env bash
# The control suite under AddressSanitizer (with LeakSanitizer): the control library's tests and the CLI tests that
# run the built `mischief` (control commands, attach) as child processes, which get the same sanitizer settings.
#
# Usage: Scripts/sanitize-address.sh [--filter REGEX]
#   ASAN_SCRATCH=.build-asan   the scratch path
# Leaks that are not ours to fix are suppressed with reasons in Scripts/lsan-suppressions.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=${ASAN_SCRATCH:-.build-asan}
FILTER=${1:-}
if [[ "$FILTER" == "--filter" ]]; then
    FILTER=$2
else
    FILTER='MischiefControlTests|ControlCLITests|AttachEndToEndTests'
    # Build only the test targets those suites are in and what they link (Package.swift, MISCHIEF_ONLY): not the
    # console's, the curses', the servers' or the other suites, nor the benchmarks.
    export MISCHIEF_ONLY="MischiefControlTests MischiefEndToEndTests"
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:print_summary=1"
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0"

echo "asan: building the tests with --sanitize=address in $SCRATCH"
swift build --build-tests --sanitize=address --scratch-path "$SCRATCH" 2>&1 | tail -3
echo "asan: running $FILTER"
swift test --skip-build --sanitize=address --scratch-path "$SCRATCH" --filter "$FILTER" 2>&1 | tee "$SCRATCH/asan.log" \
    | grep -E "ERROR: (Address|Leak)Sanitizer|SUMMARY: |Test run|✘|passed|failed" || true
if grep -qE "ERROR: (Address|Leak)Sanitizer" "$SCRATCH/asan.log"; then
    echo "asan: sanitizer reports (full log: $SCRATCH/asan.log)" >&2
    grep -A40 -E "ERROR: (Address|Leak)Sanitizer" "$SCRATCH/asan.log" | head -200 >&2
    exit 1
fi
grep -qE "Test run with [0-9]+ tests? .* passed" "$SCRATCH/asan.log"
