#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mischief-fuzz HARNESS [libFuzzer options…] [corpus directories…]`
///
/// Built only with `--sanitize=fuzzer` (Scripts/fuzz.sh): libFuzzer's own `main` runs, calls `LLVMFuzzerInitialize`
/// (which takes the harness name out of argv before libFuzzer reads its options), then `LLVMFuzzerTestOneInput` for
/// each input. Each harness is one file of this target; libFuzzer's options (`-max_total_time=60`, `-runs=N`,
/// `-seed=N`) follow its name.
enum FuzzMain {
    static let harnesses: [FuzzHarness] = [
        smokeHarness,
        keysHarness,
        cellsHarness,
        gpxHarness,
        specHarness,
        specBindHarness,
        specShapesHarness,
        yamlProfileHarness,
        yamlThemeHarness,
        pseudoHarness,
        httpRequestHarness,
        apiJSONHarness,
        recordingHarness,
        exportHarness,
        // Each area adds its harnesses here, one line each.
    ]

    /// The harness named by argv[1]; exits with a usage message when there is none.
    static func select(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
    ) {
        guard argc.pointee >= 2, let list = argv.pointee, let first = list[1],
            let harness = harnesses.first(where: { $0.name == String(cString: first) })
        else {
            printError("usage: mischief-fuzz HARNESS [libFuzzer options] [corpus dirs]\nharnesses:")
            for harness in harnesses { printError("  \(harness.name)  \(harness.summary)") }
            exit(64)
        }
        selectedHarness = harness
        // Drop argv[1] so libFuzzer does not take the name for a corpus directory.
        for index in 1..<Int(argc.pointee) { list[index] = list[index + 1] }
        argc.pointee -= 1
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    FuzzMain.select(argc, argv)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedHarness!.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
