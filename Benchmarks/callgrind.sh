#!/usr/bin/env bash
# Instruction counts per call for each benchmark scenario, from valgrind --tool=callgrind: repeatable whatever
# else the machine is doing. Each scenario runs twice (N and 2N calls); the difference divided by N removes
# start-up costs.
#
#     Benchmarks/callgrind.sh            # builds in release first
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product mischief-bench >/dev/null
bin="$(swift build -c release --show-bin-path)/mischief-bench"
n=200000
instructions() {
    local out
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --scenario "$1" --iterations "$2" >/dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$out"
    rm -f "$out"
}
printf '%-24s %s\n' scenario "instructions/call"
for scenario in int.direct int.off int.counting int.constant int.constant-counting date.direct date.off date.counting date.constant; do
    one=$(instructions "$scenario" "$n")
    two=$(instructions "$scenario" "$((2 * n))")
    printf '%-24s %.1f\n' "$scenario" "$(echo "($two - $one) / $n" | bc -l)"
done
