import NIOCore

/// Sits before the HTTP decoder and bounds what a client may send before its request head is complete: the
/// request line and headers together within `limit` bytes. NIO's decoder bounds header fields but not the
/// request line; this bounds both, so a client cannot make the server buffer megabytes of head.
///
/// When the head is over the limit it stops passing bytes on and tells ``HTTPConnection`` (an inbound
/// ``TooLarge`` event), which answers 431 and closes.
final class HeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The event that says the head is over the limit.
    struct TooLarge {}

    private let limit: Int
    private var seen = 0
    /// How far the blank line that ends the head has been matched (`\r\n\r\n`, or `\n\n` as llhttp allows).
    private var match = 0
    private var done = false
    private var refused = false

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

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if lingering {
            lingered += unwrapInboundIn(data).readableBytes
            if lingered > Self.lingerBytes { context.close(promise: nil) }
            return
        }
        guard !refused else { return }
        guard !done else { return context.fireChannelRead(data) }
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
        context.fireChannelRead(data)
    }
}
