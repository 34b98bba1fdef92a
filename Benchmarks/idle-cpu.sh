#!/usr/bin/env bash
# The console's idle CPU, side by side: for each `mischief` binary given (a release build; the first is the
# baseline, say the commit before), interleaved round by round, the share of one core used over SECONDS with nothing
# pressed by
#   - `mischief demo` in tmux (120x40): the console and its target in one process;
#   - `mischief attach` in tmux over a `mischief demo --headless`: the attached console;
#   - that headless target, with the console attached.
# utime + stime from /proc, over the same window for the last two. Goal (issue 45): each <= 0.5% of a core.
#
#     Benchmarks/idle-cpu.sh .build/release/mischief                       # one binary, 60 s a case
#     SECONDS_EACH=30 ROUNDS=2 Benchmarks/idle-cpu.sh /tmp/mischief-before .build/release/mischief
#
# Costs ROUNDS x binaries x 2 x SECONDS_EACH seconds (two windows a round: the demo, then attach and target
# together). Needs tmux and bc.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 MISCHIEF [MISCHIEF…]" >&2; exit 2; }
seconds=${SECONDS_EACH:-60}
rounds=${ROUNDS:-1}
ticks=$(getconf CLK_TCK)

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
share() {  # ticks-before ticks-after
    echo "scale=2; 100 * ($2 - $1) / $ticks / $seconds" | bc -l
}
# The pid of the process a tmux pane runs (`exec` makes it the pane's own).
pane_pid() { tmux -L "$1" display -p -t "$2" '#{pane_pid}'; }

measure() {  # binary label
    local binary=$1 label=$2 dir socket demo_pid pid a b c d
    dir=$(mktemp -d /tmp/idle-cpu.XXXXXX)
    socket="idle-cpu-$$"
    tmux -L "$socket" new-session -d -s demo -x 120 -y 40 \
        "exec env HOME=$dir XDG_CONFIG_HOME=$dir MISCHIEF_SOCKET_DIR=$dir LANG=C.UTF-8 TERM=xterm-256color $binary demo --seed 7"
    sleep 3  # start-up is not idle
    pid=$(pane_pid "$socket" demo)
    a=$(cpu_ticks "$pid")
    sleep "$seconds"
    b=$(cpu_ticks "$pid")
    tmux -L "$socket" kill-session -t demo
    echo "| $label | mischief demo (console and target) | $(share "$a" "$b")% |"

    MISCHIEF_SOCKET_DIR=$dir "$binary" demo --headless --socket "$dir/demo.sock" --seed 7 >/dev/null 2>&1 &
    demo_pid=$!
    for _ in $(seq 100); do [ -S "$dir/demo.sock" ] && break; sleep 0.05; done
    tmux -L "$socket" new-session -d -s attach -x 120 -y 40 \
        "exec env HOME=$dir XDG_CONFIG_HOME=$dir MISCHIEF_SOCKET_DIR=$dir LANG=C.UTF-8 TERM=xterm-256color $binary attach $dir/demo.sock"
    sleep 3
    pid=$(pane_pid "$socket" attach)
    a=$(cpu_ticks "$pid")
    c=$(cpu_ticks "$demo_pid")
    sleep "$seconds"
    b=$(cpu_ticks "$pid")
    d=$(cpu_ticks "$demo_pid")
    echo "| $label | mischief attach (the console) | $(share "$a" "$b")% |"
    echo "| $label | the headless target, one console attached | $(share "$c" "$d")% |"
    tmux -L "$socket" kill-server 2>/dev/null || true
    kill "$demo_pid" 2>/dev/null || true
    wait "$demo_pid" 2>/dev/null || true
    rm -rf "$dir"
}

echo "Idle CPU, share of one core over $seconds s ($(nproc) cores; $(uptime | sed 's/.*load/load/'))"
echo "| binary | what | CPU |"
echo "|---|---|---|"
for round in $(seq "$rounds"); do
    for binary in "$@"; do measure "$binary" "$binary (round $round)"; done
done
