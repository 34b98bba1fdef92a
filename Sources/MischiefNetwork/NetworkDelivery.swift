import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Delivers one decided request to its URL protocol's client: waits the latency, then answers, fails, or sends the
/// request on and relays what comes back, with the body after the bandwidth limit's transfer time. A latency longer
/// than the request's timeout ends in `URLError.timedOut` when the timeout is up, as it would on a slow network.
///
/// Waits are `Task.sleep`s, so no thread is blocked; ``stop()`` cancels them and the request sent on, and from then
/// on nothing reaches the client.
final class NetworkDelivery: Sendable {
    private let request: URLRequest
    private let response: NetworkResponse
    private let passThrough: Configuration
    private let state: Mutex<State>
    /// Counts the request as a failed call of its seam.
    private let countFailure: @Sendable () -> Void

    /// @unchecked: a private copy, only read; not every SDK marks URLSessionConfiguration Sendable.
    private struct Configuration: @unchecked Sendable {
        let value: URLSessionConfiguration
    }

    private struct State: @unchecked Sendable {
        // @unchecked: `forwarded` is a URLSessionTask, made to be cancelled from any thread.
        /// Nil once the delivery finished or was stopped: nothing more goes to the client.
        var target: ProtocolTarget?
        var waits: [Task<Void, Never>] = []
        var forwarded: URLSessionTask?
    }

    init(
        target: ProtocolTarget, request: URLRequest, response: NetworkResponse, passThrough: URLSessionConfiguration,
        countFailure: @escaping @Sendable () -> Void = {}
    ) {
        self.countFailure = countFailure
        self.request = request
        self.response = response
        self.passThrough = Configuration(value: passThrough)
        self.state = Mutex(State(target: target))
    }

    private var url: URL { request.url ?? URL(string: "about:blank")! }

    /// The request's timeout: the shorter of the request's and its session's; nil when neither is set (or both are
    /// beyond 30 years).
    private var timeout: Duration? {
        let seconds = [request.timeoutInterval, passThrough.value.timeoutIntervalForRequest].filter {
            $0 > 0 && $0 < 1e9
        }.min()
        return seconds.map { .nanoseconds(Int64(($0 * 1e9).rounded())) }
    }

    func start() {
        track(Task { await self.run() })
    }

    func stop() {
        let (waits, forwarded) = state.withLock { state in
            defer { state = State(target: nil) }
            return (state.waits, state.forwarded)
        }
        for wait in waits { wait.cancel() }
        forwarded?.cancel()
    }

    private func run() async {
        // A real request that hears nothing for its timeout fails with one; so does one whose latency is longer.
        if let timeout, response.latency > timeout {
            guard await pause(timeout) else { return }
            fail(NetworkResponse.timeout.error(for: self.url)!)
            return
        }
        guard await pause(response.latency) else { return }
        switch response.outcome {
        case .failure:
            fail(response.error(for: url)!)
        case .reply(let reply):
            guard let httpResponse = reply.httpResponse(for: url) else {
                fail(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: self.url]))
                return
            }
            receive(httpResponse)
            guard await pause(response.transferTime(of: reply.body.count)) else { return }
            finish { target in
                target.load(reply.body)
                target.finish()
            }
        case .passThrough:
            forward()
        }
    }

    /// Sends the request to the network through a session with the original session's configuration (minus the
    /// Mischief protocol), and relays the response, body and error.
    private func forward() {
        let session = URLSession(configuration: passThrough.value)
        let task = session.dataTask(with: request) { data, urlResponse, error in
            self.relay(data: data ?? Data(), response: urlResponse, error: error)
        }
        let stopped = state.withLock { state in
            state.forwarded = task
            return state.target == nil
        }
        if stopped {
            session.invalidateAndCancel()
            return
        }
        task.resume()
        session.finishTasksAndInvalidate()
    }

    private func relay(data: Data, response urlResponse: URLResponse?, error: (any Error)?) {
        if let error {
            fail(error)
            return
        }
        guard let urlResponse else {
            fail(URLError(.badServerResponse))
            return
        }
        receive(urlResponse)
        let transfer = response.transferTime(of: data.count)
        guard transfer > .zero else {
            finish { target in
                target.load(data)
                target.finish()
            }
            return
        }
        track(
            Task {
                guard await self.pause(transfer) else { return }
                self.finish { target in
                    target.load(data)
                    target.finish()
                }
            })
    }

    // MARK: State

    /// Keeps `task` to cancel it on ``stop()``; cancels it at once when the delivery is already over.
    private func track(_ task: Task<Void, Never>) {
        let over = state.withLock { state in
            if state.target != nil { state.waits.append(task) }
            return state.target == nil
        }
        if over { task.cancel() }
    }

    /// Waits `duration`; false when the delivery was stopped meanwhile.
    private func pause(_ duration: Duration) async -> Bool {
        if duration > .zero {
            do { try await Task.sleep(for: duration) } catch { return false }
        }
        return state.withLock { $0.target != nil }
    }

    /// Calls the client, unless the delivery is over.
    private func send(_ body: (ProtocolTarget) -> Void) {
        guard let target = state.withLock({ $0.target }) else { return }
        body(target)
    }

    /// Hands the client the response's head, counting a server error (5xx) as a failed call, unless the delivery
    /// is over.
    private func receive(_ urlResponse: URLResponse) {
        send { target in
            if let status = (urlResponse as? HTTPURLResponse)?.statusCode, NetworkReply.isServerError(status) {
                countFailure()
            }
            target.receive(urlResponse)
        }
    }

    /// Fails the request, counted as a failed call, unless the delivery is over (a stopped request is not a
    /// failure of the network).
    private func fail(_ error: any Error) {
        finish { target in
            countFailure()
            target.fail(error)
        }
    }

    /// Makes the last calls to the client, unless the delivery is over, and ends it.
    private func finish(_ body: (ProtocolTarget) -> Void) {
        let target = state.withLock { state in
            defer { state = State(target: nil) }
            return state.target
        }
        guard let target else { return }
        body(target)
    }
}
