#!/usr/bin/env bash
# One command, one table: Mischief's costs side by side with Date(), a direct call, swift-dependencies and
# libfaketime (Sources/SideBySide), then the console's CPU in a real terminal (tmux) and instruction counts per call
# from valgrind --tool=callgrind (noise-free; on a stripped copy, since valgrind 3.19 cannot read the DWARF 5 that
# Swift 6.3 writes). Release builds throughout. Takes about 5 minutes after the builds.
#
#     Benchmarks/run.sh                  # everything
#     SIDE_BY_SIDE_CALLS=500000 Benchmarks/run.sh   # quicker, noisier
#     SKIP_CALLGRIND=1 SKIP_TERMINAL=1 Benchmarks/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

need=()
[ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || [ -n "${SIDE_BY_SIDE_FAKETIME:-}" ] || need+=(faketime)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing: ${need[*]}" >&2
    sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq >&2 && "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq "${need[@]}" >&2 || echo "could not install ${need[*]}: those rows say so" >&2
fi

echo "building (release)…" >&2
swift build -c release --package-path "$here" --product side-by-side >&2
swift build -c release --package-path "$root" --product mischief >&2
bench="$(swift build -c release --package-path "$here" --show-bin-path)/side-by-side"
mischief="$(swift build -c release --package-path "$root" --show-bin-path)/mischief"

echo "Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
     "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>/dev/null | head -1)"
echo
"$bench"

# CPU of an idle console in tmux: utime + stime over 10 s, as a share of one core.
cpu_share() {  # pid seconds
    local ticks=$(getconf CLK_TCK) a b
    a=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    sleep "$2"
    b=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    echo "scale=2; 100 * ($b - $a) / $ticks / $2" | bc -l
}
if [ -z "${SKIP_TERMINAL:-}" ] && command -v tmux >/dev/null 2>&1; then
    dir=$(mktemp -d /tmp/side-by-side.XXXXXX)
    socket="tmux-bench-$$"
    trap 'tmux -L "$socket" kill-server 2>/dev/null || true; kill "${demo_pid:-0}" 2>/dev/null || true; rm -rf "$dir"' EXIT
    tmux -L "$socket" new-session -d -x 120 -y 40 "HOME=$dir XDG_CONFIG_HOME=$dir $mischief demo --seed 7"
    sleep 3
    pid=$(pgrep -n -f "$mischief demo --seed 7")
    echo "| console CPU, mischief demo in tmux, idle | $(cpu_share "$pid" 10)% of a core | |"
    MISCHIEF_SOCKET_DIR=$dir "$mischief" demo --headless --socket "$dir/demo.sock" --seed 7 >/dev/null 2>&1 &
    demo_pid=$!
    sleep 2
    tmux -L "$socket" new-window "HOME=$dir XDG_CONFIG_HOME=$dir $mischief attach $dir/demo.sock"
    sleep 3
    pid=$(pgrep -n -f "$mischief attach")
    echo "| console CPU, mischief attach in tmux, idle | $(cpu_share "$pid" 10)% of a core | |"
    echo "| target CPU, headless demo with that console attached | $(cpu_share "$demo_pid" 10)% of a core | |"
fi

# Instructions per call: N and 2N calls of each case, the difference over N removes start-up.
if [ -z "${SKIP_CALLGRIND:-}" ] && command -v valgrind >/dev/null 2>&1; then
    stripped=$(mktemp /tmp/side-by-side-stripped.XXXXXX)
    cp "$bench" "$stripped"
    chmod +x "$stripped"  # mktemp made it 0600, and cp onto an existing file keeps that mode
    strip "$stripped"
    n=200000
    count() {  # case calls
        SIDE_BY_SIDE_MODE=call SIDE_BY_SIDE_CASE=$1 SIDE_BY_SIDE_CALLS=$2 \
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" 2>&1 \
            | awk '/Collected :/ { print $NF }'
    }
    echo
    echo "| case (valgrind --tool=callgrind) | instructions a call | |"
    echo "|---|---|---|"
    for id in int.direct int.off int.counting int.constant int.scope.inside int.scope.recording \
              date.direct date.off date.shifted date.spec-shifted date.shifted.half clock.off \
              shared.off shared.hoisted shared.shifted shared.frozen \
              clock.shifted deps.live deps.overridden; do
        one=$(count "$id" "$n")
        two=$(count "$id" "$((2 * n))")
        echo "| $id | $(echo "scale=1; ($two - $one) / $n" | bc -l) | |"
    done
    rm -f "$stripped"
fi
