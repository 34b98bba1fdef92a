import Foundation
import Mischief
import MischiefCatalog
/// The text of a recorded issue's comments, to check a failure's message.
import Testing

/// Seams of the testing library's own tests, registered once in a registry of their own.
enum Seams {
    static let double = Seam<Int, Int, Never>("testing.double", title: "Double", category: "Test", summary: "x * 2") {
        $0 * 2
    }
    static let fetch = AsyncSeam<String, String, any Error>(
        "testing.fetch", title: "Fetch", category: "Test", summary: "async"
    ) { "body of \($0)" }
    static let store = Seam<String, Void, Never>("testing.store", title: "Store", category: "Test", summary: "cache") {
        _ in
    }
    static let lookup = Seam<Int, String?, Never>("testing.lookup", title: "Lookup", category: "Test", summary: "?") {
        "found \($0)"
    }
    static let clock = ChaosClock(id: "testing.clock")

    /// Registers the seams in `registry` (again: harmless), as an app does when it starts: what the exported test
    /// (`Exported/RecordedSessionTests.swift`) is given with `mischief export --register`.
    @Sendable static func register(in registry: Registry) throws {
        try registry.register(double, fetch, store, lookup, clock.seam)
    }

    /// The code the exported test runs (`mischief export --body`): the calls of the recorded fixture session.
    static func exerciseRecordedFixture() async {
        for value in 1...3 { _ = double(value) }
        for value in 1...2 { _ = lookup(value) }
        for index in 1...12 { _ = try? await fetch("/item/\(index)") }
    }

    /// The registry the traits name seams in (evaluated when the tests are discovered).
    static let registry: Registry = {
        let registry = Registry(sessionSeed: 7)
        try! registry.register(double, fetch, store, lookup, clock.seam)
        try! registry.define(
            Profile(
                name: "Doubled",
                entries: [
                    .init(seam: "testing.double", spec: "return(100)"),
                    .init(seam: "testing.fetch", spec: #"return("profiled")"#),
                ]))
        return registry
    }()
}

func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}
