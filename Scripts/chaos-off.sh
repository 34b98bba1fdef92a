#!/usr/bin/env bash
# Chaos compiled out: builds Tests/ChaosOffPackage, an app that depends on Mischief with `traits: []` (as a
# shipping build does), and runs it. It checks that seams call their originals, that registries and scopes refuse
# changes, that MISCHIEF_APPLY is ignored (and not announced) and that the control server does not listen.
#
# Usage: Scripts/chaos-off.sh      (scratch path .build-chaos-off; about 2 minutes on 2 cores when cold)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=$PWD/.build-chaos-off
start=$(date +%s)
swift build --package-path Tests/ChaosOffPackage --scratch-path "$scratch" 2>&1 | tail -3
echo "chaos-off: built in $(($(date +%s) - start)) s"

stderr=$(mktemp)
trap 'rm -f "$stderr"' EXIT
MISCHIEF_APPLY='app.double=return(7)' "$scratch/debug/ChaosOff" 2>"$stderr"
if [ -s "$stderr" ]; then
    echo "chaos-off: the program wrote to stderr (MISCHIEF_APPLY must be silent in a build without chaos):" >&2
    cat "$stderr" >&2
    exit 1
fi
