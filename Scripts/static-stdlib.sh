#!/usr/bin/env bash
# System seams in a build with the Swift runtime linked statically (`-static-stdlib`), in a scratch path of its own
# (.build-static). Foundation, libdispatch and Swift Concurrency are then in the executable and call clock_gettime
# through its one global offset table, so system.clock leaves the executable alone unless it is named
# (SystemSeams.swiftRuntimeIsStatic).
#
# Builds only the probe (`MischiefSystemProbe`, no NIO), checks it loads no libswiftCore.so, then runs
# `--static-runtime` (Tests/MischiefSystemProbe/StaticRuntime.swift): the default install rebinds nothing in the
# executable and says why, Date() and DispatchWallTime keep the real time under shift(+1d); with `(executable)` named,
# Date() shifts and, the documented limit, so does DispatchWallTime (a semaphore timeout ends early under shift(-1d)).
# Every slot of the executable ends as it began. Any failed check fails the script.
#
# Usage: Scripts/static-stdlib.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-static
start=$(date +%s)
# The probe imports FoundationNetworking, whose static library is linked with -lcurl: that needs libcurl.so.
if [ ! -e "/usr/lib/$(uname -m)-linux-gnu/libcurl.so" ]; then
    echo "static-stdlib: FAILED: no libcurl.so to link FoundationNetworking statically (apt-get install" \
        "libcurl4-openssl-dev)" >&2
    exit 1
fi
swift build --scratch-path "$scratch" --product MischiefSystemProbe -Xswiftc -static-stdlib
echo "static-stdlib: built in $(($(date +%s) - start)) s"
probe="$(swift build --scratch-path "$scratch" --show-bin-path)/MischiefSystemProbe"

if ldd "$probe" | grep -q 'libswiftCore\|libFoundation\|libdispatch'; then
    ldd "$probe"
    echo "static-stdlib: FAILED: the probe loads a Swift runtime library; it is not a -static-stdlib build" >&2
    exit 1
fi

status=0
timeout 120 "$probe" --static-runtime || status=$?
if [ "$status" -ne 0 ]; then
    echo "static-stdlib: FAILED: the probe exited $status (124: it did not finish within 120 s)" >&2
    exit 1
fi
echo "static-stdlib: passed in $(($(date +%s) - start)) s"
