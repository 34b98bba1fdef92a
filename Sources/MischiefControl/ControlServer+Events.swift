import Foundation
import Mischief
import NIOCore
import NIOHTTP1

/// `GET /v1/events`: a server-sent events stream (`curl -N` shows it as it comes).
///
/// Messages: `hello` (the target, the session held), then batches, and a `: keep-alive` comment after
/// ``ControlServer/Options/heartbeat`` of silence. A stream opened with a session holds it: when the stream closes,
/// the session ends.
///
/// With `?changes=1` (what ``ControlClient/events(deltas:)`` opens by default, as an attached console,
/// `mischief watch` and `mischief apply --hold` do) the stream carries, after `hello`, one `changes` message a batch
/// (a ``StreamDelta``: the target's header and the registry's changes since the last one, events included), the
/// first of them everything; a client applies each to its copy and never polls. A batch with no change is sent only
/// when a time the header shows turns to another second, so an idle target sends a message or two a second (and
/// keep-alives) rather than one per refresh.
///
/// Without it, the deprecated dialect (it answers on for /v1 clients): `event` (one per registry event, with its id)
/// and `counters` (the seams whose counts or state changed).
///
/// Every stream is fed by one ``EventFeed`` on the server's event loop, woken by the core's ``RegistryFollower`` (the
/// one the in-process console uses): when the registry signals a change (at most one batch per
/// ``ControlServer/Options/updateInterval``) and, for call counts and the clocks shown, on the wall clock's multiples
/// of ``ControlServer/Options/refresh``, only while a stream is open; nothing polls. A batch asks the registry once for
/// what changed since the last (``Registry/delta(since:eventsAfter:)``, whose cost grows with what changed, not with
/// the registry) and encodes each message once for all streams; each `changes` stream keeps what it was sent in a
/// ``RegistryFollower/Cursor``.
final class EventStream {
    let session: String?
    /// Whether it carries `changes` messages rather than `event` and `counters`.
    let wantsChanges: Bool
    private let context: ChannelHandlerContext
    private let server: ControlServer
    /// The newest event this stream has, in the deprecated dialect (it starts at the log's end when it opens).
    var lastEvent: Int
    /// What a `changes` stream has been sent: its first message is everything, with the newest events a console
    /// shows; later ones what changed since its last.
    var cursor: RegistryFollower.Cursor
    var silentSince: Duration
    var unwritableSince: Duration?

    init(context: ChannelHandlerContext, session: String?, changes: Bool, server: ControlServer) {
        self.context = context
        self.session = session
        self.wantsChanges = changes
        self.server = server
        self.lastEvent = server.registry.lastEventID
        self.cursor = RegistryFollower.Cursor(eventsAfter: max(0, lastEvent - EventFeed.firstEvents))
        self.silentSince = server.options.now()
    }

    var isWritable: Bool { context.channel.isWritable }

    /// The newest event the stream has, in either dialect.
    var newestEvent: Int { wantsChanges ? cursor.lastEvent : lastEvent }

    /// Writes one chunk of the stream.
    func write(_ bytes: ByteBuffer) {
        var chunk = context.channel.allocator.buffer(capacity: bytes.readableBytes + 12)
        chunk.writeString(String(bytes.readableBytes, radix: 16) + "\r\n")
        chunk.writeImmutableBuffer(bytes)
        chunk.writeString("\r\n")
        context.writeAndFlush(NIOAny(chunk), promise: nil)
    }

    func close() {
        context.close(promise: nil)
    }
}

/// Feeds every open events stream from one place on the event loop.
final class EventFeed: @unchecked Sendable {
    // Touched only on `loop`.
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var counters: [SeamID: SeamUpdate] = [:]
    /// The registry's generation the last batch was as of.
    private var generation: UInt64 = 0
    /// Wakes the feed while streams are open (and has the registry count calls meanwhile).
    private var follower: RegistryFollower?
    /// The registry watched while streams are open when nothing follows it (a test's embedded loop).
    private var watching: Observation?
    /// Set once by the server that owns the feed.
    weak var server: ControlServer?
    let loop: any EventLoop

    /// Whether a ``RegistryFollower`` wakes it (it hops to the loop from a task of its own, so never on a loop that
    /// is not thread-safe, as a test's embedded one): without one, batches go out when ``tick()`` is called.
    private let follows: Bool

    init(loop: any EventLoop, follows: Bool = true) {
        self.loop = loop
        self.follows = follows
    }

    var count: Int { streams.count }

