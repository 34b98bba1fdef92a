#!/usr/bin/env bash
# End-to-end check of terminal-smoke in tmux: layout with wide/combining characters, keys, resize, quitting,
# SIGTERM and crash restoration (tty back in echo+icanon mode, backtrace on the normal screen).
#
# Usage: Scripts/terminal-smoke.sh   (builds terminal-smoke in debug if needed; TERMINAL_SMOKE=path overrides)
# Synchronisation is by polling `tmux capture-pane` for expected text, at most E2E_TRIES times, 0.1 s apart.
set -euo pipefail

cd "$(dirname "$0")/.."
if [[ -z "${TERMINAL_SMOKE:-}" ]]; then
    swift build --product terminal-smoke >/dev/null 2>&1 || { echo "terminal-smoke: build failed" >&2; exit 1; }
    TERMINAL_SMOKE=.build/debug/terminal-smoke
fi
BIN=$(realpath "$TERMINAL_SMOKE")
SESSION="mischief-e2e-$$"
TRIES=${E2E_TRIES:-150}
RUN=0

cleanup() { tmux kill-session -t "$SESSION" 2>/dev/null || true; }
trap cleanup EXIT

pane() { tmux capture-pane -p -t "$SESSION"; }
history() { tmux capture-pane -p -S - -t "$SESSION"; }

fail() {
    echo "terminal-smoke: FAIL: $*" >&2
    echo "----- pane -----" >&2
    pane >&2 || true
    echo "----------------" >&2
    exit 1
}

step() { echo "terminal-smoke: $*"; }

# wait_for PATTERN DESCRIPTION — polls the visible pane for an extended regex.
wait_for() {
    local i
    for ((i = 0; i < TRIES; i++)); do
        if pane | grep -qE -- "$1"; then return 0; fi
        sleep 0.1
    done
    fail "timed out waiting for $2 (pattern '$1')"
}

# Text of the scrollback + screen since the marker of the current run.
since_run() {
    history | awk -v marker="RUN-$RUN" '$0 == marker { text = "" } { text = text $0 "\n" } END { printf "%s", text }'
}

