#!/usr/bin/env bash
# An exported regression test passes as exported, in a package of its own, and fails when the code no longer makes
# the recorded calls. Records a shop's session (Tests/ExportedTestPackage: ShopSession, with decisions), exports it
# with the built `mischief export --as test --register … --body …` into a copy of that package (whose dependency on
# Mischief points here), and runs `swift test` there: it must pass. Then exports it again with a body that stops
# short of the recorded calls: `swift test` must fail, naming the divergence.
#
# Usage: Scripts/exported-test.sh   (after `swift build`; scratch path .build-exported-test; a few minutes cold)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
mischief=$repo/.build/debug/mischief
[ -x "$mischief" ] || { echo "exported-test: build the package first (swift build): no $mischief" >&2; exit 1; }

scratch=$repo/.build-exported-test
package=$scratch/package
rm -rf "$package"
mkdir -p "$package"
cp -R Tests/ExportedTestPackage/. "$package/"
sed -i "s|path: \"../..\"|path: \"$repo\"|" "$package/Package.swift"
test="$package/Tests/ShopTests/RecordedShopTests.swift"

start=$(date +%s)
swift build --package-path "$package" --scratch-path "$scratch/build" --product ShopSession 2>&1 | tail -3
"$scratch/build/debug/ShopSession" "$scratch/session.jsonl"

export_test() {
    "$mischief" export "$scratch/session.jsonl" --as test --name "Recorded shop" --import Shop \
        --register 'Shop.registerSeams(in:)' --body "$1" --output "$test"
}

export_test '_ = Shop.checkout(items: 12)'
log=$scratch/test.log
if ! swift test --package-path "$package" --scratch-path "$scratch/build" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "exported-test: the exported test did not pass as exported" >&2
    exit 1
fi
grep -q 'Test "Recorded shop" passed' "$log" || { tail -40 "$log" >&2; echo "exported-test: it did not run" >&2; exit 1; }
echo "exported-test: the exported test passed as exported ($(($(date +%s) - start)) s)"

# The same recording against code that stops after two items: the replay's first change never comes.
export_test '_ = Shop.checkout(items: 2)'
if swift test --package-path "$package" --scratch-path "$scratch/build" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "exported-test: the exported test passed though the code made too few calls" >&2
    exit 1
fi
grep -q 'the code under test made 2 of 3 calls before the end' "$log" || {
    tail -40 "$log" >&2
    echo "exported-test: the failure does not name the divergence" >&2
    exit 1
}
echo "exported-test: and it fails, naming the divergence, when the code makes fewer calls ($(($(date +%s) - start)) s)"
