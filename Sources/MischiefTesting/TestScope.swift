import Mischief

/// A test's chaos: a `ChaosScope` that only the test's task tree sees, and the expectations checked when it
/// ends.
///
/// Made for you by the `.mischief` traits and by `withMischiefScope`; `expect` and `stub` act on the current one.
public final class TestScope: Sendable {
    /// The innermost test scope of the current task.
    public static var current: TestScope? { bound }

    @TaskLocal static var bound: TestScope?

    /// The scope calls see and are recorded in.
    public let chaos: ChaosScope
    private let checks = Locked<[@Sendable (ChaosScope) -> Void]>([])

    /// The test whose `.mischief` traits apply their changes in this scope rather than in one of their own: set for
    /// the scope a live session publishes (MischiefLiveTests), so its table shows the layers the test's traits applied.
    package let adoptedTest: String?

    /// A test scope inside the current one, if any.
    public init(_ name: String, registry: Registry = .shared, seed: UInt64? = nil) {
        chaos = ChaosScope(name, registry: registry, seed: seed, parent: ChaosScope.current)
        adoptedTest = nil
    }

    /// A test scope inside the current one whose test's `.mischief` traits apply their changes in it.
    package init(adopting test: String, registry: Registry = .shared) {
        chaos = ChaosScope(test, registry: registry, parent: ChaosScope.current)
        adoptedTest = test
    }

    /// Runs `body` in the scope, then checks the expectations made in it (also when `body` throws) and drops
    /// the scope's changes, so a call a `Task {}` made in it is not left held by a pause.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        defer { finish() }
        return try TestScope.$bound.withValue(self) { try chaos.run(body) }
    }

    /// Awaits `body` in the scope, then checks the expectations made in it (also when `body` throws) and drops
    /// the scope's changes.
    public func run<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows -> R
    {
        defer { finish() }
        return try await TestScope.$bound.withValue(
            self, operation: { try await chaos.run(body) }, isolation: isolation)
    }

    /// Adds a check to run when the scope ends.
    func addCheck(_ check: @escaping @Sendable (ChaosScope) -> Void) {
        checks.withLock { $0.append(check) }
    }

    private func finish() {
        verify()
        chaos.revertAll()
    }

    /// Runs the checks added so far, and forgets them.
    public func verify() {
        let pending = checks.withLock { checks in
            defer { checks.removeAll() }
            return checks
        }
        for check in pending { check(chaos) }
    }
}

/// Runs `body` with `changes` applied for it alone (its task tree), then checks the expectations made in it.
///
/// The scoped call for code outside Swift Testing's traits; in an `XCTestCase`, wrap `invokeTest()` so every
/// test method runs in a scope (set-up and tear-down cannot scope a task-local):
/// ```swift
/// final class CheckoutTests: XCTestCase {
///     override func invokeTest() {
///         withMischiefScope([.spec("clock.now", "shift(+1d)")]) { super.invokeTest() }
///     }
/// }
/// ```
/// A change that cannot be applied fails the test at the call and runs `body` without it.
public func withMischiefScope<R>(
    _ changes: [ScopedChange] = [], registry: Registry = .shared, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () throws -> R
) rethrows -> R {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let scope = TestScope("\(site)", registry: registry)
    scope.apply(changes, site: site)
    return try scope.run(body)
}

/// Awaits `body` with `changes` applied for it alone (its task tree and child tasks), then checks the
/// expectations made in it.
public func withMischiefScope<R>(
    _ changes: [ScopedChange] = [], registry: Registry = .shared, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
) async rethrows -> R {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let scope = TestScope("\(site)", registry: registry)
    scope.apply(changes, site: site)
    return try await scope.run(isolation: isolation, body)
}

extension TestScope {
    /// Applies `changes`, failing the test at `site` for each that cannot be.
    func apply(_ changes: [ScopedChange], site: CallSite) {
        for change in changes {
            do throws(MischiefError) {
                try change.apply(chaos)
            } catch {
                fail("Mischief could not apply \(change): \(error)", at: site)
            }
        }
    }
}

/// A change for a test scope: a spec for a seam id, a profile, or a typed behaviour.
public struct ScopedChange: Sendable, CustomStringConvertible {
    let apply: @Sendable (ChaosScope) throws(MischiefError) -> Void
    /// What the change does, for messages.
    public let description: String

    /// `spec` on the seam `id` of the scope's registry: `.spec("clock.now", "shift(+1d)")`.
    public static func spec(_ id: SeamID, _ spec: String) -> ScopedChange {
        ScopedChange(
            apply: { scope throws(MischiefError) in try scope.apply(spec: spec, to: id) }, description: "\(id): \(spec)"
        )
    }

    /// `spec` on `seam` itself, registered or not: `.spec(fetchUser, "50% throw(\"offline\")")`.
    public static func spec(_ seam: AnySeam, _ spec: String) -> ScopedChange {
        ScopedChange(
            apply: { scope throws(MischiefError) in
                try scope.apply(Change(spec: spec, for: seam, sessionSeed: scope.registry.sessionSeed))
            }, description: "\(seam.info.id): \(spec)")
    }

    /// Every entry of `profile`.
    public static func profile(_ profile: Profile) -> ScopedChange {
        ScopedChange(
            apply: { scope throws(MischiefError) in try scope.apply(profile: profile) },
            description: "profile \(profile.name)")
    }

    /// The profile `name` defined in the scope's registry.
    public static func profile(named name: String) -> ScopedChange {
        ScopedChange(
            apply: { scope throws(MischiefError) in
                guard let status = scope.registry.profiles.first(where: { $0.profile.name == name }) else {
                    throw .unknownProfile(name)
                }
                try scope.apply(profile: status.profile)
            }, description: "profile \(name)")
    }

    /// `behaviour` on a synchronous `seam`: `.change(clock.seam, .constant(.real))`.
    public static func change<Input, Output, Failure>(
        _ seam: Seam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>
    ) -> ScopedChange {
        ScopedChange(
            apply: { scope throws(MischiefError) in try scope.apply(seam, behaviour) },
            description: "\(seam.info.id): \(behaviour)")
    }

    /// `behaviour` on an async `seam`.
    public static func change<Input, Output, Failure>(
        _ seam: AsyncSeam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>
    ) -> ScopedChange {
        ScopedChange(
            apply: { scope throws(MischiefError) in try scope.apply(seam, behaviour) },
            description: "\(seam.info.id): \(behaviour)")
    }
}
