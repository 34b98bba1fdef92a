#!/usr/bin/env bash
# Builds the DocC documentation of the Mischief and MischiefCatalog modules (their catalogs are
# Sources/<Module>/<Module>.docc) with swift-docc-plugin, treating every DocC warning as an error: a broken symbol
# link, an undocumented parameter or an ambiguous reference fails the build.
#
# Usage: Scripts/docs.sh [TARGET…]      both modules when none is named
#   DOCS_OUTPUT=.build-docs   where the .doccarchive folders go
# Preview one while writing: swift package --disable-sandbox preview-documentation --target Mischief
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT=${DOCS_OUTPUT:-.build-docs}
if [[ $# -gt 0 ]]; then targets=("$@"); else targets=(Mischief MischiefCatalog); fi
mkdir -p "$OUTPUT"

status=0
for target in "${targets[@]}"; do
    echo "docs: $target"
    log="$OUTPUT/$target.log"
    if swift package --allow-writing-to-directory "$OUTPUT" generate-documentation --target "$target" \
        --output-path "$OUTPUT/$target.doccarchive" --warnings-as-errors >"$log" 2>&1; then
        echo "docs: $target built in $OUTPUT/$target.doccarchive"
    else
        # DocC's diagnostics, without the build's progress lines.
        grep -v '^\[[0-9]*/[0-9]*\]' "$log" >&2 || true
        echo "docs: $target has DocC warnings or errors (above)" >&2
        status=1
    fi
done
exit $status
