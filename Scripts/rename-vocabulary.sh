#!/usr/bin/env bash
# One vocabulary (issue 29): the renames of public names, by whole word, across code, tests and docs. Kept so a branch
# written before them can be brought up to date the same way: run it, build, and follow the deprecation warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
git mv -k Sources/Mischief/Registry/RegistryChanges.swift Sources/Mischief/Registry/RegistryDelta.swift 2>/dev/null || true
git mv -k Sources/Mischief/Wire/RegistryChanges+Codable.swift Sources/Mischief/Wire/RegistryDelta+Codable.swift 2>/dev/null || true
git mv -k Sources/Mischief/Wire/StreamChanges.swift Sources/Mischief/Wire/StreamDelta.swift 2>/dev/null || true
git ls-files '*.swift' '*.md' '*.sh' | grep -v '^Scripts/rename-vocabulary.sh$' | grep -v '^CHANGELOG.md$' \
    | xargs perl -pi -e 's/\bEntryID\b/LayerID/g; s/\bRegistryChanges\b/RegistryDelta/g; s/\bStreamChanges\b/StreamDelta/g'
