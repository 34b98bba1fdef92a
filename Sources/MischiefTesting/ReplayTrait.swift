import Mischief
import Testing

/// A trait that replays a recorded session in the test's own scope: the recording's changes are made after the same
/// calls of their seams as the test's code makes them, and the decisions those calls get are checked against the
/// recorded ones; the first that differs, or a step whose calls never came, fails the test with both values.
///
/// ```swift
/// @Test(.replaying(recordedSession, registering: { try $0.register(Shop.fetch, Shop.clock) }))
/// func checkoutSurvivesTheRecordedOutage() async throws {
///     try await Shop.checkout()   // the calls the recording numbered: its changes land between them
/// }
/// ```
/// The changes are seen only by the test's task tree (a `ScopedReplay` inside the test's ``TestScope``), so tests
/// that replay different sessions run in parallel. The seams the recording names are looked up in `registry`;
/// `registering` runs first, when the test starts, so the test registers what it needs itself (registering a seam
/// again is harmless). `mischief export --as test` writes a test with this trait.
public struct ReplayTrait: TestTrait, TestScoping {
    let lines: [String]
    let registry: Registry
    let registering: (@Sendable (Registry) throws -> Void)?
    let site: CallSite

    /// Registers the seams, reads the recording, then runs `function` in a scope that replays it and checks the
    /// outcome when it returns.
    ///
    /// - Throws: What `registering` throws, or a `RecordingError` for a recording that cannot be read; the
    ///   test does not run.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try registering?(registry)
        let schedule = try ReplaySchedule(Recording(jsonLines: lines.joined(separator: "\n")))
        let scope = TestScope(test.name, registry: registry)
        try await scope.run {
            let replay = ScopedReplay(schedule, name: test.name, registry: registry)
            let outcome: ReplayOutcome
            do {
                try await replay.scope.run { try await function() }
                outcome = replay.finish()
            } catch {
                _ = replay.finish()
                throw error
            }
            if let divergence = outcome.divergence {
                fail("The replay of the recording \(divergence)", at: site)
            }
        }
    }
}

/// The `.replaying(…)` traits, so a test says which recorded session it replays: `@Test(.replaying(lines))`.
extension Trait where Self == ReplayTrait {
    /// Replays a recording, given as its JSON Lines one element a line, in the test's scope; see ``ReplayTrait``.
    ///
    /// - Parameters:
    ///   - lines: The recording's lines, as `MISCHIEF_RECORD` or `mischief record` wrote them.
    ///   - registry: Where the seams it names are registered; the shared registry by default.
    ///   - registering: Registers those seams in `registry` before the replay starts.
    ///   - fileID: Where the trait is written, for the issue a divergence records.
    ///   - filePath: Where the trait is written, for the issue a divergence records.
    ///   - line: Where the trait is written, for the issue a divergence records.
    ///   - column: Where the trait is written, for the issue a divergence records.
    public static func replaying(
        _ lines: [String], registry: Registry = .shared,
        registering: (@Sendable (Registry) throws -> Void)? = nil, fileID: String = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Self {
        ReplayTrait(
            lines: lines, registry: registry, registering: registering,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Replays a recording, given as its JSON Lines text, in the test's scope; see ``ReplayTrait``.
    public static func replaying(
        jsonLines: String, registry: Registry = .shared,
        registering: (@Sendable (Registry) throws -> Void)? = nil, fileID: String = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Self {
        ReplayTrait(
            lines: [jsonLines], registry: registry, registering: registering,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

/// Runs `body` in a scope that replays `recording` (see ``ReplayTrait``) and records an issue for the first
/// divergence; returns how the replay went.
///
/// ```swift
/// let outcome = await withReplay(recording, registry: registry) { await checkout() }
/// ```
@discardableResult
public func withReplay(
    _ recording: Recording, registry: Registry = .shared, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () async throws -> Void
) async throws -> ReplayOutcome {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let replay = ScopedReplay(try ReplaySchedule(recording), name: "\(site)", registry: registry)
    let outcome: ReplayOutcome
    do {
        try await replay.scope.run { try await body() }
        outcome = replay.finish()
    } catch {
        _ = replay.finish()
        throw error
    }
    if let divergence = outcome.divergence { fail("The replay of the recording \(divergence)", at: site) }
    return outcome
}
