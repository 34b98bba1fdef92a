import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefTestSupport
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct ControlClientTests {
    @Test func handshakeNamesTheTargetAndItsSocket() async throws {
        try await withTarget { target in
            let info = try await target.client().handshake()
            #expect(info.name == "test")
            #expect(info.pid == getpid())
            #expect(info.apiVersion == ControlAPI.version)
            #expect(info.sessionSeed == 1)
            #expect(info.socket == target.socketPath)
        }
    }

    @Test func applyChangesTheSeamInTheTargetAndRevertUndoesIt() async throws {
        try await withTarget { target in
            let client = target.client()
            let applied = try await client.apply("return(7)", to: "t.count")
            #expect(applied.seam.behaviourText == "return(7)")
            #expect(applied.seam.status == .active)
            #expect(applied.layers.map(\.source) == ["api"])
            #expect(applied.layers.map(\.session) == [nil])
            #expect(target.count() == 7)

            let reverted = try await client.revert("t.count")
            #expect(reverted.seam.behaviourText == nil)
            #expect(reverted.layers.isEmpty)
            #expect(target.count() == 0)
        }
    }

    /// An answer to a change names the registry generation the change produced (`Mischief-Generation`): a client
    /// following the events stream waits there for it instead of asking again. Reads name none.
    @Test func anAnswerToAChangeNamesTheGenerationItProduced() async throws {
        try await withTarget { target in
            let named = NamedGenerations()
            var client = target.client()
            client.answered = { named.note($0) }
            _ = try await client.handshake()
            #expect(named.all.isEmpty, "a read names no generation")
            _ = try await client.apply("return(7)", to: "t.count")
            let applied = try #require(named.all.last)
            #expect(applied <= target.registry.generation)
            let since = try await client.delta(since: applied).registry
            #expect(!since.events.contains { $0.kind == .applied }, "the apply is at or before the generation named")
            let before = try await client.delta(since: applied - 1).registry
            #expect(before.generation >= applied)
            _ = try await client.revert("t.count")
            let reverted = try #require(named.all.last)
            #expect(reverted > applied)
            #expect(named.all.count == 2)
        }
    }

    /// A client that names itself (`Mischief-Client`, as the CLI does) is the source of what it changes without a
    /// session, in the layer and in the events; a name with control characters is not taken.
    @Test func aNamedClientIsTheSourceOfItsChanges() async throws {
        try await withTarget { target in
            var client = target.client()
            client.name = "mischief CLI"
            let applied = try await client.apply("return(7)", to: "t.count")
            #expect(applied.layers.map(\.source) == ["mischief CLI"])
            _ = try await client.revert("t.count")
            let events = try await client.delta(since: 0).registry.events.filter { $0.seam == "t.count" }
            #expect(Array(events.map(\.source).suffix(2)) == ["mischief CLI", "mischief CLI"], "\(events)")
            client.name = "\u{202E}evil"
            #expect(try await client.apply("return(8)", to: "t.count").layers.map(\.source) == ["api"])
        }
    }

    @Test func countersShowTheCallsMadeWhileServing() async throws {
        try await withTarget { target in
            let client = target.client()
            for _ in 0..<5 { _ = target.count() }
            let plain = try await client.seam("t.count").seam
            #expect(plain.calls == 5)
            #expect(plain.chaosCalls == 0)

            try await client.apply("return(3)", to: "t.count")
            for _ in 0..<3 { #expect(target.count() == 3) }
            let chaotic = try await client.seam("t.count").seam
            #expect(chaotic.calls == 8)
            #expect(chaotic.chaosCalls == 3)
            // The other seam was never called.
            #expect(try await client.seams().first { $0.id == "t.name" }?.calls == 0)
        }
    }

    @Test func aBadSpecIsRefusedWithItsColumnAndACaretLine() async throws {
        try await withTarget { target in
            let client = target.client()
            let (status, body) = try #require(await refusal { try await client.apply("50%retrun(1)", to: "t.count") })
            #expect(status == 400)
            #expect(body.error == "invalid spec")
            #expect(body.column == 4)
            let lines = body.detail.components(separatedBy: "\n")
            #expect(lines.contains("  50%retrun(1)"))
            #expect(lines.last == "     ^")
            #expect(body.detail.contains("did you mean 'return'?"))
            // Nothing was applied.
            #expect(target.count() == 0)
            #expect(try await client.seam("t.count").layers.isEmpty)
        }
    }

    @Test func anUnknownSeamIs404WithASuggestion() async throws {
        try await withTarget { target in
            let client = target.client()
            let read = try #require(await refusal { try await client.seam("t.cuont") })
            #expect(read.status == 404)
            #expect(read.body.error == "unknown seam")
            #expect(read.body.detail.contains("did you mean 't.count'?"))
            let apply = try #require(await refusal { try await client.apply("return(1)", to: "t.nothing") })
            #expect(apply.status == 404)
            let revert = try #require(await refusal { try await client.revert("t.nothing") })
            #expect(revert.status == 404)
        }
    }

    /// The target answers 413 to a body over its limit and closes without reading the rest: the client reports the
    /// 413, not "no target answers" (issue #28).
    @Test func aProfileOverTheBodyLimitReportsThe413() async throws {
        try await withTarget { target in
            let client = target.client()
            let comment = "# " + String(repeating: "x", count: 1_000) + "\n"
            let yaml = String(repeating: comment, count: 2_100) + "name: Big\nentries: {}\n"
            let refused = try #require(await refusal { try await client.define(profiles: yaml) })
            #expect(refused.status == 413)
            #expect(try await client.profiles().isEmpty)
        }
    }

    @Test func profilesAreDefinedFromYAMLThenAppliedRevertedAndToggled() async throws {
        try await withTarget { target in
            let client = target.client()
            let defined = try await client.define(
                profiles: """
                    name: Zero
                    description: Everything small
                    key: 3
                    entries:
                      t.count: return(-1)
                      t.name: return("Zed")
                    """)
            #expect(defined.count == 1)
            #expect(defined.first?.profile.name == "Zero" && defined.first?.profile.description == "Everything small")
            #expect(defined.first?.profile.key == 3 && defined.first?.isActive == false)
            #expect(defined.first?.seams == ["t.count", "t.name"] && defined.first?.profile.entries.count == 2)
            #expect(try await client.profiles().map(\.profile.name) == ["Zero"])

            #expect(try await client.profile("Zero", .apply).isActive)
            #expect(target.count() == -1)
            #expect(target.name() == "Zed")
            #expect(try await client.profile("Zero", .revert).isActive == false)
            #expect(target.count() == 0)
            #expect(target.name() == "Ann")

            #expect(try await client.profile("Zero", .toggle).isActive)
            #expect(target.name() == "Zed")
            #expect(try await client.profile("Zero", .toggle).isActive == false)
            #expect(target.name() == "Ann")
        }
    }

    @Test func aBrokenOrUnknownProfileIsRefused() async throws {
        try await withTarget { target in
            let client = target.client()
            let broken = try #require(
                await refusal {
                    try await client.define(profiles: "name: Broken\nentries:\n  t.count: retrun(1)\n")
                })
            #expect(broken.status == 400)
            #expect(broken.body.error == "invalid profile")
            #expect(broken.body.detail.contains("request body:3:12"))
            #expect(broken.body.detail.contains("did you mean 'return'?"))
            #expect(try await client.profiles().isEmpty)

            let unknown = try #require(await refusal { try await client.profile("Nope", .apply) })
            #expect(unknown.status == 404)
            #expect(unknown.body.error == "unknown profile")
        }
    }

    @Test func revertAllRevertsEveryActiveEntry() async throws {
        try await withTarget { target in
            let client = target.client()
            try await client.apply("return(1)", to: "t.count")
            try await client.apply("return(2)", to: "t.count")  // replaces the client's first layer
            try await client.apply("return(\"Bo\")", to: "t.name")
            #expect(try await client.revertAll().reverted == 2)
            #expect(target.count() == 0)
            #expect(target.name() == "Ann")
            #expect(try await client.revertAll().reverted == 0)
        }
    }

    /// The client's default is the delta stream: `hello`, then `changes` messages, the first everything.
    @Test func theEventsStreamByDefaultCarriesDeltas() async throws {
        try await withTarget { target in
            try await Deadline.wait(for: "hello, then a delta of everything, then one showing return(9)") {
                let client = target.client()
                var messages = client.events().makeAsyncIterator()
                guard case .hello = try await messages.next() else {
                    Issue.record("the first message is not hello")
                    return
                }
                guard case .delta(let first) = try await messages.next() else {
                    Issue.record("the second message is not a delta: the default is the deprecated dialect")
                    return
                }
                #expect(first.registry.since == 0, "the first delta is everything")
                var state = TargetState(everything: first, eventLimit: 100)
                try await client.apply("return(9)", to: "t.count")
                while state.seams.first(where: { $0.id == "t.count" })?.behaviourText != "return(9)",
                    let message = try await messages.next()
                {
                    if case .delta(let delta) = message { state.applying(delta, eventLimit: 100) }
                }
            }
        }
    }

    @Test func theDeprecatedEventsStreamGreetsThenSendsEventsAndCounters() async throws {
        try await withTarget { target in
            try await Deadline.wait(
                for: "hello, then the applied event and the counters of t.count on the events stream"
            ) {
                let client = target.client()
                var messages = client.events(deltas: false).makeAsyncIterator()
                guard case .hello(let hello) = try await messages.next() else {
                    Issue.record("the first message is not hello")
                    return
                }
                #expect(hello.target.name == "test")
                #expect(hello.session == nil)

                try await client.apply("return(9)", to: "t.count")
                _ = target.count()
                var sawEvent = false
                var sawCounters = false
                while !(sawEvent && sawCounters), let message = try await messages.next() {
                    switch message {
                    case .event(let event) where event.kind == .applied && event.seam == "t.count":
                        sawEvent = true
                    case .counters(let updates):
                        if let update = updates.first(where: { $0.seam == "t.count" }), update.counters.calls == 1 {
                            #expect(update.behaviour == "return(9)")
                            #expect(update.counters.chaosCalls == 1)
                            sawCounters = true
                        }
                    default:
                        break
                    }
                }
            }
        }
    }

    @Test func aStoppedTargetIsUnreachable() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let client = ControlClient(socketPath: directory.socketPath)
        do {
            _ = try await client.target()
            Issue.record("a request to nothing succeeded")
        } catch {
            guard case .unreachable(let path, _) = error else {
                Issue.record("expected unreachable, got \(error)")
                return
            }
            #expect(path == directory.socketPath)
        }
    }
}

/// The generations a client's answers named, in order.
final class NamedGenerations: Sendable {
    private let named = Mutex<[UInt64]>([])

    func note(_ generation: UInt64) { named.withLock { $0.append(generation) } }
    var all: [UInt64] { named.withLock { $0 } }
}
