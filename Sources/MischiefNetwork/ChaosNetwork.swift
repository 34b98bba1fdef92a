import Foundation
import Mischief
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network family: a merging seam of network rules, a URL protocol that applies them to URLSession, and a
/// seam-level API for other HTTP clients.
///
/// ```swift
/// let network = ChaosNetwork.shared                 // seam "net.request" in Registry.shared
/// try network.register()
/// let configuration = URLSessionConfiguration.default
/// network.install(in: configuration)                // MischiefURLProtocol first in protocolClasses
/// let session = URLSession(configuration: configuration)
///
/// try Registry.shared.apply(spec: #"respond(url: "weather", status: 200, body: {"temp": 21})"#, to: "net.request")
/// try Registry.shared.apply(spec: #"50% offline(host: "api.example.com")"#, to: "net.request")
/// ```
/// Rules from stacked profiles combine, newest first; a request no rule takes goes to the network untouched. Each
/// request a rule takes adds an event to the registry's log: `GET http://…/weather → 200, 11 bytes by respond(…)`.
///
/// Tests make their own instance, with a seam id of their own and their own registry, so they run in parallel:
/// ```swift
/// let registry = Registry(sessionSeed: 1)
/// let network = ChaosNetwork(id: "net.test.weather", registry: registry)
/// try network.register()
/// ```
public final class ChaosNetwork: Sendable {
    /// The instance apps use: seam `net.request` in `Registry.shared`.
    public static let shared = ChaosNetwork()

    /// The seam: a request in, what happens to it out; merging, so every applied rule list takes part.
    public let seam: Seam<NetworkRequest, NetworkResponse, Never>
    /// The registry the seam belongs to: where ``register()`` puts it and where events go.
    public let registry: Registry
    /// The request header whose value is the request's `ChaosKey` for keyed rules (`10%@key offline`), such as
    /// `X-User-ID`; nil leaves the key to the caller's task (`ChaosKey.$current.withValue`).
    ///
    /// Set it at start-up, on ``shared`` too: `ChaosNetwork.shared.keyHeader = "X-User-ID"`. It is read (under a
    /// lock) only for requests decided while some rule is applied.
    public var keyHeader: String? {
        get { keyHeaderName.withLock { $0 } }
        set { keyHeaderName.withLock { $0 = newValue } }
    }
    private let keyHeaderName: Mutex<String?>
    /// Routes URLSession requests back to this instance (see ``install(in:)``).
    let token: Int
    private let active = Atomic<Bool>(false)
    private let activity = Mutex<Void>(())

    /// Makes a network family around a new seam.
    ///
    /// - Parameters:
    ///   - id: The seam's id; unique within the registry.
    ///   - registry: The registry the seam is registered in and reports to.
    ///   - keyHeader: The request header (any case) whose value keys `p%@key` rules, so that "10% of users" are the
    ///     same users on every request: `ChaosNetwork(keyHeader: "X-User-ID")`. A request without the header (or
    ///     with an empty one) keeps the caller's `ChaosKey`, if any. Nil (the default) uses only the caller's key.
    public init(id: SeamID = "net.request", registry: Registry = .shared, keyHeader: String? = nil) {
        self.registry = registry
        self.keyHeaderName = Mutex(keyHeader)
        self.seam = Seam(
            id, title: "Network responses", category: "Network",
            summary: "What requests get: an answer, a failure, latency, a bandwidth limit, or the network",
            stacking: .merge, actions: NetworkActions.all
        ) { _ in .passThrough }
        self.token = NetworkRoutes.newToken()
        NetworkRoutes.add(self)
        seam.onChange { [weak self] in self?.refreshActivity() }
    }

    deinit {
        NetworkRoutes.remove(token: token, wasActive: active.load(ordering: .relaxed))
    }

    /// Registers ``seam`` in ``registry``, so consoles list it and specs can name it.
    public func register() throws(MischiefError) {
        try registry.register(seam)
    }

    /// Whether any rule is applied. While none is, and nobody counts the seam's calls, ``MischiefURLProtocol`` leaves
    /// URLSession's requests alone.
    public var isActive: Bool { active.load(ordering: .relaxed) }

    /// Whether the seam's calls are counted now (a console observes, a guard reads them, a rule is applied): then
    /// ``MischiefURLProtocol`` takes URLSession's requests even with no rule applied, so every request is counted,
    /// and every failure, where a console and guards look.
    var countsCalls: Bool { seam.countsCalls }

    // MARK: Deciding

    /// Decides what happens to `request` (one counted call of the seam) and logs the rule that took it.
    ///
    /// Nothing waits here: the caller applies ``NetworkResponse/latency`` and ``NetworkResponse/bytesPerSecond``, as
    /// ``MischiefURLProtocol`` and ``perform(_:send:)`` do. A request the rules fail, or answer with a server error
    /// (5xx), counts as a failed call at once; for a request passed through, report what the network did with
    /// ``countFailure()`` (a transport error or a 5xx), so guards and consoles see failures wherever they come from.
    public func decide(_ request: NetworkRequest) -> NetworkResponse {
        let response = decideCall(request)
        if response.isFailure { countFailure() }
        return response
    }

