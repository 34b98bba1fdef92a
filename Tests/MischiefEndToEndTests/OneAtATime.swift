import Foundation
import Synchronization
import Testing

/// Runs the tests it marks one at a time, across every suite of this target: each starts the built binary, tmux or
/// both, and two at once on a two-core machine slowed each other past their deadlines (Swift Testing's `.serialized`
/// only orders the tests of one suite, and suites still run beside each other).
///
/// Every suite here carries it (`@Suite(.oneAtATime)`); ``OneAtATimeTests`` checks that none lacks it. Time spent
/// waiting for a turn counts against no deadline: the deadlines start inside the test.
struct OneAtATime: SuiteTrait, TestTrait, TestScoping {
    /// One turn at a time for the whole test process.
    private static let turn = Turn()

    var isRecursive: Bool { true }

    /// A scope for each test case only (not for the suites around them, which would hold the turn their tests wait
    /// for).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.turn.take()
        defer { Self.turn.give() }
        try await function()
    }
}

extension Trait where Self == OneAtATime {
    /// Runs the test (every test of the suite) alone among this target's tests.
    static var oneAtATime: Self { OneAtATime() }
}

/// An asynchronous lock: waiters are suspended, never a thread blocked, and served in the order they came.
private final class Turn: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func take() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.taken else {
                    state.taken = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// The rule of this target, checked on its sources: every suite runs its tests ``OneAtATime``, and no test stands
/// outside a suite (where no suite trait would reach it).
@Suite(.oneAtATime) struct OneAtATimeTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test func everySuiteHereRunsOneAtATime() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".swift") && $0 != "OneAtATime.swift" }.sorted()
        #expect(files.count > 20, "the end-to-end sources were not found in \(Self.directory.path)")
        for file in files {
            let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.contains("@Suite") {
                #expect(line.contains(".oneAtATime"), "\(file):\(number + 1) is a suite without .oneAtATime")
            }
            for (number, line) in lines.enumerated() where line.hasPrefix("@Test") {
                Issue.record("\(file):\(number + 1): a test outside a suite, which .oneAtATime cannot reach")
            }
        }
    }
}
