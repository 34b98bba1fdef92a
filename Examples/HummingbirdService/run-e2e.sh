#!/usr/bin/env bash
# The Hummingbird example end to end (MischiefServiceLifecycle's article "Mischief in a server"): builds QuoteService
# and `mischief`, starts an upstream stub (Connection: close) and the service, drives it with wrk on loopback, and
# through the `mischief` CLI applies
# `system.net` 20% refused (AsyncHTTPClient's connects to the upstream), `clock.now` +1 day (the service's session
# check) and `system.clock` +1 day (a library's own Date()), checking that responses change and come back after each
# revert; then SIGTERM: a graceful shutdown reverts what is still applied and removes the socket. Every wait is
# bounded and says what it waited for. Prints one row of figures per phase.
#
#     Examples/HummingbirdService/run-e2e.sh               # debug builds (quicker to build than release)
#     CONFIG=release WRK_SECONDS=10 Examples/HummingbirdService/run-e2e.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
config=${CONFIG:-debug}
seconds=${WRK_SECONDS:-3}

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

start=$SECONDS
echo "building mischief and QuoteService ($config)…"
# build PACKAGE PRODUCT: the last line of the build, or its last 30 when it fails.
build() {
    local out
    out=$(swift build -c "$config" --package-path "$1" --product "$2" 2>&1) || { tail -30 <<<"$out" >&2; exit 1; }
    tail -1 <<<"$out"
}
build "$root" mischief
build "$here" QuoteService
echo "built in $((SECONDS - start)) s"
mischief="$(swift build -c "$config" --package-path "$root" --show-bin-path)/mischief"
service="$(swift build -c "$config" --package-path "$here" --show-bin-path)/QuoteService"

dir=$(mktemp -d /tmp/quote-e2e.XXXXXX)
socket="$dir/quote.sock"
log="$dir/service.log"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT

fail() {
    echo "FAILED: $*" >&2
    echo "--- service log (last 40 lines)" >&2
    tail -40 "$log" >&2 || true
    exit 1
}

