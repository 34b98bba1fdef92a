#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One fuzz harness: a name for the command line and a function that takes any bytes and must never crash.
///
/// A harness checks its own invariants with `fuzzCheck`, which aborts (so libFuzzer saves the input) when one fails.
struct FuzzHarness: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (UnsafeRawBufferPointer) -> Void
}

/// The harness the driver runs; set once in `main` before libFuzzer starts calling back.
nonisolated(unsafe) var selectedHarness: FuzzHarness?

/// Fails the run (libFuzzer keeps the input as a crash artifact) when an invariant does not hold.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard condition() else {
        printError("fuzz invariant failed: \(message())")
        abort()
    }
}

/// Writes a line to standard error without touching C's `stderr` global (not concurrency-safe in Swift 6).
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
