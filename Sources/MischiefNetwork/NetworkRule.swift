import Foundation
import Mischief

/// A behaviour of ``ChaosNetwork/seam``: one network rule, or several combined.
///
/// Specs make them (`respond(503, host: "api.example.com")`); code can too:
/// ```swift
/// let weather = try NetworkMatch(url: "weather")
/// try registry.apply(network.seam, .answer(.reply(status: 200, body: Data(#"{"temp": 21}"#.utf8)), when: weather))
/// let api = try NetworkMatch(host: "api.example.com")
/// try registry.apply(network.seam, api.rule(.probability(50, .constant(.offline))))
/// ```
/// A rule that does not fire for a request (it does not match, or its probability or count says no) lets the request
/// fall through to older rules, and finally to the network.
public typealias NetworkRule = Behaviour<NetworkRequest, NetworkResponse, Never>

/// Network rules built in code: what a matching request gets, as the `net.request` seam's specs say in text.
extension Behaviour where Input == NetworkRequest, Output == NetworkResponse, Failure == Never {
    /// Gives `response` to every request `match` accepts, naming the rule in the event log.
    ///
    /// - Parameters:
    ///   - response: What matching requests get.
    ///   - match: Which requests; every request by default.
    ///   - name: How the event log names the rule; by default the response and the match.
    public static func answer(_ response: NetworkResponse, when match: NetworkMatch = .any, name: String? = nil) -> Self
    {
        let rule = name ?? response.rule ?? (match.isAny ? "\(response)" : "\(response) when \(match)")
        return match.rule(.constant(response.ruled(by: rule)).labelled(rule))
    }

    /// Adds `latency` before whatever matching requests get (a reply, a failure or the network); the others fall
    /// through.
    ///
    /// On its own this lets matching requests through to the network, slowly. It never blocks a thread: the wait
    /// happens in ``MischiefURLProtocol`` or ``ChaosNetwork/perform(_:send:)``. Do not use `Behaviour.delay(_:)` on
    /// this seam: it is synchronous, so that would block the thread deciding the request.
    public func withLatency(_ latency: Duration, when match: NetworkMatch = .any) -> Self {
        match.rule(map { $0.delayed(by: latency) })
    }

    /// Limits the body of whatever matching requests get to `kilobitsPerSecond`; the others fall through.
    public func withBandwidth(_ kilobitsPerSecond: Double, when match: NetworkMatch = .any) -> Self {
        match.rule(map { $0.limited(toKilobitsPerSecond: kilobitsPerSecond) })
    }
}
