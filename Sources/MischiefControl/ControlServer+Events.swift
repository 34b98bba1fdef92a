import Foundation
import Mischief
import NIOCore
import NIOHTTP1

/// `GET /v1/events`: a server-sent events stream (`curl -N` shows it as it comes).
///
/// Messages: `hello` (the target, the session held), then batches, and a `: keep-alive` comment after
/// ``ControlServer/Options/heartbeat`` of silence. A batch goes out when the registry signals a change (at most one
/// per ``ControlServer/Options/updateInterval``) and, for call counts and the clocks shown, on the wall clock's
/// multiples of ``ControlServer/Options/refresh``; nothing polls. A stream opened with a session holds it: when the stream closes, the session ends.
///
/// Without `?changes=1`, the deprecated dialect (it answers on for /v1 clients): `event` (one per registry event,
/// with its id) and `counters` (the seams whose counts or state changed).
///
/// With `?changes=1` (what an attached console, `mischief watch` and `mischief apply --hold` open) the stream
/// carries, after `hello`, one `changes` message a batch instead (a ``StreamDelta``: the target's header and the
/// registry's changes since the last one, events included), the first of them everything; a client applies each to
/// its copy and never polls. A batch with no change is sent only when a time the header shows turns to another
/// second, so an idle target sends a message or two a second (and keep-alives) rather than one per interval.
///
/// Every stream is fed by one ``EventFeed`` on the server's event loop, which, when woken, asks the registry for what
/// changed since the last batch (``Registry/delta(since:eventsAfter:)``, whose cost grows with what changed, not
/// with the registry) and encodes each message once for all streams.
final class EventStream {
    let session: String?
    /// Whether it carries `changes` messages rather than `event` and `counters`.
    let wantsChanges: Bool
    private let context: ChannelHandlerContext
    private let server: ControlServer
    /// The newest event this stream has (it starts at the log's end when it opens).
    var lastEvent: Int
    /// Counters it has been sent, so its first batch is complete and later ones are the feed's changes.
    var greeted = false
    /// What a console shows of the last `changes` message it was sent.
    var shown: StreamDelta.Shown?
    /// The registry's generation its last `changes` message was as of: a stream that could not be written to for
    /// a batch or more is sent what changed since then, not only the feed's latest batch.
    var generation: UInt64 = 0
    var silentSince: Duration
    var unwritableSince: Duration?

    init(context: ChannelHandlerContext, session: String?, changes: Bool, server: ControlServer) {
        self.context = context
        self.session = session
        self.wantsChanges = changes
        self.server = server
        self.lastEvent = server.registry.lastEventID
        self.silentSince = server.options.now()
    }

    var isWritable: Bool { context.channel.isWritable }

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
    private var observation: Observation?
    /// Forwards the registry's change signals to the loop while streams are open.
    private var signals: Task<Void, Never>?
    /// The next look at counters and clocks (``ControlServer/Options/refresh``).
    private var refreshing: Scheduled<Void>?
    /// A batch put off to keep ``ControlServer/Options/updateInterval`` between two.
    private var pending: Scheduled<Void>?
    private var lastTick: NIODeadline?
    /// Set once by the server that owns the feed.
    weak var server: ControlServer?
    let loop: any EventLoop

    /// Whether it wakes on the registry's change signals (forwarded from a task of their own, so never on a loop
    /// that is not thread-safe, as a test's embedded one): without them, changes go out at the next refresh.
    private let followsSignals: Bool

    init(loop: any EventLoop, followsSignals: Bool = true) {
        self.loop = loop
        self.followsSignals = followsSignals
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
            let all = server.registry.delta(
                since: 0, eventsAfter: max(0, stream.lastEvent - Self.firstEvents), includingActions: true)
            let message = StreamDelta(target: server.handler.header(all.uptime), registry: all)
            out += Self.message(event: "changes", id: nil, message)
            stream.shown = message.shown
            stream.lastEvent = all.lastEventID
            stream.generation = all.generation
            // The feed's first stream: its batches go on from what this one has.
            if first { generation = all.generation }
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
        if observation == nil { observation = server.registry.observe() }
        if refreshing == nil {
            if followsSignals {
                let changes = server.registry.changeSignals()
                let loop = self.loop
                signals = Task { [weak self] in
                    for await _ in changes { loop.execute { self?.wake() } }
                }
            }
            scheduleRefresh()
        }
    }

    /// Looks again at the next wall-clock multiple of the refresh period, and so on while streams are open.
    private func scheduleRefresh() {
        guard let server else { return }
        let delay = RealClock.delay(after: RealClock.date(), toNextMultipleOf: server.options.refresh)
        refreshing = loop.scheduleTask(in: .nanoseconds(Int64(delay.seconds * 1e9))) { [weak self] in
            guard let self, !self.streams.isEmpty else { return }
            self.wake()
            self.scheduleRefresh()
        }
    }

    /// Sends a batch at once, whenever the last one went: a change a client was just answered for (callable from any
    /// thread; it hops to the feed's loop).
    func pushNow() {
        loop.execute { [weak self] in
            guard let self, !self.streams.isEmpty else { return }
            self.pending?.cancel()
            self.pending = nil
            self.tick()
        }
    }

    /// Sends a batch now, or once ``ControlServer/Options/updateInterval`` has passed since the last one.
    private func wake() {
        guard pending == nil, !streams.isEmpty, let server else { return }
        let due = lastTick.map { $0 + .nanoseconds(Int64(server.options.updateInterval.seconds * 1e9)) }
        if let due, due > loop.now {
            pending = loop.scheduleTask(deadline: due) { [weak self] in
                self?.pending = nil
                self?.tick()
            }
        } else {
            tick()
        }
    }

    func remove(_ stream: EventStream) {
        guard streams.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
        if let session = stream.session { server?.handler.streamClosed(session: session) }
        if streams.isEmpty {
            signals?.cancel()
            signals = nil
            refreshing?.cancel()
            refreshing = nil
            pending?.cancel()
            pending = nil
            observation?.cancel()
            observation = nil
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
    /// changed, or one `changes` message), keep-alives.
    private func tick() {
        guard !streams.isEmpty, let server else { return }
        lastTick = loop.now
        let registry = server.registry
        let oldest = streams.values.map(\.lastEvent).min() ?? 0
        let previous = generation
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
        let changesMessage =
            streams.values.contains(where: \.wantsChanges)
            ? StreamDelta(target: server.handler.header(changes.uptime), registry: changes) : nil
        let shown = changesMessage?.shown
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
            if stream.wantsChanges, stream.generation < previous {
                // It missed a batch while it could not be written to: what changed since its last message.
                let missed = registry.delta(since: stream.generation, eventsAfter: stream.lastEvent)
                let message = StreamDelta(target: server.handler.header(missed.uptime), registry: missed)
                out = Self.message(event: "changes", id: nil, message)
                stream.shown = message.shown
                stream.lastEvent = max(stream.lastEvent, missed.lastEventID)
                stream.generation = missed.generation
            } else if stream.wantsChanges {
                if let changesMessage, !changes.isEmpty || shown != stream.shown {
                    let bytes = encoded ?? Self.message(event: "changes", id: nil, changesMessage)
                    encoded = bytes
                    // Its events are inside; the client drops those it has.
                    out = bytes
                    stream.shown = shown
                }
                stream.lastEvent = max(stream.lastEvent, changes.lastEventID)
                stream.generation = changes.generation
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
