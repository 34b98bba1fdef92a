#!/usr/bin/env bash
# Issue #28, item 9, by hand: a target stopped (SIGSTOP) for longer than a client's 10 s of patience keeps the
# change of the console attached to it, and `mischief watch` attaches again. A headless demo, a `mischief attach`
# in tmux with a change made in its session, two `mischief watch --lines`; the demo is stopped for STOP seconds and
# continued, then the script prints the sessions, the seam, the server's report and what each watch said.
# Too slow for `swift test` (the unit tests simulate the pause with an injected clock: ControlAPILeaseTests).
#
# Usage: Scripts/pause-check.sh [STOP_SECONDS (25)] [MISCHIEF_BINARY (.build/debug/mischief, built first)]
set -euo pipefail
cd "$(dirname "$0")/.."
STOP=${1:-25}
BIN=${2:-}
if [[ -z "$BIN" ]]; then
    swift build --product mischief 2>&1 | tail -1
    BIN=$PWD/.build/debug/mischief
fi
dir=$(mktemp -d /tmp/mischief-pause.XXXXXX)
sock=$dir/demo.sock session=mischief-pause-$$
export HOME=$dir XDG_RUNTIME_DIR=$dir XDG_CONFIG_HOME=$dir MISCHIEF_SOCKET_DIR=$dir LANG=C.UTF-8
pids=()
cleanup() {
    kill -CONT "${demo:-0}" 2>/dev/null || true
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    tmux kill-session -t "$session" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
api() { curl -s --max-time 5 --unix-socket "$sock" "$@"; }

"$BIN" demo --headless --socket "$sock" --seed 11 >"$dir/demo.out" 2>&1 &
demo=$!
pids+=("$demo")
for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.1; done
tmux -u new-session -d -s "$session" -x 120 -y 40 \
    "env HOME=$dir XDG_RUNTIME_DIR=$dir XDG_CONFIG_HOME=$dir LANG=C.UTF-8 TERM=xterm-256color $BIN attach $sock"
id=
for _ in $(seq 100); do
    id=$(api http://m/v1/sessions | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s[0]["id"] if s else "")')
    [[ -n "$id" ]] && break
    sleep 0.2
done
[[ -n "$id" ]] || { echo "pause-check: the console opened no session" >&2; exit 1; }
echo "pause-check: apply shift(+1d) to clock.now in the console's session $id:" \
    "$(api -o /dev/null -w '%{http_code}' -X PUT -H "Mischief-Session: $id" -H 'Content-Type: text/plain' \
        --data 'shift(+1d)' http://m/v1/seams/clock.now)"
for n in 1 2; do
    "$BIN" watch --socket "$sock" --lines >"$dir/watch$n.out" 2>"$dir/watch$n.err" &
    pids+=("$!")
done
sleep 2
echo "pause-check: before: $(api http://m/v1/sessions)"
kill -STOP "$demo"
echo "pause-check: SIGSTOP for ${STOP}s"
sleep "$STOP"
kill -CONT "$demo"
sleep 5  # the clients' retries come every second
echo "pause-check: after:  $(api http://m/v1/sessions)"
api http://m/v1/seams/clock.now | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("pause-check: clock.now:", d["seam"].get("behaviour"), "in sessions", [l.get("session") for l in d.get("layers", [])])'
api http://m/v1/console | python3 -c '
import json, sys
for e in json.load(sys.stdin).get("events", []):
    if "session" in e.get("message", "") or "console" in e.get("message", ""): print("pause-check: event:", e["message"])'
for n in 1 2; do
    pid=${pids[$n]}
    state=running
    kill -0 "$pid" 2>/dev/null || { wait "$pid" && state="exited 0" || state="exited $?"; }
    echo "pause-check: watch $n $state; it said: $(tr '\n' '|' <"$dir/watch$n.err")"
done
echo "pause-check: console header: $(tmux capture-pane -p -t "$session" | head -1 | tr -s ' ')"
