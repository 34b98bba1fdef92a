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

status=0
for target in "${targets[@]}"; do
    echo "docs: $target"
    log="$OUTPUT/$target.log"
    started="$OUTPUT/$target.started"
    touch "$started"
    if swift package --allow-writing-to-directory "$OUTPUT" generate-documentation --target "$target" \
        --output-path "$OUTPUT/$target.doccarchive" --warnings-as-errors >"$log" 2>&1; then
        echo "docs: $target built in $OUTPUT/$target.doccarchive"
        # DocC does not warn about a declaration without docs; the symbol graphs it was built from tell.
        mapfile -t graphs < <(find .build -path "*/extracted-symbols/*/$target/*.symbols.json" -newer "$started")
        if [[ ${#graphs[@]} -eq 0 ]]; then
            echo "docs: no symbol graphs of $target found under .build" >&2
            status=1
        elif ! swift Scripts/undocumented-symbols.swift "${graphs[@]}" >&2; then
            echo "docs: $target has public declarations without a doc comment (above)" >&2
            status=1
        fi
    else
        # DocC's diagnostics, without the build's progress lines.
        grep -v '^\[[0-9]*/[0-9]*\]' "$log" >&2 || true
        echo "docs: $target has DocC warnings or errors (above)" >&2
        status=1
    fi
done
exit $status
