#!/usr/bin/env bash
# The tree is formatted by swift-format (the toolchain's `swift format`) with .swift-format; this checks it stays
# so. Fix what it reports with:
#     swift format -i -r Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Sources Benchmarks/MischiefBench
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Sources Benchmarks/MischiefBench
    Examples/HummingbirdService/Package.swift Examples/HummingbirdService/Sources
    Examples/LiveTestSample/Package.swift Examples/LiveTestSample/Sources Examples/LiveTestSample/Tests)  # not their .build
swift format lint --strict --recursive --parallel "${paths[@]}"
echo "swift format lint --strict: $(git ls-files '*.swift' | wc -l) files clean"
