import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's open connections, oldest first, on its event loop: past ``ControlServer/Limits/connections``, or
/// when `accept()` fails for want of descriptors, the oldest connection waiting for a request is closed (kept-alive
/// ones with nothing sent first), so idle or slow clients cannot lock others out.
final class ConnectionTable: @unchecked Sendable {
    // Touched only on `loop`.
    private var open:
        [(id: UInt64, channel: any Channel, connection: HTTPConnection, head: RequestSizeLimiter, opened: NIODeadline)] =
            []
    private var nextID: UInt64 = 0
    let loop: any EventLoop
    let limit: Int

    init(loop: any EventLoop, limit: Int) {
        self.loop = loop
        self.limit = limit
    }

    var count: Int { open.count }
    /// How many connections were ever accepted.
    var accepted: Int { Int(nextID) }

    func add(_ channel: any Channel, _ connection: HTTPConnection, _ head: RequestSizeLimiter) {
        nextID += 1
        let id = nextID
        open.append((id, channel, connection, head, .now()))
        channel.closeFuture.whenComplete { [weak self] _ in
            guard let loop = self?.loop else { return }
            loop.execute { [weak self] in self?.open.removeAll { $0.id == id } }
        }
        if open.count > limit { evictOne() }
    }

    /// Closes a connection still waiting for its request: the oldest that has sent nothing for 100 ms, else the
    /// oldest waiting for 100 ms (slow clients), else the oldest waiting; false when there is none. A client that has
    /// just connected (its request perhaps not read yet) goes last.
    @discardableResult
    func evictOne() -> Bool {
        let settled = NIODeadline.now() - .milliseconds(100)
        guard
            let index = open.firstIndex(where: { $0.connection.isWaiting && $0.head.isSilent && $0.opened < settled })
                ?? open.firstIndex(where: { $0.connection.isWaiting && $0.opened < settled })
                ?? open.firstIndex(where: { $0.connection.isWaiting })
        else { return false }
        let victim = open.remove(at: index)
        victim.channel.close(promise: nil)
        return true
    }

    func closeAll() {
        for entry in open { entry.channel.close(promise: nil) }
    }
}

/// On the listening socket, before NIO's accept back-off: when `accept()` fails because descriptors ran out,
/// frees one held by an idle client so the listener can accept again after its back-off.
final class AcceptWatch: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private let connections: ConnectionTable

    init(connections: ConnectionTable) {
        self.connections = connections
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            connections.evictOne()
        }
        context.fireErrorCaught(error)
    }
}
