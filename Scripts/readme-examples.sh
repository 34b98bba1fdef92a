#!/usr/bin/env bash
# Builds every ```swift example in README.md and the DocC articles (Sources/*/*.docc/*.md) as an executable of a
# scratch package (.build-readme, depending on this package by path, as an app would), runs each one not marked
# compile-only, and compares what it prints with the page's `<!-- example: output -->` block. The markers are
# described in Tests/MischiefCLITests/ReadmeExample.swift.
#
# Usage: Scripts/readme-examples.sh      (after `swift build --build-tests`; it builds the tests if needed)
# A cold build of the scratch package takes 2-4 minutes on 2 cores; later runs rebuild only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

MISCHIEF_README_EXAMPLES=1 swift test --filter ReadmeExamplesTests
