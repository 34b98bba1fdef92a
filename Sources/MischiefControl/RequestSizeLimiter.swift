import NIOCore

/// Sits before the HTTP decoder and bounds what a client may send before each request head is complete: the
/// request line and headers together within `limit` bytes. NIO's decoder bounds header fields but not the
/// request line; this bounds both, so a client cannot make the server buffer megabytes of head.
///
/// When the head is over the limit it stops passing bytes on and tells ``HTTPConnection`` (an inbound
/// ``TooLarge`` event), which answers 431 and closes.
///
/// After the head, once ``HTTPConnection`` has said how the body is framed (``bodyStarts(_:)``), it follows it: a
/// chunked body's sizes (``ChunkSizes``), and when they announce more than ``ControlAPI/maxBodyBytes`` it stops passing
/// bytes on and sends ``BodyTooLarge``, so the client is answered 413 at once, not 408 when the body deadline passes; a
/// body of known length to its last byte. There one request ends: what the client sent after it waits here, and the
/// connection reads no more, until the answer is out and the connection asks for the next one (``nextRequest()``),
/// which is then bounded as the first was. So a kept-alive connection holds one request at a time, each within the
/// limits.
final class RequestSizeLimiter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The event that says the head is over the limit.
    struct TooLarge {}

    /// The event that says a chunked body announced more than its limit.
    struct BodyTooLarge {
        /// The bytes announced so far.
        let announced: Int
    }

    /// The event that says the first byte of a request after the first has come (its head deadline starts).
    struct RequestBegins {}

    /// How a request's body is framed, as its head says.
    enum Framing {
        /// `Content-Length` bytes (none without the header): the request ends after them.
        case length(Int)
        /// `Transfer-Encoding: chunked`: followed for its sizes; the connection closes after the answer.
        case chunked
        /// Anything else: passed on as it comes; the connection closes after the answer.
        case unframed
    }

    /// What the guard knows of the body.
    private enum Body {
        /// The head has not ended.
        case none
        /// The head ended; what came after it in the same read waits until the connection says what the body is.
        case unknown(ByteBuffer)
        /// This many bytes of the body are still to come.
        case length(Int)
        case chunked(ChunkSizes)
        /// Passed on as it comes.
        case unframed
        /// The request has ended: what comes after it is held until ``nextRequest()``.
        case ended
    }

    private let limit: Int
    private var seen = 0
    /// How far the blank line that ends the head has been matched (`\r\n\r\n`, or `\n\n` as llhttp allows).
    private var match = 0
    private var done = false
    private var refused = false
    private var body = Body.none
    /// Whether a read is being passed on (the connection learns of the head within it).
    private var passing = false
    private var context: ChannelHandlerContext?
    /// What the client sent after the request that ended, held until the next is asked for.
    private var held = ByteBuffer()
    /// Whether the channel asked to read while a request's end held the bytes (it is asked again on
    /// ``nextRequest()``).
    private var readWanted = false
    /// Whether this head is not the connection's first (its first byte is told as ``RequestBegins``).
    private var later = false

    /// The most bytes held after a request's end: what a few reads bring. A client pushing more before its answer
    /// is closed.
    static let heldBytes = 256 * 1024

    /// Whether the client has sent nothing of its current request yet.
    var isSilent: Bool { seen == 0 && !done }

    init(limit: Int) {
        self.limit = limit
    }

    /// Set once the connection has been answered for the last time: what the client still sends is dropped here, up
    /// to ``lingerBytes``, past which the connection is closed (a client pushing megabytes gets no more of our time).
    /// An events stream's connection lingers too, from its start: it reads to notice the client going.
    var lingering = false {
        didSet {
            guard lingering, readWanted, let context else { return }
            held = ByteBuffer()
            readWanted = false
            context.read()
        }
    }
    private var lingered = 0
    static let lingerBytes = 64 * 1024

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Called by the connection when it answers with an error and closes: what the client still sends is dropped here,
    /// not decoded (a client that declared 100 MB and pushes its body cost the server a parse of every read before the
    /// answer went out).
    func refuseRest() {
        refused = true
    }

    /// Called by the connection when the head has arrived: how the body is framed (and so followed).
    func bodyStarts(_ framing: Framing) {
        guard case .unknown(let rest) = body else { return }
        switch framing {
        case .length(let length): body = .length(max(0, length))
        case .chunked: body = .chunked(ChunkSizes(limit: ControlAPI.maxBodyBytes))
        case .unframed: body = .unframed
        }
        // Told within the read that carried the head, as NIO's decoder does: the rest of that read is followed
        // before it is passed on. Told later: what came with the head has been passed on already; follow it now.
        guard !passing, let context else { return }
        if case .chunked = body { follow(rest, context) }
    }

    /// Starts the next request of a kept-alive connection, once the last is answered: its head is bounded afresh,
    /// and what the client sent after the last is read as its start.
    func nextRequest() {
        guard case .ended = body, !refused, !lingering, let context else { return }
        (seen, match, done, body, later) = (0, 0, false, .none, true)
        let rest = held
        held = ByteBuffer()
        if rest.readableBytes > 0 { take(rest, context) }
        guard readWanted else { return }
        if case .ended = body { return }  // the next request came whole: it is answered first
        readWanted = false
        context.read()
    }

    func read(context: ChannelHandlerContext) {
        // A request has ended and is being answered: read no more until the next is asked for.
        if case .ended = body, !lingering {
            readWanted = true
            return
        }
        context.read()
    }

    /// Follows the chunk sizes in `bytes`; false (and the connection told) once they are over the limit.
    @discardableResult
    private func follow(_ bytes: ByteBuffer, _ context: ChannelHandlerContext) -> Bool {
        guard case .chunked(var sizes) = body else { return true }
        let within = sizes.feed(bytes.readableBytesView)
        body = .chunked(sizes)
        guard !within else { return true }
        refused = true
        context.fireUserInboundEventTriggered(BodyTooLarge(announced: sizes.announced))
        return false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if lingering {
            lingered += unwrapInboundIn(data).readableBytes
            if lingered > Self.lingerBytes { context.close(promise: nil) }
            return
        }
        guard !refused else { return }
        take(unwrapInboundIn(data), context)
    }

    /// Passes on what belongs to the current request and holds what comes after its end.
    private func take(_ buffer: ByteBuffer, _ context: ChannelHandlerContext) {
        var buffer = buffer
        guard done else { return scanHead(buffer, context) }
        switch body {
        case .ended:
            guard held.readableBytes + buffer.readableBytes <= Self.heldBytes else {
                return context.close(promise: nil)
            }
            held.writeBuffer(&buffer)
        case .length(let left):
            let count = min(left, buffer.readableBytes)
            if count > 0, let part = buffer.readSlice(length: count) { context.fireChannelRead(wrapInboundOut(part)) }
            body = .length(left - count)
            if left - count == 0 { end(after: buffer, context) }
        case .chunked:
            guard follow(buffer, context), buffer.readableBytes > 0 else { return }
            context.fireChannelRead(wrapInboundOut(buffer))
        case .none, .unknown, .unframed:
            guard buffer.readableBytes > 0 else { return }
            context.fireChannelRead(wrapInboundOut(buffer))
        }
    }

    /// The request's last byte has been passed on: hold what follows until the next request is asked for.
    private func end(after rest: ByteBuffer, _ context: ChannelHandlerContext) {
        body = .ended
        var rest = rest
        held.writeBuffer(&rest)
    }

    private func scanHead(_ buffer: ByteBuffer, _ context: ChannelHandlerContext) {
        if later, seen == 0, buffer.readableBytes > 0 { context.fireUserInboundEventTriggered(RequestBegins()) }
        var scanned = 0
        for byte in buffer.readableBytesView {
            scanned += 1
            switch (byte, match) {
            case (0x0D, 0), (0x0D, 2): match += 1
            case (0x0A, 1), (0x0A, 3), (0x0A, 0): match = match == 0 ? 2 : match + 1
            case (0x0A, 2): match = 4
            default: match = 0
            }
            if match == 4 { done = true; break }
            if seen + scanned > limit { break }
        }
        seen += scanned
        if !done, seen > limit {
            refused = true
            context.fireUserInboundEventTriggered(TooLarge())
            return
        }
        guard done else { return context.fireChannelRead(wrapInboundOut(buffer)) }
        guard let head = buffer.getSlice(at: buffer.readerIndex, length: scanned),
            let rest = buffer.getSlice(at: buffer.readerIndex + scanned, length: buffer.readableBytes - scanned)
        else { return }
        // The head alone first: the decoder hands it to the connection, which says how the body is framed, so the
        // rest is followed before the decoder sees it (an overflowing size is then 413, not the decoder's 400).
        body = .unknown(rest)
        passing = true
        context.fireChannelRead(wrapInboundOut(head))
        passing = false
        guard !refused else { return }
        // The connection said nothing (the decoder failed on the head): pass the rest on as it comes.
        if case .unknown = body { body = .unframed }
        take(rest, context)
    }
}
