import Foundation
import Mischief
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// One connection's HTTP exchange on the server's event loop: requests one at a time, each read with limits and
/// deadlines, answered synchronously (or, with a long body, on the server's worker). HTTP/1.1 keeps the connection
/// for the next request (a console sends all its commands on one); it is closed after an answer when the request
/// asked (`Connection: close`, or HTTP/1.0), had a chunked body, or broke a limit, and when no next request starts
/// within ``ControlServer/Limits/keepAliveTimeout``. An events stream keeps it to itself.
///
/// Limits, on every request of a connection alike: the head within ``ControlServer/Limits/headBytes`` (else 431) and
/// ``ControlServer/Limits/headTimeout`` from its first byte (from connecting, for the first; else 408), the body
/// within ``ControlAPI/maxBodyBytes`` (else 413, refused on the declared length, or on the chunk sizes announced,
/// before it is read) and ``ControlServer/Limits/bodyTimeout``. A request that cannot be parsed gets 400 and the
/// connection is closed. The server thread's CPU budget is paid after every read, whichever request it belongs to.
/// Nothing here awaits: the target's task pool may be blocked and the API still answers.
final class HTTPConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        /// Answered, waiting for the next request, nothing of it come yet.
        case idle
        case head
        case body(HTTPRequestHead, ByteBuffer)
        case answered
        case streaming(EventStream)
    }

    private let server: ControlServer
    private let requiresToken: Bool
    /// The connection's request size limiter, which drops what comes after the answer.
    weak var head: RequestSizeLimiter?
    private var phase = Phase.head
    private var deadline: Scheduled<Void>?

    /// Whether the connection has not yet sent a whole request (the ones evicted first).
    var isWaiting: Bool {
        switch phase {
        case .idle, .head, .body: true
        case .answered, .streaming: false
        }
    }

    init(server: ControlServer, requiresToken: Bool) {
        self.server = server
        self.requiresToken = requiresToken
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context, after: server.limits.headTimeout, "the request head did not arrive in time")
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if case .streaming(let stream) = phase { server.feed.remove(stream) }
        phase = .answered
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), phase) {
        case (.head(let head), .head), (.head(let head), .idle):
            if let length = head.headers.first(name: "content-length").flatMap(Int.init),
                length > ControlAPI.maxBodyBytes
            {
                return fail(
                    context,
                    APIFailure(
                        .payloadTooLarge, "body too large",
                        "the body is \(length) bytes; the limit is \(ControlAPI.maxBodyBytes)"))
            }
            // The guard before the decoder follows a chunked body's sizes, to refuse too much as soon as it is announced,
            // and a body of known length to its end, where the next request starts.
            let framing = Self.framing(of: head)
            self.head?.bodyStarts(framing)
            if case .length = framing {
                keepAlive = !inputClosed && head.version == .http1_1 && head.isKeepAlive
            } else {
                keepAlive = false
            }
            if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                // curl asks before sending a body over 1 KB, and waits a second for want of an answer.
                context.writeAndFlush(
                    wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")), promise: nil)
            }
            phase = .body(head, context.channel.allocator.buffer(capacity: 0))
            arm(context, after: server.limits.bodyTimeout, "the request body did not arrive in time")
        case (.body(var chunk), .body(let head, var body)):
            guard body.readableBytes + chunk.readableBytes <= ControlAPI.maxBodyBytes else {
                return fail(
                    context,
                    APIFailure(
                        .payloadTooLarge, "body too large",
                        "the body is over the limit of \(ControlAPI.maxBodyBytes) bytes"))
            }
            body.writeBuffer(&chunk)
            phase = .body(head, body)
        case (.end, .body(let head, let body)):
            deadline?.cancel()
            phase = .answered
            dispatch(context, head: head, body: body)
        default:
            break  // anything after a request is held by the size guard until it is answered
        }
    }

    /// How `head` frames its body: a `Content-Length` (none: no body), chunked, or anything else.
    static func framing(of head: HTTPRequestHead) -> RequestSizeLimiter.Framing {
        let codings = head.headers[canonicalForm: "transfer-encoding"]
        if !codings.isEmpty { return codings.last?.lowercased() == "chunked" ? .chunked : .unframed }
        let lengths = head.headers["content-length"]
        guard let length = lengths.first else { return .length(0) }
        guard lengths.count == 1, let count = Int(length), count >= 0 else { return .unframed }
        return .length(count)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is RequestSizeLimiter.TooLarge {
            guard isWaiting else { return }  // answered already (a 400): one answer per connection
            fail(
                context,
                APIFailure(
                    .requestHeaderFieldsTooLarge, "request head too large",
                    "the request line and headers must fit in \(server.limits.headBytes) bytes and \(server.limits.headerCount) headers"
                ))
        } else if let event = event as? RequestSizeLimiter.BodyTooLarge {
            guard isWaiting else { return }
            fail(
                context,
                APIFailure(
                    .payloadTooLarge, "body too large",
                    "the chunks announce \(event.announced) bytes or more; the limit is \(ControlAPI.maxBodyBytes)"))
        } else if event is RequestSizeLimiter.RequestBegins {
            // The next request of a kept connection: its head has the head's time from its first byte.
            guard case .idle = phase else { return }
            phase = .head
            arm(context, after: server.limits.headTimeout, "the request head did not arrive in time")
        } else if let event = event as? ChannelEvent, event == .inputClosed {
            // A client that half-closes after its request still gets the answer; one that stops mid-request or
            // leaves a stream is gone.
            inputClosed = true
            keepAlive = false
            switch phase {
            case .idle, .head, .body, .streaming: context.close(promise: nil)
            case .answered: if written { context.close(promise: nil) }  // else closed once the answer is out
            }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard case .answered = phase else {
            if case .streaming = phase { return context.close(promise: nil) }
            if let parse = error as? HTTPParserError, parse == .invalidEOFState {
                return context.close(promise: nil)  // the client stopped mid-request: nobody to answer
            }
            if let parse = error as? HTTPParserError, parse == .headerOverflow {
                return userInboundEventTriggered(context: context, event: RequestSizeLimiter.TooLarge())
            }
            return fail(context, APIFailure(.badRequest, "malformed request", "the request is not HTTP/1.1: \(error)"))
        }
        // After the answer, the connection lingers until its deadline: more garbage changes nothing.
        if !responded { context.close(promise: nil) }
    }

    // MARK: Answering

    private func dispatch(_ context: ChannelHandlerContext, head: HTTPRequestHead, body: ByteBuffer) {
        if requiresToken, head.headers.first(name: "authorization") != "Bearer \(server.token)" {
            return send(
                context,
                APIFailure(
                    .unauthorized, "unauthorized", "TCP requests need the header 'Authorization: Bearer <token>'"
                ).response)
        }
        let request = APIRequest(
            method: APIMethod(head.method.rawValue), uri: head.uri, headers: head.headers.map { ($0.name, $0.value) },
            body: Data(body.readableBytesView))
        if let worker = server.worker, request.method != .GET, request.body.count >= Self.workerBytes {
            return answerOnWorker(context, request, worker)
        }
        reply(context, server.handler.respond(to: request))
    }

    /// Bodies from this size on are answered on the server's worker (see ``answerOnWorker(_:_:_:)``).
    static let workerBytes = 1024

    /// Answers `request` on the server's worker thread, then replies on the event loop: a long spec, profile or
    /// guard takes its parsing's time there, while the event loop answers other clients (issue #28: a 64 KiB spec
    /// kept `GET /v1/target` waiting 0.5 s in a debug build). The worker then pays for the CPU it took, within the
    /// server's share, before its next request. Not for `GET` (an events stream is set up on the event loop).
    private func answerOnWorker(_ context: ChannelHandlerContext, _ request: APIRequest, _ worker: NIOThreadPool) {
        let loop = context.eventLoop
        let this = NIOLoopBound(self, eventLoop: loop)
        let bound = NIOLoopBound(context, eventLoop: loop)
        worker.runIfActive(eventLoop: loop) { [server] in
            server.workerGate.withLock { $0 }?()
            return server.handler.respond(to: request)
        }.whenComplete { result in
            switch result {
            case .success(let reply):
                this.value.reply(bound.value, reply)
            case .failure:
                this.value.send(
                    bound.value,
                    APIFailure(.serviceUnavailable, "server stopping", "the control server is shutting down").response)
            }
        }
        if let budget = server.workerBudget { worker.submit { _ in budget.throttle() } }
    }

    private func reply(_ context: ChannelHandlerContext, _ reply: Reply) {
        switch reply {
        case .answer(let response):
            send(context, response)
        case .advance(let duration):
            advance(context, by: duration)
        case .events(let session, let changes):
            stream(context, session: session, changes: changes)
        case .replay(let recording, let timeout):
            replay(context, recording, timeout: timeout)
        }
    }

    /// Replays `recording` off the event loop (it waits for the target's calls) and answers with the outcome.
    private func replay(_ context: ChannelHandlerContext, _ recording: Recording, timeout: Duration?) {
        let loop = context.eventLoop
        let promise = loop.makePromise(of: APIResponse.self)
        let handler = server.handler
        Task.detached { promise.succeed(await handler.replay(recording, timeout: timeout)) }
        let this = NIOLoopBound(self, eventLoop: loop)
        let bound = NIOLoopBound(context, eventLoop: loop)
        promise.futureResult.whenSuccess { response in this.value.send(bound.value, response) }
    }

    /// Moves the target's time off the event loop (it waits on the target's tasks) and answers within
    /// ``ControlServer/Limits/advanceTimeout``, with 503 when the target's tasks do not get to it.
    private func advance(_ context: ChannelHandlerContext, by duration: Duration) {
        let loop = context.eventLoop
        let promise = loop.makePromise(of: Bool.self)
        let handler = server.handler
        Task.detached { promise.succeed(await handler.advance(by: duration)) }
        let this = NIOLoopBound(self, eventLoop: loop)
        let bound = NIOLoopBound(context, eventLoop: loop)
        let timer = loop.scheduleTask(in: .nanoseconds(Int64(server.limits.advanceTimeout.seconds * 1e9))) {
            this.value.finishAdvance(bound.value, moved: nil)
        }
        promise.futureResult.whenSuccess { moved in
            timer.cancel()
            this.value.finishAdvance(bound.value, moved: moved)
        }
    }

    private var advanced = false
    /// Whether the request being answered leaves the connection open for the next (HTTP/1.1, whole, with a body of
    /// known length, and not asked to close).
    private var keepAlive = false
    /// Whether the client has closed its side: nothing more will come.
    private var inputClosed = false
    /// Whether the answer has been written (the connection then only lingers until the client closes).
    private var responded = false
    /// Whether all of the answer has gone out: only then may the client's half-close end the connection (a long answer
    /// takes several writes, and closing before them cut it short under its Content-Length).
    private var written = false

    private func finishAdvance(_ context: ChannelHandlerContext, moved: Bool?) {
        guard !advanced else { return }
        advanced = true
        send(context, server.handler.advanced(moved))
    }

    private func stream(_ context: ChannelHandlerContext, session: String?, changes: Bool) {
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n"
        context.write(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
        let stream = EventStream(context: context, session: session, changes: changes, server: server)
        phase = .streaming(stream)
        self.head?.lingering = true  // the stream has the connection: what the client sends now is dropped
        server.feed.add(stream)
    }

    /// Writes `response`, then waits for the next request on the connection, or closes it once the answer is out.
    func send(_ context: ChannelHandlerContext, _ response: APIResponse) {
        // A change answered: its events streams get it now, not after the interval between two batches, so a console
        // waiting on its stream for the generation named here is not held by an earlier batch.
        if response.generation != nil { server.feed.pushNow() }
        deadline?.cancel()
        phase = .answered
        let head =
            "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
            + "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n"
            + (response.generation.map { "\(ControlAPI.generationHeader): \($0)\r\n" } ?? "")
            + (keepAlive ? "" : "Connection: close\r\n") + "\r\n"
        var bytes = context.channel.allocator.buffer(capacity: head.utf8.count + response.body.count)
        bytes.writeString(head)
        bytes.writeBytes(response.body)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        responded = true
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { result in
                guard case .success = result else { return bound.value.close(promise: nil) }
                this.value.awaitNextRequest(bound.value)
            }
            return
        }
        guard requiresToken else {
            // A Unix socket keeps what was written for the peer when it closes, even with input left unread: close
            // at once, so a client that keeps sending (a huge body, 200k headers) costs no more reads.
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
                this.value.written = true
                bound.value.close(promise: nil)
            }
            return
        }
        self.head?.lingering = true
        // On TCP, a lingering close: stop writing, but keep reading (and dropping) what the client still sends until it
        // closes or a second passes, so the answer is not lost to a reset when the client was still sending.
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
            this.value.written = true
            bound.value.close(mode: .output).whenFailure { _ in bound.value.close(promise: nil) }
        }
        deadline = context.eventLoop.scheduleTask(in: .seconds(1)) { bound.value.close(promise: nil) }
    }

    private func fail(_ context: ChannelHandlerContext, _ failure: APIFailure) {
        keepAlive = false  // what the client sends next cannot be told from the rest of this request
        head?.refuseRest()
        send(context, failure.response)
    }

    /// The answer is out and the connection stays: wait for the next request, at most
    /// ``ControlServer/Limits/keepAliveTimeout`` for its first byte, then close without a word.
    private func awaitNextRequest(_ context: ChannelHandlerContext) {
        guard context.channel.isActive, !inputClosed else { return context.close(promise: nil) }
        phase = .idle
        (advanced, responded, written, keepAlive) = (false, false, false, false)
        deadline?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(server.limits.keepAliveTimeout.seconds * 1e9)))
        {
            guard case .idle = this.value.phase else { return }
            bound.value.close(promise: nil)
        }
        // Not from within this write's completion, which may run inside the read that brought the request.
        let head = NIOLoopBound(self.head, eventLoop: context.eventLoop)
        context.eventLoop.execute { head.value?.nextRequest() }
    }

    private func arm(_ context: ChannelHandlerContext, after limit: Duration, _ reason: String) {
        deadline?.cancel()
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let nanoseconds = Int64(limit.seconds * 1e9)
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            switch this.value.phase {
            case .head, .body: this.value.fail(bound.value, APIFailure(.requestTimeout, "request timeout", reason))
            case .idle, .answered, .streaming: break
            }
        }
    }
}