    /// Counts one failed request for a call already decided: the network failed it (refused, timed out, reset,
    /// unknown host) or answered with a server error (5xx). For clients that call ``decide(_:)-(NetworkRequest)``
    /// and send passed-through requests themselves; ``MischiefURLProtocol`` and ``perform(_:send:)`` count their
    /// failures themselves.
    public func countFailure() {
        seam.countFailure()
    }

    /// Decides `request` as one counted call, counting no failure: the caller counts the outcome it delivers.
    func decideCall(_ request: NetworkRequest) -> NetworkResponse {
        let response: NetworkResponse
        // The header is looked up only when a key header is configured and some rule is applied.
        if isActive, let keyHeader, let key = request.header(keyHeader), !key.isEmpty {
            response = ChaosKey.$current.withValue(key) { seam(request) }
        } else {
            response = seam(request)
        }
        if !response.isUntouched {
            var message = "\(request) → \(response)"
            if let rule = response.rule { message += " by \(Self.shortened(rule))" }
            registry.report(seam: seam.info.id, message: message)
        }
        return response
    }

    /// Decides what happens to a `URLRequest`; see ``decide(_:)-(NetworkRequest)``.
    public func decide(_ request: URLRequest) -> NetworkResponse {
        decide(NetworkRequest(request))
    }

    /// Runs `request` under the rules, for HTTP clients other than URLSession.
    ///
    /// Decides once, waits the latency (without blocking a thread), then returns the rule's reply, throws its
    /// `URLError`, or calls `send` to reach the network; the body's bandwidth limit is waited out before returning.
    /// ```swift
    /// let reply = try await network.perform(NetworkRequest(method: "GET", url: url)) { request in
    ///     let response = try await httpClient.execute(request.url, headers: request.headers)
    ///     return NetworkReply(status: response.status, headers: response.headers, body: response.body)
    /// }
    /// ```
    /// - Throws: The rule's `URLError`, `CancellationError` when the task is cancelled while waiting, or what `send`
    ///   throws.
    public func perform(
        _ request: NetworkRequest, send: (NetworkRequest) async throws -> NetworkReply
    ) async throws -> NetworkReply {
        let response = decideCall(request)
        try await Self.wait(response.latency)
        let reply: NetworkReply
        switch response.outcome {
        case .failure:
            countFailure()
            throw response.error(for: request.url)!
        case .reply(let answer):
            reply = answer
        case .passThrough:
            do {
                reply = try await send(request)
            } catch {
                if !(error is CancellationError) { countFailure() }
                throw error
            }
        }
        if reply.isServerError { countFailure() }
        try await Self.wait(response.transferTime(of: reply.body.count))
        return reply
    }

    // MARK: URLSession

    /// Puts ``MischiefURLProtocol`` first in `configuration.protocolClasses` and marks the configuration as this
    /// instance's; sessions made from it afterwards follow this instance's rules.
    ///
    /// Install it last, after the other settings: a session copies its configuration when it is made. On Linux
    /// this is the reliable way: `URLProtocol.registerClass` appends after URLSession's own protocols, which answer
    /// first, and `URLSession.shared` never sees classes registered after it was made.
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// configuration.timeoutIntervalForRequest = 20
    /// ChaosNetwork.shared.install(in: configuration)
    /// let session = URLSession(configuration: configuration)
    /// ```
    /// Instances other than ``shared`` mark the configuration with an `X-Mischief-Network` header; requests carry
    /// it while no rule is applied (the protocol is then out of the way) and never once a rule is.
    public func install(in configuration: URLSessionConfiguration) {
        let others = (configuration.protocolClasses ?? []).filter { $0 != MischiefURLProtocol.self }
        configuration.protocolClasses = [MischiefURLProtocol.self] + others
        var headers = configuration.httpAdditionalHeaders ?? [:]
        headers[NetworkRoutes.header] = self === Self.shared ? nil : String(token)
        configuration.httpAdditionalHeaders = headers
    }

    // MARK: Internals

    /// Reads from the registry whether any rule is applied, after every apply or revert on the seam.
    private func refreshActivity() {
        activity.withLock { _ in
            // A seam registered elsewhere (or not at all) cannot be inspected here: assume rules are applied.
            let isActive = registry.snapshot().seam(seam.info.id).map { $0.behaviourText != nil } ?? true
            if active.exchange(isActive, ordering: .sequentiallyConsistent) != isActive {
                NetworkRoutes.activeChanged(by: isActive ? 1 : -1)
            }
        }
    }

    private static func wait(_ duration: Duration) async throws {
        if duration > .zero { try await Task.sleep(for: duration) }
    }

    private static func shortened(_ rule: String) -> String {
        rule.count <= 160 ? rule : String(rule.prefix(159)) + "…"
    }
}
