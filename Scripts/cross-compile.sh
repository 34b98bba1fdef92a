#!/usr/bin/env bash
# Compiles every C target for aarch64 Linux (syntax and types only, warnings as errors), so the aarch64 branches of
# the rebinding core (its relocation types, its own-object checks) and of the other C code are compiled on an x86_64
# machine too. Their relocation scan is run on both machines' tables by SyntheticTableTests.
#
# Needs Debian's libc6-dev-arm64-cross (aarch64 glibc headers in /usr/aarch64-linux-gnu/include); .ci/run installs it.
# Usage: Scripts/cross-compile.sh
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=/usr/aarch64-linux-gnu/include
if [ ! -e "$sysroot/elf.h" ]; then
    echo "cross-compile: no aarch64 headers in $sysroot (apt-get install libc6-dev-arm64-cross)" >&2
    exit 1
fi
resource=$(clang -print-resource-dir)
# Every C target's headers, as SwiftPM passes a target's dependencies' (CMischiefSystem counts on CMischiefTSan's lanes).
includes=()
for target in Sources/C*/; do [ -d "$target/include" ] && includes+=(-I "$target/include"); done
count=0
for target in Sources/C*/; do
    [ -d "$target/include" ] || continue
    for source in "$target"*.c; do
        [ -e "$source" ] || continue
        clang --target=aarch64-linux-gnu -nostdinc -isystem "$sysroot" -isystem "$resource/include" \
            -fsyntax-only -Wall -Wextra -Werror -I "$target/include" "${includes[@]}" "$source"
        count=$((count + 1))
    done
done
echo "cross-compile: $count C files compile for aarch64-linux-gnu"
