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
