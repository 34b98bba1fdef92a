extension Registry {
    /// Applies `changes`, runs `body`, and reverts them on every way out of it (return or throw).
    ///
    /// ```swift
    /// try registry.withMischief([Change(clockNow, .constant(y2038))]) {
    ///     #expect(certificate.isExpired)
    /// }
    /// ```
    public func withMischief<Result>(
        _ changes: [Change], source: String = "withMischief", _ body: () throws -> Result
    ) throws -> Result {
        let applied = try apply(changes, source: source)
        defer { revert(applied) }
        return try body()
    }

    /// Applies `changes`, awaits `body`, and reverts them on every way out of it.
    public func withMischief<Result>(
        _ changes: [Change], source: String = "withMischief", isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> sending Result
    ) async throws -> sending Result {
        let applied = try apply(changes, source: source)
        defer { revert(applied) }
        return try await body()
    }
}

/// Applies `changes` to the shared registry, runs `body`, and reverts them on every way out of it.
public func withMischief<Result>(
    _ changes: Change..., in registry: Registry = .shared, _ body: () throws -> Result
) throws -> Result {
    try registry.withMischief(changes, body)
}

/// Applies `changes` to the shared registry, awaits `body`, and reverts them on every way out of it.
public func withMischief<Result>(
    _ changes: Change..., in registry: Registry = .shared, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> sending Result
) async throws -> sending Result {
    try await registry.withMischief(changes, isolation: isolation, body)
}
