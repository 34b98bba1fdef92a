import Mischief

#if canImport(Glibc)
    import Glibc
#endif

/// The spec actions of `system.net`: `dns`, `refused`, `hang`, `latency` and `resolve`.
///
/// Each takes a `host` pattern (`"*.example.com"`, an address, nil for every host), and the connect actions a `port`.
/// A connect sees only an address: a host name matches it when a lookup in this process answered that address for the
/// name (the hooks remember the last 256 answers). Rules of stacked layers merge, newest first; a call no rule
/// takes is the real call. `p%` and `n*` count only the calls the action's arguments accept.
enum SystemNetActions {
    typealias Action = SeamAction<SystemNetCall, SystemNetOutcome, Never>
    typealias NetRule = Behaviour<SystemNetCall, SystemNetOutcome, Never>

    static let all: [Action] = [dns, refused, hang, latency, resolve]

    static let host = ActionSignature.Parameter(
        "host", .string, default: .null, summary: "the host: \"api.example.com\", \"*.example.com\", an address")
    static let port = ActionSignature.Parameter(
        "port", .integer, default: .null, summary: "the port connected to; any by default")

    static let dns = Action.produce(
        ActionSignature(
            "dns",
            summary: "host names are not found: getaddrinfo fails with EAI_NONAME (libcurl may keep an answer 60 s)",
            parameters: [host], composes: true)
    ) { (action, context) throws(SpecError) in
        try rule(SystemNetOutcome(.noSuchHost), on: .lookup, action, context)
    }

    static let refused = Action.produce(
        ActionSignature(
            "refused", summary: "connections are refused: connect fails with ECONNREFUSED",
            parameters: [host, port], composes: true)
    ) { (action, context) throws(SpecError) in
        try rule(SystemNetOutcome(.refused), on: .connect, action, context)
    }

    static let hang = Action.produce(
        ActionSignature(
            "hang", summary: "connections never complete: they time out (SO_SNDTIMEO, else 75 s), no packet is sent",
            parameters: [host, port], composes: true)
    ) { (action, context) throws(SpecError) in
        try rule(SystemNetOutcome(.hang), on: .connect, action, context)
    }

    static let resolve = Action.produce(
        ActionSignature(
            "resolve", summary: "a host name resolves to another address, as an /etc/hosts line would",
            parameters: [
                .init("host", .string, summary: "the host: \"api.example.com\", \"*.example.com\""),
                .init(
                    "to", .string, default: .string("127.0.0.1"), summary: "the numeric address: \"127.0.0.1\", \"::1\""
                ),
            ], composes: true)
    ) { (action, context) throws(SpecError) in
        let address = action.string("to") ?? "127.0.0.1"
        guard isNumeric(address) else {
            throw context.error(
                "'to' takes a numeric IPv4 or IPv6 address such as \"127.0.0.1\", got \"\(address)\"", argument: "to",
                of: action)
        }
        return try rule(SystemNetOutcome(.resolve(address)), on: .lookup, action, context)
    }

    static let latency = Action(
        ActionSignature(
            "latency", summary: "each connection waits this long first (the thread that connects sleeps)",
            parameters: [
                .init("by", .duration, step: .duration(SpecDuration(.milliseconds(100))), summary: "how long: 200ms"),
                host, port,
            ], composes: true, waits: true)
    ) { (action, context) throws(SpecError) in
        let delay = action.duration("by")!
        guard delay >= .zero else {
            throw context.error("latency cannot be negative, got \(SpecDuration(delay))", argument: "by", of: action)
        }
        let matches = try matcher(on: .connect, action, context)
        let label = action.canonicalTerm.description
        return .wrap { inner in
            .match([NetRule.Rule(matches, inner.map { $0.delayed(by: delay).noting(label) })])
        }
    }

    /// `outcome` for the calls of `operation` the action's `host` and `port` accept, named by its canonical text.
    static func rule(
        _ outcome: SystemNetOutcome, on operation: SystemNetCall.Operation, _ action: BoundAction,
        _ context: ActionContext
    ) throws(SpecError) -> NetRule {
        let label = action.canonicalTerm.description
        let matches = try matcher(on: operation, action, context)
        var ruled = outcome
        ruled.rule = label
        return .match([NetRule.Rule(matches, NetRule.constant(ruled).labelled(label))])
    }

    /// Which calls the action takes: those of `operation` whose host and port its arguments accept.
    static func matcher(
        on operation: SystemNetCall.Operation, _ action: BoundAction, _ context: ActionContext
    ) throws(SpecError) -> @Sendable (SystemNetCall) -> Bool {
        let host = action.string("host")
        let port = action.integer("port")
        if let port, !(1...65_535).contains(port) {
            throw context.error("a port is between 1 and 65535, got \(port)", argument: "port", of: action)
        }
        if let host, let problem = problem(withHost: host) {
            throw context.error(problem, argument: "host", of: action)
        }
        return { call in
            call.operation == operation && (host.map(call.matches(host:)) ?? true)
                && (port.map { call.port == $0 } ?? true)
        }
    }

    /// What is wrong with a `host` pattern, in words that say how to write it; nil when it is a name, a numeric
    /// address, `*`, or `*.` and a domain.
    static func problem(withHost pattern: String) -> String? {
        let example = #"write a name ("api.example.com"), a domain's subdomains ("*.example.com"), or an address"#
        if pattern.isEmpty { return "give a host, or leave 'host' out for every host" }
        if pattern.contains("://") || pattern.hasPrefix("/") {
            return "'\(pattern)' is a URL, not a host: \(example)"
        }
        if pattern.contains(where: \.isWhitespace) { return "a host has no spaces, got \"\(pattern)\"; \(example)" }
        if pattern.contains("/") {
            return "'\(pattern)' looks like a CIDR range, which host does not take: \(example)"
        }
        if pattern == "*" || isNumeric(pattern) { return nil }
        if pattern.contains(":") {
            let parts = pattern.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, let port = Int(parts[1]), !parts[0].isEmpty {
                return "give the port on its own, as in host: \"\(parts[0])\", port: \(port)"
            }
            return "'\(pattern)' is neither a name nor a numeric address; \(example)"
        }
        let rest = pattern.hasPrefix("*.") ? pattern.dropFirst(2) : Substring(pattern)
        if rest.isEmpty || rest.contains("*") {
            return "'*' stands for any host (\"*\") or the subdomains of a domain (\"*.example.com\"), got "
                + "\"\(pattern)\""
        }
        return nil
    }

    /// Whether `address` is a numeric IPv4 or IPv6 address.
    static func isNumeric(_ address: String) -> Bool {
        var scratch = in6_addr()
        return inet_pton(AF_INET, address, &scratch) == 1 || inet_pton(AF_INET6, address, &scratch) == 1
    }
}
