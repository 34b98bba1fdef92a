import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as network rules see it: method, URL, headers and body.
///
/// The input of ``ChaosNetwork/seam``. ``MischiefURLProtocol`` makes one from each `URLRequest`; clients other than
/// URLSession make their own:
/// ```swift
/// let request = NetworkRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: json)
/// let response = ChaosNetwork.shared.decide(request)
/// ```
public struct NetworkRequest: Hashable, Sendable, CustomStringConvertible {
    /// The HTTP method in upper case, such as `GET`.
    public var method: String
    /// The URL requested.
    public var url: URL
    /// The header fields, as sent. Look names up with ``header(_:)``, which ignores case.
    public var headers: [String: String]
    /// The body, when the request has one in memory.
    public var body: Data?

    /// Makes a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; stored in upper case.
    ///   - url: The URL.
    ///   - headers: The header fields.
    ///   - body: The body, if any.
    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Makes a request from a `URLRequest`: its method (`GET` when unset), URL, header fields and `httpBody`.
    ///
    /// A request without a URL gets `about:blank`, which no rule with a URL, host or path matches.
    public init(_ request: URLRequest) {
        self.init(
            method: request.httpMethod ?? "GET", url: request.url ?? URL(string: "about:blank")!,
            headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody)
    }

    /// The value of the header field `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The method and URL, as the event log shows them: `GET https://api.example.com/weather`.
    public var description: String { "\(method) \(url.absoluteString)" }
}