    func add(_ stream: EventStream) {
        guard let server else { return stream.close() }
        let first = streams.isEmpty
        streams[ObjectIdentifier(stream)] = stream
        let hello = StreamHello(target: server.handler.targetInfo(), session: stream.session)
        var out = Self.message(event: "hello", id: nil, hello)
        if stream.wantsChanges {
            // Everything, with the newest events a console shows.
            if let everything = stream.cursor.next(from: server.registry, header: { server.handler.header($0.uptime) })
            {
                out += Self.message(event: "changes", id: nil, everything)
                // The feed's first stream: its batches go on from what this one has.
                if first { generation = everything.generation }
            }
        } else {
            let snapshot = server.registry.snapshot()
            let rows = snapshot.seams.map(SeamUpdate.init)
            if !rows.isEmpty { out += Self.message(event: "counters", id: nil, rows) }
            if first {
                generation = snapshot.generation
                for row in rows { counters[row.seam] = row }
            }
        }
        stream.write(ByteBuffer(bytes: out))
        guard follower == nil, watching == nil else { return }
        // While a stream is open the registry counts calls (it is watched), and the feed wakes.
        guard follows else {
            watching = server.registry.observe()
            return
        }
        let follower = RegistryFollower(
            registry: server.registry, refresh: server.options.refresh, minimumInterval: server.options.updateInterval
        ) { [weak self, loop] in
            guard let self else { return }
            loop.execute { self.tick() }
        }
        follower.start()
        self.follower = follower
    }

    /// Sends a batch at once, whenever the last one went: a change a client was just answered for (callable from any
    /// thread; it hops to the feed's loop).
    func pushNow() {
        loop.execute { [weak self] in self?.tick() }
    }

    func remove(_ stream: EventStream) {
        guard streams.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
        if let session = stream.session { server?.handler.streamClosed(session: session) }
        if streams.isEmpty {
            follower?.stop()
            follower = nil
            watching?.cancel()
            watching = nil
            counters = [:]
        }
    }

    /// Closes every stream (the server is stopping).
    func closeAll() {
        for stream in streams.values { stream.close() }
    }

    /// How many of the newest events a `changes` stream's first message carries.
    static let firstEvents = 200

    /// One batch for all streams: what changed since the last one (events each has not seen, the counters that
    /// changed, or one `changes` message), keep-alives. On the loop.
    func tick() {
        guard !streams.isEmpty, let server else { return }
        let registry = server.registry
        let oldest = streams.values.map(\.newestEvent).min() ?? 0
        let changes = registry.delta(since: generation, eventsAfter: oldest)
        generation = changes.generation
        let events = changes.events.map { ($0.id, Self.message(event: "event", id: $0.id, $0)) }
        var changed: [SeamUpdate] = []
        for seam in changes.seams {
            let update = SeamUpdate(seam)
            if counters[seam.id] != update {
                counters[seam.id] = update
                changed.append(update)
            }
        }
        for id in changes.removed { counters[id] = nil }
        let countersMessage = changed.isEmpty ? [] : Self.message(event: "counters", id: nil, changed)
        // Sent to a stream when something changed, or when a time its console shows turns to another second: a
        // target that idles costs its consoles a message or two a second, not one a tick. Encoded once, if needed.
        let batch =
            streams.values.contains(where: \.wantsChanges)
            ? StreamDelta(target: server.handler.header(changes.uptime), registry: changes) : nil
        var encoded: [UInt8]?
        let now = server.options.now()
        for stream in streams.values {
            guard stream.isWritable else {
                // A client that does not read: its events wait in the log; drop it after the idle timeout.
                let since = stream.unwritableSince ?? now
                stream.unwritableSince = since
                if now - since > server.limits.idleTimeout { stream.close() }
                continue
            }
            stream.unwritableSince = nil
            var out: [UInt8] = []
            if stream.wantsChanges, let batch {
                switch stream.cursor.offer(batch) {
                case true?:
                    // Its events are inside; the client drops those it has.
                    let bytes = encoded ?? Self.message(event: "changes", id: nil, batch)
                    encoded = bytes
                    out = bytes
                case false?:
                    break
                case nil:
                    // It missed a batch while it could not be written to: what changed since its last message.
                    if let missed = stream.cursor.next(from: registry, header: { server.handler.header($0.uptime) }) {
                        out = Self.message(event: "changes", id: nil, missed)
                    }
                }
            } else {
                for (id, bytes) in events where id > stream.lastEvent {
                    out += bytes
                    stream.lastEvent = id
                }
                out += countersMessage
            }
            if out.isEmpty, now - stream.silentSince >= server.options.heartbeat {
                out = Array(": keep-alive\n\n".utf8)
            }
            guard !out.isEmpty else { continue }
            stream.silentSince = now
            stream.write(ByteBuffer(bytes: out))
        }
        server.budget?.throttle()
    }

    static func message(event: String, id: Int?, _ value: some Encodable) -> [UInt8] {
        let data = (try? JSONEncoder.control.encode(value)) ?? Data("null".utf8)
        var text = "event: \(event)\n"
        if let id { text += "id: \(id)\n" }
        text += "data: \(String(decoding: data, as: UTF8.self))\n\n"
        return Array(text.utf8)
    }
}

/// The name the stream's message encoder had before the feed was shared.
typealias EventStreamSource = EventFeed