# check_layout WIDTH HEIGHT — every box row is exactly WIDTH columns wide and ends with a border; the <END markers
# after the wide/emoji/combining text and after the ASCII ruler line up.
check_layout() {
    pane | python3 -c '
import sys, unicodedata
def width(s):
    n = 0
    for ch in s:
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return n
expected_width, expected_height = int(sys.argv[1]), int(sys.argv[2])
lines = [l.rstrip() for l in sys.stdin.read().split("\n")]
box = [l for l in lines if l[:1] in ("┌", "│", "└")]
problems = []
if len(box) != expected_height:
    problems.append(f"{len(box)} box rows, expected {expected_height}")
for l in box:
    if width(l) != expected_width or l[-1:] not in ("┐", "│", "┘"):
        problems.append(f"row of width {width(l)}: {l!r}")
wide = next((l for l in lines if "wide:" in l), None)
ruler = next((l for l in lines if "ruler:" in l), None)
if wide is None or ruler is None:
    problems.append("wide/ruler line missing")
elif width(wide[:wide.index("<END")]) != width(ruler[:ruler.index("<END")]):
    problems.append(f"<END markers do not line up: {wide!r} vs {ruler!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
' "$1" "$2" || fail "layout check at $1x$2"
}

# start_smoke [ENV...] — clears the pane and runs terminal-smoke, echoing its exit status afterwards.
start_smoke() {
    RUN=$((RUN + 1))
    tmux send-keys -t "$SESSION" "clear; echo RUN-$RUN; $* $BIN; echo EXIT=\$?" Enter
}

# smoke_pid — the process id of the terminal-smoke started in this pane.
smoke_pid() {
    local shell_pid i pid
    shell_pid=$(tmux display-message -p -t "$SESSION" '#{pane_pid}')
    for ((i = 0; i < TRIES; i++)); do
        pid=$(pgrep -P "$shell_pid" -x terminal-smoke || true)
        if [[ -n "$pid" ]]; then echo "$pid"; return 0; fi
        sleep 0.1
    done
    fail "terminal-smoke process not found"
}

# expect_exit STATUS WHAT — waits for the EXIT= line the shell prints after terminal-smoke and checks the status.
# (Unanchored: if the tty were left in raw mode the line would not start at column 0.)
expect_exit() {
    wait_for 'EXIT=[0-9]+' "exit status after $2"
    local status
    status=$(pane | grep -oE 'EXIT=[0-9]+' | tail -n 1)
    [[ "$status" == "EXIT=$1" ]] || fail "$2: expected EXIT=$1, got $status"
}

# check_tty_sane — asks the pane's shell for the echo/icanon flags and expects both on.
check_tty_sane() {
    local query="stty -a | tr ' ;' '\n\n' | grep -xE -- '-?(icanon|echo)' | paste -sd, -"
    tmux send-keys -t "$SESSION" "echo TTY-\$($query)-END" Enter
    wait_for 'TTY-[-a-z,]*-END' "stty output"
    local flags
    flags=$(pane | grep -oE 'TTY-[-a-z,]*-END' | tail -n 1)
    [[ "$flags" == "TTY-icanon,echo-END" ]] || fail "terminal not sane after $1 (want icanon,echo): $flags"
}

SHELL_COMMAND="env -i HOME=\"$HOME\" PATH=\"$PATH\" LANG=C.UTF-8 TERM=xterm-256color PS1='$ ' sh"
tmux -u new-session -d -s "$SESSION" -x 100 -y 30 "$SHELL_COMMAND"
wait_for '^\$' "shell prompt"

step "layout at 100x30"
start_smoke
wait_for 'size: 100x30' "smoke screen at 100x30"
wait_for '┌─ Mischief smoke ─' "box title"
check_layout 100 30

step "keys"
tmux send-keys -t "$SESSION" Up
wait_for 'last key: up \(#1\)' "Up key"
tmux send-keys -t "$SESSION" F5
wait_for 'last key: function\(5\) \(#2\)' "F5 key"
tmux send-keys -t "$SESSION" C-a
wait_for 'last key: control\("a"\) \(#3\)' "Ctrl-A key"
tmux send-keys -t "$SESSION" BTab
wait_for 'last key: backTab \(#4\)' "Shift-Tab key"
tmux send-keys -t "$SESSION" Escape
wait_for 'last key: escape \(#5\)' "Escape key"
tmux send-keys -t "$SESSION" -l 'é'
wait_for 'last key: character\("é"\) \(#6\)' "unicode character key"

step "resize to 60x15"
tmux resize-window -t "$SESSION" -x 60 -y 15
wait_for 'size: 60x15' "smoke screen at 60x15"
check_layout 60 15

step "q quits with status 0"
tmux send-keys -t "$SESSION" q
expect_exit 0 "q"
check_tty_sane "q"

tmux resize-window -t "$SESSION" -x 100 -y 30
step "SIGTERM restores the terminal"
start_smoke
wait_for 'size: 100x30' "smoke screen"
kill -TERM "$(smoke_pid)"
expect_exit 143 "SIGTERM"
pane | grep -q 'stopped by terminate, terminal restored' || fail "no clean-shutdown message after SIGTERM"
check_tty_sane "SIGTERM"

step "crash restores the terminal and shows the backtrace"
start_smoke
wait_for 'size: 100x30' "smoke screen"
tmux send-keys -t "$SESSION" c
for ((i = 0; i < TRIES; i++)); do
    text=$(pane)
    if grep -q 'Press space to interact' <<<"$text"; then tmux send-keys -t "$SESSION" q; break; fi
    if grep -qE 'EXIT=[0-9]+' <<<"$text"; then break; fi
    sleep 0.1
done
expect_exit 132 "crash"
since_run | grep -q 'Program crashed' || fail "backtrace not visible on the normal screen"
since_run | grep -q 'deliberate crash' || fail "backtrace does not show the crash site"
check_tty_sane "crash"

step "crash without the Swift backtracer restores the terminal"
start_smoke SWIFT_BACKTRACE=enable=no
wait_for 'size: 100x30' "smoke screen"
tmux send-keys -t "$SESSION" c
expect_exit 132 "crash"
check_tty_sane "crash without backtracer"

step "PASS"
