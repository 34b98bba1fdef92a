import Mischief
import Testing

@testable import MischiefSystem

/// `system.net`'s seam built as installing builds it, in a registry of its own, with no slot rebound: what a spec
/// decides for each call, checked in process.
struct NetFixture {
    let registry: Registry
    let seam: Seam<SystemNetCall, SystemNetOutcome, Never>

    init(seed: UInt64 = 7) throws {
        registry = Registry(sessionSeed: seed)
        seam = SystemNet.makeSeam()
        try registry.register(seam)
    }

    /// Applies `spec` to `system.net`, stacking on what is applied (the seam merges).
    func apply(_ spec: String, seed: UInt64? = nil) throws {
        try registry.apply(spec: spec, to: SystemSeams.netID, seed: seed)
    }

    /// The error `spec` is refused with; nil (and an issue) when it is accepted.
    func error(_ spec: String, sourceLocation: SourceLocation = #_sourceLocation) -> SpecError? {
        do {
            _ = try registry.change(spec: spec, for: SystemSeams.netID)
            Issue.record("\(spec) was accepted", sourceLocation: sourceLocation)
            return nil
        } catch {
            guard case .invalidSpec(_, let specError) = error else {
                Issue.record("\(spec): \(error)", sourceLocation: sourceLocation)
                return nil
            }
            return specError
        }
    }

    /// What the seam decides for `call`, as a hook would ask it.
    func decide(_ call: SystemNetCall) -> SystemNetOutcome { seam(call) }
}

/// A lookup of `host`.
func lookup(_ host: String, port: Int? = nil) -> SystemNetCall {
    SystemNetCall(operation: .lookup, host: host, port: port)
}

/// A blocking connect to `address:port`, which lookups answered for `names`.
func connect(_ address: String, port: Int = 443, names: [String] = []) -> SystemNetCall {
    SystemNetCall(operation: .connect, host: address, names: names, port: port)
}
