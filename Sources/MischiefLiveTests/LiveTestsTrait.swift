import Mischief
import MischiefTesting
import Testing

/// A trait that makes a suite's tests a live session: each test runs in a scope of its own that a console attached to
/// the test process lists (its name, state, time, the seams it called with its own counts, its layers) and can change
/// alone, while the other tests run on.
///
/// ```swift
/// @Suite(.liveTests)                       // serves when the run is started with MISCHIEF_SERVE=1
/// struct InventoryTests {
///     @Test func restocksSlowly() async throws { … }
/// }
/// ```
/// ```
/// MISCHIEF_SERVE=1 swift test          # then, in another terminal:
/// mischief attach --socket InventoryPackageTests
/// mischief apply inventory.fetch 'throw("offline")' --scope '*restocksSlowly*' --socket InventoryPackageTests
/// ```
/// The first test to start serves the control API for the whole process (named after the test bundle, so
/// `mischief list` finds it like any target); without `MISCHIEF_SERVE=1` (or ``LiveTestsTrait/Serving/always``)
/// nothing listens, nothing is published, and the tests run as they would without the trait. A test that fails while
/// its scope had changes from outside says so in its failure: which changes, their specs, seeds and sources, and the
/// trait that reproduces them.
public struct LiveTestsTrait: SuiteTrait, TestTrait, TestScoping {
    /// When the test process serves the control API.
    public enum Serving: Sendable, Equatable {
        /// When the environment says so: `MISCHIEF_SERVE=1`.
        case whenAsked
        /// Always, as soon as a test with the trait starts.
        case always
    }

    let serving: Serving
    let registry: Registry

    /// On a suite, the trait reaches every test in it.
    public var isRecursive: Bool { true }

    /// A scope for each test case only, not for the suites around them.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs one test in a published scope of its own (when the process serves), marking it failed at its first
    /// failing issue and adding to each failing issue the changes its scope had from outside.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard await LiveSession.serve(serving, registry: registry) else {
            try await function()
            return
        }
        let scope = TestScope(adopting: test.name, registry: registry)
        guard let id = registry.publish(scope.chaos) else {
            try await function()
            return
        }
        let registry = registry
        let chaos = scope.chaos
        let handler = IssueHandlingTrait.compactMapIssues { issue in
            guard issue.isFailure else { return issue }
            registry.scopeFailed(id)
            guard let note = LiveSession.note(for: chaos, id: id) else { return issue }
            var noted = issue
            noted.comments.append(Comment(rawValue: note))
            return noted
        }
        do {
            try await scope.run {
                try await handler.provideScope(for: test, testCase: testCase) {
                    do {
                        try await function()
                    } catch {
                        // A thrown error is recorded by the runner, outside this handler: record it here instead when
                        // the console changed the test, so its failure says how.
                        guard !chaos.outsideLayers.isEmpty, !(error is CancellationError) else { throw error }
                        Issue.record(error, sourceLocation: test.sourceLocation)
                    }
                }
            }
        } catch {
            registry.endScope(id, passed: false)
            throw error
        }
        registry.endScope(id, passed: true)
    }
}

/// The `.liveTests` traits, so a suite says it is a live session where it is declared: `@Suite(.liveTests)`.
extension Trait where Self == LiveTestsTrait {
    /// Makes the tests a live session when the run is started with `MISCHIEF_SERVE=1`; see ``LiveTestsTrait``.
    public static var liveTests: Self { LiveTestsTrait(serving: .whenAsked, registry: .shared) }

    /// Makes the tests a live session, serving the control API `serving` says when, for `registry`'s seams.
    ///
    /// - Parameters:
    ///   - serving: ``LiveTestsTrait/Serving/always`` serves without `MISCHIEF_SERVE=1`.
    ///   - registry: The registry the tests' seams are registered in; the shared one by default.
    public static func liveTests(serving: LiveTestsTrait.Serving, registry: Registry = .shared) -> Self {
        LiveTestsTrait(serving: serving, registry: registry)
    }
}
