import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URL protocol that applies network rules to URLSession requests.
///
/// Install it with ``ChaosNetwork/install(in:)``, which puts it first in a configuration's `protocolClasses`:
/// ```swift
/// let configuration = URLSessionConfiguration.default
/// ChaosNetwork.shared.install(in: configuration)
/// let session = URLSession(configuration: configuration)
/// ```
/// Putting it first is what works on Linux: `URLProtocol.registerClass` appends it after URLSession's own protocols,
/// which then answer first, and `URLSession.shared` never sees classes registered after it was made.
///
/// - While no rule is applied to any ``ChaosNetwork`` and no network's calls are counted (no console observes, no
///   guard reads them), it declines every request, so URLSession handles them as if it were not there.
/// - Every request it takes is one counted call; a request that fails (a rule's failure, or the network's: refused,
///   timed out, reset, unknown host) or is answered with a server error (5xx) is one error of the seam.
/// - Otherwise it decides each request once, when it starts loading (one counted call of the seam), then waits the
///   latency on a timer (no thread is blocked; cancelling the task stops the wait) and answers, fails, or sends the
///   request on through a session with the same configuration, minus this protocol, relaying what comes back.
/// - Bodies are delivered in one piece, after the bandwidth limit's transfer time: swift-corelibs-foundation hands a
///   completion handler only the last chunk a URL protocol delivers.
///
/// Not `Sendable`: URLSession makes, calls and releases it.
public final class MischiefURLProtocol: URLProtocol {
    private let delivery = Mutex<NetworkDelivery?>(nil)

    /// Whether to take `request`: an HTTP or HTTPS request while some network has rules applied or its calls
    /// counted.
    public override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return false
        }
        return NetworkRoutes.anyActive || NetworkRoutes.anyCounted
    }

    /// The request, unchanged.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Whether two requests are the same for caching: equal requests are.
    public override class func requestIsCacheEquivalent(_ a: URLRequest, to b: URLRequest) -> Bool { a == b }

    /// Decides the request and starts delivering what the rules say.
    public override func startLoading() {
        let route = NetworkRoutes.route(for: self)
        var request = self.request
        request.setValue(nil, forHTTPHeaderField: NetworkRoutes.header)
        if request.httpBody == nil, request.httpBodyStream == nil, let body = NetworkRoutes.uploadBody(of: task) {
            request.httpBody = body
        }
        let network = route.network
        let response = network?.decideCall(NetworkRequest(request)) ?? .passThrough
        let delivery = NetworkDelivery(
            target: ProtocolTarget(urlProtocol: self), request: request, response: response,
            passThrough: route.passThrough, countFailure: { network?.countFailure() })
        self.delivery.withLock { $0 = delivery }
        delivery.start()
    }

    /// Stops waiting and delivering; nothing reaches the client afterwards.
    public override func stopLoading() {
        delivery.withLock { $0 }?.stop()
    }
}

/// The protocol object and its client, carried across the timer's task.
///
/// @unchecked: URL protocol clients are made to be called from any thread, and ``NetworkDelivery`` makes sure the
/// calls come one at a time, in order, and never after ``MischiefURLProtocol/stopLoading()``.
struct ProtocolTarget: @unchecked Sendable {
    let urlProtocol: URLProtocol

    func receive(_ response: URLResponse) {
        urlProtocol.client?.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
    }

    func load(_ data: Data) {
        if !data.isEmpty { urlProtocol.client?.urlProtocol(urlProtocol, didLoad: data) }
    }

    func finish() {
        urlProtocol.client?.urlProtocolDidFinishLoading(urlProtocol)
    }

    func fail(_ error: any Error) {
        urlProtocol.client?.urlProtocol(urlProtocol, didFailWithError: error)
    }
}
