import Foundation
import Mischief
import MischiefCatalog
import MischiefTestSupport
import Synchronization

/// A registry and a chaos clock of a test's own, so tests run in parallel.
struct ClockFixture {
    let registry = Registry(sessionSeed: 7)
    let clock: ChaosClock

    /// - Parameter settleYields: The clock's yield heuristic; 0 proves a test does not rest on it.
    init(settleYields: Int = 20) throws {
        clock = ChaosClock(id: "test.clock", settleYields: settleYields)
        try registry.register(clock.seam)
    }

    /// Applies a spec to the clock's seam as the console does.
    @discardableResult
    func apply(_ spec: String) throws -> Applied {
        try registry.apply(spec: spec, to: "test.clock", source: "test")
    }

    /// The spec error a spec is refused with, or nil when it applies.
    func refusal(_ spec: String) -> SpecError? {
        do {
            try apply(spec)
            return nil
        } catch {
            guard case .invalidSpec(_, let specError) = error as? MischiefError else { return nil }
            return specError
        }
    }

    /// Starts `body` in a task and returns once it sleeps on the clock, so sleeps start in a known order.
    ///
    /// - Throws: `Poll.Failure` when it has not gone to sleep within a minute (the task is cancelled).
    func sleeper<T: Sendable>(
        _ body: @escaping @Sendable (ChaosClock) async throws -> T
    ) async throws -> Task<T, any Error> {
        let count = clock.sleeperCount
        let task = Task { [clock] in try await body(clock) }
        do {
            try await Deadline.wait(for: "sleeper \(count + 1) to sleep on the clock") { [clock] in
                await clock.waitUntilSleeping(count + 1)
            }
        } catch {
            task.cancel()
            throw error
        }
        return task
    }
}

/// An ordered record of what sleepers did, from any task.
final class Log: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

extension ChaosClock.Instant {
    /// The instant of an ISO 8601 UTC date-time such as `2030-01-01T00:00:00Z`.
    init(_ iso: String) {
        self.init(ISO8601DateFormatter().date(from: iso)!)
    }

    /// Far beyond any advance a test makes: a sleeper parks here once done, so an advance sees it sleep again.
    static let parked = ChaosClock.Instant(durationSince1970: .seconds(1_000_000_000_000))
}

extension Date {
    /// The date of an ISO 8601 UTC date-time.
    init(iso: String) {
        self = ISO8601DateFormatter().date(from: iso)!
    }
}
