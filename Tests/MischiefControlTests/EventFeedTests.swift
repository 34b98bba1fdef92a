import Foundation
import Mischief
import NIOCore
import NIOEmbedded
import Testing

@testable import MischiefControl

/// The events feed driven tick by tick on an `EmbeddedEventLoop`, its stream on an `EmbeddedChannel` whose
/// writability the test sets, without a socket and without waiting for time to pass.
@Suite struct EventFeedTests {
    final class Sink: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = ByteBuffer
    }

    /// A feed for `server`'s registry with one `changes` stream, and a way to read what the stream was sent.
    struct Rig {
        let loop = EmbeddedEventLoop()
        let channel: EmbeddedChannel
        let feed: EventFeed
        var parser = StreamParser()

        init(_ server: ControlServer) throws {
            channel = EmbeddedChannel(loop: loop)
            try channel.pipeline.syncOperations.addHandler(Sink())
            let context = try channel.pipeline.syncOperations.context(handlerType: Sink.self)
            // Nothing follows the registry here (a loop that is not thread-safe): the test calls each batch.
            feed = EventFeed(loop: loop, follows: false)
            feed.server = server
            feed.add(EventStream(context: context, session: nil, changes: true, server: server))
        }

        /// Runs the feed's next batch, as its follower does when woken.
        func tick() {
            feed.tick()
        }

        /// The `changes` messages written since the last read (each write is one HTTP chunk).
        mutating func sent() throws -> [StreamDelta] {
            var changes: [StreamDelta] = []
            while var chunk = try channel.readOutbound(as: ByteBuffer.self) {
                let bytes = chunk.readBytes(length: chunk.readableBytes) ?? []
                // "<hex length>\r\n<data>\r\n"
                guard let start = bytes.firstIndex(of: 0x0A) else { continue }
                let data = Data(bytes[(start + 1)..<(bytes.count - 2)])
                for case .delta(let change) in parser.feed(data) { changes.append(change) }
            }
            return changes
        }
    }

    /// An idle target sends a console a message only when a time it shows turns to another second, however many
    /// ticks pass: here the registry's clock (uptime) moves only when the test says.
    @Test func anIdleTargetSendsAMessageOnlyWhenAShownSecondTurns() throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let clock = ManualRegistryClock()
        let registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: false)
        let server = ControlServer(registry: registry, options: .init(name: "idle", socketPath: directory.socketPath))
        var rig = try Rig(server)
        var last = try #require(try rig.sent().first)

        var idle: [StreamDelta] = []
        let before = Int(Date().timeIntervalSince1970)  // a turn just before this counts too: + 1 below
        for _ in 0..<100 {
            rig.tick()
            idle += try rig.sent()
        }
        // Only the wall clock moved: one message at most for each of its seconds that turned meanwhile (a hundred
        // ticks take milliseconds, more on a loaded machine).
        let turns = Int(Date().timeIntervalSince1970) - before
        #expect(idle.count <= turns + 1, "\(idle.count) messages for 100 idle ticks over \(turns) turns of a second")
        for message in idle {
            #expect(message.registry.isEmpty && message.shown != last.shown, "a message showing nothing new")
            last = message
        }

        clock.advance(by: .seconds(1))
        rig.tick()
        let turned = try rig.sent()
        #expect(turned.count == 1 && turned.first?.target.uptime == .seconds(1), "the uptime's second turned")
        _ = try? rig.channel.finish()
    }

    /// A target clock moved as far as a Double goes, or broken, still has a second to compare: no trap.
    @Test func shownSecondsOfTimesBeyondInt64() {
        let changes = Registry(sessionSeed: 1).delta(since: 0)
        func shown(_ seconds: Double) -> Int64? {
            StreamDelta(
                target: TargetHeader(
                    name: "t", pid: 1, uptime: .zero, sessionSeed: 1, wallTime: Date(timeIntervalSince1970: 0),
                    targetTime: Date(timeIntervalSince1970: seconds)),
                registry: changes
            ).shown.targetTime
        }
        #expect(shown(1e300) == .max)
        #expect(shown(-1e300) == .min)
        #expect(shown(.infinity) == .max)
        #expect(shown(.nan) == .max)
        #expect(shown(-0.5) == -1)
    }

    /// A console whose stream could not be written to for a while (its terminal stopped, a slow SSH link) is sent
    /// what it missed when it can be written to again, so its copy never goes stale.
    @Test func aStreamThatCouldNotBeWrittenToIsSentWhatItMissed() throws {
        let target = try TestTarget(directory: try SocketDirectory())
        defer { target.directory.remove() }
        var rig = try Rig(target.server)
        #expect(try rig.sent().first?.registry.since == 0, "the first message is everything")

        rig.channel.isWritable = false
        try target.registry.apply(spec: "return(7)", to: "t.count", source: "test")
        rig.tick()  // the batch with t.count's change: this stream cannot take it
        #expect(try rig.sent().isEmpty)
        try target.registry.apply(spec: "return(\"Bo\")", to: "t.name", source: "test")
        rig.tick()
        #expect(try rig.sent().isEmpty)

        rig.channel.isWritable = true
        rig.tick()
        let caughtUp = try rig.sent()
        #expect(caughtUp.count == 1)
        let seams = Dictionary(
            uniqueKeysWithValues: caughtUp.flatMap(\.registry.seams).map { ($0.id, $0.behaviourText) })
        #expect(seams["t.count"] == "return(7)", "the change made while the stream was full")
        #expect(seams["t.name"] == "return(\"Bo\")")

        // Then batches as before: only what changed, to this stream as to any other.
        target.registry.revert(seam: "t.count")
        rig.tick()
        let next = try rig.sent()
        #expect(next.flatMap(\.registry.seams).map(\.id) == ["t.count"])
        _ = try? rig.channel.finish()
    }
}
