/// Per-layer compile inputs and outputs.
final class LayerContext: @unchecked Sendable {
    // @unchecked: created, used and read by one thread under the registry's lock.
    let sessionSeed: UInt64
    let reporter: @Sendable (SeamID, String) -> Void
    let label: String
    let allowsCrash: Bool
    var seeds: [UInt64] = []
    var pauses: [PauseSite] = []
    var delays: [PauseSite] = []

    init(
        sessionSeed: UInt64, label: String, allowsCrash: Bool = false,
        reporter: @escaping @Sendable (SeamID, String) -> Void
    ) {
        self.sessionSeed = sessionSeed
        self.label = label
        self.allowsCrash = allowsCrash
        self.reporter = reporter
    }

    func make<Failure: Error>(
        seam: SeamID, isAsync: Bool, makeFailure: (@Sendable (String) -> Failure)?
    ) -> CompileContext<Failure> {
        CompileContext(
            seam: seam, isAsync: isAsync, makeFailure: makeFailure,
            sessionSeed: sessionSeed ^ SeededGenerator.hash(label),
            reporter: EventReporter(seam: seam, sink: reporter), allowsCrash: allowsCrash)
    }
}
