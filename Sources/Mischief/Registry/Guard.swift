/// A check on the target's own counters (or a health check it registers) that reverts chaos when it fails.
///
/// The registry evaluates its guards on its own housekeeping thread, about once a second, never on a seam's call
/// path. When a guard's condition holds, what it guards is reverted at once, the event log records a
/// ``Event/Kind/guardTripped`` event with the figures, and the guard stays tripped until it is armed again (its
/// profile applied again, or ``Registry/rearmGuard(_:)``).
///
/// ```swift
/// let flaky = try registry.apply(profile: "Flaky network")
/// try registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s", reverts: .profile("Flaky network")))
/// try registry.addGuard(Guard(.noSuccess(seam: "api.checkout", for: .seconds(30)), reverts: .layers(flaky.layers)))
/// ```
/// Test example: make the failing calls, then wait for the trip the registry's own thread reports about a second
/// later (a health-check guard trips at the next round once chaos makes its seam return false):
///
/// ```swift
/// let events = registry.eventStream()
/// try registry.apply(spec: "return(false)", to: "health.db")
/// for await event in events where event.kind == .guardTripped { break }
/// #expect(registry.guards.allSatisfy(\.isTripped))
/// ```
public struct Guard: Hashable, Sendable, CustomStringConvertible {
    /// When a guard trips.
    public enum Condition: Hashable, Sendable, CustomStringConvertible {
        /// More than `fraction` of the seam's calls threw over the last `window`, once at least `minimumCalls` were
        /// made in it. Written `errors(net.request) > 50% over 10s` (`min 5` by default).
        case errorRate(seam: SeamID, above: Double, over: Duration, minimumCalls: Int)
        /// No call of the seam returned without throwing for `duration` (whether or not any was made). Written
        /// `no-success(api.checkout) for 30s`.
        case noSuccess(seam: SeamID, for: Duration)
        /// The target's health check, a registered `Seam<Void, Bool, Never>`, returned false `failures` times in a
        /// row. Written `check(health.db)`, or `check(health.db) fails 3 times`.
        case check(seam: SeamID, failures: Int)

        /// The fewest calls in its window an error-rate guard needs before it can trip.
        public static let defaultMinimumCalls = 5

        /// The seam the condition reads.
        public var seam: SeamID {
            switch self {
            case .errorRate(let seam, _, _, _), .noSuccess(let seam, _), .check(let seam, _): seam
            }
        }

        /// The condition in its one canonical text form, which ``Guard/Condition/init(parsing:)`` reads back.
        public var description: String {
            switch self {
            case .errorRate(let seam, let fraction, let window, let minimum):
                let minText = minimum == Self.defaultMinimumCalls ? "" : " min \(minimum)"
                return "errors(\(seam)) > \(Self.percent(fraction)) over \(SpecDuration(window))\(minText)"
            case .noSuccess(let seam, let duration):
                return "no-success(\(seam)) for \(SpecDuration(duration))"
            case .check(let seam, let failures):
                return failures == 1 ? "check(\(seam))" : "check(\(seam)) fails \(failures) times"
            }
        }

        /// A fraction as a percentage without a needless `.0`: `0.5` is `50%`, `0.125` is `12.5%`.
        static func percent(_ fraction: Double) -> String {
            let value = (fraction * 100 * 1000).rounded() / 1000
            return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
        }
    }

    /// What a guard reverts when it trips.
    public enum Scope: Hashable, Sendable, CustomStringConvertible {
        /// Every active layer.
        case everything
        /// The named profile, while it is applied.
        case profile(String)
        /// The given layers (what one apply applied), while any is active. Its text and its JSON keep the v1 word,
        /// `entries`.
        case layers([LayerID])

        /// `everything`, `profile NAME`, or, for given layers, `entries #3, #4`.
        public var description: String {
            switch self {
            case .everything: "everything"
            case .profile(let name): "profile \(name)"
            case .layers(let layers): "entries \(layers.map(String.init(describing:)).joined(separator: ", "))"
            }
        }
    }

    /// When the guard trips.
    public var condition: Condition
    /// What it reverts when it trips.
    public var reverts: Scope

    /// A guard that reverts `reverts` when `condition` holds.
    public init(_ condition: Condition, reverts: Scope = .everything) {
        self.condition = condition
        self.reverts = reverts
    }

    /// A guard whose condition is written as text (see ``Condition``).
    ///
    /// - Throws: ``SpecError`` with the column of the problem and what was expected there.
    public init(parsing text: String, reverts: Scope = .everything) throws(SpecError) {
        self.init(try Condition(parsing: text), reverts: reverts)
    }

    /// The condition, then what it reverts: `errors(net.request) > 50% over 10s reverts everything`.
    public var description: String { "\(condition) reverts \(reverts)" }
}
