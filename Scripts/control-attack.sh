#!/usr/bin/env bash
# The HTTP attack suite in full (the reduced form runs in `swift test`: ControlServerAttackTests).
#
# A tight-loop target (mischief-bench --attack-target) serves its control socket pinned to core 0 under a low
# descriptor limit; the attacker (mischief-bench --attack) runs on core 1: long header lines, 200k headers, a
# partial 100 MB body, garbage, slowloris, 1,000 idle connections, 200 event streams, then descriptor exhaustion
# and recovery. It prints GET /v1/target p50/p99 under each attack, the target's seam-call rate against its
# unattacked rate, its RSS, and the recovery time after EMFILE. Loopback Unix socket only; bounded in time.
#
# Usage: Scripts/control-attack.sh
#   ATTACK_SECONDS=3   measuring time per phase
#   FD_LIMIT=256       the target's `ulimit -n`
#   ATTACK_PACE=0      microseconds each attacker waits between requests (0: back to back, a connection flood)
#   SCRATCH=.build     where the release build goes
#   CPU_SHARE=         the server's CPU budget, a share of one core (default: the server's, 0.08; 1: unbounded)
#   ATTACK_ONLY=TEXT   only the phases whose names contain TEXT (e.g. "partial")
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=${SCRATCH:-.build}
echo "attack: building mischief-bench (release) in $SCRATCH"
swift build -c release --scratch-path "$SCRATCH" --product mischief-bench 2>&1 | tail -2
BIN="$SCRATCH/release/mischief-bench"

dir=$(mktemp -d /tmp/mischief-attack.XXXXXX)
trap 'kill -9 ${pid:-0} 2>/dev/null || true; rm -rf "$dir"' EXIT
pin_target=() pin_attacker=()
if command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]]; then
    pin_target=(taskset -c 0) pin_attacker=(taskset -c 1)
fi
"${pin_target[@]}" sh -c "ulimit -n ${FD_LIMIT:-256}; exec '$BIN' --attack-target '$dir/t.sock' ${CPU_SHARE:+--cpu-share $CPU_SHARE}" >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 100); do [[ -S "$dir/t.sock" ]] && break; sleep 0.1; done
[[ -S "$dir/t.sock" ]] || { echo "attack: the target did not start: $(cat "$dir/out")" >&2; exit 1; }
echo "attack: target pid $pid (${pin_target[*]:-unpinned}, ulimit -n ${FD_LIMIT:-256}); attacker ${pin_attacker[*]:-unpinned}"
"${pin_attacker[@]}" "$BIN" --attack "$dir/t.sock" --pid "$pid" --seconds "${ATTACK_SECONDS:-3}" --pace "${ATTACK_PACE:-0}"
