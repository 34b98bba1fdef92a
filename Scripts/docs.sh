#!/usr/bin/env bash
# Builds the DocC documentation of every library a user depends on: Mischief, MischiefFiles, MischiefCatalog,
# MischiefNetwork, MischiefControl, MischiefTesting, MischiefLiveTests, MischiefSystem, MischiefLogging, MischiefMetrics,
# MischiefServiceLifecycle and MischiefObservers (their catalogs are Sources/<Module>/<Module>.docc) with
# swift-docc-plugin, treating every DocC warning as an error: a broken symbol link, an undocumented parameter or an
# ambiguous reference fails the build; so does a public declaration without a doc comment
# (Scripts/undocumented-symbols.swift reads the symbol graphs DocC was given).
#
# Usage: Scripts/docs.sh [TARGET…]      all twelve when none is named
#   DOCS_OUTPUT=.build-docs   where the .doccarchive folders go
# Preview one while writing: swift package --disable-sandbox preview-documentation --target Mischief
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT=${DOCS_OUTPUT:-.build-docs}
if [[ $# -gt 0 ]]; then targets=("$@"); else targets=(Mischief MischiefFiles MischiefCatalog MischiefNetwork MischiefControl MischiefTesting MischiefLiveTests MischiefSystem
    MischiefLogging MischiefMetrics MischiefServiceLifecycle MischiefObservers); fi
mkdir -p "$OUTPUT"

# One plugin run for all of them: the package is loaded, the plugin checked and the build planned once (twelve runs
# cost a minute or two more on two cores). Each archive lands in $OUTPUT/<target>.doccarchive.
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
log="$OUTPUT/docs.log"
started="$OUTPUT/started"
touch "$started"
echo "docs: ${targets[*]}"
# With one target the plugin writes its archive to the output path itself, with several one archive a target in it.
output=$OUTPUT
[[ ${#targets[@]} -eq 1 ]] && output="$OUTPUT/${targets[0]}.doccarchive"
if ! swift package --allow-writing-to-directory "$OUTPUT" generate-documentation "${args[@]}" \
    --output-path "$output" --warnings-as-errors >"$log" 2>&1; then
    grep -v '^\[[0-9]*/[0-9]*\]' "$log" >&2 || true
    echo "docs: DocC warnings or errors (above)" >&2
    exit 1
fi

# The symbol graphs DocC was given, every target's; one run of the checker (a script compiles each time it runs).
status=0
all=()
for target in "${targets[@]}"; do
    mapfile -t graphs < <(find .build -path "*/extracted-symbols/*/$target/*.symbols.json" -newer "$started")
    if [[ ${#graphs[@]} -eq 0 ]]; then
        echo "docs: no symbol graphs of $target found under .build" >&2
        status=1
    fi
    all+=("${graphs[@]}")
    echo "docs: $target built in $OUTPUT/$target.doccarchive"
done
if [[ ${#all[@]} -gt 0 ]] && ! swift Scripts/undocumented-symbols.swift "${all[@]}" >&2; then
    echo "docs: public declarations without a doc comment (above)" >&2
    status=1
fi
exit $status
