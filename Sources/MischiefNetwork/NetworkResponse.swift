import Foundation
import Mischief

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the network rules decided for one request: answer it, fail it, or let it through; how long to wait first;
/// and how fast the body may flow.
///
/// The output of ``ChaosNetwork/seam``, whose original is ``passThrough``. Rules written as specs make these; code
/// can make them too:
/// ```swift
/// let api = try NetworkMatch(host: "api.example.com")
/// try registry.apply(network.seam, .answer(.reply(status: 503).delayed(by: .seconds(2)), when: api))
/// ```
public struct NetworkResponse: Hashable, Sendable, CustomStringConvertible {
    /// What happens to the request.
    public enum Outcome: Hashable, Sendable {
        /// The request is answered with this reply; it never reaches the network.
        case reply(NetworkReply)
        /// The request fails with a `URLError` of this code; it never reaches the network.
        case failure(URLError.Code)
        /// The request goes to the network (through ``latency`` and ``bytesPerSecond``, if set).
        case passThrough
    }

    /// What happens to the request.
    public var outcome: Outcome
    /// How long to wait before the reply, the failure or the pass-through starts. Never blocks a thread.
    public var latency: Duration
    /// The fastest the body may arrive, in bytes per second; nil for no limit.
    public var bytesPerSecond: Int?
    /// The rule that decided, as the event log names it: `respond(503, host: "api.example.com") + latency(2s)`.
    ///
    /// Setting it names the answer and forgets what `latency` and `bandwidth` rules noted.
    public var rule: String? {
        get {
            let parts = (answeredBy.map { [$0] } ?? []) + notes
            return parts.isEmpty ? nil : parts.joined(separator: " + ")
        }
        set {
            answeredBy = newValue
            notes = []
        }
    }
    private var answeredBy: String?
    /// What wrapping rules added, in the order they were written.
    private var notes: [String] = []

    /// Makes a response.
    public init(_ outcome: Outcome, latency: Duration = .zero, bytesPerSecond: Int? = nil, rule: String? = nil) {
        self.outcome = outcome
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
        self.answeredBy = rule
    }

    /// The request goes to the network untouched: the seam's original.
    public static let passThrough = NetworkResponse(.passThrough)

    /// Answers with `reply`.
    public static func reply(_ reply: NetworkReply) -> NetworkResponse { NetworkResponse(.reply(reply)) }

    /// Answers with a status, header fields and a body.
    public static func reply(status: Int, headers: [String: String] = [:], body: Data = Data()) -> NetworkResponse {
        .reply(NetworkReply(status: status, headers: headers, body: body))
    }

    /// Fails with a `URLError` of `code`.
    public static func failure(_ code: URLError.Code) -> NetworkResponse { NetworkResponse(.failure(code)) }

    /// No connection: `URLError.notConnectedToInternet`.
    public static var offline: NetworkResponse { .failure(.notConnectedToInternet) }
    /// The request timed out: `URLError.timedOut`.
    public static var timeout: NetworkResponse { .failure(.timedOut) }
    /// The host name did not resolve: `URLError.cannotFindHost`.
    public static var dnsFailure: NetworkResponse { .failure(.cannotFindHost) }
    /// The connection dropped: `URLError.networkConnectionLost`.
    public static var connectionReset: NetworkResponse { .failure(.networkConnectionLost) }

    /// This response after `duration` more of latency.
    public func delayed(by duration: Duration) -> NetworkResponse {
        var copy = self
        copy.latency += max(duration, .zero)
        return copy
    }

    /// This response with the body limited to `kilobitsPerSecond` (1 kbps is 125 bytes per second); the lower of
    /// two limits wins.
    public func limited(toKilobitsPerSecond kilobitsPerSecond: Double) -> NetworkResponse {
        var copy = self
        let rate = max(1, Int((kilobitsPerSecond * 125).rounded()))
        copy.bytesPerSecond = min(bytesPerSecond ?? .max, rate)
        return copy
    }

    /// This response, naming the rule that decided it.
    public func ruled(by rule: String) -> NetworkResponse {
        var copy = self
        copy.rule = rule
        return copy
    }

    /// This response with `label` noted after the answer's rule: `respond(503) + latency(2s)`.
    ///
    /// A composition's wrapping actions run innermost first, which is the reverse of the order they are written in,
    /// so each note goes before the ones already there.
    func noting(_ label: String) -> NetworkResponse {
        var copy = self
        copy.notes.insert(label, at: 0)
        return copy
    }

    /// Equal when outcome, latency, bandwidth and rule text are.
    public static func == (lhs: NetworkResponse, rhs: NetworkResponse) -> Bool {
        (lhs.outcome, lhs.latency, lhs.bytesPerSecond, lhs.rule) == (
            rhs.outcome, rhs.latency, rhs.bytesPerSecond, rhs.rule
        )
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(outcome)
        hasher.combine(latency)
        hasher.combine(bytesPerSecond)
        hasher.combine(rule)
    }

    /// True when the request goes to the network.
    public var isPassThrough: Bool { outcome == .passThrough }

    /// True when nothing changes the request: the network, without latency or a bandwidth limit.
    public var isUntouched: Bool { outcome == .passThrough && latency == .zero && bytesPerSecond == nil }

    /// Whether the decided outcome fails the request: a failure, or a reply with a server error (5xx).
    public var isFailure: Bool {
        switch outcome {
        case .failure: true
        case .reply(let reply): reply.isServerError
        case .passThrough: false
        }
    }

    /// How long `byteCount` bytes take at ``bytesPerSecond``; zero without a limit.
    public func transferTime(of byteCount: Int) -> Duration {
        guard let bytesPerSecond, byteCount > 0 else { return .zero }
        return .nanoseconds(Int64((Double(byteCount) / Double(bytesPerSecond) * 1e9).rounded()))
    }

    /// The error a failing response gives for a request to `url`, with the URL in its user info as URLSession
    /// gives it; nil when the response does not fail.
    public func error(for url: URL) -> URLError? {
        guard case .failure(let code) = outcome else { return nil }
        return URLError(
            code,
            userInfo: [
                NSURLErrorFailingURLErrorKey: url,
                NSLocalizedDescriptionKey:
                    "\(FailureKind(code: code)?.phrase ?? "network failure") (injected by Mischief)",
            ])
    }

    /// What the response does, as the event log shows it: `503, 12 bytes`, `offline`, `network after 2s`.
    public var description: String {
        var text: String
        switch outcome {
        case .reply(let reply): text = "\(reply.status), \(reply.body.count) byte\(reply.body.count == 1 ? "" : "s")"
        case .failure(let code): text = FailureKind(code: code)?.rawValue ?? "URLError \(code.rawValue)"
        case .passThrough: text = "network"
        }
        if latency > .zero { text += " after \(Self.readable(latency))" }
        if let bytesPerSecond { text += " at \(formatKilobits(Double(bytesPerSecond) / 125)) kbps" }
        return text
    }
}

extension NetworkResponse {
    /// A latency as specs write it, rounded to the millisecond when it has a finer part (jitter): `2s`, `216ms`.
    static func readable(_ duration: Duration) -> String {
        let exact = SpecDuration(duration)
        let millisecond: Int64 = 1_000_000
        guard exact.nanoseconds % millisecond != 0, exact.nanoseconds > millisecond else { return exact.description }
        let rounded = (exact.nanoseconds + millisecond / 2) / millisecond * millisecond
        return SpecDuration(nanoseconds: rounded).description
    }
}

/// A rate in kbps without a needless fraction: `64`, `12.5`.
func formatKilobits(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
}
