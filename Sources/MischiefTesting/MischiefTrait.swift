import Mischief
import Testing

/// A trait that runs a test, or a suite, in a ``TestScope`` with changes applied for it alone.
///
/// ```swift
/// @Test(.mischief("clock.now", "shift(+1d)"))
/// func showsTomorrow() { … }
///
/// @Suite(.mischief(profile: tokyo))
/// struct TokyoTests { … }
///
/// @Test(.mischief(.change(clock.seam, .constant(.frozen(at: y2038)))))
/// func certificateExpires() { … }
/// ```
/// The changes are seen only by the test's task tree, so tests that change the same seam differently run in
/// parallel; they end with the test on every way out of it (return, thrown error, failed expectation,
/// cancellation), and the expectations made in the test are checked then. On a suite, the suite's scope
/// holds for all its tests, and each test's own scope comes before it.
public struct MischiefTrait: TestTrait, SuiteTrait, TestScoping {
    let changes: [ScopedChange]
    let registry: Registry
    let site: CallSite

    /// Runs `function` in a scope with the trait's changes, then checks the scope's expectations.
    ///
    /// - Throws: A `MischiefError` saying which change could not be applied and why; the test does not run.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A live session's scope for this very test (MischiefLiveTests) takes the changes, so a console sees them
        // as the test's own layers.
        if let live = TestScope.current, live.adoptedTest == test.name, live.chaos.registry === registry {
            for change in changes { try change.apply(live.chaos) }
            try await function()
            return
        }
        let scope = TestScope(test.name, registry: registry)
        for change in changes { try change.apply(scope.chaos) }
        try await scope.run { try await function() }
    }
}

/// The `.mischief(…)` traits, so a test or suite says what it changes where it is declared: `@Test(.mischief(…))`.
extension Trait where Self == MischiefTrait {
    /// Applies `spec` to the seam `id` for the test (or suite) alone.
    public static func mischief(
        _ id: SeamID, _ spec: String, registry: Registry = .shared, fileID: String = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Self {
        MischiefTrait(
            changes: [.spec(id, spec)], registry: registry,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Applies every entry of `profile` for the test (or suite) alone.
    public static func mischief(
        profile: Profile, registry: Registry = .shared, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        MischiefTrait(
            changes: [.profile(profile)], registry: registry,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Applies the profile `name` defined in `registry` for the test (or suite) alone.
    public static func mischief(
        profileNamed name: String, registry: Registry = .shared, fileID: String = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Self {
        MischiefTrait(
            changes: [.profile(named: name)], registry: registry,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Applies a typed behaviour to a synchronous seam for the test alone:
    /// `.mischief(clock.seam, .constant(.frozen(at: date)))`.
    public static func mischief<Input, Output, Failure>(
        _ seam: Seam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>,
        registry: Registry = .shared, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        MischiefTrait(
            changes: [.change(seam, behaviour)], registry: registry,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Applies a typed behaviour to an async seam for the test alone.
    public static func mischief<Input, Output, Failure>(
        _ seam: AsyncSeam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>,
        registry: Registry = .shared, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        MischiefTrait(
            changes: [.change(seam, behaviour)], registry: registry,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Applies several changes for the test alone, or none: a scope that records calls and checks expectations.
    public static func mischief(
        _ changes: ScopedChange..., registry: Registry = .shared, fileID: String = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Self {
        MischiefTrait(
            changes: changes, registry: registry,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
