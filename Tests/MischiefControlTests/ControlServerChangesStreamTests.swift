import Foundation
import Mischief
import MischiefControl
import MischiefTestSupport
import Testing

/// `GET /v1/events?changes=1`, the attached console's one update path: after `hello`, a `changes` message with
/// everything (actions included), then only what changed since the previous one, events inside.
@Suite struct ControlServerChangesStreamTests {
    @Test func theFirstMessageIsEverythingAndLaterOnesOnlyWhatChanged() async throws {
        try await withTarget { target in
            try await Deadline.wait(for: "hello, everything, then the change of t.count on the changes stream") {
                var messages = target.client().events(deltas: true).makeAsyncIterator()
                guard case .hello = try await messages.next() else { throw Failure("no hello first") }
                guard case .delta(let first) = try await messages.next() else { throw Failure("no changes second") }
                #expect(first.registry.since == 0)
                #expect(first.registry.seams.map(\.id) == ["t.count", "t.name"])
                #expect(first.registry.seams.allSatisfy { $0.actions.contains { $0.name == "return" } })
                #expect(first.registry.profiles == [] && first.target.name == "test")

                try target.registry.apply(spec: "return(7)", to: "t.count", source: "test")
                var seen: [StreamDelta] = []
                while let message = try await messages.next() {
                    guard case .delta(let changes) = message else { continue }
                    seen.append(changes)
                    if changes.registry.seams.contains(where: { $0.id == "t.count" }) { break }
                }
                let applied = try #require(seen.last)
                #expect(applied.registry.since >= first.registry.generation && applied.registry.since > 0)
                #expect(applied.registry.seams.map(\.id) == ["t.count"], "t.name did not change, so it is not sent")
                #expect(applied.registry.seams.first?.behaviourText == "return(7)")
                #expect(seen.flatMap(\.registry.events).contains { $0.kind == .applied && $0.seam == "t.count" })
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
