#!/usr/bin/env bash
# Registry scale before and after: builds Scripts/registry-scale/main.swift in release with the core
# (Sources/Mischief) of two git revisions, each into one module of its own, and runs each case on both,
# interleaved, on this machine. A revision that has `Registry.delta(since:)` also measures it.
#
#     Scripts/registry-scale.sh [BEFORE [AFTER]]      # default: 77920e7 (before issue 17's registry work)
#                                                     # and the working tree
#     REGBENCH_CASES="snapshot register applies"      # the cases, in order (default: all three)
#     REGBENCH_APPLIES=10000                          # applies on one seam in the `applies` case
#
# Scratch: .build-regbench (gitignored). Prints one block per case and revision.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:-77920e7}
after=${2:-}
scratch=.build-regbench
mkdir -p "$scratch"

build() {  # name revision ("" = working tree)
    local name=$1 revision=$2 tree="$scratch/$1-src" work="$scratch/$1.cmod" flags=()
    rm -rf "$tree" "$work"
    mkdir -p "$tree" "$work"
    if [ -n "$revision" ]; then
        git archive "$revision" Sources/Mischief Sources/CMischiefTSan | tar -x -C "$tree"
    else
        cp -R Sources "$tree/"
    fi
    grep -rq "func changes(since" "$tree/Sources/Mischief" && flags+=(-D HAS_CHANGES)
    cp "$tree"/Sources/CMischiefTSan/include/*.h "$work/"
    {
        echo 'module CMischiefTSan {'
        for header in "$work"/*.h; do echo "    header \"$(basename "$header")\""; done
        echo '    export *'
        echo '}'
    } >"$work/module.modulemap"
    local objects=()
    for source in "$tree"/Sources/CMischiefTSan/*.c; do
        clang -O2 -c "$source" -I "$tree/Sources/CMischiefTSan/include" -o "$work/$(basename "$source" .c).o"
        objects+=("$work/$(basename "$source" .c).o")
    done
    # shellcheck disable=SC2046
    swiftc -O -wmo -module-name RegBench -package-name mischief -D Chaos -I "$work" "${flags[@]}" \
        $(find "$tree/Sources/Mischief" -name '*.swift') Scripts/registry-scale/main.swift "${objects[@]}" \
        -o "$scratch/$name"
}

echo "building $before and ${after:-the working tree} (release)…" >&2
build before "$before" &
building=$!
build after "$after"
wait "$building"
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for case in ${REGBENCH_CASES:-snapshot register applies}; do
    for name in before after; do
        echo "== $name: $case"
        REGBENCH_CASE=$case "$scratch/$name"
    done
done
