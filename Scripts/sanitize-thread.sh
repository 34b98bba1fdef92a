#!/usr/bin/env bash
# ThreadSanitizer on the core and catalogue suites, in a scratch path of its own (.build-tsan).
#
# 1. Builds the tests with --sanitize=thread and runs MischiefTests and MischiefCatalogTests: any report fails.
#    The core's and catalogue's locks are `Locked` (Sources/Mischief/Internal/Locked.swift), which tells
#    ThreadSanitizer about the Mutex it wraps, so guarded accesses are not reported and need no suppression.
# 2. Proves the pass can fail: runs LockedTests/aDeliberateRaceIsReported (MISCHIEF_TSAN_PROBE=1) and fails
#    unless ThreadSanitizer reports its race.
# 3. Exact call numbers: ExactNumberingTests' property (four threads calling one seam while a fifth makes
#    $EXACT_CHANGES changes (50; 200 in the suite) with a recording on) for $EXACT_ROUNDS rounds (1,000) of $EXACT_CALLS
#    calls a thread (60), as many as fit in $EXACT_SECONDS (150; it prints how many it made); any report, any decision
#    on another layer than its call number says, or a run past 600 s fails the pass.
# 4. The system seams under stress: runs the probe built with the tests (MischiefSystemProbe, which the end-to-end
#    tests depend on) with `--stress $SYSTEM_STRESS_ROUNDS --install-every 100` (10,000 rounds by default: 20,000
#    applies and 20,000 reverts of system.clock and system.net, 100 installs and 100 uninstalls; ~60 s here): eight
#    threads read the clock and make loopback network calls meanwhile. Any report, failed check or slot not as it
#    began fails the pass, and so does a run longer than 300 s. ThreadSanitizer's runtime is linked into the
#    executable and defines clock_gettime, connect and getaddrinfo itself (its interceptors), so the executable has
#    no slot for them here: the libraries' slots (Foundation's, libcurl's) are rebound, and their hooks call the
#    real functions past the interceptors (dlsym RTLD_NEXT).
#
# Usage: Scripts/sanitize-thread.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-tsan
filter='MischiefTests|MischiefCatalogTests|MischiefTestingTests'
# Build only those test targets, the system seams' stress probe and what they link (Package.swift, MISCHIEF_ONLY): no
# SwiftNIO, console or CLI under TSan, which was most of this pass's time.
export MISCHIEF_ONLY="MischiefTests MischiefCatalogTests MischiefTestingTests MischiefSystemProbe"
log=$(mktemp)
probe=$(mktemp)
trap 'rm -f "$log" "$probe"' EXIT
# halt_on_error=0: list every report, then exit non-zero (TSan's exit code 66) at the end.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}"

start=$(date +%s)
swift build --build-tests --sanitize=thread --scratch-path "$scratch"
echo "tsan: built in $(($(date +%s) - start)) s"

status=0
# The exact-numbering property runs on its own below, with its rounds: here its four calling threads and blocking
# wait would hold one of the cooperative pool's two threads (on two cores) for a minute, and the async tests beside it
# (a dilated sleep of 3.6 ms) would miss their deadlines waiting for a thread.
swift test --skip-build --sanitize=thread --scratch-path "$scratch" --filter "$filter" \
    --skip 'ExactNumberingTests/everyDecisionIsAnsweredByTheLayerInstalledAtItsCallNumber' "$@" 2>&1 | tee "$log" \
    || status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
echo "tsan: $reports report(s) in $filter; swift test exited $status"
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    echo "tsan: FAILED" >&2
    exit 1
fi

# The probe must be reported, or this pass would not catch a real race.
# Issue 43's property: four threads call one seam while a fifth makes 200 changes with a recording on, 1,000 rounds
# (smaller ones than the suite's), every decision on the layer its call number says; bounded at 10 minutes.
exact=$(date +%s)
exactStatus=0
MISCHIEF_EXACT_ROUNDS=${EXACT_ROUNDS:-1000} MISCHIEF_EXACT_CALLS=${EXACT_CALLS:-60} \
    MISCHIEF_EXACT_CHANGES=${EXACT_CHANGES:-50} MISCHIEF_EXACT_SECONDS=${EXACT_SECONDS:-150} timeout 600 \
    swift test --skip-build --sanitize=thread --scratch-path "$scratch" \
    --filter 'ExactNumberingTests/everyDecisionIsAnsweredByTheLayerInstalledAtItsCallNumber' >"$probe" 2>&1 \
    || exactStatus=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$probe" || true)
grep -E "^exact numbering:" "$probe" || true
echo "tsan: exact numbering: $reports report(s), exit $exactStatus, in" \
    "$(($(date +%s) - exact)) s"
if [ "$exactStatus" -ne 0 ] || [ "$reports" -ne 0 ]; then
    tail -n 200 "$probe"
    echo "tsan: FAILED: exact numbering under ThreadSanitizer (124: it did not finish within 600 s)" >&2
    exit 1
fi

probed=0
MISCHIEF_TSAN_PROBE=1 swift test --skip-build --sanitize=thread --scratch-path "$scratch" \
    --filter 'LockedTests/aDeliberateRaceIsReported' >"$probe" 2>&1 || probed=$?
if [ "$probed" -ne 0 ] && grep -q "WARNING: ThreadSanitizer:" "$probe" && grep -q "MISCHIEF_TSAN_PROBE ran" "$probe"; then
    echo "tsan: the deliberate race was reported and failed its run (exit $probed), as it must"
else
    cat "$probe"
    echo "tsan: FAILED: the deliberate race in LockedTests was not reported" >&2
    exit 1
fi
# The system seams' stress, in the probe's process.
rounds=${SYSTEM_STRESS_ROUNDS:-10000}
stress=$(mktemp)
trap 'rm -f "$log" "$probe" "$stress"' EXIT
bin="$(swift build --sanitize=thread --scratch-path "$scratch" --show-bin-path)/MischiefSystemProbe"
stressed=$(date +%s)
stressStatus=0
timeout 300 "$bin" --stress "$rounds" --install-every 100 >"$stress" 2>&1 || stressStatus=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$stress" || true)
grep -E "^(stress|ok|FAIL)" "$stress" || true
echo "tsan: system seams' stress of $rounds rounds: $reports report(s), exit $stressStatus, in" \
    "$(($(date +%s) - stressed)) s"
if [ "$stressStatus" -ne 0 ] || [ "$reports" -ne 0 ] || ! grep -q "^ok every one of" "$stress"; then
    head -n 400 "$stress"
    echo "tsan: FAILED: the system seams' stress (124: it did not finish within 300 s)" >&2
    exit 1
fi
echo "tsan: passed in $(($(date +%s) - start)) s"
