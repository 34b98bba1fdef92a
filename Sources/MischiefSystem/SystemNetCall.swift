/// One call `system.net` decides: a host name looked up (`getaddrinfo`), or a TCP connection opened (`connect`).
public struct SystemNetCall: Sendable, Hashable, CustomStringConvertible {
    /// Which function was called.
    public enum Operation: String, Sendable, Hashable {
        /// `getaddrinfo`: a host name looked up.
        case lookup
        /// `connect`: a connection to an IPv4 or IPv6 address.
        case connect
    }

    /// Which function was called.
    public var operation: Operation
    /// A lookup: the name asked. A connect: the numeric address (`127.0.0.1`; an IPv4 address mapped into IPv6 reads
    /// as the IPv4 address).
    public var host: String
    /// A connect: the host names lookups answered ``host`` for, newest first; empty when no lookup in this process
    /// gave that address since install.
    public var names: [String]
    /// A connect: the port. A lookup: the service asked, when it is a number; else nil.
    public var port: Int?
    /// A connect: whether the socket blocks. Lookups always block.
    public var isBlocking: Bool

    /// A call as the hooks describe it.
    public init(operation: Operation, host: String, names: [String] = [], port: Int? = nil, isBlocking: Bool = true) {
        self.operation = operation
        self.host = host
        self.names = names
        self.port = port
        self.isBlocking = isBlocking
    }

    /// Whether `pattern` names this call's host: `*` matches any; `*.example.com` every subdomain of example.com;
    /// anything else the name or address itself, ignoring case. A connect matches by its address, or by any name a
    /// lookup answered that address for; a connect to a loopback address (127.0.0.0/8, ::1) is also `localhost`'s,
    /// which libcurl resolves itself without a lookup.
    public func matches(host pattern: String) -> Bool {
        let pattern = pattern.lowercased()
        let loopback = operation == .connect && (host.hasPrefix("127.") || host == "::1") ? ["localhost"] : []
        return ([host] + names + loopback).contains { candidate in
            let candidate = candidate.lowercased()
            if pattern == "*" { return true }
            if pattern.hasPrefix("*.") { return candidate.hasSuffix(pattern.dropFirst(1)) }
            return candidate == pattern
        }
    }

    /// `connect 127.0.0.1:8080 (localhost)`, `lookup api.example.com`.
    public var description: String {
        switch operation {
        case .lookup:
            return "lookup \(host)"
        case .connect:
            let address = host.contains(":") ? "[\(host)]" : host
            let port = port.map { ":\($0)" } ?? ""
            return "connect \(address)\(port)" + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
        }
    }
}

/// What happens to a ``SystemNetCall``: the real call, or a failure the network could give, after a delay.
public struct SystemNetOutcome: Sendable, Hashable, CustomStringConvertible {
    /// What the hook does.
    public enum Action: Sendable, Hashable {
        /// The real call.
        case real
        /// A lookup fails with `EAI_NONAME`: no such host.
        case noSuchHost
        /// A connect fails with `ECONNREFUSED`.
        case refused
        /// A connect never completes: a blocking one fails with `ETIMEDOUT` at its `SO_SNDTIMEO` (75 s without),
        /// a non-blocking one says `EINPROGRESS` and its socket never becomes writable.
        case hang
        /// A lookup answers this numeric address instead.
        case resolve(String)
    }

    /// What the hook does.
    public var action: Action
    /// How long the hook sleeps first.
    public var delay: Duration
    /// The rule that decided it, as its spec says it, for the event log; nil for the real call.
    public var rule: String?

    /// `action` after `delay`, decided by `rule`.
    public init(_ action: Action, delay: Duration = .zero, rule: String? = nil) {
        self.action = action
        self.delay = delay
        self.rule = rule
    }

    /// The real call, at once.
    public static let real = SystemNetOutcome(.real)

    /// Whether the call fails: no such host, refused, or hanging until it times out.
    public var isFailure: Bool {
        switch action {
        case .noSuchHost, .refused, .hang: true
        case .real, .resolve: false
        }
    }

    /// ``delay`` in whole nanoseconds, as the hooks sleep it: saturating at `Int64.max` (some 292 years), so a
    /// composition of long latencies (`latency(by: 200y) + latency(by: 200y)`) waits until its layer is reverted or
    /// the seam uninstalled, and never traps.
    var delayNanoseconds: Int64 {
        guard delay > .zero else { return 0 }
        guard delay < .nanoseconds(Int64.max) else { return .max }
        let (seconds, attoseconds) = delay.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// This outcome, `by` later.
    public func delayed(by duration: Duration) -> SystemNetOutcome {
        var delayed = self
        delayed.delay += duration
        return delayed
    }

    /// This outcome with `rule` named (added to the rule already named, if any).
    func noting(_ label: String) -> SystemNetOutcome {
        var noted = self
        noted.rule = rule.map { "\($0) + \(label)" } ?? label
        return noted
    }

    /// `refused after 200 ms`, `resolve(127.0.0.1)`, `real`.
    public var description: String {
        let text: String =
            switch action {
            case .real: "real"
            case .noSuchHost: "no such host (EAI_NONAME)"
            case .refused: "refused (ECONNREFUSED)"
            case .hang: "hang"
            case .resolve(let address): "resolved to \(address)"
            }
        return delay > .zero ? "\(text) after \(delay)" : text
    }
}
