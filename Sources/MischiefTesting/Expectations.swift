import Mischief

/// How many matching calls an expectation wants.
public enum CallCount: Sendable, CustomStringConvertible {
    /// Exactly this many.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer.
    case atMost(Int)
    /// None.
    case never

    func admits(_ count: Int) -> Bool {
        switch self {
        case .exactly(let wanted): count == wanted
        case .atLeast(let wanted): count >= wanted
        case .atMost(let wanted): count <= wanted
        case .never: count == 0
        }
    }

    /// `exactly 2 times`, `never`.
    public var description: String {
        switch self {
        case .exactly(let count): "exactly \(times(count))"
        case .atLeast(let count): "at least \(times(count))"
        case .atMost(let count): "at most \(times(count))"
        case .never: "never"
        }
    }
}

func times(_ count: Int) -> String { count == 1 ? "1 time" : "\(count) times" }

/// Which inputs a call must have to count toward an expectation or take a stub's answer.
public struct InputMatcher<Input: Sendable>: Sendable, CustomStringConvertible {
    let matches: @Sendable (Input) -> Bool
    /// What the matcher accepts, for messages.
    public let description: String

    /// A matcher from a predicate, with a description for messages.
    public init(_ description: String, _ matches: @escaping @Sendable (Input) -> Bool) {
        self.description = description
        self.matches = matches
    }

    /// Any input.
    public static var any: InputMatcher { InputMatcher("any input") { _ in true } }

    /// Inputs that satisfy `predicate`.
    public static func predicate(
        _ description: String = "a matching input", _ predicate: @escaping @Sendable (Input) -> Bool
    ) -> InputMatcher {
        InputMatcher(description, predicate)
    }
}

extension InputMatcher where Input: Equatable {
    /// Inputs equal to `value`.
    public static func equal(_ value: Input) -> InputMatcher {
        InputMatcher("input == \(value)") { $0 == value }
    }
}

/// Expects the calls made to a synchronous `seam` in the current test scope to number `count` (among those whose
/// input `matcher` accepts); checked when the scope ends, and reported at `site` with the calls that happened.
///
/// ```swift
/// @Test(.mischief()) func refreshesOnce() {
///     expect(weather.fetch, .exactly(1), where: .equal("Tokyo"))
///     model.refresh()
/// }
/// ```
public func expect<Input, Output, Failure>(
    _ seam: Seam<Input, Output, Failure>, _ count: CallCount, where matcher: InputMatcher<Input> = .any,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    addCallExpectation(seam.info.id, count, matcher, site: site)
}

/// Expects the calls made to an async `seam` in the current test scope to number `count`; see the synchronous
/// form.
public func expect<Input, Output, Failure>(
    _ seam: AsyncSeam<Input, Output, Failure>, _ count: CallCount, where matcher: InputMatcher<Input> = .any,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    addCallExpectation(seam.info.id, count, matcher, site: site)
}

/// Expects `first` to be called before `then` in the current test scope: both are called, and the first call
/// of `first` comes before the first call of `then`. Checked when the scope ends. Either may be a seam or a mock
/// method (`expect(api.fetch, calledBefore: cacheStore)`), whose calls the scope records as `mock.<name>`.
public func expect(
    _ first: any RecordedCallSource, calledBefore then: any RecordedCallSource, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let scope = currentScope(for: "expect(_:calledBefore:)", site: site) else { return }
    let (earlier, later) = (first.callID, then.callID)
    scope.addCheck { chaos in
        let calls = chaos.calls
        let firstEarlier = calls.first { $0.seam == earlier }
        let firstLater = calls.first { $0.seam == later }
        if let firstEarlier, let firstLater, firstEarlier.index < firstLater.index { return }
        let what =
            switch (firstEarlier, firstLater) {
            case (nil, nil): "neither was called"
            case (nil, _): "\(earlier) was never called"
            case (_, nil): "\(later) was never called"
            case (_, _?): "\(later) was called first"
            }
        fail(
            "Expected \(earlier) to be called before \(later), but \(what).\n\(listing(calls, of: [earlier, later]))",
            at: site)
    }
}

private func addCallExpectation<Input: Sendable>(
    _ id: SeamID, _ count: CallCount, _ matcher: InputMatcher<Input>, site: CallSite
) {
    guard let scope = currentScope(for: "expect(\(id), \(count))", site: site) else { return }
    scope.addCheck { chaos in
        let calls = chaos.calls.filter { $0.seam == id }
        let matching = calls.filter { call in (call.input as? Input).map(matcher.matches) ?? false }
        guard !count.admits(matching.count) else { return }
        let filter = matcher.description == "any input" ? "" : " with \(matcher)"
        let got = calls.count == matching.count ? "" : " (\(times(calls.count)) in all)"
        fail(
            "Expected \(id) to be called \(count)\(filter), but it was called \(times(matching.count))\(got).\n"
                + listing(chaos.calls, of: [id]),
            at: site)
    }
}

/// The scope an expectation goes to, or a failure saying there is none.
func currentScope(for what: String, site: CallSite) -> TestScope? {
    guard let scope = TestScope.current else {
        fail(
            "\(what) needs a Mischief test scope: add the .mischief trait to the test, or wrap it in withMischiefScope",
            at: site)
        return nil
    }
    return scope
}

/// The calls to `seams` as lines for a failure message, at most 20.
func listing(_ calls: [RecordedCall], of seams: [SeamID]) -> String {
    let relevant = calls.filter { seams.contains($0.seam) }
    guard !relevant.isEmpty else {
        return "No calls to \(seams.map(\.description).joined(separator: " or ")) were made in the scope."
    }
    var lines = ["Calls made in the scope:"]
    lines += relevant.prefix(20).map { "  \($0)" }
    if relevant.count > 20 { lines.append("  … and \(relevant.count - 20) more") }
    return lines.joined(separator: "\n")
}
