#!/usr/bin/env bash
# The attacks of issue #28 on what a target does with a request, against a headless demo (debug build): long `+`
# compositions, 64 KiB and 900 KB specs, long fallbacks and sequences, YAML aliases, long specs applied and
# reverted in a loop. Prints each answer's status and time, then checks that the target is alive, that
# `GET /v1/target` answers, its RSS and the size of `GET /v1/console`; then the p50/p99 of `GET /v1/target` while
# 64 KiB specs are PUT back to back (parsed on the server's worker, not its event loop), and the status and time of
# chunked bodies that announce too much. Loopback Unix socket only; bounded in time.
#
# Usage: Scripts/spec-attack.sh        (builds `mischief` in debug first)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product mischief 2>&1 | tail -1
BIN=$PWD/.build/debug/mischief
dir=$(mktemp -d /tmp/mischief-spec-attack.XXXXXX)
sock=$dir/t.sock
"$BIN" demo --headless --socket "$sock" >"$dir/out" 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.1; done
[[ -S "$sock" ]] || { echo "spec-attack: the target did not start: $(cat "$dir/out")" >&2; exit 1; }

python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
def write(name, text): open(f"{d}/{name}", "w").write(text)
write("delay-2000", "+".join(["delay(0ms)"] * 2000))
write("log-10000", "+".join(['log("x")'] * 10000))
write("ident-64k", "a" * 65000)
write("ident-900k", "a" * 900000)
write("seq-64k", "seq(" + ", ".join(["off"] * 12999) + ")")
write("fallback-64k", " -> ".join(["1*off"] * 7200))
write("shift-64", "+".join(["shift(+1d)"] * 64))
write("log-64k", 'log("' + "a" * 65000 + '")')
lines = ["- name: P0", "  guards: &G"] + ["    - errors(clock.now) > 50% over 10s"] * 300 + ["  entries: {}"]
for i in range(1, 300): lines += [f"- name: P{i}", "  guards: *G", "  entries: {}"]
write("aliases.yaml", "\n".join(lines) + "\n")
PY

put() {
    curl -s -o "$dir/resp" -w "%{http_code} %{time_total}s" --unix-socket "$sock" -X PUT \
        -H 'Content-Type: text/plain' -H 'Mischief-API: 1' --data-binary "@$dir/$1" http://m/v1/seams/clock.now
}
for attack in delay-2000 log-10000 ident-64k ident-900k seq-64k fallback-64k shift-64 log-64k; do
    echo "spec-attack: PUT $attack: $(put $attack) $(head -c 110 "$dir/resp" | tr '\n' ' ')"
done
curl -s -o /dev/null --unix-socket "$sock" -X DELETE http://m/v1/seams/clock.now
echo "spec-attack: POST aliases.yaml (300 profiles x 300 guards): $(curl -s -o "$dir/resp" -w "%{http_code} %{time_total}s" \
    --unix-socket "$sock" -X POST -H 'Content-Type: application/yaml' -H 'Mischief-API: 1' \
    --data-binary "@$dir/aliases.yaml" http://m/v1/profiles) $(head -c 160 "$dir/resp")"
for _ in $(seq 50); do
    put log-64k >/dev/null
    curl -s -o /dev/null --unix-socket "$sock" -X DELETE http://m/v1/seams/clock.now
done
kill -0 $pid || { echo "spec-attack: the target died" >&2; exit 1; }
echo "spec-attack: after 50 apply/revert cycles of a 64 KiB log spec: RSS $(awk '/VmRSS/ {print $2, $3}' /proc/$pid/status)," \
    "GET /v1/console $(curl -s --unix-socket "$sock" http://m/v1/console | wc -c) bytes"
echo "spec-attack: GET /v1/target $(curl -s -o /dev/null -w "%{http_code} %{time_total}s" --unix-socket "$sock" http://m/v1/target)"

python3 - "$sock" <<'PY'
# GET /v1/target, probed every 20 ms for 6 s while another thread PUTs a 64 KiB spec back to back.
import socket, sys, threading, time
path = sys.argv[1]
def exchange(request, timeout=30):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(timeout)
    start = time.monotonic(); s.connect(path); s.sendall(request); data = b""
    while True:
        try: part = s.recv(65536)
        except socket.timeout: break
        if not part: break
        data += part
    s.close()
    return time.monotonic() - start, data[9:12].decode()
def put(spec):
    body = spec.encode()
    return (b"PUT /v1/seams/clock.now HTTP/1.1\r\nHost: m\r\nMischief-API: 1\r\nConnection: close\r\nContent-Type: text/plain\r\n"
            + b"Content-Length: %d\r\n\r\n" % len(body) + body)
GET = b"GET /v1/target HTTP/1.1\r\nHost: m\r\nMischief-API: 1\r\nConnection: close\r\n\r\n"
for name, spec in [("seq-64k", "seq(" + ", ".join(["off"] * 12999) + ")"),
                   ("fallback-64k", " -> ".join(["1*off"] * 7200)), ("log-64k", 'log("' + "a" * 65000 + '")')]:
    stop, puts, probes = time.monotonic() + 6, [], []
    def attack():
        while time.monotonic() < stop: puts.append(exchange(put(spec))[0])
    thread = threading.Thread(target=attack); thread.start()
    while time.monotonic() < stop:
        probes.append(exchange(GET, timeout=10)[0]); time.sleep(0.02)
    thread.join(); probes.sort(); puts.sort()
    q = lambda p: probes[min(len(probes) - 1, int(p * len(probes)))] * 1000
    print(f"spec-attack: GET /v1/target under PUT {name}: p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms "
          f"({len(probes)} probes); {len(puts)} PUTs, median {puts[len(puts) // 2]:.2f}s")
head = b"PUT /v1/seams/clock.now HTTP/1.1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
for name, rest in [("ffffffffffffffff", b"ffffffffffffffff\r\nab"), ("2 MB announced, 9 bytes sent", b"200000\r\nreturn(1)")]:
    seconds, status = exchange(head + rest, timeout=15)
    print(f"spec-attack: chunked body, size {name}: {status} in {seconds:.3f}s")
PY
