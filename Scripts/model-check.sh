#!/usr/bin/env bash
# Checks the seam core's freeing protocol (Models/seam-core.pml) exhaustively with spin, and checks that the model
# can fail: the protocol before the fix (OLD_BUG), a caller that skips the reload (NO_RELOAD), two threads
# counting on one lane with plain stores (LANE_RACE) and a plain-store announcement without the registry's
# membarrier (NO_FENCE) must be caught. The model's default is the plain-store announcement with the membarrier;
# LOCKED_ENTRY, the locked add a process without membarrier uses, is checked for safety too.
# Exits non-zero when the model finds a violation or a known-bad variant passes. Installs spin if it is missing.
#
# Usage: Scripts/model-check.sh            (about a minute; 2 callers on 2 shards, 4 installs, box ids reused)
#        CALLERS=3 INSTALLS=3 Scripts/model-check.sh  (three callers, two on one shard: safety is exhaustive in
#        15.3M states; liveness needs more than the default MODEL_MEMORY_MB=3000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
model="$root/Models/seam-core.pml"
callers=${CALLERS:-2}
installs=${INSTALLS:-4}
memory_mb=${MODEL_MEMORY_MB:-3000}

if ! command -v spin >/dev/null 2>&1; then
    echo "model: installing spin"
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq spin
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/seam-core.pml"
cd "$work"

# run NAME EXPECT SPIN_DEFINES PAN_CFLAGS PAN_ARGS: EXPECT is "pass" or "fail".
failed=0
run() {
    local name=$1 expect=$2 defines=$3 cflags=$4 args=$5
    rm -f pan pan.* ./*.trail
    spin $defines -DCALLERS="$callers" -DINSTALLS="$installs" -a seam-core.pml >spin.log 2>&1 || { cat spin.log; exit 1; }
    gcc -w -O2 -DMEMLIM="$memory_mb" -DCOLLAPSE -DVECTORSZ=2048 $cflags -o pan pan.c
    local start=$SECONDS
    ./pan $args -m2000000 >pan.log 2>&1 || true
    local errors states
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | head -1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -1)
    if grep -q "search not completed\|out of memory\|MEMLIM bound\|max search depth too small" pan.log; then errors=incomplete; fi
    local verdict=ok
    if [ "$expect" = pass ] && [ "$errors" != 0 ]; then verdict=FAILED; fi
    if [ "$expect" = fail ] && { [ -z "$errors" ] || [ "$errors" = 0 ] || [ "$errors" = incomplete ]; }; then
        verdict=FAILED
    fi
    printf 'model: %-44s %s states, errors: %s (%ss) %s\n' "$name" "${states:-?}" "${errors:-?}" \
        "$((SECONDS - start))" "$verdict"
    if [ "$verdict" = FAILED ]; then
        failed=1
        grep -E "pan:|assert|acceptance|error" pan.log | head -5
        [ -e seam-core.pml.trail ] && spin -t -p seam-core.pml 2>/dev/null | tail -25
    fi
    return 0
}

# Liveness is checked with the locked announcement: with plain stores every drain check first empties every store
# buffer, so a box frees no later than there, and the store buffers' own process multiplies the states (about nine
# minutes here; LIGHT_LIVENESS=1 checks it too).
run "safety (never freed while in use)" pass "" "-DSAFETY -DNOCLAIM" ""
run "liveness (every retired box is freed)" pass "-DLOCKED_ENTRY" "-DNFAIR=3" "-a -f"
if [ -n "${LIGHT_LIVENESS:-}" ]; then
    run "liveness with plain-store announcements" pass "" "-DNFAIR=3" "-a -f"
fi
run "old protocol: a box stays reverting for ever" fail "-DOLD_BUG -DLOCKED_ENTRY" "-DNFAIR=3" "-a -f"
run "no reload after announcing: use after free" fail "-DNO_RELOAD" "-DSAFETY -DNOCLAIM" ""
run "two writers on one lane: a box never freed" fail "-DLANE_RACE -DSHARDS=1 -DLOCKED_ENTRY" "-DNFAIR=3" "-a -f"
run "locked entry (no membarrier): safety" pass "-DLOCKED_ENTRY" "-DSAFETY -DNOCLAIM" ""
run "plain-store entry, no registry barrier: use after free" fail "-DNO_FENCE" "-DSAFETY -DNOCLAIM" ""

if [ "$failed" -ne 0 ]; then
    echo "model: FAILED" >&2
    exit 1
fi
echo "model: passed"
