import NIOCore

/// Sits before the HTTP decoder and bounds what a client may send before its request head is complete: the
/// request line and headers together within `limit` bytes. NIO's decoder bounds header fields but not the
/// request line; this bounds both, so a client cannot make the server buffer megabytes of head.
///
/// When the head is over the limit it stops passing bytes on and tells ``HTTPConnection`` (an inbound
/// ``TooLarge`` event), which answers 431 and closes.
///
/// After the head, once ``HTTPConnection`` has said the body is chunked (``bodyStarts(chunked:)``), it follows the
/// chunk sizes (``ChunkSizes``): when they announce more than ``ControlAPI/maxBodyBytes`` it stops passing bytes on
/// and sends ``BodyTooLarge``, so the client is answered 413 at once, not 408 when the body deadline passes.
final class RequestSizeLimiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The event that says the head is over the limit.
    struct TooLarge {}

    /// The event that says a chunked body announced more than its limit.
    struct BodyTooLarge {
        /// The bytes announced so far.
        let announced: Int
    }

    /// What the guard knows of the body.
    private enum Body {
        /// The head has not ended.
        case none
        /// The head ended; what came after it in the same read waits until the connection says what the body is.
        case unknown(ByteBuffer)
        case plain
        case chunked(ChunkSizes)
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

    /// Whether the client has sent nothing yet.
    var isSilent: Bool { seen == 0 && !done }

    init(limit: Int) {
        self.limit = limit
    }

    /// Set once the connection has been answered: what the client still sends is dropped here, up to
    /// ``lingerBytes``, past which the connection is closed (a client pushing megabytes gets no more of our time).
    var lingering = false
    private var lingered = 0
    static let lingerBytes = 64 * 1024

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Called by the connection when the head has arrived: whether the body is chunked (and so to be followed).
    func bodyStarts(chunked: Bool) {
        guard case .unknown(let rest) = body else { return }
        body = chunked ? .chunked(ChunkSizes(limit: ControlAPI.maxBodyBytes)) : .plain
        // Told within the read that carried the head, as NIO's decoder does: the rest of that read is followed
        // before it is passed on. Told later: what came with the head has been passed on already; follow it now.
        guard !passing, let context else { return }
        follow(rest, context)
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
        guard !done else {
            guard follow(unwrapInboundIn(data), context) else { return }
            return context.fireChannelRead(data)
        }
        let buffer = unwrapInboundIn(data)
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
        guard done, scanned < buffer.readableBytes,
            let head = buffer.getSlice(at: buffer.readerIndex, length: scanned),
            let rest = buffer.getSlice(at: buffer.readerIndex + scanned, length: buffer.readableBytes - scanned)
        else {
            body = done ? .unknown(ByteBuffer()) : body
            return context.fireChannelRead(data)
        }
        // The head alone first: the decoder hands it to the connection, which says what the body is, so the rest is
        // followed before the decoder sees it (an overflowing size is then 413, not the decoder's 400).
        body = .unknown(rest)
        passing = true
        context.fireChannelRead(wrapInboundOut(head))
        passing = false
        guard !refused else { return }
        if case .chunked = body, !follow(rest, context) { return }
        context.fireChannelRead(wrapInboundOut(rest))
    }
}
