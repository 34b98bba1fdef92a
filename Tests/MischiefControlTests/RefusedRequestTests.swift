import Foundation
import Mischief
import NIOCore
import NIOEmbedded
import Testing

@testable import MischiefControl

/// What a connection does with the rest of a request it refused: the server's whole pipeline on an `EmbeddedChannel`,
/// with a counter after the request size limiter for the bytes the HTTP decoder is given.
@Suite struct RefusedRequestTests {
    /// Counts the bytes passed on to the decoder.
    final class Counter: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        var bytes = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytes
            context.fireChannelRead(data)
        }
    }

    /// A client that declares a body of 100 MB and pushes it: it is answered 413 at the head, and the body that came
    /// with the head, and after it, is dropped before the decoder (the attack suite's partial-body flood cost the
    /// server a parse of every read before the answer went out).
    @Test func theBodyOfARefusedRequestIsNotDecoded() throws {
        let loop = EmbeddedEventLoop()
        let server = ControlServer(
            registry: Registry(sessionSeed: 1), options: .init(name: "refused", socketPath: "/nonexistent/r.sock"),
            loop: loop)
        let channel = EmbeddedChannel(loop: loop)
        try server.configure(channel, requiresToken: false)
        let counter = Counter()
        let limiter = try channel.pipeline.syncOperations.handler(type: RequestSizeLimiter.self)
        try channel.pipeline.syncOperations.addHandler(counter, position: .after(limiter))

        let head = "PUT /v1/seams/x HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n"
        try channel.writeInbound(ByteBuffer(bytes: Array(head.utf8) + [UInt8](repeating: 97, count: 65_536)))
        try channel.writeInbound(ByteBuffer(bytes: [UInt8](repeating: 97, count: 65_536)))
        loop.run()

        var answer = ""
        while let part = try channel.readOutbound(as: ByteBuffer.self) { answer += String(buffer: part) }
        #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer)")
        #expect(counter.bytes == head.utf8.count, "the decoder was given \(counter.bytes) bytes")
        _ = try? channel.finish()
    }
}
