import Synchronization

/// Any seam, whatever its types: what ``Registry/register(_:)-([AnySeam])`` takes.
public protocol AnySeam: AnyObject, Sendable {
    /// The seam's id, titles and kind.
    var info: SeamInfo { get }
    /// The signatures of the actions specs can use on it, its own first.
    var actionSignatures: [ActionSignature] { get }
}

extension AnySeam {
    /// Calls `body` after every apply or revert that changes what this seam does, outside the registry's lock.
    ///
    /// For catalogue families whose state outlives a call, such as the chaos clock's sleepers, which must be
    /// rescheduled when time is shifted, frozen or given back. `body` runs on the thread that applied or
    /// reverted; keep it short.
    public func onChange(_ body: @escaping @Sendable () -> Void) {
        guard let seam = self as? any RegisteredSeam else {
            preconditionFailure("\(info.id): only Seam and AsyncSeam can be observed for changes")
        }
        seam.core.changeListeners.withLock { $0.append(body) }
    }
}

/// What the registry needs from a seam to install behaviours on it.
protocol RegisteredSeam: AnySeam {
    var core: SeamCore { get }
    /// Compiles one change's behaviour into a run closure for this seam (type-erased).
    func compile(_ behaviour: any Sendable, context: LayerContext) throws(MischiefError) -> any Sendable
    /// Builds the behaviour a spec describes, and the spec's canonical text.
    func behaviour(
        from spec: Spec, seed: UInt64?, sessionSeed: UInt64, fileAccess: FileAccess
    ) throws(SpecError) -> (behaviour: any Sendable, canonical: String)
    /// Combines the compiled runs of the active layers, newest first, into the box calls will use.
    func makeBox(layers: [any Sendable]) -> AnyObject
}

/// Per-layer compile inputs and outputs.
final class LayerContext: @unchecked Sendable {
    // @unchecked: created, used and read by one thread under the registry's lock.
    let sessionSeed: UInt64
    let reporter: @Sendable (SeamID, String) -> Void
    let label: String
    var seeds: [UInt64] = []

    init(sessionSeed: UInt64, label: String, reporter: @escaping @Sendable (SeamID, String) -> Void) {
        self.sessionSeed = sessionSeed
        self.label = label
        self.reporter = reporter
    }

    func make<Failure: Error>(
        seam: SeamID, isAsync: Bool, makeFailure: (@Sendable (String) -> Failure)?
    ) -> CompileContext<Failure> {
        CompileContext(
            seam: seam, isAsync: isAsync, makeFailure: makeFailure,
            sessionSeed: sessionSeed ^ SeededGenerator.hash(label),
            reporter: EventReporter(seam: seam, sink: reporter))
    }
}
