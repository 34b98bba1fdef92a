#!/usr/bin/env bash
# One vocabulary (issues 29 and 46): the renames of public names, by whole word, across code, tests and docs. Kept so
# a branch written before them can be brought up to date the same way: run it, build, and follow the deprecation
# warnings. The files that use or name the retired names on purpose (`Deprecated*`, `*RetiredNames*`, the codebase
# guide's glossary) are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
git mv -k Sources/Mischief/Registry/RegistryChanges.swift Sources/Mischief/Registry/RegistryDelta.swift 2>/dev/null || true
git mv -k Sources/Mischief/Wire/RegistryChanges+Codable.swift Sources/Mischief/Wire/RegistryDelta+Codable.swift 2>/dev/null || true
git mv -k Sources/Mischief/Wire/StreamChanges.swift Sources/Mischief/Wire/StreamDelta.swift 2>/dev/null || true
files() {
    git ls-files '*.swift' '*.md' '*.sh' | grep -v '^Scripts/rename-vocabulary.sh$' | grep -v '^CHANGELOG.md$' \
        | grep -v 'Deprecated' | grep -v 'RetiredNames' | grep -v '^docs/dev/CodebaseGuide.md$'
}
# Issue 29: a layer's id, the delta types.
files | xargs perl -pi -e 's/\bEntryID\b/LayerID/g; s/\bRegistryChanges\b/RegistryDelta/g; s/\bStreamChanges\b/StreamDelta/g'
# Issue 46: a layer is never an entry or a change, a delta never changes; one type a (seam, spec) pair, one header.
files | xargs perl -pi -e '
    s/\bregistry\.revert\(entries:/registry.revert(layers:/g;
    s/\bregistry\.settle\(\)/registry.finishReverting()/g;
    s/\b(?:Profile|EnvironmentChaos)\.Entry\b/SeamSpec/g;
    s/\bTargetInfo\b/TargetHeader/g;
    s/\blostChanges\b/lostLayers/g;
    s/\bhasUnsavedChanges\b/hasUnsavedLayers/g;
    s/\bevents\(changes:/events(deltas:/g;
    s/\bcase \.changes\(let /case .delta(let /g;
    s/\byield\(\.changes\(/yield(.delta(/g;
    s/``(ConsoleUpdate|StreamMessage)\/changes\(_:\)``/``$1\/delta(_:)``/g'
# Issue 46, inside the core: a registry's layer has an `id` (was `entry`), the ids a seam's record keeps are its
# `keptLayers` (was `entries`), a seam core serves `layers` (was `entries`), a session owns `layers`; a guard's
# scope of given layers is `Guard.Scope.layers` (was `.entries`, the only `case .entries` there is). Each pattern
# names its context, since `entries` and `entry` mean other things elsewhere (a recording's lines, a profile's seam
# specs, a palette's colours).
files | xargs perl -pi -e '
    s/\bnextEntry\b/nextLayer/g;
    s/(?<![\w.])(layer|old)\.entry\b/$1.id/g;
    s/\$0\.entry\b/\$0.id/g;
    s/\\(\.1)?\.entry\b/\\$1.id/g;
    s/\.revert\(entries:/.revert(layers:/g;
    s/\b(install\((?:box|nil|\w+), )entries:/$1layers:/g;
    s/^(\s+box, )entries: Set\(/$1layers: Set(/;
    s/^(\s+)entry: (\w+), run: /$1id: $2, run: /;
    s/\b(waiting|retired)\.entries\b/$1.layers/g;
    s/\bformUnion\(state\.entries\)/formUnion(state.layers)/g;
    s/\bowner: state\.owner, entries: state\.entries\b/owner: state.owner, layers: state.layers/g;
    s/\bstate\.entries = entries\b/state.layers = layers/g;
    s/\bownership\.withLock \{ \$0\.entries \}/ownership.withLock { \$0.layers }/g;
    s/\b(records\[[^\]]+\][!?]|record)\.entries\b/$1.keptLayers/g;
    s/\bentries\(guardedBy:/layers(guardedBy:/g;
    s/\b(trip(?:Held)?\(index, figures: figures, )entries:/$1layers:/g;
    s/\bexpire\(\)\.entries\b/expire().layers/g;
    s/\b(session|sessions\[\w+\]!)\.entries\b/$1.layers/g;
    s/(reverts: |Guard\.Scope)\.entries\(/$1.layers(/g;
    s/\bcase \.entries\(let /case .layers(let /g'
