#!/usr/bin/env bash
# Live test sessions end to end (issue 49; the testing article "Live test sessions"): builds this sample's tests and
# the root package's, then runs the root package's `LiveTest` suite, which starts `MISCHIEF_SERVE=1 swift test` of
# this sample in tmux and drives it with the `mischief` CLI: one test failed through its scope alone, one held at a
# breakpoint while another finishes; the failed test's scope exported as a test (`mischief export --scope`) into this
# sample's WarehouseRegressionTests target, built (incrementally) and run: it fails as the test did. Every wait in it
# is bounded and says what it waited for.
#
#     Examples/LiveTestSample/run-e2e.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

start=$SECONDS
# build PACKAGE: the last line of the build, or its last 30 when it fails.
build() {
    local out
    out=$(swift build --build-tests --package-path "$1" 2>&1) || { tail -30 <<<"$out" >&2; exit 1; }
    tail -1 <<<"$out"
}
echo "building the sample's tests and the root package's…"
build "$here"
build "$root"
echo "built in $((SECONDS - start)) s"
cd "$root"
swift test --skip-build --filter LiveTestEndToEndTests
