import Foundation
import Mischief
import Synchronization

extension NetworkActions {
    /// `latency(2s, jitter: 500ms, …match…)`, and `delay(…)`, which replaces the generic delay: that one would
    /// block the thread deciding the request; this one waits in the URL protocol without blocking.
    static func latency(name: String, parameter: String) -> Action {
        Action(
            ActionSignature(
                name, summary: "waits before the answer, the failure or the network, without blocking a thread",
                parameters: [
                    .init(parameter, .duration, step: .duration(SpecDuration(.milliseconds(100))), summary: "how long"),
                    .init(
                        "jitter", .duration, default: .duration(SpecDuration(nanoseconds: 0)),
                        summary: "up to this much more or less, chosen per request from a seed"),
                ] + matchParameters,
                composes: true)
        ) { (action, context) throws(SpecError) in
            let base = action.duration(parameter)!
            let jitter = action.duration("jitter")!
            guard base >= .zero else {
                throw context.error(
                    "latency cannot be negative, got \(SpecDuration(base))", argument: parameter, of: action)
            }
            guard jitter >= .zero else {
                throw context.error(
                    "jitter cannot be negative, got \(SpecDuration(jitter))", argument: "jitter", of: action)
            }
            let match = try match(action, context)
            let label = action.canonicalTerm.description
            let draws = JitterDraws(seed: context.seed ?? stableHash(label))
            return .wrap { inner in
                match.rule(
                    inner.map { response in
                        response.delayed(by: draws.latency(base, jitter: jitter)).noting(label)
                    })
            }
        }
    }

    /// `bandwidth(64, …match…)`: the body flows at no more than this many kilobits per second.
    static let bandwidth = Action(
        ActionSignature(
            "bandwidth", summary: "limits how fast the body arrives, in kilobits per second",
            parameters: [
                .init("kbps", .number, step: .integer(16), summary: "kilobits per second; 1 kbps is 125 bytes a second")
            ] + matchParameters,
            composes: true)
    ) { (action, context) throws(SpecError) in
        let kilobits = action.number("kbps")!
        guard kilobits > 0, kilobits.isFinite else {
            throw context.error("bandwidth must be above 0 kbps, got \(kilobits)", argument: "kbps", of: action)
        }
        let match = try match(action, context)
        let label = action.canonicalTerm.description
        return .wrap { inner in
            match.rule(inner.map { $0.limited(toKilobitsPerSecond: kilobits).noting(label) })
        }
    }
}

/// Seeded jitter for one latency rule: the i-th request it slows gets the same wait in every run with the same seed.
final class JitterDraws: Sendable {
    private let seed: UInt64
    private let count = Atomic<UInt64>(0)

    init(seed: UInt64) { self.seed = seed }

    /// `base` moved by up to `jitter` either way (never below zero).
    func latency(_ base: Duration, jitter: Duration) -> Duration {
        guard jitter > .zero else { return base }
        let index = count.wrappingAdd(1, ordering: .relaxed).oldValue
        var generator = SeededGenerator(seed: seed, stream: index)
        let offset = jitter * (generator.nextUnit() * 2 - 1)
        return max(.zero, base + offset)
    }
}

/// A stable 64-bit hash of text (FNV-1a), so a rule without a profile seed still draws the same jitter every run.
func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
}