# wait_for WHAT SECONDS COMMAND…: runs COMMAND every 0.1 s until it succeeds, or fails naming WHAT.
wait_for() {
    local what=$1 limit=$2 deadline=$((SECONDS + $2))
    shift 2
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || fail "timed out after $limit s waiting for $what"
        sleep 0.1
    done
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
upstream_port=$(free_port)
port=$(free_port)
url="http://127.0.0.1:$port"

python3 "$here/upstream-stub.py" "$upstream_port" >"$dir/stub.log" 2>&1 &
pids+=($!)
wait_for "the upstream stub on port $upstream_port" 20 curl -sf "http://127.0.0.1:$upstream_port/price"

PORT=$port UPSTREAM_URL="http://127.0.0.1:$upstream_port" MISCHIEF_SOCKET=$socket "$service" >"$log" 2>&1 &
service_pid=$!
pids+=($service_pid)
wait_for "QuoteService's control socket $socket" 60 test -S "$socket"
wait_for "QuoteService on $url" 60 curl -sf "$url/health"

# status PATH: the HTTP status of one request.
status() { curl -s -o /dev/null -w '%{http_code}' "$url$1"; }
# body PATH: the body of one request.
body() { curl -s "$url$1"; }

# load NAME: wrk for $seconds s on /quote; prints a row and sets requests, errors (non-2xx) and rate.
printf '| %-34s | %9s | %8s | %7s | %8s | %8s |\n' phase requests "non-2xx" "req/s" "p50" "p99"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------------------------ ----------- ---------- --------- ---------- ----------
load() {
    local out
    out=$(timeout $((seconds + 30)) wrk -t2 -c8 -d"${seconds}s" --latency "$url/quote?symbol=ACME&locale=de_DE") ||
        fail "wrk did not finish in $((seconds + 30)) s"
    requests=$(awk '/requests in/ { print $1 }' <<<"$out")
    errors=$(awk '/Non-2xx or 3xx responses:/ { print $5 }' <<<"$out")
    errors=${errors:-0}
    rate=$(awk '/Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")
    local p50 p99
    p50=$(awk '$1 == "50%" { print $2 }' <<<"$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    printf '| %-34s | %9s | %8s | %7s | %8s | %8s |\n' "$1" "$requests" "$errors" "$rate" "$p50" "$p99"
    [ "${requests:-0}" -gt 0 ] || fail "wrk made no request in phase $1: $out"
}
share() { echo $((100 * errors / requests)); }
cli() { timeout 30 "$mischief" "$@" --socket "$socket" >/dev/null || fail "mischief $* failed"; }
# counters SEAM: "calls chaos-calls" of a seam, as `mischief list --json` reads them from the target now.
counters() {
    timeout 30 "$mischief" list --socket "$socket" --json | python3 -c '
import json, sys
for target in json.load(sys.stdin):
    for seam in target["seams"]:
        if seam["id"] == sys.argv[1]:
            print(seam["calls"], seam["chaosCalls"])' "$1"
}

body "/quote?symbol=ACME&locale=de_DE" | grep -q "ACME costs 1.234,50 EUR" ||
    fail "a quote for de_DE is not formatted as German: $(body "/quote?symbol=ACME&locale=de_DE")"
load "nothing applied"
[ "$errors" -eq 0 ] || fail "$errors errors with nothing applied"

read -r calls_before refused_before < <(counters system.net)
cli apply system.net "20% refused(host: \"127.0.0.1\", port: $upstream_port)" --seed 7
load "system.net 20% refused (upstream)"
read -r calls_after refused_after < <(counters system.net)
connects=$((calls_after - calls_before))
refused=$((refused_after - refused_before))
echo "  system.net in that phase: $refused of $connects calls refused ($((100 * refused / connects))%);" \
    "$(share)% of requests failed"
[ "$((100 * refused / connects))" -ge 12 ] && [ "$((100 * refused / connects))" -le 28 ] ||
    fail "$refused of $connects system.net calls refused under 20% refused, expected 12–28%"
# AsyncHTTPClient fails every request waiting in its pool when a connect fails (retryConnectionEstablishment false),
# so more requests fail than connects are refused.
[ "$(share)" -ge 8 ] && [ "$(share)" -le 70 ] || fail "$(share)% errors under 20% refused, expected 8–70%"
cli revert system.net
load "reverted"
[ "$errors" -eq 0 ] || fail "$errors errors after reverting system.net"

cli apply clock.now 'shift(+1d)'
[ "$(status /quote)" = 401 ] || fail "/quote answered $(status /quote) with clock.now a day on, expected 401"
body /quote | grep -q "Your session expired" || fail "/quote does not say the session expired: $(body /quote)"
load "clock.now +1 day (session check)"
[ "$errors" -eq "$requests" ] || fail "$errors of $requests failed with clock.now a day on, expected all"
cli revert clock.now
load "reverted"
[ "$errors" -eq 0 ] || fail "$errors errors after reverting clock.now"

[ "$(status /token)" = 200 ] || fail "/token answered $(status /token) with nothing applied"
cli apply system.clock 'shift(+1d)'
[ "$(status /token)" = 401 ] || fail "/token answered $(status /token) with system.clock a day on (Date()), expected 401"
cli revert system.clock
[ "$(status /token)" = 200 ] || fail "/token answered $(status /token) after reverting system.clock"

# The metrics backend (Prometheus, on /metrics) has the seams' counters; the log has the events.
metrics=$(body /metrics)
grep -Eq '^mischief_seam_chaos_calls\{seam="system.net"\} [1-9]' <<<"$metrics" ||
    fail "/metrics has no chaos calls for system.net: $(grep mischief_seam <<<"$metrics" | head -20)"
grep -Eq '^mischief_seam_calls\{seam="model.quote.decode"\} [1-9]' <<<"$metrics" ||
    fail "/metrics has no calls for model.quote.decode"
for event in 'mischief.event=applied' 'mischief.seam=system.net' 'mischief.event=reverted' 'mischief.seam=clock.now'; do
    grep -q "$event" "$log" || fail "the log has no record with $event"
done

# Left applied at shutdown: a lasting change, and one held by a session (mischief apply --hold).
cli apply model.quote.decode nulls
timeout 60 "$mischief" apply l10n.string 'pseudo' --hold --socket "$socket" >/dev/null 2>&1 &
hold_pid=$!
pids+=($hold_pid)
wait_for "the held change to be applied" 30 grep -q 'mischief.seam=l10n.string' "$log"
kill -TERM "$service_pid"
deadline=$((SECONDS + 30))
while kill -0 "$service_pid" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "QuoteService did not exit within 30 s of SIGTERM"
    sleep 0.1
done
wait "$service_pid" || fail "QuoteService exited with $? after SIGTERM"
[ ! -e "$socket" ] || fail "the control socket $socket is still there after a graceful shutdown"
grep -q 'mischief.layers_applied=0' "$log" || fail "something was left applied at exit: $(grep exited "$log")"
grep -q 'mischief.seam=model.quote.decode.*mischief.source=shutdown\|mischief.source=shutdown.*mischief.seam=model.quote.decode' "$log" ||
    grep 'reverted' "$log" | grep -q 'model.quote.decode' || fail "the log does not show the shutdown's revert of model.quote.decode"
echo "graceful shutdown: nothing left applied, socket removed; the log's last records:"
grep -E 'mischief.source=shutdown|mischief control server stopped|exited' "$log" | cut -c1-220 | tail -4
echo "passed in $((SECONDS - start)) s"
